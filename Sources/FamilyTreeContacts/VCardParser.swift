import FamilyTree

/// Something in a vCard file that was skipped or read with a guess, with the line it is on.
public struct VCardWarning: Sendable, Hashable, CustomStringConvertible {
    /// The line the warning is about.
    public var line: Int
    /// The warning in words.
    public var message: String

    /// A warning about `line`.
    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

/// Reads vCard 2.1, 3.0 and 4.0 files: folded lines, quoted-printable (with its soft line breaks)
/// and base64 values, UTF-8 or UTF-16 files, and the charsets 2.1 declares per property.
///
/// Never fails: what cannot be read costs a warning and is left out.
public struct VCardParser {
    /// What the parser skipped or could not read, in order.
    public private(set) var warnings: [VCardWarning] = []

    /// A parser with no warnings yet.
    public init() {}

    /// Whether `bytes` start like a vCard file (`BEGIN:VCARD`, in any case, after blank lines or a byte-order mark).
    public static func looksLikeVCard(_ bytes: [UInt8]) -> Bool {
        let text = utf8Bytes(Array(bytes.prefix(64))).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return String(decoding: text.prefix(11), as: UTF8.self).uppercased() == "BEGIN:VCARD"
    }

    /// The cards in `bytes`, in file order.
    public mutating func parse(_ bytes: [UInt8]) -> [VCard] {
        var cards: [VCard] = []
        var current: VCard?
        var nestedDepth = 0
        var currentBytes = 0
        for line in Self.logicalLines(Self.utf8Bytes(bytes)) {
            guard let property = parseProperty(line) else { continue }
            if property.name == "BEGIN", property.rawValue.uppercased() == "VCARD" {
                if current != nil {
                    // vCard 2.1's AGENT may embed a whole card: it is not a family member of its own.
                    nestedDepth += 1
                } else {
                    current = VCard(line: line.number)
                    currentBytes = 0
                }
                continue
            }
            if property.name == "END", property.rawValue.uppercased() == "VCARD" {
                if nestedDepth > 0 {
                    nestedDepth -= 1
                } else if let card = current {
                    cards.append(card)
                    current = nil
                } else {
                    warnings.append(VCardWarning(line: line.number, "END:VCARD without a BEGIN:VCARD"))
                }
                continue
            }
            guard nestedDepth == 0 else { continue }
            if current != nil {
                currentBytes += line.bytes.count
                if currentBytes > InputLimits.vCardBytes {
                    if currentBytes - line.bytes.count <= InputLimits.vCardBytes {
                        warnings.append(VCardWarning(line: line.number, "the card is larger than \(InputLimits.describe(InputLimits.vCardBytes)); the rest of it is skipped"))
                    }
                    continue
                }
            }
            guard current != nil else {
                warnings.append(VCardWarning(line: line.number, "\(property.name) outside any card: skipped"))
                continue
            }
            if property.name == "VERSION" { current?.version = property.rawValue.trimmingSpaces }
            current?.properties.append(property)
        }
        if let card = current {
            warnings.append(VCardWarning(line: card.line, "the card that starts here has no END:VCARD; read to the end of the file"))
            cards.append(card)
        }
        return cards
    }

    // MARK: Lines

    struct LogicalLine {
        var bytes: [UInt8]
        var number: Int
    }

