import FamilyTree
import FamilyTreeCalendar
import FamilyTreeGEDCOM
import FamilyTreeLayout
import FamilyTreeRender
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The bytes libFuzzer hands a target.
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
}

/// A tree.json input: when it reads as a valid tree, `check` runs on it. Always 0 (libFuzzer's
/// "keep going"); a broken invariant traps inside `check`.
public func fuzzTreeJSON(_ start: UnsafePointer<UInt8>?, _ count: Int, _ check: (FamilyGraph) -> Void) -> CInt {
    if let graph = try? FamilyGraph(json: fuzzInput(start, count), file: "fuzz.json") { check(graph) }
    return 0
}

/// The invariants a valid tree must keep through every writer. A broken invariant traps, which
/// libFuzzer reports as a finding with the input that caused it.
public enum PipelineChecks {
    public static func check(_ graph: FamilyGraph) {
        let layout = LayeredLayout().place(graph)
        do {
            try layout.check(against: graph)
        } catch {
            fatalError("invariant broken: a layout does not fit the graph it was made of: \(error)")
        }
        // Checked: the renderers cannot refuse it.
        checkSVG(try! SVGRenderer().render(layout, of: graph), members: graph.members.count)
        checkDOT(DOTWriter().structure(graph))
        checkDOT(try! DOTWriter().positioned(layout, of: graph))
        require((try? JSONParser.parse(try! LayoutJSONWriter.render(layout, of: graph))) != nil, "layout JSON does not parse back")
        for version in GEDCOMExport.Version.allCases { checkGEDCOM(GEDCOMExport(version: version).write(graph), of: graph) }
        let day = CalendarDate.dayNumber(year: 2026, month: 6, day: 15)
        checkICS(ICSWriter().write(FamilyEvents(graph: graph, includeDeceased: true), today: day))
        let list = BirthdayList(graph: graph, today: day, includeDeceased: true)
        checkCSV(BirthdayListFormat.csv(list), rows: list.entries.count)
        let table = BirthdayListFormat.table(list, highlight: false)
        require(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "a control character reaches the terminal table")
    }

