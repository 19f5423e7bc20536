/// A JSON document together with where its records stand in the source text.
public struct JSONDocument: Sendable {
    /// The parsed value.
    public var root: JSONValue
    /// For each top-level key whose value is an array, the location of each element.
    ///
    /// Validation uses this to say "members[3] (line 42)" rather than only an id.
    public var elementLocations: [String: [SourceLocation]]
    /// Keys written twice in one object, where the second stands (JSON leaves the meaning of a
    /// repeated key open; a reader that silently took one would lose the other).
    public var duplicateKeys: [DuplicateKey] = []

    /// A key repeated in one object: the key, its path (`members[3].firstName`) and where it is
    /// written again.
    public struct DuplicateKey: Sendable, Hashable {
        /// The key written twice.
        public var key: String
        /// The path of the object that holds it.
        public var path: String
        /// Where the second occurrence is.
        public var location: SourceLocation
    }
}

/// An error in the JSON syntax of a file, with the place it was found.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the text stops being JSON.
    public var location: SourceLocation
    /// What is wrong there, in words.
    public var reason: String

    public var description: String { "\(location): \(reason)" }
}

/// A strict RFC 8259 parser that records locations; it never traps on bad input.
public enum JSONParser {
    /// Parses `bytes` (UTF-8, an optional byte-order mark is skipped).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        var scanner = Scanner(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        scanner.skipWhitespace()
        let root = try scanner.parseValue(depth: 0)
        scanner.skipWhitespace()
        if scanner.index < bytes.count {
            throw scanner.error("unexpected text after the end of the JSON value")
        }
        var locations: [String: [SourceLocation]] = [:]
        for (key, offsets) in scanner.topLevelElementOffsets {
            locations[key] = scanner.locations(ofAscendingOffsets: offsets)
        }
        let duplicateLocations = scanner.locations(ofAscendingOffsets: scanner.duplicateKeys.map(\.offset))
        let duplicates = zip(scanner.duplicateKeys, duplicateLocations).map { JSONDocument.DuplicateKey(key: $0.key, path: $0.path, location: $1) }
        return JSONDocument(root: root, elementLocations: locations, duplicateKeys: duplicates)
    }

    /// Parses a UTF-8 string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
        try parse(Array(text.utf8))
    }
}

private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    /// Byte offsets of the elements of top-level arrays, keyed by the top-level key.
    var topLevelElementOffsets: [String: [Int]] = [:]
    /// Keys repeated in an object: their path and the offset of the repeat.
    var duplicateKeys: [(key: String, path: String, offset: Int)] = []
    private var currentTopLevelKey: String?

    init(bytes: [UInt8]) { self.bytes = bytes }

    static let maximumDepth = InputLimits.jsonDepth

    /// Offsets of the first byte of every line after the first, built on first use.
    private lazy var lineStarts: [Int] = {
        var starts: [Int] = []
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        return starts
    }()

    mutating func location(ofOffset offset: Int) -> SourceLocation {
        // Binary search for the number of line starts at or before `offset`.
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let lineStart = low == 0 ? 0 : lineStarts[low - 1]
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        for byte in bytes[lineStart..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(line: low + 1, column: column)
    }

    /// The locations of ascending offsets in one pass: a minified file (one long line) must not
    /// count each element's column from the start of the line again.
    func locations(ofAscendingOffsets offsets: [Int]) -> [SourceLocation] {
        var result: [SourceLocation] = []
        result.reserveCapacity(offsets.count)
        var line = 1
        var column = 1
        var position = 0
        for offset in offsets {
            let end = min(offset, bytes.count)
            while position < end {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                position += 1
            }
            result.append(SourceLocation(line: line, column: column))
        }
        return result
    }

    mutating func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(location: location(ofOffset: offset ?? index), reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Scanner.maximumDepth else { throw error("nesting deeper than \(Scanner.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("invalid literal, expected '\(literal)'", at: start)
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(index < bytes.count ? "expected a quoted key" : "unexpected end of file inside an object")
            }
            let keyOffset = index
            let key = try parseString()
            if fields[key] != nil {
                var path = key
                if depth == 2, let topLevelKey = currentTopLevelKey, let count = topLevelElementOffsets[topLevelKey]?.count {
                    path = "\(topLevelKey)[\(count - 1)].\(key)"
                }
                duplicateKeys.append((key, path, keyOffset))
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            if depth == 0 { currentTopLevelKey = key }
            fields[key] = try parseValue(depth: depth + 1)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(fields)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        let recordingKey = depth == 1 ? currentTopLevelKey : nil
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if let recordingKey { topLevelElementOffsets[recordingKey, default: []].append(index) }
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        switch JSONGrammar.numberEnd(in: bytes, from: start) {
        case .success(let end):
            index = end
            return String(decoding: bytes[start..<end], as: UTF8.self)
        case .failure(let problem):
            throw error(problem.message, at: start)
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var runStart = index
        var result = ""
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let tail = try validatedUTF8(runStart..<index)
                index += 1
                return result.isEmpty ? tail : result + tail
            case UInt8(ascii: "\\"):
                result += try validatedUTF8(runStart..<index)
                index += 1
                result.unicodeScalars.append(try parseEscape())
                runStart = index
            case 0x00..<0x20:
                let hex = String(byte, radix: 16, uppercase: true)
                throw error("control character in a string (escape it as \\u00\(hex.count == 1 ? "0" : "")\(hex))")
            default:
                index += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    private mutating func validatedUTF8(_ range: Range<Int>) throws(JSONSyntaxError) -> String {
        // ASCII (most ids, names and dates) needs no validation.
        if !bytes[range].contains(where: { $0 >= 0x80 }) { return String(decoding: bytes[range], as: UTF8.self) }
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw error("invalid UTF-8 in a string", at: range.lowerBound)
        }
        return text
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid UTF-16 surrogate pair in \\u escape") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
            return scalar
        default:
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'", at: index - 2)
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        guard let value = JSONGrammar.hex4(in: bytes, at: index) else { throw error("invalid hex digit in \\u escape") }
        index += 4
        return value
    }
}
