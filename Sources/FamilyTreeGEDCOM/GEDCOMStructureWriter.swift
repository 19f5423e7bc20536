import FamilyTree

/// A record's kept structures, with those that complement a line the exporter writes itself (a
/// name's other parts, a family link's extra details) taken out as their lines are written.
struct KeptStructures {
    private let structures: [RecordedStructure]
    private var used: [Bool]
    /// Whether the structures are a person's or a family's own, whose family links and name and
    /// sex the exporter writes (an event's `HUSB` or `FAMC` is its own, and written as it is).
    private let isRecordLevel: Bool

    init(_ structures: [RecordedStructure], isRecordLevel: Bool = false) {
        self.structures = structures
        self.isRecordLevel = isRecordLevel
        used = Array(repeating: false, count: structures.count)
    }

    /// Tags whose kept structures only ever complement a line the exporter writes: one whose line
    /// is no longer written (a link to a family that went) goes with it.
    private static let complementTags: Set<String> = ["FAMC", "FAMS", "HUSB", "WIFE", "CHIL"]

    /// The kept complement of the line `tag` written with no value of its own (a name, a date).
    mutating func complement(_ tag: String) -> RecordedStructure? {
        take { $0.tag == tag && $0.value == nil }
    }

    /// The kept complement of the line `tag`, whatever its value (a sex as the file wrote it).
    mutating func complement(anyValue tag: String) -> RecordedStructure? {
        take { $0.tag == tag }
    }

    /// The kept complement of the link line `tag` to `xref` (or, as first imported, to `id`).
    mutating func complement(_ tag: String, pointingTo xref: String, originally id: String) -> RecordedStructure? {
        take { $0.tag == tag && ($0.value?.trimmingSpaces == "@\(xref)@" || $0.value?.trimmingSpaces == "@\(id)@") }
    }

    private mutating func take(where matches: (RecordedStructure) -> Bool) -> RecordedStructure? {
        guard let index = structures.indices.first(where: { !used[$0] && matches(structures[$0]) }) else { return nil }
        used[index] = true
        return structures[index]
    }

    /// The structures written as they are: neither taken as a complement nor a complement left
    /// over. A family link kept whole because its family is kept as written (one with no partners)
    /// is written when `keptRecords` has its pointer.
    func rest(keptRecords: Set<String> = []) -> [RecordedStructure] {
        structures.indices.filter { index in
            guard !used[index] else { return false }
            let structure = structures[index]
            guard isRecordLevel else { return true }
            if Self.complementTags.contains(structure.tag) {
                // A void link, or one to a record kept as written, is itself kept as written.
                guard let value = structure.value?.trimmingSpaces else { return false }
                return value.uppercased() == "@VOID@" || keptRecords.contains(value)
            }
            return !(structure.tag == "SEX" || (structure.value == nil && structure.tag == "NAME"))
        }
        .map { structures[$0] }
    }
}

/// Writes events, places, citations and kept structures as GEDCOM lines.
struct StructureWriter {
    let export: GEDCOMExport
    /// The GEDCOM version the kept structures were read from: notes shared by pointer are `NOTE`
    /// in 5.5.1 and `SNOTE` in 7.0, and are written as the target version names them.
    let origin: String?
    /// The xref each source id is written with.
    var sourceXref: [String: String] = [:]

    init(export: GEDCOMExport, origin: String?) {
        self.export = export
        self.origin = origin
    }

    /// GEDCOM allows levels up to 99; deeper kept structures (only from a hand-made tree.json) are left out.
    private static let deepestLevel = 99

    /// A kept structure and its substructures, from `level`.
    func lines(_ structure: RecordedStructure, level: Int) -> [String] {
        guard level <= Self.deepestLevel, Self.isTag(structure.tag) else { return [] }
        var tag = mappedTag(structure, level: level)
        // A record's xref stands before its tag (and counts in a 5.5.1 line's length).
        if level == 0, let xref = structure.xref {
            guard Self.isXref(xref) else { return [] }
            tag = "@\(xref)@ \(tag)"
        }
        let line: [String]
        switch structure.value {
        case let value? where value.isEmpty: line = ["\(level) \(tag)"]
        case let value? where Self.isPointer(value): line = ["\(level) \(tag) \(value.trimmingSpaces)"]
        case let value?: line = export.text(tag, value, level: level)
        case nil: line = ["\(level) \(tag)"]
        }
        return line + children(of: structure, level: level + 1)
    }

    /// The substructures of `structure` (when there is one), from `level`.
    func children(of structure: RecordedStructure?, level: Int) -> [String] {
        structure?.children.flatMap { lines($0, level: level) } ?? []
    }