    /// The cheap check for the parser targets: the GEDCOM 7.0 export reads back whole.
    public static func checkRoundTrip(_ graph: FamilyGraph) {
        checkGEDCOM(GEDCOMExport().write(graph), of: graph)
    }

    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("invariant broken: \(message())") }
    }

    /// Well-formed XML, and exactly one member group per member (no name added or removed one).
    static func checkSVG(_ svg: String, members: Int) {
        let parser = XMLParser(data: Data(svg.utf8))
        require(parser.parse(), "SVG is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        require(svg.components(separatedBy: "data-member=").count - 1 == members, "SVG has another number of member groups than members")
    }

    /// Words the DOT writers may write outside quoted strings.
    static let dotWords: Set<String> = [
        "digraph", "family", "graph", "node", "edge", "rank", "same", "rankdir", "newrank", "nodesep", "ranksep", "shape", "style",
        "fillcolor", "color", "fontname", "fontsize", "arrowhead", "label", "tooltip", "width", "height", "pos", "weight",
        "penwidth", "class", "bb", "splines", "outputorder", "fixedsize", "box", "point", "none", "true", "dashed", "dotted",
        "invis", "edgesfirst",
    ]

    /// Tokenises DOT as Graphviz's scanner does (`\"` and `\\` pairs, a backslash before a line
    /// break joins lines): every string ends on its line, and outside strings there is nothing but
    /// punctuation, numbers and the writers' own words. A name that broke out of its string would
    /// leave a word of its own.
    static func checkDOT(_ dot: String) {
        let bytes = Array(dot.utf8)
        var index = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x2E
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                while true {
                    require(index < bytes.count, "a DOT string runs to the end of the file")
                    let current = bytes[index]
                    if current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                       [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n")].contains(bytes[index + 1]) {
                        index += 2
                        continue
                    }
                    if current == UInt8(ascii: "\"") { index += 1; break }
                    require(current != UInt8(ascii: "\n"), "a DOT string spans a line break")
                    index += 1
                }
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                 UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "="):
                index += 1
            case UInt8(ascii: "-"):
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") { index += 2; continue }
                index += 1
            case _ where isWordByte(byte):
                let start = index
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                require(dotWords.contains(word) || Double(word) != nil, "DOT has the word \(word) outside any string")
            default:
                require(false, "DOT has the byte \(byte) outside any string")
            }
        }
    }

    /// Every line a GEDCOM line, only our own records at level 0, and the import reads back the
    /// same people and families.
    static func checkGEDCOM(_ text: String, of graph: FamilyGraph) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let scalars = Array(line.unicodeScalars)
            // GEDCOM allows tabs in values; no other control character.
            require(!scalars.contains { $0.value < 0x20 && $0 != "\t" || (0x7F...0x9F).contains($0.value) }, "a GEDCOM line holds a control character")
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            require(words.count >= 2 && Int(words[0]) != nil, "not a GEDCOM line: \(line)")
            if words[0] == "0" {
                // A record: the header, the trailer, or an xref and a tag (records kept from an
                // imported file may be of any tag, and a few have no xref).
                let isRecord = ["HEAD", "TRLR"].contains(words[1]) || Self.recordTag(of: line) != nil
                    || words[1].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                require(isRecord, "a record GEDCOM export did not write: \(line)")
            }
        }
        // No text became a person or a family of its own.
        let tags = text.split(separator: "\n").compactMap { recordTag(of: $0) }
        require(tags.filter { $0 == "INDI" }.count == graph.members.count, "GEDCOM export wrote another number of people than the tree has")
        require(tags.filter { $0 == "FAM" }.count == graph.unions.count + (graph.genealogyFile?.records.filter { $0.tag == "FAM" && $0.xref != nil }.count ?? 0),
                "GEDCOM export wrote another number of families than the tree has")
        guard let imported = try? GEDCOMImport(bytes: Array(text.utf8)) else { return require(false, "exported GEDCOM does not import") }
        require(imported.document.members.count == graph.members.count, "GEDCOM round trip: \(graph.members.count) members became \(imported.document.members.count)")
        require(imported.document.unions.count == graph.unions.count, "GEDCOM round trip: \(graph.unions.count) families became \(imported.document.unions.count)")
    }

    /// The tag of a level-0 line with an xref (`0 @X1@ INDI`, an xref as a file wrote it), or nil.
    static func recordTag(of line: Substring) -> Substring? {
        guard line.hasPrefix("0 @") else { return nil }
        let afterAt = line.dropFirst(3)
        guard let close = afterAt.firstIndex(of: "@"), afterAt[afterAt.index(after: close)...].hasPrefix(" ") else { return nil }
        let tag = afterAt[afterAt.index(close, offsetBy: 2)...].prefix { $0 != " " }
        return !tag.isEmpty && tag.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? tag : nil
    }

    /// CRLF lines, each a property (`NAME:` or `NAME;`) or a fold (a leading space).
    static func checkICS(_ ics: String) {
        let lines = ics.components(separatedBy: "\r\n")
        require(lines.last == "", "the feed does not end in CRLF")
        for line in lines.dropLast() {
            require(!line.contains("\r") && !line.contains("\n"), "a bare line break in the feed")
            let isFold = line.hasPrefix(" ")
            let name = line.prefix { ("A"..."Z").contains($0) || $0 == "-" }
            require(isFold || (!name.isEmpty && [":", ";"].contains(line.dropFirst(name.count).first)), "not an iCalendar line: \(line)")
        }
    }

    /// RFC 4180: a header and one row per entry, nine fields each, no cell a formula.
    static func checkCSV(_ csv: String, rows expected: Int) {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var scalars = Array(csv.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" { field.unicodeScalars.append("\""); scalars.removeFirst() } else { quoted = false }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"": quoted = true
            case ",": row.append(field); field = ""
            case "\r":
                require(scalars.popFirst() == "\n", "a bare CR in CSV")
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            default: field.unicodeScalars.append(scalar)
            }
        }
        require(row.isEmpty && field.isEmpty && !quoted, "the CSV does not end in a row end")
        require(rows.count == expected + 1, "CSV has \(rows.count) rows for \(expected) entries")
        for row in rows {
            require(row.count == 9, "a CSV row of \(row.count) fields")
            for cell in row.prefix(2) { require(!["=", "+", "-", "@"].contains(cell.first.map(String.init) ?? ""), "a CSV cell a spreadsheet would run: \(cell)") }
        }
    }
}
