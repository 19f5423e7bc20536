/// What the tree.json reader asks of a JSON value; both a parsed `JSONValue` and a `JSONTapeNode`
/// (a value of a tape, read without building dictionaries) answer it.
protocol JSONNode: SendableMetatype {
    var isNull: Bool { get }
    var isObject: Bool { get }
    var stringValue: String? { get }
    var numberLiteral: String? { get }
    var boolValue: Bool? { get }
    /// The elements, when this is an array.
    var elements: [Self]? { get }
    /// The value of `key`, when this is an object that has it.
    subscript(key: String) -> Self? { get }
    /// A short name of the value's kind, for messages ("a string", "an array").
    var kindDescription: String { get }
    /// The `KeySignature` of an object's keys: a key whose bit is clear is not there.
    var keySignature: UInt64 { get }
}

/// A 64-bit summary of an object's keys, one bit a key (by its length and end bytes): a reader
/// that asks an object for many optional fields skips the search for most of those it lacks.
enum KeySignature {
    /// Every bit: any key may be there.
    static let unknown = UInt64.max

    static func bit(of key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bit(of: $0) }
    }

    static func bit(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let first = bytes.first, let last = bytes.last else { return 1 }
        return 1 << UInt64((bytes.count &* 7 &+ Int(first) &+ Int(last) &* 3) & 63)
    }
}

extension JSONNode {
    /// The number as a `Double`, when this is a number.
    var numberValue: Double? { numberLiteral.flatMap(Double.init) }
}

extension JSONValue: JSONNode {
    var isNull: Bool { self == .null }
    var isObject: Bool { if case .object = self { true } else { false } }
    var numberLiteral: String? { if case .number(let literal) = self { literal } else { nil } }
    var boolValue: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var elements: [JSONValue]? { arrayValue }
    var keySignature: UInt64 { KeySignature.unknown }
}

extension JSONTapeNode: JSONNode {
    var isNull: Bool { kind == .null }
    var isObject: Bool { kind == .object }
    var kindDescription: String { kind.description }
}