    /// An owner's events at level 1. The first event of each owned kind with no date of its own
    /// (a person's birth and death, a family's marriage and divorce) is written with the owner's
    /// `dates`; an owner with a date and no such event gets one, written first.
    func events(_ events: [LifeEvent], owning owned: [(kind: EventKind, dates: [String], hasDate: Bool)]) -> [String] {
        let ownedAt = owned.map { owner in events.firstIndex { $0.kind == owner.kind && $0.date == nil && $0.datePhrase == nil } }
        var result: [String] = []
        for (owner, position) in zip(owned, ownedAt) where position == nil && owner.hasDate {
            result += event(LifeEvent(owner.kind), level: 1, dateLines: owner.dates)
        }
        for (position, event) in events.enumerated() {
            let owner = ownedAt.firstIndex { $0 == position }.map { owned[$0] }
            result += self.event(event, level: 1, dateLines: owner?.dates)
        }
        return result
    }

    /// An event at `level`; `dateLines` are the date of a member's first birth or death or a
    /// union's first marriage or divorce, which the owner holds.
    func event(_ event: LifeEvent, level: Int, dateLines: [String]? = nil) -> [String] {
        var kept = KeptStructures(event.recorded)
        var result = event.value.map { export.text(event.kind.tag, $0, level: level) } ?? ["\(level) \(event.kind.tag)"]
        if let type = event.type { result += export.text("TYPE", type, level: level + 1) }
        let dates = dateLines ?? event.date.map { export.date($0, level: level + 1) } ?? event.datePhrase.map { eventDate($0, level: level + 1) } ?? []
        result += dates
        // A date's own substructures; a date written with no value (kept so) with them.
        if let dateComplement = kept.complement("DATE") {
            if dates.isEmpty { result.append("\(level + 1) DATE") }
            result += children(of: dateComplement, level: level + 2)
        }
        if let place = event.place { result += self.place(place, level: level + 1) }
        for note in event.notes { result += export.text("NOTE", note, level: level + 1) }
        for citation in event.citations { result += self.citation(citation, level: level + 1) }
        for structure in kept.rest() { result += lines(structure, level: level + 1) }
        return result
    }

    func place(_ place: Place, level: Int) -> [String] {
        var kept = KeptStructures(place.recorded)
        var result = export.text("PLAC", place.name, level: level)
        if let form = place.form { result += export.text("FORM", form, level: level + 1) }
        // The map line with its coordinates, and whatever else the file put under it.
        let mapComplement = kept.complement("MAP")
        if place.latitude != nil || place.longitude != nil || mapComplement != nil {
            result.append("\(level + 1) MAP")
            if let latitude = place.latitude { result += export.text("LATI", latitude, level: level + 2) }
            if let longitude = place.longitude { result += export.text("LONG", longitude, level: level + 2) }
            result += children(of: mapComplement, level: level + 2)
        }
        for structure in kept.rest() { result += lines(structure, level: level + 1) }
        return result
    }

    /// A citation: a pointer to its source record; a source described in place is written so in
    /// 5.5.1, and as a note on a void pointer in 7.0 (which has no such sources).
    func citation(_ citation: Citation, level: Int) -> [String] {
        var result: [String]
        if let source = citation.source {
            result = ["\(level) SOUR @\(sourceXref[source] ?? (Self.isXref(source) ? source : "VOID"))@"]
        } else if let description = citation.description, export.version == .v551 {
            result = export.text("SOUR", description, level: level)
        } else {
            result = ["\(level) SOUR @VOID@"] + (citation.description.map { export.text("NOTE", $0, level: level + 1) } ?? [])
        }
        if let page = citation.page { result += export.text("PAGE", page, level: level + 1) }
        if let text = citation.text { result += ["\(level + 1) DATA"] + export.text("TEXT", text, level: level + 2) }
        if let quality = citation.quality { result.append("\(level + 1) QUAY \(quality)") }
        for structure in citation.recorded { result += lines(structure, level: level + 1) }
        return result
    }

    /// A date kept as written: in the version it was read from, as it was when it reads as a
    /// GEDCOM date (a period, a date in another calendar, a dual year); else as a phrase.
    func eventDate(_ text: String, level: Int) -> [String] {
        let sameVersion = origin.map { $0.hasPrefix("7") == (export.version == .v7) } ?? false
        return sameVersion && Self.isDateValue(text) ? ["\(level) DATE \(text)"] : export.datePhrase(text, level: level)
    }

