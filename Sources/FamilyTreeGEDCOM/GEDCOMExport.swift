import FamilyTree

/// Writes a family as GEDCOM 7.0 (or 5.5.1): individuals with names, sex, events (birth and death
/// dates from the member), notes and citations; families with partners, children in sibling
/// order, child kinds, events and citations; source records; and everything an imported file held
/// that familytree does not model, as it was written (see `RecordedStructure`).
///
/// Ids that are not valid GEDCOM xrefs (UUIDs, lower case) become `I1`, `F1`, ... and the original id
/// is kept in an `_FTID` extension, so an import gives the same ids back. Dates without a year are
/// written as a date phrase. Cross-bloodline connections have no GEDCOM form and are not written.
public struct GEDCOMExport: Sendable {
    /// The GEDCOM version written.
    public enum Version: String, Sendable, CaseIterable {
        case v7 = "7.0"
        case v551 = "5.5.1"
    }

    /// The version written.
    public var version: Version
    /// Members (and so their families) whose records carry `RESN privacy`: the living, in a
    /// file made with their details left out (`FamilyGraph.privatizingLiving`).
    public var privateMembers: Set<Member.ID>

    /// An exporter for `version`; the members in `privateMembers` are marked `RESN PRIVACY`.
    public init(version: Version = .v7, privateMembers: Set<Member.ID> = []) {
        self.version = version
        self.privateMembers = privateMembers
    }

