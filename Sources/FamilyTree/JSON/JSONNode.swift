/// What the tree.json reader asks of a JSON value; both a parsed `JSONValue` and a `JSONTapeNode`
/// (a value of a tape, read without building dictionaries) answer it.
protocol JSONNode {
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
}

extension JSONTapeNode: JSONNode {
    var isNull: Bool { kind == .null }
    var isObject: Bool { kind == .object }
    var kindDescription: String { kind.description }
}