    /// The tag as the target version names it: a note shared by pointer is `SNOTE` in 7.0.
    private func mappedTag(_ structure: RecordedStructure, level: Int) -> String {
        let fromSeven = origin?.hasPrefix("7") == true
        switch (structure.tag, export.version) {
        case ("NOTE", .v7) where !fromSeven && (level == 0 || structure.value.map(Self.isPointer) == true): return "SNOTE"
        case ("SNOTE", .v551): return "NOTE"
        default: return structure.tag
        }
    }

    static func isTag(_ tag: String) -> Bool {
        (1...31).contains(tag.utf8.count) && tag.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    /// An xref as a file may write it: printable, no `@`, at most 64 bytes (so it cannot end its
    /// pointer or its line early).
    static func isXref(_ xref: String) -> Bool {
        (1...64).contains(xref.utf8.count) && xref.uppercased() != "VOID" && xref.utf8.allSatisfy { $0 >= 32 && $0 != 64 && $0 != 127 }
            && !xref.unicodeScalars.contains { $0.properties.generalCategory == .lineSeparator || $0.properties.generalCategory == .paragraphSeparator || $0.properties.generalCategory == .control }
    }

    static func isPointer(_ value: String) -> Bool {
        let trimmed = value.trimmingSpaces
        guard trimmed.count > 2, trimmed.hasPrefix("@"), trimmed.hasSuffix("@") else { return false }
        let inner = String(trimmed.dropFirst().dropLast())
        return inner == "VOID" || isXref(inner)
    }

    /// Whether `text` reads as a GEDCOM date value: one line of date words, numbers and calendar
    /// escapes, with at most a phrase in parentheses.
    static func isDateValue(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !text.contains(where: \.isNewline) else { return false }
        let startsAsDate = ("0"..."9").contains(first) || first == "@"
            || ["FROM", "TO", "BET", "ABT", "CAL", "EST", "INT", "BEF", "AFT"].contains(String(text.prefix { $0 != " " }).uppercased())
        return startsAsDate && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 32 && $0 != "\u{7F}" }
    }
}

extension GEDCOMExport {
    /// What writing `graph` in this version cannot carry as the standards define it: structures
    /// kept from a file of the other version whose tags this version does not have (written as
    /// they were, for a program that knows them), one line per tag with its count. Notes shared by
    /// pointer (5.5.1's `NOTE`, 7.0's `SNOTE`) are mapped and not listed. Empty when the file was
    /// read in this version or has nothing kept.
    public func conversionNotes(for graph: FamilyGraph) -> [String] {
        guard let origin = graph.genealogyFile?.version, origin.hasPrefix("7") != (version == .v7) else { return [] }
        let foreign = version == .v7 ? Self.onlyIn551 : Self.onlyIn7
        var counts: [String: Int] = [:]
        Self.forEachKept(in: graph) { structure in
            if foreign.contains(structure.tag) { counts[structure.tag, default: 0] += 1 }
        }
        return counts.keys.sorted().map { tag in
            "\(counts[tag]!) \(tag) structure\(counts[tag]! == 1 ? "" : "s") from the GEDCOM \(origin) file \(counts[tag]! == 1 ? "is" : "are") written as \(counts[tag]! == 1 ? "it was" : "they were"); GEDCOM \(version.rawValue) has no \(tag)"
        }
    }

    /// Calls `body` with every structure `graph` keeps as written, substructures included.
    static func forEachKept(in graph: FamilyGraph, _ body: (RecordedStructure) -> Void) {
        func visit(_ structures: [RecordedStructure]) {
            for structure in structures {
                body(structure)
                visit(structure.children)
            }
        }
        func visit(_ event: LifeEvent) {
            visit(event.recorded)
            event.place.map { visit($0.recorded) }
            event.citations.forEach { visit($0.recorded) }
        }
        for member in graph.members {
            visit(member.recorded)
            member.events.forEach(visit)
            member.citations.forEach { visit($0.recorded) }
        }
        for union in graph.unions {
            visit(union.recorded)
            union.events.forEach(visit)
            union.citations.forEach { visit($0.recorded) }
        }
        graph.sources.forEach { visit($0.recorded) }
        graph.genealogyFile.map { visit($0.header + $0.records) }
    }

    /// Tags GEDCOM 7.0 has and 5.5.1 does not.
    static let onlyIn7: Set<String> = ["EXID", "UID", "SDATE", "PHRASE", "TRAN", "CREA", "SCHMA", "NO", "INIL", "MIME", "CROP", "TOP", "LEFT", "HEIGHT", "WIDTH"]
    /// Tags GEDCOM 5.5.1 has and 7.0 does not.
    static let onlyIn551: Set<String> = ["AFN", "RFN", "RIN", "ROMN", "FONE", "SUBN", "CHAR", "BLOB"]
}
