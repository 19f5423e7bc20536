import FamilyTree

/// One GEDCOM structure: a tag with its value and substructures, and the line it starts on.
/// CONC and CONT lines are already joined into `value`.
struct GEDCOMRecord: Sendable {
    var tag: String
    var xref: String?
    var value: String
    var line: Int
    var children: [GEDCOMRecord] = []
    /// Whether the value was written with `@@` for `@`: text that only looks like a pointer.
    var isEscapedText = false

    func first(_ tag: String) -> GEDCOMRecord? { children.first { $0.tag == tag } }
    func all(_ tag: String) -> [GEDCOMRecord] { children.filter { $0.tag == tag } }
    /// How many substructures have `tag`.
    func count(_ tag: String) -> Int { children.count { $0.tag == tag } }

    /// The same record with its line, and its substructures' lines, `count` further on.
    mutating func shiftLines(by count: Int) {
        line += count
        for index in children.indices { children[index].shiftLines(by: count) }
    }

    /// The xref a pointer value names (`@I1@` gives `I1`); nil for `@VOID@` and non-pointers.
    var pointer: String? {
        guard !isEscapedText else { return nil }
        let trimmed = value.trimmingSpaces
        guard trimmed.count > 2, trimmed.hasPrefix("@"), trimmed.hasSuffix("@"), trimmed.uppercased() != "@VOID@" else { return nil }
        return String(trimmed.dropFirst().dropLast())
    }
}

/// Splits GEDCOM text into records; malformed lines are skipped with a warning naming the line.
enum GEDCOMParser {
    struct Parsed: Sendable {
        var records: [GEDCOMRecord]
        var warnings: [(line: Int, message: String)]
    }

    static func parse(_ text: String) -> Parsed {
        let sevenEscapes = isVersionSeven(text)
        var text = text
        return text.withUTF8 { bytes in
            let starts = partStarts(bytes, everyAtDoubled: !sevenEscapes)
            guard starts.count > 1 else { return parseLines(bytes, everyAtDoubled: !sevenEscapes).parsed }
            // Records are independent of each other: a large file is parsed in parts, each from a
            // level-0 line, on every core, and the parts joined with their lines numbered on.
            let whole = Unchecked(bytes)
            let parts = Parallel.map(starts.indices) { index in
                let end = index + 1 < starts.count ? starts[index + 1] : whole.value.count
                return parseLines(UnsafeBufferPointer(rebasing: whole.value[starts[index]..<end]), everyAtDoubled: !sevenEscapes)
            }
            var joined = Parsed(records: [], warnings: [])
            var linesBefore = 0
            for part in parts {
                var (records, warnings) = (part.parsed.records, part.parsed.warnings)
                if linesBefore > 0 {
                    for index in records.indices { records[index].shiftLines(by: linesBefore) }
                    for index in warnings.indices { warnings[index].line += linesBefore }
                }
                joined.records += records
                joined.warnings += warnings
                linesBefore += part.lines
            }
            return joined
        }
    }

    /// The least a part of a file parsed on its own holds (see `partStarts`).
    static let bytesPerPart = 64 << 10

    /// Where the parts of `bytes` parsed on their own start: at 0, and for a file of several
    /// `bytesPerPart`, at the first level-0 line after each further share, up to eight parts.
    static func partStarts(_ bytes: UnsafeBufferPointer<UInt8>, everyAtDoubled: Bool) -> [Int] {
        let partCount = min(8, bytes.count / bytesPerPart)
        guard partCount > 1 else { return [0] }
        var starts = [0]
        for part in 1..<partCount {
            var start = max(part * bytes.count / partCount, starts.last! + 1)
            // To the next line's start (CR, LF and CRLF end a line, as `parseLines` reads them) …
            while start < bytes.count {
                while start < bytes.count, bytes[start] != 10, bytes[start] != 13 { start += 1 }
                guard start < bytes.count else { break }
                start += bytes[start] == 13 && start + 1 < bytes.count && bytes[start + 1] == 10 ? 2 : 1
                // … that is a level-0 line: one that opens a record whatever came before it. Only
                // a line starting "0 " is parsed to see (a file of one long record is no slower).
                var first = start
                while first < bytes.count, bytes[first] == 32 || bytes[first] == 9 { first += 1 }
                guard first + 1 < bytes.count, bytes[first] == 48 || bytes[first] == 0xEF else { continue }
                var end = first
                while end < bytes.count, bytes[end] != 10, bytes[end] != 13 { end += 1 }
                if parseLine(UnsafeBufferPointer(rebasing: bytes[start..<end]), everyAtDoubled: everyAtDoubled)?.level == 0 { break }
            }
            guard start < bytes.count else { break }
            starts.append(start)
        }
        return starts
    }

