/// A JSON document as one flat list of entries over its bytes: no dictionary and no string is made
/// until a reader asks for a value, so reading a large tree.json costs a pass over its bytes.
///
/// It accepts exactly what `JSONParser` accepts, and gives up (returns `nil`) on anything else,
/// including a key written twice: the caller then runs `JSONParser`, which says what is wrong and
/// where. An object's entries are its keys and values in turn; a container's `end` is the index of
/// the entry after everything inside it.
package final class JSONTape {
    package enum Kind: UInt8 {
        case null, bool, number, string, array, object

        /// A short name of the kind, for messages ("a string", "an array").
        var description: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// One value: a scalar's bytes (a string's without its quotes), or a container's opening byte
    /// and the index of the entry after its contents.
    struct Entry {
        var start: UInt32
        var end: UInt32
        var kind: Kind
        /// A string with a backslash in it (its value must be decoded), or a `true`.
        var flag: Bool
    }

    let bytes: [UInt8]
    let entries: [Entry]
    /// Byte offsets of the elements of each array directly under the root object, by its key.
    let topLevelElementOffsets: [String: [Int]]

    /// The tape of `bytes`, or `nil` when they are not JSON `JSONParser` would read without a
    /// duplicate key (or are too large to index with 32 bits).
    package init?(_ bytes: [UInt8]) {
        guard bytes.count < Int(UInt32.max) else { return nil }
        var entries: [Entry] = []
        var topLevel: [String: [Int]] = [:]
        entries.reserveCapacity(bytes.count / 8)
        var scanner = TapeScanner(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        scanner.skipWhitespace()
        guard scanner.value(depth: 0, into: &entries, topLevel: &topLevel) else { return nil }
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { return nil }
        self.bytes = bytes
        self.entries = entries
        topLevelElementOffsets = topLevel
    }

    /// Calls `body` with the root value; nodes are views of this tape and must not escape `body`.
    package func withRoot<Result>(_ body: (JSONTapeNode) -> Result) -> Result {
        entries.withUnsafeBufferPointer { entries in
            bytes.withUnsafeBufferPointer { bytes in body(JSONTapeNode(entries: entries, bytes: bytes, index: 0)) }
        }
    }

    /// The line of each byte offset, for offsets in ascending order, in one pass.
    func lines(ofAscendingOffsets offsets: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(offsets.count)
        var line = 1
        var position = 0
        bytes.withUnsafeBufferPointer { buffer in
            for offset in offsets {
                let end = min(offset, buffer.count)
                if end > position {
                    line += Self.lineBreaks(in: UnsafeBufferPointer(rebasing: buffer[position..<end]))
                    position = end
                }
                result.append(line)
            }
        }
        return result
    }

    /// The `\n` bytes in `bytes`; branch-free, so the compiler vectorises it.
    static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes { count &+= byte == UInt8(ascii: "\n") ? 1 : 0 }
        return count
    }
}

/// Checks the bytes as `JSONParser`'s scanner does and records entries; `false` on anything it
/// would refuse or report.
private struct TapeScanner {
    let bytes: [UInt8]
    var index = 0

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int, into entries: inout [JSONTape.Entry], topLevel: inout [String: [Int]], key: String? = nil) -> Bool {
        guard depth < InputLimits.jsonDepth, index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth, into: &entries, topLevel: &topLevel)
        case UInt8(ascii: "["): return array(depth: depth, into: &entries, topLevel: &topLevel, key: key)
        case UInt8(ascii: "\""): return string(into: &entries)
        case UInt8(ascii: "t"): return literal("true", .bool, flag: true, into: &entries)
        case UInt8(ascii: "f"): return literal("false", .bool, flag: false, into: &entries)
        case UInt8(ascii: "n"): return literal("null", .null, flag: false, into: &entries)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number(into: &entries)
        default: return false
        }
    }

    private mutating func literal(_ text: StaticString, _ kind: JSONTape.Kind, flag: Bool, into entries: inout [JSONTape.Entry]) -> Bool {
        let start = index
        for expected in UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == expected else { return false }
            index += 1
        }
        entries.append(JSONTape.Entry(start: UInt32(start), end: UInt32(index), kind: kind, flag: flag))
        return true
    }

    private mutating func object(depth: Int, into entries: inout [JSONTape.Entry], topLevel: inout [String: [Int]]) -> Bool {
        let position = entries.count
        entries.append(JSONTape.Entry(start: UInt32(index), end: 0, kind: .object, flag: false))
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            entries[position].end = UInt32(entries.count)
            return true
        }
        // The keys so far as a `KeySignature`: a new key is compared with the earlier ones only
        // when its bit is already set, so most objects are checked without a comparison.
        var signature: UInt64 = 0
        var sawEscapedKey = false
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string(into: &entries) else { return false }
            let key = entries.count - 1
            // A key written twice is JSONParser's to report. Escaped keys could spell the same text
            // differently: an object with one among others goes to JSONParser (rare, always right).
            if entries[key].flag { sawEscapedKey = true }
            if sawEscapedKey, key != position + 1 { return false }
            let bit = bytes.withUnsafeBufferPointer { KeySignature.bit(of: UnsafeBufferPointer(rebasing: $0[Int(entries[key].start)..<Int(entries[key].end)])) }
            if signature & bit != 0, Self.repeatsAnEarlierKey(key, objectAt: position, in: entries, bytes: bytes) { return false }
            signature |= bit
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            // A top-level key with escapes is left to JSONParser, which records its arrays' lines.
            if depth == 0, entries[key].flag { return false }
            let name: String? = depth == 0 ? Self.text(of: entries[key], in: bytes) : nil
            guard value(depth: depth + 1, into: &entries, topLevel: &topLevel, key: name) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                entries[position].end = UInt32(entries.count)
                return true
            default: return false
            }
        }
    }

    private mutating func array(depth: Int, into entries: inout [JSONTape.Entry], topLevel: inout [String: [Int]], key: String?) -> Bool {
        let position = entries.count
        entries.append(JSONTape.Entry(start: UInt32(index), end: 0, kind: .array, flag: false))
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            entries[position].end = UInt32(entries.count)
            return true
        }
        var offsets: [Int] = []
        while true {
            skipWhitespace()
            if key != nil { offsets.append(index) }
            guard value(depth: depth + 1, into: &entries, topLevel: &topLevel) else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                entries[position].end = UInt32(entries.count)
                if let key { topLevel[key] = offsets }
                return true
            default: return false
            }
        }
    }

    private mutating func number(into entries: inout [JSONTape.Entry]) -> Bool {
        guard case .success(let end) = JSONGrammar.numberEnd(in: bytes, from: index) else { return false }
        entries.append(JSONTape.Entry(start: UInt32(index), end: UInt32(end), kind: .number, flag: false))
        index = end
        return true
    }

    private mutating func string(into entries: inout [JSONTape.Entry]) -> Bool {
        index += 1
        let start = index
        var escaped = false
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // Non-ASCII text must be valid UTF-8, as JSONParser requires.
                if !ascii, !Self.isValidUTF8(bytes, start..<index) { return false }
                entries.append(JSONTape.Entry(start: UInt32(start), end: UInt32(index), kind: .string, flag: escaped))
                index += 1
                return true
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                guard escape() else { return false }
                continue
            }
            if byte < 0x20 { return false }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        return false
    }

    /// Checks one escape at `index` (a backslash) and moves past it.
    private mutating func escape() -> Bool {
        guard index + 1 < bytes.count else { return false }
        let byte = bytes[index + 1]
        index += 2
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard let high = hex4() else { return false }
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return false }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return false }
                return true
            }
            return Unicode.Scalar(high) != nil
        default:
            return false
        }
    }

    private mutating func hex4() -> UInt32? {
        guard let value = JSONGrammar.hex4(in: bytes, at: index) else { return nil }
        index += 4
        return value
    }

    static func isValidUTF8(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        // The standard library's validation, as JSONParser uses; escapes are ASCII, so a run with
        // them validates the same.
        String(validating: bytes[range], as: UTF8.self) != nil
    }

    static func text(of entry: JSONTape.Entry, in bytes: [UInt8]) -> String {
        String(decoding: bytes[Int(entry.start)..<Int(entry.end)], as: UTF8.self)
    }

    /// Whether the key at `key` repeats one before it in the object whose entry is at `object`.
    static func repeatsAnEarlierKey(_ key: Int, objectAt object: Int, in entries: [JSONTape.Entry], bytes: [UInt8]) -> Bool {
        var position = object + 1
        while position < key {
            if sameString(entries[position], entries[key], in: bytes) { return true }
            // Past the key's value, nested containers and all.
            let value = entries[position + 1]
            position = value.kind == .array || value.kind == .object ? Int(value.end) : position + 2
        }
        return false
    }

    static func sameString(_ first: JSONTape.Entry, _ second: JSONTape.Entry, in bytes: [UInt8]) -> Bool {
        let length = Int(first.end - first.start)
        guard length == Int(second.end - second.start) else { return false }
        return bytes[Int(first.start)..<Int(first.end)].elementsEqual(bytes[Int(second.start)..<Int(second.end)])
    }
}

