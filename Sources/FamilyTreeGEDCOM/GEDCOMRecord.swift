/// One GEDCOM structure: a tag with its value and substructures, and the line it starts on.
/// CONC and CONT lines are already joined into `value`.
struct GEDCOMRecord {
    var tag: String
    var xref: String?
    var value: String
    var line: Int
    var children: [GEDCOMRecord] = []

    func first(_ tag: String) -> GEDCOMRecord? { children.first { $0.tag == tag } }
    func all(_ tag: String) -> [GEDCOMRecord] { children.filter { $0.tag == tag } }

    /// The xref a pointer value names (`@I1@` gives `I1`); nil for `@VOID@` and non-pointers.
    var pointer: String? {
        let trimmed = value.trimmingSpaces
        guard trimmed.count > 2, trimmed.hasPrefix("@"), trimmed.hasSuffix("@"), trimmed.uppercased() != "@VOID@" else { return nil }
        return String(trimmed.dropFirst().dropLast())
    }
}

/// Splits GEDCOM text into records; malformed lines are skipped with a warning naming the line.
enum GEDCOMParser {
    struct Parsed {
        var records: [GEDCOMRecord]
        var warnings: [(line: Int, message: String)]
    }

    static func parse(_ text: String) -> Parsed {
        var roots: [GEDCOMRecord] = []
        var stack: [GEDCOMRecord] = []
        var warnings: [(Int, String)] = []
        func close(to level: Int) {
            while stack.count > level {
                let done = stack.removeLast()
                if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].children.append(done) }
            }
        }
        var lineNumber = 0
        // CR, LF and CRLF all end a line (CRLF is one Character in Swift).
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            if line.isEmpty { continue }
            guard let parsed = parseLine(line) else {
                warnings.append((lineNumber, "not a GEDCOM line: \"\(line.prefix(60))\""))
                continue
            }
            guard parsed.level <= stack.count else {
                warnings.append((lineNumber, "level \(parsed.level) skips a level; line ignored"))
                continue
            }
            if parsed.tag == "CONC" || parsed.tag == "CONT", parsed.level > 0, stack.count >= parsed.level {
                close(to: parsed.level)
                stack[stack.count - 1].value += (parsed.tag == "CONT" ? "\n" : "") + parsed.value
                continue
            }
            close(to: parsed.level)
            stack.append(GEDCOMRecord(tag: parsed.tag, xref: parsed.xref, value: parsed.value, line: lineNumber))
        }
        close(to: 0)
        return Parsed(records: roots, warnings: warnings)
    }

    /// `level [@xref@] TAG [value]`, with `@@` in values standing for `@`.
    static func parseLine(_ line: Substring) -> (level: Int, xref: String?, tag: String, value: String)? {
        var rest = line
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 2, let level = Int(digits) else { return nil }
        rest = rest.dropFirst(digits.count)
        guard rest.first == " " else { return nil }
        rest = rest.drop { $0 == " " }
        var xref: String?
        if rest.first == "@" {
            guard let end = rest.dropFirst().firstIndex(of: "@") else { return nil }
            xref = String(rest[rest.index(after: rest.startIndex)..<end])
            rest = rest[rest.index(after: end)...].drop { $0 == " " }
        }
        let tag = rest.prefix { $0 != " " }
        guard !tag.isEmpty else { return nil }
        rest = rest.dropFirst(tag.count)
        if rest.first == " " { rest = rest.dropFirst() }
        var value = String(rest)
        if value.contains("@@") { value = value.replacingAll("@@", with: "@") }
        return (level, xref, tag.uppercased(), value)
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension Substring {
    /// The first range of `target` (a plain, non-empty string).
    func range(of target: String) -> Range<Index>? {
        guard let first = target.first else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index] == first, self[index...].hasPrefix(target) {
                return index..<self.index(index, offsetBy: target.count)
            }
            index = self.index(after: index)
        }
        return nil
    }
}