    /// The GEDCOM text of `graph`, from the header to `0 TRLR`.
    public func write(_ graph: FamilyGraph) -> String {
        var lines: [String] = ["0 HEAD", "1 GEDC", "2 VERS \(version.rawValue)"]
        if version == .v551 { lines += ["2 FORM LINEAGE-LINKED", "1 CHAR UTF-8"] }
        lines += ["1 SOUR familytree", "2 NAME familytree"]
        let kept = graph.genealogyFile ?? GenealogyFile()
        var writer = StructureWriter(export: self, origin: kept.version)
        for structure in kept.header { lines += writer.lines(structure, level: 1) }
        // 5.5.1 requires a submitter: the file's own, or one of ours.
        let needsSubmitter = version == .v551 && !kept.header.contains { $0.tag == "SUBM" }
        if needsSubmitter { lines.append("1 SUBM @SUBMITTER@") }
        // Every record's xref once: those of records kept as written and those kept structures
        // point to first (a numbered person must not become what an old pointer named), then
        // people's, families' and sources' own where they are xrefs.
        var taken = Set(kept.records.compactMap(\.xref).filter(StructureWriter.isXref))
        let ownIDs = Set(graph.members.map(\.id) + graph.unions.map(\.id) + graph.sources.map(\.id))
        Self.forEachKept(in: graph) { structure in
            guard let value = structure.value, StructureWriter.isPointer(value) else { return }
            let target = String(value.trimmingSpaces.dropFirst().dropLast())
            if !ownIDs.contains(target) { taken.insert(target) }
        }
        let memberXref = xrefs(graph.members.map(\.id), prefix: "I", taken: &taken)
        let unionXref = xrefs(graph.unions.map(\.id), prefix: "F", taken: &taken)
        let sourceXref = Dictionary(zip(graph.sources.map(\.id), xrefs(graph.sources.map(\.id), prefix: "S", taken: &taken)), uniquingKeysWith: { first, _ in first })
        writer.sourceXref = sourceXref
        let keptPointers = Set(kept.records.compactMap { $0.xref.map { "@\($0)@" } })
        for (index, member) in graph.members.enumerated() {
            lines.append("0 @\(memberXref[index])@ INDI")
            if privateMembers.contains(member.id) { lines.append(restriction) }
            if memberXref[index] != member.id { lines.append("1 _FTID \(escaped(member.id))") }
            let given = [member.firstName, member.middleName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            let suffix = member.suffix.map { " " + escaped($0) } ?? ""
            lines.append("1 NAME \(escaped(given)) /\(escaped(member.lastName ?? ""))/\(suffix)".replacing("  ", with: " "))
            var recorded = KeptStructures(member.recorded, isRecordLevel: true)
            // The name's parts as the file wrote them (GEDCOM lists names with commas) while they
            // still name the member; the name's other kept parts after them.
            var nameParts = recorded.complement("NAME")
            func part(_ tag: String, _ value: String) -> [String] {
                guard !value.isEmpty else { return [] }
                if let index = nameParts?.children.firstIndex(where: { $0.tag == tag }) {
                    let kept = nameParts!.children.remove(at: index)
                    if let written = kept.value, kept.children.isEmpty, Self.sameNames(written, value) { return text(tag, written, level: 2) }
                }
                // A comma in a GIVN or SURN separates names ("García, López"): a name with a comma of
                // its own ("of Wessex, Queen of Northumbria") is left to the NAME line, which keeps it.
                guard !value.contains(",") else { return [] }
                return ["2 \(tag) \(escaped(value))"]
            }
            lines += part("GIVN", given)
            lines += part("SURN", member.lastName ?? "")
            if let suffix = member.suffix, !suffix.isEmpty { lines.append("2 NSFX \(escaped(suffix))") }
            if let nickname = member.nickname, !nickname.isEmpty { lines.append("2 NICK \(escaped(nickname))") }
            lines += writer.children(of: nameParts, level: 2)
            if let sex = member.sex {
                // As the file wrote it ("MALE", an X in 5.5.1) while it still says the same.
                let written = recorded.complement(anyValue: "SEX")
                if let raw = written?.value, GEDCOMTreeBuilder.sex(fromGEDCOM: raw) == sex {
                    lines.append("1 SEX \(escaped(raw))".trimmingSpaces)
                } else {
                    switch sex {
                    case .male: lines.append("1 SEX M")
                    case .female: lines.append("1 SEX F")
                    case .other: lines.append(version == .v7 ? "1 SEX X" : "1 SEX U")
                    case .unknown: lines.append("1 SEX U")
                    }
                }
                lines += writer.children(of: written, level: 2)
            }
            // The first birth and death take their dates from the member.
            var birthDates: [String] = []
            if let birthday = member.birthday { birthDates += date(birthday, level: 2) } else if let phrase = member.birthPhrase { birthDates += writer.eventDate(phrase, level: 2) }
            // 5.5.1 has no sort date.
            if let sortDate = member.sortDate, version == .v7 { birthDates += date(sortDate, level: 2).map { $0.replacing(" DATE", with: " SDATE") } }
            let deathDates = member.deathDate.map { date($0, level: 2) } ?? member.deathPhrase.map { writer.eventDate($0, level: 2) } ?? []
            let hasBirth = member.birthday != nil || member.birthPhrase != nil || (member.sortDate != nil && version == .v7)
            lines += writer.events(member.events, owning: [(.birth, birthDates, hasBirth), (.death, deathDates, !deathDates.isEmpty)])
            for union in graph.topology.parentUnions[index] {
                lines.append("1 FAMC @\(unionXref[union])@")
                let kind = graph.unions[union].children.first { $0.member == member.id }?.kind ?? .birth
                lines += pedigree(kind)
                lines += writer.children(of: recorded.complement("FAMC", pointingTo: unionXref[union], originally: graph.unions[union].id), level: 2)
            }
            for union in graph.topology.unionsOfMember[index] {
                lines.append("1 FAMS @\(unionXref[union])@")
                lines += writer.children(of: recorded.complement("FAMS", pointingTo: unionXref[union], originally: graph.unions[union].id), level: 2)
            }
            if let notes = member.notes, !notes.isEmpty { lines += text("NOTE", notes, level: 1) }
            // Phones and e-mails from a contact card, in a residence (where GEDCOM keeps them).
            if let contact = member.contact, !(contact.phones.isEmpty && contact.emails.isEmpty) {
                lines.append("1 RESI")
                lines += contact.phones.map { "2 PHON \(escaped($0.value))" } + contact.emails.map { "2 EMAIL \(escaped($0.value))" }
            }
            for citation in member.citations { lines += writer.citation(citation, level: 1) }
            for structure in recorded.rest(keptRecords: keptPointers) { lines += writer.lines(structure, level: 1) }
        }
        for (index, union) in graph.unions.enumerated() {
            lines.append("0 @\(unionXref[index])@ FAM")
            if union.partners.contains(where: privateMembers.contains) { lines.append(restriction) }
            if unionXref[index] != union.id { lines.append("1 _FTID \(escaped(union.id))") }
            var partners = graph.topology.partners[index]
            // HUSB and WIFE by sex where it is known (a woman listed first is still the wife, a
            // man listed second the husband); the file's order otherwise. GEDCOM 7 allows any sexes.
            var wifeFirst = false
            if partners.count == 2, graph.members[partners[0]].sex == .female || graph.members[partners[1]].sex == .male,
               !(graph.members[partners[0]].sex == .male || graph.members[partners[1]].sex == .female) {
                partners.swapAt(0, 1)
                wifeFirst = true
            }
            var recorded = KeptStructures(union.recorded, isRecordLevel: true)
            func partner(_ tag: String, _ member: Int) -> [String] {
                ["1 \(tag) @\(memberXref[member])@"]
                    + writer.children(of: recorded.complement(tag, pointingTo: memberXref[member], originally: graph.members[member].id), level: 2)
            }
            if partners.count == 1, graph.members[partners[0]].sex == .female {
                lines += partner("WIFE", partners[0])
            } else {
                lines += partner("HUSB", partners[0])
                if partners.count > 1 { lines += partner("WIFE", partners[1]) }
            }
            // The tree's own order comes back on import (the wife drawn first).
            if wifeFirst { lines.append("1 _FTWIFEFIRST Y") }
            for child in graph.topology.children[index] { lines += partner("CHIL", child) }
            // The first marriage and divorce take their dates from the union.
            let marriageDates = union.marriage.map { date($0, level: 2) } ?? union.marriagePhrase.map { writer.eventDate($0, level: 2) } ?? []
            let divorceDates = union.divorce.map { date($0, level: 2) } ?? union.divorcePhrase.map { writer.eventDate($0, level: 2) } ?? []
            lines += writer.events(union.events, owning: [(.marriage, marriageDates, !marriageDates.isEmpty), (.divorce, divorceDates, !divorceDates.isEmpty)])
            for citation in union.citations { lines += writer.citation(citation, level: 1) }
            for structure in recorded.rest(keptRecords: keptPointers) { lines += writer.lines(structure, level: 1) }
        }
        for source in graph.sources {
            guard let xref = sourceXref[source.id] else { continue }
            lines.append("0 @\(xref)@ SOUR")
            for case let (tag, value?) in [("TITL", source.title), ("AUTH", source.author), ("PUBL", source.publication), ("TEXT", source.text)] {
                lines += text(tag, value, level: 1)
            }
            for structure in source.recorded { lines += writer.lines(structure, level: 1) }
        }
        var keptNumber = 0
        for var record in kept.records {
            // A kept record whose xref a file cannot hold (a control character in it) gets a new one.
            if let xref = record.xref, !StructureWriter.isXref(xref) {
                repeat { keptNumber += 1 } while taken.contains("X\(keptNumber)")
                taken.insert("X\(keptNumber)")
                record.xref = "X\(keptNumber)"
            }
            lines += writer.lines(record, level: 0)
        }
        if needsSubmitter { lines += ["0 @SUBMITTER@ SUBM", "1 NAME familytree"] }
        lines.append("0 TRLR")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether a GIVN or SURN as written (names listed with commas, a nickname in quotes, PAF's
    /// underscores) says `names`.
    static func sameNames(_ written: String, _ names: String) -> Bool {
        let listed = GEDCOMTreeBuilder.nameList(written)
        let withoutNickname = GEDCOMTreeBuilder.quotedNickname(in: listed)?.rest ?? listed
        return withoutNickname.replacing("_", with: " ").split(separator: " ").joined(separator: " ") == names
    }

    /// The restriction notice of a private record (GEDCOM 7 writes its enumeration in capitals).
    private var restriction: String { version == .v7 ? "1 RESN PRIVACY" : "1 RESN privacy" }

    /// A date kept as written: a PHRASE in 7.0, a date phrase in parentheses in 5.5.1.
    func datePhrase(_ text: String, level: Int) -> [String] {
        let phrase = escaped(text).filter { $0 != "(" && $0 != ")" }
        return version == .v7 ? ["\(level) DATE", "\(level + 1) PHRASE \(phrase)"] : ["\(level) DATE (\(phrase))"]
    }

    private func pedigree(_ kind: ChildKind) -> [String] {
        switch (kind, version) {
        case (.birth, _): return []
        case (.adopted, .v7): return ["2 PEDI ADOPTED"]
        case (.foster, .v7): return ["2 PEDI FOSTER"]
        case (.step, .v7): return ["2 PEDI OTHER", "3 PHRASE step"]
        case (.adopted, .v551): return ["2 PEDI adopted"]
        case (.foster, .v551): return ["2 PEDI foster"]
        // 5.5.1 has no step pedigree; a NOTE keeps it.
        case (.step, .v551): return ["2 NOTE step child"]
        }
    }

    func date(_ date: PartialDate, level: Int) -> [String] {
        func calendarDate(_ value: CalendarDate) -> String {
            var words: [String] = []
            if let day = value.day { words.append("\(day)") }
            if let month = value.month { words.append(GEDCOMDate.months[month - 1]) }
            if let year = value.year { words.append("\(year)") }
            return words.joined(separator: " ")
        }
        if date.anchor.year == nil {
            // GEDCOM dates need a year: the day and month go in a phrase.
            return datePhrase(calendarDate(date.anchor), level: level)
        }
        let payload: String
        switch date {
        case .exact(let value): payload = calendarDate(value)
        case .about(let value): payload = "ABT " + calendarDate(value)
        case .before(let value): payload = "BEF " + calendarDate(value)
        case .after(let value): payload = "AFT " + calendarDate(value)
        case .between(let low, let high): payload = "BET \(calendarDate(low)) AND \(calendarDate(high))"
        }
        return ["\(level) DATE \(payload)"]
    }

    /// A text value over CONT lines: every kind of line break (CR, LF, CRLF, U+2028, ...) starts
    /// a CONT line, so no text can start a record of its own. In 5.5.1, whose lines hold at most
    /// 255 bytes, a longer line goes on in CONC lines (7.0 has no limit and no CONC).
    func text(_ tag: String, _ value: String, level: Int) -> [String] {
        let parts = SafeText.lines(value).map(escaped)
        let lines = ["\(level) \(tag) \(parts[0])"] + parts.dropFirst().map { "\(level + 1) CONT \($0)" }
        guard version == .v551 else { return lines }
        return lines.flatMap { Self.concatenated($0, level: level + 1) }
    }

    /// The longest line 5.5.1 allows, in bytes.
    static let longestLine = 255

    /// `line` as it is when it fits, else its value cut into CONC lines of at most `longestLine`
    /// bytes. A cut never falls next to a space (some readers trim them) nor inside a doubled `@`,
    /// and never inside a character.
    static func concatenated(_ line: String, level: Int) -> [String] {
        guard line.utf8.count > longestLine else { return [line] }
        // The value starts after the level, the tag and one space.
        let head = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard head.count == 3 else { return [line] }
        var prefix = "\(head[0]) \(head[1]) "
        var rest = Substring(head[2])
        var result: [String] = []
        while prefix.utf8.count + rest.utf8.count > longestLine {
            let room = longestLine - prefix.utf8.count
            var cut = rest.startIndex
            var used = 0
            for index in rest.indices {
                let size = rest[index].utf8.count
                guard used + size <= room else { break }
                used += size
                cut = rest.index(after: index)
            }
            // Back off from a space or an @ on either side of the cut.
            var safe = cut
            while safe > rest.startIndex, safe < rest.endIndex,
                  [" ", "@"].contains(rest[rest.index(before: safe)]) || [" ", "@"].contains(rest[safe]) {
                safe = rest.index(before: safe)
            }
            // A run of spaces or @ as long as the room: cut where it fits after all.
            if safe == rest.startIndex { safe = cut }
            result.append(prefix + rest[..<safe])
            rest = rest[safe...]
            prefix = "\(level) CONC "
        }
        return result + [prefix + rest]
    }

    /// A single-line value: line breaks and control characters become spaces (a name cannot start
    /// a new record); a leading `@` is doubled (both versions), and 5.5.1 doubles every `@`.
    func escaped(_ value: String) -> String {
        let line = SafeText.singleLine(value)
        if version == .v551 { return line.replacing("@", with: "@@") }
        return line.hasPrefix("@") ? "@" + line : line
    }

    /// The ids as xrefs: an id that is a valid GEDCOM 7 xref and not `taken` is kept; the others
    /// are numbered (`I1`, `F2`, ...) past everything taken. The xrefs given are added to `taken`.
    private func xrefs(_ ids: [String], prefix: String, taken: inout Set<String>) -> [String] {
        var result = [String?](repeating: nil, count: ids.count)
        for (position, id) in ids.enumerated() where isValidXref(id) && taken.insert(id).inserted { result[position] = id }
        var counter = 0
        for position in ids.indices where result[position] == nil {
            repeat { counter += 1 } while taken.contains("\(prefix)\(counter)")
            taken.insert("\(prefix)\(counter)")
            result[position] = "\(prefix)\(counter)"
        }
        return result.map { $0! }
    }

    func isValidXref(_ id: String) -> Bool {
        !id.isEmpty && id != "VOID" && id.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