/// One value of a `JSONTape`: a view of its entries and bytes, valid inside `JSONTape.withRoot`.
package struct JSONTapeNode {
    let entries: UnsafeBufferPointer<JSONTape.Entry>
    let bytes: UnsafeBufferPointer<UInt8>
    let index: Int

    private var entry: JSONTape.Entry { entries[index] }

    package var kind: JSONTape.Kind { entry.kind }

    private func node(_ index: Int) -> JSONTapeNode { JSONTapeNode(entries: entries, bytes: bytes, index: index) }

    /// The index of the entry after this value and everything inside it.
    private var after: Int { entry.kind == .array || entry.kind == .object ? Int(entry.end) : index + 1 }

    /// The value of `key`, when this is an object that has it.
    package subscript(key: String) -> JSONTapeNode? {
        guard entry.kind == .object else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            var position = index + 1
            let end = Int(entry.end)
            while position < end {
                let value = node(position + 1)
                if node(position).isString(equalTo: wanted) { return value }
                position = value.after
            }
            return nil
        }
    }

    /// The `KeySignature` of this object's keys (`unknown` when a key has escapes, whose bytes
    /// are not its text).
    var keySignature: UInt64 {
        guard entry.kind == .object else { return 0 }
        var signature: UInt64 = 0
        var position = index + 1
        let end = Int(entry.end)
        while position < end {
            let key = entries[position]
            if key.flag { return KeySignature.unknown }
            signature |= KeySignature.bit(of: UnsafeBufferPointer(rebasing: bytes[Int(key.start)..<Int(key.end)]))
            position = node(position + 1).after
        }
        return signature
    }

    /// The elements, when this is an array.
    package var elements: [JSONTapeNode]? {
        guard entry.kind == .array else { return nil }
        var result: [JSONTapeNode] = []
        var position = index + 1
        let end = Int(entry.end)
        while position < end {
            let element = node(position)
            result.append(element)
            position = element.after
        }
        return result
    }

    package var stringValue: String? {
        guard entry.kind == .string else { return nil }
        return entry.flag ? decoded : String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
    }

    package var numberLiteral: String? {
        guard entry.kind == .number else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
    }

    package var boolValue: Bool? { entry.kind == .bool ? entry.flag : nil }

    /// Whether this is a string whose text is `wanted`, without making a `String` of it.
    private func isString(equalTo wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entry
        guard entry.kind == .string else { return false }
        if entry.flag { return Array(decoded.utf8).elementsEqual(wanted) }
        let length = Int(entry.end - entry.start)
        guard length == wanted.count else { return false }
        var offset = Int(entry.start)
        for byte in wanted {
            guard bytes[offset] == byte else { return false }
            offset += 1
        }
        return true
    }

    /// A string with escapes (already checked by the scanner) decoded.
    private var decoded: String {
        let entry = entry
        var result = ""
        var index = Int(entry.start)
        let end = Int(entry.end)
        var runStart = index
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for byte in bytes[at..<at + 4] {
                value = value << 4 | UInt32(byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10)
            }
            return value
        }
        while index < end {
            guard bytes[index] == UInt8(ascii: "\\") else { index += 1; continue }
            result += text(runStart..<index)
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): result.unicodeScalars.append("\u{08}")
            case UInt8(ascii: "f"): result.unicodeScalars.append("\u{0C}")
            case UInt8(ascii: "n"): result.unicodeScalars.append("\n")
            case UInt8(ascii: "r"): result.unicodeScalars.append("\r")
            case UInt8(ascii: "t"): result.unicodeScalars.append("\t")
            case UInt8(ascii: "u"):
                let high = hex4(index)
                index += 4
                if (0xD800..<0xDC00).contains(high) {
                    let low = hex4(index + 2)
                    index += 6
                    result.unicodeScalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!)
                } else {
                    result.unicodeScalars.append(Unicode.Scalar(high)!)
                }
            default: result.unicodeScalars.append(Unicode.Scalar(escape))
            }
            runStart = index
        }
        return result + text(runStart..<end)
    }
}