    /// UTF-8 bytes of the file: a UTF-16 file (by its byte-order mark, or the zero bytes of
    /// `BEGIN`) is re-encoded, a UTF-8 byte-order mark dropped.
    static func utf8Bytes(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xFF, 0xFE]) { return Array(TextDecoding.utf16(bytes.dropFirst(2), bigEndian: false).utf8) }
        if bytes.starts(with: [0xFE, 0xFF]) { return Array(TextDecoding.utf16(bytes.dropFirst(2), bigEndian: true).utf8) }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "B"), bytes[1] == 0 { return Array(TextDecoding.utf16(bytes[...], bigEndian: false).utf8) }
        if bytes.count >= 2, bytes[0] == 0, bytes[1] == UInt8(ascii: "B") { return Array(TextDecoding.utf16(bytes[...], bigEndian: true).utf8) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        return bytes
    }

    /// Physical lines (CR, LF or CRLF) joined into logical ones: a line starting with a space or
    /// tab continues the one before (that one character dropped), and so does any line after a
    /// quoted-printable value ending in `=` (a soft line break).
    static func logicalLines(_ bytes: [UInt8]) -> [LogicalLine] {
        var lines: [LogicalLine] = []
        // The line being joined is kept apart, so each continuation appends in place (no copy of
        // the line so far), and whether it is quoted-printable is decided once its colon is seen.
        var current: LogicalLine?
        var currentIsQuotedPrintable: Bool?
        func add(_ physical: ArraySlice<UInt8>, at lineNumber: Int) {
            if current != nil, current!.bytes.last == UInt8(ascii: "=") {
                if currentIsQuotedPrintable == nil, current!.bytes.contains(UInt8(ascii: ":")) {
                    currentIsQuotedPrintable = isQuotedPrintable(current!.bytes)
                }
                if currentIsQuotedPrintable == true {
                    current!.bytes.removeLast()
                    current!.bytes += physical
                    return
                }
            }
            if let first = physical.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), current != nil {
                current!.bytes += physical.dropFirst()
            } else if !physical.isEmpty {
                if let finished = current { lines.append(finished) }
                current = LogicalLine(bytes: Array(physical), number: lineNumber)
                currentIsQuotedPrintable = physical.contains(UInt8(ascii: ":")) ? isQuotedPrintable(current!.bytes) : nil
            }
        }
        var number = 1
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                add(bytes[start..<index], at: number)
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                number += 1
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count { add(bytes[start...], at: number) }
        if let finished = current { lines.append(finished) }
        return lines
    }

    /// Whether the line's name part declares quoted-printable (`;ENCODING=QUOTED-PRINTABLE` or 2.1's bare form).
    static func isQuotedPrintable(_ line: [UInt8]) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let marker = Array("QUOTED-PRINTABLE".utf8)
        let head = line[..<colon].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        guard head.count >= marker.count else { return false }
        return (0...(head.count - marker.count)).contains { start in head[start..<(start + marker.count)].elementsEqual(marker) }
    }

    // MARK: Properties

    private mutating func parseProperty(_ line: LogicalLine) -> VCardProperty? {
        // The name part ends at the first colon outside double quotes.
        var inQuotes = false
        var colon: Int?
        for (position, byte) in line.bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
            if byte == UInt8(ascii: ":"), !inQuotes { colon = position; break }
        }
        guard let colon else {
            warnings.append(VCardWarning(line: line.number, "no colon between name and value: skipped"))
            return nil
        }
        let head = String(decoding: line.bytes[..<colon], as: UTF8.self)
        var segments = Self.splitOutsideQuotes(head, at: ";")
        let nameSegment = segments.removeFirst().trimmingSpaces
        var group: String?
        var name = nameSegment
        if let dot = nameSegment.lastIndex(of: ".") {
            group = String(nameSegment[..<dot])
            name = String(nameSegment[nameSegment.index(after: dot)...])
        }
        guard !name.isEmpty else {
            warnings.append(VCardWarning(line: line.number, "a property without a name: skipped"))
            return nil
        }
        var parameters: [VCardParameter] = []
        for segment in segments where !segment.isEmpty {
            if let equals = segment.firstIndex(of: "=") {
                let parameterName = segment[..<equals].trimmingSpaces.uppercased()
                var value = segment[segment.index(after: equals)...].trimmingSpaces
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                let values = parameterName == "TYPE" ? Self.splitOutsideQuotes(value, at: ",") : [value]
                for value in values where !value.isEmpty { parameters.append(VCardParameter(name: parameterName, value: value)) }
            } else {
                // vCard 2.1 writes parameter values alone: `TEL;HOME;VOICE`, `;QUOTED-PRINTABLE`.
                let bare = segment.trimmingSpaces
                let upper = bare.uppercased()
                if ["QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT", "B"].contains(upper) {
                    parameters.append(VCardParameter(name: "ENCODING", value: bare))
                } else {
                    parameters.append(VCardParameter(name: "TYPE", value: bare))
                }
            }
        }
        let value = decodeValue(line.bytes[(colon + 1)...], parameters: parameters, line: line.number)
        return VCardProperty(group: group, name: name.uppercased(), parameters: parameters, rawValue: value, line: line.number)
    }

    private mutating func decodeValue(_ bytes: ArraySlice<UInt8>, parameters: [VCardParameter], line: Int) -> String {
        let encoding = parameters.last { $0.name == "ENCODING" }?.value.uppercased()
        if encoding == "B" || encoding == "BASE64" {
            // Kept as written, without the spaces folding left in it.
            return String(decoding: bytes.filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self)
        }
        var raw = Array(bytes)
        if encoding == "QUOTED-PRINTABLE" { raw = Self.decodeQuotedPrintable(raw) }
        let charset = parameters.last { $0.name == "CHARSET" }?.value.uppercased()
        switch charset {
        case nil, "UTF-8", "UTF8", "US-ASCII", "ASCII":
            if let text = String(validating: raw, as: UTF8.self) { return text }
            if charset != nil { warnings.append(VCardWarning(line: line, "declared \(charset!) but is not: read as Windows-1252")) }
            return TextDecoding.windows1252(raw)
        case "ISO-8859-1", "LATIN1", "ISO8859-1":
            return TextDecoding.latin1(raw)
        case "WINDOWS-1252", "CP1252":
            return TextDecoding.windows1252(raw)
        case let other?:
            warnings.append(VCardWarning(line: line, "charset \(other) is not supported: read as UTF-8, else Windows-1252"))
            return TextDecoding.utf8OrWindows1252(raw)
        }
    }

    /// `=C3=A4` is the byte 0xC3 then 0xA4; a malformed escape is kept as written.
    static func decodeQuotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    static func splitOutsideQuotes(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        for character in text {
            if character == "\"" { inQuotes.toggle() }
            if character == separator, !inQuotes {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}