    /// The records of `bytes`, lines numbered from 1, and how many lines it has.
    static func parseLines(_ bytes: UnsafeBufferPointer<UInt8>, everyAtDoubled: Bool) -> (parsed: Parsed, lines: Int) {
        var roots: [GEDCOMRecord] = []
        var stack: [GEDCOMRecord] = []
        var warnings: [(line: Int, message: String)] = []
        func close(to level: Int) {
            while stack.count > level {
                let done = stack.removeLast()
                if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].children.append(done) }
            }
        }
        var lineNumber = 0
        var start = 0
        var index = 0
        // CR, LF and CRLF all end a line; work on bytes, which is much faster than on Characters.
        while start < bytes.count {
            index = start
            while index < bytes.count, bytes[index] != 10, bytes[index] != 13 { index += 1 }
            lineNumber += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if index < bytes.count, bytes[index] == 13, index + 1 < bytes.count, bytes[index + 1] == 10 { index += 1 }
            start = index + 1
            guard let parsed = parseLine(line, everyAtDoubled: everyAtDoubled) else {
                if !line.allSatisfy({ $0 == 32 || $0 == 9 }) {
                    warnings.append((lineNumber, "not a GEDCOM line: \"\(String(decoding: line.prefix(60), as: UTF8.self))\""))
                }
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
            stack.append(GEDCOMRecord(tag: parsed.tag, xref: parsed.xref, value: parsed.value, line: lineNumber, isEscapedText: parsed.escaped))
        }
        close(to: 0)
        return (Parsed(records: roots, warnings: warnings), lineNumber)
    }

    /// Whether the header says GEDCOM 7 (`1 GEDC` / `2 VERS 7...` before the first record).
    static func isVersionSeven(_ text: String) -> Bool {
        var inGEDC = false
        for line in text.prefix(8_192).split(whereSeparator: { $0 == "\n" || $0 == "\r" }).dropFirst() {
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count >= 2 else { continue }
            if words[0] == "0" { return false }
            if words[0] == "1" { inGEDC = words[1].uppercased() == "GEDC" }
            if inGEDC, words[0] == "2", words[1].uppercased() == "VERS", words.count == 3 { return words[2].hasPrefix("7") }
        }
        return false
    }

    /// `level [@xref@] TAG [value]` (leading whitespace allowed). `@@` in a value stands for `@`:
    /// everywhere in 5.5.1 (`everyAtDoubled`), only at the start of the value in 7.0.
    static func parseLine(_ line: UnsafeBufferPointer<UInt8>, everyAtDoubled: Bool = true) -> (level: Int, xref: String?, tag: String, value: String, escaped: Bool)? {
        let space: UInt8 = 32, at: UInt8 = 64
        var index = 0
        while index < line.count, line[index] == space || line[index] == 9 { index += 1 }
        // A byte-order mark before the first line.
        if index + 2 < line.count, line[index] == 0xEF, line[index + 1] == 0xBB, line[index + 2] == 0xBF { index += 3 }
        var level = 0
        let digitsStart = index
        // At most three digits are read, so no level can overflow; more than two is no line.
        while index < line.count, index - digitsStart < 3, (48...57).contains(line[index]) {
            level = level * 10 + Int(line[index] - 48)
            index += 1
        }
        guard index > digitsStart, index - digitsStart <= 2, index < line.count, line[index] == space else { return nil }
        while index < line.count, line[index] == space { index += 1 }
        var xref: String?
        if index < line.count, line[index] == at {
            var end = index + 1
            while end < line.count, line[end] != at { end += 1 }
            guard end < line.count else { return nil }
            xref = String(decoding: UnsafeBufferPointer(rebasing: line[(index + 1)..<end]), as: UTF8.self)
            index = end + 1
            while index < line.count, line[index] == space { index += 1 }
        }
        let tagStart = index
        while index < line.count, line[index] != space { index += 1 }
        guard index > tagStart else { return nil }
        // A tag is letters, digits and underscores, at most 31 (a line with another is no line).
        guard index - tagStart <= 31, line[tagStart..<index].allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }) else {
            return nil
        }
        // Tags are ASCII (checked above): upper-cased byte by byte, a tag already in capitals as it is.
        let tagBytes = UnsafeBufferPointer(rebasing: line[tagStart..<index])
        let tag = tagBytes.contains(where: { $0 >= 97 && $0 <= 122 })
            ? String(decoding: tagBytes.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
            : String(decoding: tagBytes, as: UTF8.self)
        if index < line.count { index += 1 }
        let valueBytes = UnsafeBufferPointer(rebasing: line[index...])
        var value = String(decoding: valueBytes, as: UTF8.self)
        var hasDoubleAt = false
        if valueBytes.count > 1 {
            for position in 0..<(valueBytes.count - 1) where valueBytes[position] == at && valueBytes[position + 1] == at {
                hasDoubleAt = true
                break
            }
        }
        if hasDoubleAt {
            if everyAtDoubled {
                value = value.replacing("@@", with: "@")
            } else if value.hasPrefix("@@") {
                value.removeFirst()
            }
        }
        return (level, xref, tag, value, hasDoubleAt && value.hasPrefix("@"))
    }
}
