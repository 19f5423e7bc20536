import FamilyTree

/// Maps INDI and FAM records onto members and unions, repairing links that disagree.
struct GEDCOMTreeBuilder: Sendable {
    let records: [GEDCOMRecord]
    private(set) var warnings: [GEDCOMWarning] = []
    private(set) var document = TreeDocument(members: [])
    /// The line of each INDI and FAM record, by xref, for warnings about them.
    private var recordLine: [String: Int] = [:]

    /// How surnames written in capitals come in.
    let surnameCase: SurnameCase

    init(records: [GEDCOMRecord], surnameCase: SurnameCase = .asIs) {
        self.records = records
        self.surnameCase = surnameCase
    }

    private mutating func warn(_ kind: GEDCOMWarning.Kind, _ line: Int?, _ message: String) {
        warnings.append(GEDCOMWarning(kind: kind, line: line, message: message))
    }

    /// A child's place in a family's list is found by these: the family's position and the child's id.
    private struct FamilyChild: Hashable {
        var family: Int
        var member: String
    }

    /// A family as read: partners and children with their kinds, and where the FAM record is.
    private struct Family {
        var id: String
        var line: Int
        var partners: [String] = []
        var children: [ChildLink] = []
        var marriage: PartialDate?
        var divorce: PartialDate?
        var marriagePhrase: String?
        var divorcePhrase: String?
        var events: [LifeEvent] = []
        var citations: [Citation] = []
        var recorded: [RecordedStructure] = []
    }

    mutating func build() {
        var members: [Member] = []
        var memberIndex: [String: Int] = [:]
        var individuals: [GEDCOMRecord] = []
        var families: [Family] = []
        var familyIndex: [String: Int] = [:]
        var familyRecords: [GEDCOMRecord] = []
        var sources: [Source] = []
        var file = GenealogyFile()
        // People are read after this loop, on every core (each record alone), and the warnings
        // kept in the order of the records: those of this loop, and where each person's go.
        var inOrder: [(warning: GEDCOMWarning?, individual: Int)] = []
        for record in records {
            // Everything but people and families is kept: the header's details, sources, and
            // every other record as written.
            switch record.tag {
            case "HEAD":
                file.version = record.first("GEDC")?.first("VERS")?.value.trimmingSpaces
                file.header = record.children.filter { !["GEDC", "CHAR", "SOUR"].contains($0.tag) }.map(GEDCOMStructures.recorded)
                continue
            case "TRLR":
                continue
            case "SOUR" where record.xref != nil:
                sources.append(GEDCOMStructures.source(record, id: record.xref!))
                continue
            case "INDI" where record.xref != nil, "FAM" where record.xref != nil:
                break
            default:
                file.records.append(GEDCOMStructures.recorded(record))
                continue
            }
            guard let xref = record.xref else { continue }
            if recordLine[xref] == nil { recordLine[xref] = record.line }
            switch record.tag {
            case "INDI":
                guard memberIndex[xref] == nil else {
                    inOrder.append((GEDCOMWarning(kind: .reference, line: record.line, message: "a second record with id @\(xref)@ is left out"), -1))
                    continue
                }
                memberIndex[xref] = individuals.count
                inOrder.append((nil, individuals.count))
                individuals.append(record)
            case "FAM":
                guard familyIndex[xref] == nil else {
                    inOrder.append((GEDCOMWarning(kind: .reference, line: record.line, message: "a second record with id @\(xref)@ is left out"), -1))
                    continue
                }
                familyIndex[xref] = families.count
                families.append(Family(id: xref, line: record.line))
                familyRecords.append(record)
            default:
                continue
            }
        }
        let (builder, people) = (self, individuals)
        let read = Parallel.mapInChunks(people.indices, chunkSize: max(Self.individualsPerTask, people.count / 8)) { index in
            builder.member(from: people[index], id: people[index].xref!)
        }
        members = read.map(\.member)
        for (warning, individual) in inOrder { warnings += warning.map { [$0] } ?? read[individual].warnings }

        // Families as they describe themselves. Where each family lists each child, looked up
        // rather than searched for: one family of 30,000 children was a search of its list for
        // every child, twice (1.6 s to import).
        var childSlot: [FamilyChild: Int] = [:]
        for (position, record) in familyRecords.enumerated() {
            // familytree writes `_FTWIFEFIRST` where its tree listed the wife first.
            for tag in record.first("_FTWIFEFIRST") != nil ? ["WIFE", "HUSB"] : ["HUSB", "WIFE"] {
                for partner in record.all(tag) {
                    guard let id = partner.pointer else { continue }
                    guard memberIndex[id] != nil else { warn(.reference, partner.line, "\(tag) points to @\(id)@, which does not exist"); continue }
                    if families[position].partners.contains(id) {
                        warn(.family, partner.line, "@\(id)@ is both partners of family @\(families[position].id)@; kept once")
                    } else if families[position].partners.count < 2 {
                        families[position].partners.append(id)
                    } else {
                        warn(.family, partner.line, "family @\(families[position].id)@ already has two partners; @\(id)@ left out of it")
                    }
                }
            }
            for child in record.all("CHIL") {
                guard let id = child.pointer else { continue }
                guard memberIndex[id] != nil else { warn(.reference, child.line, "CHIL points to @\(id)@, which does not exist"); continue }
                if childSlot[FamilyChild(family: position, member: id)] != nil {
                    warn(.family, child.line, "family @\(families[position].id)@ lists @\(id)@ as a child twice; kept once")
                } else {
                    childSlot[FamilyChild(family: position, member: id)] = families[position].children.count
                    families[position].children.append(ChildLink(id))
                }
            }
            (families[position].marriage, families[position].marriagePhrase) = date(record.first("MARR")?.first("DATE"), what: "marriage")
            (families[position].divorce, families[position].divorcePhrase) = date(record.first("DIV")?.first("DATE"), what: "divorce")
            readGenealogy(of: record, into: &families[position])
        }

        // What individuals say of their families: repair the families from it.
        for (position, record) in individuals.enumerated() {
            let id = members[position].id
            var spouseIn: Set<String> = []
            for link in record.all("FAMS") {
                guard let family = link.pointer else { continue }
                if !spouseIn.insert(family).inserted { warn(.link, link.line, "@\(id)@ names family @\(family)@ as a spouse twice; kept once") }
                guard let index = familyIndex[family] else { warn(.reference, link.line, "FAMS points to @\(family)@, which does not exist"); continue }
                if !families[index].partners.contains(id) {
                    if families[index].partners.count < 2 {
                        families[index].partners.append(id)
                        warn(.link, link.line, "@\(id)@ names family @\(family)@ as a spouse but the family does not name them; added")
                    } else {
                        warn(.link, link.line, "@\(id)@ names family @\(family)@, which already has two partners; left out")
                    }
                }
            }
            var adoptedInto = Set<String>()
            for event in record.all("ADOP") { if let family = event.first("FAMC")?.pointer { adoptedInto.insert(family) } }
            var childIn: Set<String> = []
            for link in record.all("FAMC") {
                guard let family = link.pointer else { continue }
                guard let index = familyIndex[family] else { warn(.reference, link.line, "FAMC points to @\(family)@, which does not exist"); continue }
                // One child link to a family: the first the record gives.
                guard childIn.insert(family).inserted else {
                    warn(.link, link.line, "@\(id)@ names family @\(family)@ as parents twice; the first is kept")
                    continue
                }
                let kind = childKind(pedigree: link.first("PEDI"), adopted: adoptedInto.contains(family))
                if let slot = childSlot[FamilyChild(family: index, member: id)] {
                    families[index].children[slot].kind = kind
                } else {
                    childSlot[FamilyChild(family: index, member: id)] = families[index].children.count
                    families[index].children.append(ChildLink(id, kind: kind))
                    warn(.link, link.line, "@\(id)@ names family @\(family)@ as parents but the family does not list them; added")
                }
            }
        }
        // Children listed by a family that their own record does not name are kept, with a word.
        for (position, record) in familyRecords.enumerated() {
            for child in record.all("CHIL") {
                guard let id = child.pointer, let index = memberIndex[id] else { continue }
                if !individuals[index].all("FAMC").contains(where: { $0.pointer == families[position].id }) {
                    warn(.link, child.line, "family @\(families[position].id)@ lists @\(id)@, whose record does not name it; kept")
                }
            }
        }

        // A person's unions come in the order of their FAMS lines (where dates do not say otherwise):
        // order the families so that every person's FAMS order holds where the orders agree.
        families = GEDCOMTreeBuilder.orderedBySpouseLists(families, individuals: individuals, familyIndex: familyIndex)
        var unions: [Union] = []
        // A family with no partners is no union: it is kept as written, and so are the links to it.
        var partnerless: Set<String> = []
        for family in families where family.partners.isEmpty {
            partnerless.insert(family.id)
            if let record = familyIndex[family.id].map({ familyRecords[$0] }) { file.records.append(GEDCOMStructures.recorded(record)) }
        }
        for (position, record) in individuals.enumerated() where !partnerless.isEmpty {
            let links = record.children.filter { ["FAMC", "FAMS"].contains($0.tag) && $0.pointer.map(partnerless.contains) == true }
            guard !links.isEmpty else { continue }
            let linked = Set(links.map(\.value))
            members[position].recorded.removeAll { kept in ["FAMC", "FAMS"].contains(kept.tag) && kept.value.map(linked.contains) == true }
            members[position].recorded += links.map(GEDCOMStructures.recorded)
        }
        for family in families {
            guard !family.partners.isEmpty else {
                if !family.children.isEmpty {
                    warn(.family, family.line, "family @\(family.id)@ has children but no parents; its children are drawn without it (the family is kept as written)")
                }
                continue
            }
            var union = Union(id: family.id, partners: family.partners, marriage: family.marriage, divorce: family.divorce, children: family.children)
            union.marriagePhrase = family.marriagePhrase
            union.divorcePhrase = family.divorcePhrase
            union.events = family.events
            union.citations = family.citations
            union.recorded = family.recorded
            unions.append(union)
        }
        unions = limitBirthParents(unions)
        // familytree's own export keeps ids that are no GEDCOM xrefs in _FTID: give them back.
        let memberIDs = GEDCOMTreeBuilder.originalIDs(individuals, xrefs: members.map(\.id))
        let unionIDs = GEDCOMTreeBuilder.originalIDs(familyRecords, xrefs: families.map(\.id))
        for index in members.indices { members[index].id = memberIDs[members[index].id]! }
        for index in unions.indices {
            unions[index].id = unionIDs[unions[index].id]!
            unions[index].partners = unions[index].partners.map { memberIDs[$0]! }
            for slot in unions[index].children.indices { unions[index].children[slot].member = memberIDs[unions[index].children[slot].member]! }
        }
        document = TreeDocument(members: members, unions: unions)
        document.sources = sources
        document.genealogyFile = file.isEmpty ? nil : file
        breakCycles()
    }

    /// Families in an order that keeps each person's FAMS order: a topological sort of "listed before"
    /// pairs, file order breaking ties and conflicts.
    private static func orderedBySpouseLists(_ families: [Family], individuals: [GEDCOMRecord], familyIndex: [String: Int]) -> [Family] {
        var after = Array(repeating: [Int](), count: families.count)
        var waiting = Array(repeating: 0, count: families.count)
        for record in individuals {
            let listed = record.all("FAMS").compactMap { $0.pointer.flatMap { familyIndex[$0] } }
            for (earlier, later) in zip(listed, listed.dropFirst()) where earlier != later {
                after[earlier].append(later)
                waiting[later] += 1
            }
        }
        // File order, except that a family waits for the families listed before it; one that was
        // waiting is placed as soon as it may be. Families left on a cycle of conflicting lists follow.
        var placed = Array(repeating: false, count: families.count)
        var order: [Int] = []
        order.reserveCapacity(families.count)
        var stack: [Int] = []
        for start in families.indices where !placed[start] && waiting[start] == 0 {
            stack.append(start)
            while let next = stack.popLast() {
                guard !placed[next] else { continue }
                placed[next] = true
                order.append(next)
                for later in after[next].reversed() where !placed[later] {
                    waiting[later] -= 1
                    if waiting[later] == 0 && later < start { stack.append(later) }
                }
            }
        }
        for family in families.indices where !placed[family] { order.append(family) }
        return order.map { families[$0] }
    }

    /// Each xref's id: its record's `_FTID` when that is present and unused, else the xref.
    private static func originalIDs(_ records: [GEDCOMRecord], xrefs: [String]) -> [String: String] {
        var result: [String: String] = [:]
        var used = Set(xrefs)
        for (record, xref) in zip(records, xrefs) {
            result[xref] = xref
            guard let original = record.first("_FTID")?.value.trimmingSpaces, !original.isEmpty, original != xref, !used.contains(original) else { continue }
            used.insert(original)
            result[xref] = original
        }
        return result
    }

    /// A child may have two birth parents: families after that are kept as step families, with a warning.
    private mutating func limitBirthParents(_ unions: [Union]) -> [Union] {
        var birthParents: [String: Set<String>] = [:]
        var result = unions
        for (position, union) in unions.enumerated() {
            for (slot, link) in union.children.enumerated() where link.kind == .birth {
                let parents = birthParents[link.member, default: []].union(union.partners)
                if parents.count > 2 {
                    result[position].children[slot].kind = .step
                    warn(.link, recordLine[union.id], "@\(link.member)@ would have more than two birth parents; family @\(union.id)@ is kept as a step family")
                } else {
                    birthParents[link.member] = parents
                }
            }
        }
        return result
    }

    /// People recorded as their own ancestors: the child link closing each cycle is dropped, with a warning.
    private mutating func breakCycles() {
        for _ in 0..<1_000 {
            do {
                _ = try FamilyGraph(document: document)
                return
            } catch .invalidTree(_, let problems) {
                let cycles = problems.filter { $0.kind == .ancestryCycle }
                guard !cycles.isEmpty else { return }
                for cycle in cycles {
                    // The cycle lists ancestors downward; the last one is a parent of the first.
                    guard let child = cycle.ids.first, let parent = cycle.ids.last else { continue }
                    for position in document.unions.indices where document.unions[position].partners.contains(parent) {
                        document.unions[position].children.removeAll { $0.member == child }
                    }
                    warn(.cycle, recordLine[child], "@\(child)@ would be their own ancestor (\(cycle.ids.map { "@\($0)@" }.joined(separator: " → "))); the link to @\(parent)@ is dropped")
                }
            } catch {
                return
            }
        }
    }

    private func childKind(pedigree: GEDCOMRecord?, adopted: Bool) -> ChildKind {
        if adopted { return .adopted }
        switch pedigree?.value.trimmingSpaces.lowercased() {
        case "adopted": return .adopted
        case "foster": return .foster
        case "step": return .step
        case "other" where pedigree?.first("PHRASE")?.value.lowercased().contains("step") == true: return .step
        default: return .birth
        }
    }

    /// A date's text: its payload, or its PHRASE when the payload is empty (a date without a year);
    /// 5.5.1's date phrase, a payload wholly in parentheses, is read without them.
    static func dateText(_ record: GEDCOMRecord) -> String {
        let payload = record.value.trimmingSpaces
        if payload.count > 2, payload.hasPrefix("("), payload.hasSuffix(")") { return String(payload.dropFirst().dropLast()).trimmingSpaces }
        return payload.isEmpty ? (record.first("PHRASE")?.value.trimmingSpaces ?? "") : payload
    }

    /// A family's date, or its text as written when it is no date familytree can place.
    private mutating func date(_ record: GEDCOMRecord?, what: String) -> (PartialDate?, String?) {
        guard let record else { return (nil, nil) }
        let (date, phrase) = GEDCOMStructures.date(record)
        if let phrase { warn(.date, record.line, "\(what) date \"\(phrase)\" is not a date familytree can place; kept as written") }
        return (date, phrase)
    }

    /// The fewest people a task reads (`build`; a person takes some 15 microseconds): a task's start
    /// is nothing beside that. Larger files are read in eight tasks, so two or more cores share them evenly.
    static let individualsPerTask = 32

    /// The person an INDI record describes, and what reading it had to say.
    private func member(from record: GEDCOMRecord, id: String) -> (member: Member, warnings: [GEDCOMWarning]) {
        var warnings: [GEDCOMWarning] = []
        func warn(_ kind: GEDCOMWarning.Kind, _ line: Int?, _ message: String) {
            warnings.append(GEDCOMWarning(kind: kind, line: line, message: message))
        }
        var member = Member(id: id, firstName: "")
        if let name = record.first("NAME") {
            let parts = GEDCOMTreeBuilder.nameParts(name.value)
            var nameGiven = parts.given
            // A nickname in quotes inside the given names ('Kathleen "Kick"') is the nickname.
            if let quoted = GEDCOMTreeBuilder.quotedNickname(in: nameGiven) {
                member.nickname = quoted.nickname
                nameGiven = quoted.rest
            }
            // GIVN and SURN list their names separated by commas ("John, Fitzgerald").
            var givenPieces = name.first("GIVN").map { GEDCOMTreeBuilder.nameList($0.value) } ?? ""
            if let quoted = GEDCOMTreeBuilder.quotedNickname(in: givenPieces) {
                if member.nickname == nil { member.nickname = quoted.nickname }
                givenPieces = quoted.rest
            }
            let surnamePieces = name.first("SURN").map { GEDCOMTreeBuilder.nameList($0.value) } ?? ""
            let given = givenPieces.isEmpty ? nameGiven : givenPieces
            let surname = surnamePieces.isEmpty ? parts.surname : surnamePieces
            func compare(_ piece: String, _ tag: String, _ fromName: String) {
                // The same bytes have the same key (not `==`, which also equates a name's
                // composed and decomposed accents, whose keys differ).
                guard !piece.isEmpty, !fromName.isEmpty, !piece.utf8.elementsEqual(fromName.utf8),
                      GEDCOMTreeBuilder.nameKey(piece) != GEDCOMTreeBuilder.nameKey(fromName) else { return }
                warn(.name, name.line, "\(tag) \"\(piece)\" of @\(id)@ differs from the NAME line's \"\(fromName)\"; \(tag) kept")
            }
            compare(givenPieces, "GIVN", nameGiven)
            compare(surnamePieces, "SURN", parts.surname)
            // PAF writes a given name of several words with underscores: "Henry_VIII" is one name;
            // underscores alone ("____ /Mitchell/") stand for a name not known.
            let words = given.split(separator: " ").map { GEDCOMTreeBuilder.underscoresAsSpaces(String($0)).trimmingSpaces }.filter { !$0.isEmpty }
            member.firstName = words.first ?? ""
            member.middleName = words.count > 1 ? words.dropFirst().joined(separator: " ") : nil
            var last = GEDCOMTreeBuilder.underscoresAsSpaces(surname).trimmingSpaces
            if surnameCase == .title { last = GEDCOMTreeBuilder.titleCased(last) }
            member.lastName = last.isEmpty ? nil : last
            let suffix = (name.first("NSFX")?.value ?? parts.suffix).trimmingSpaces
            if !suffix.isEmpty { member.suffix = suffix }
            if let nickname = name.first("NICK")?.value.trimmingSpaces, !nickname.isEmpty { member.nickname = nickname }
        }
        // Some programs write NICK beside NAME rather than under it.
        if member.nickname == nil, let nickname = record.first("NICK")?.value.trimmingSpaces, !nickname.isEmpty { member.nickname = nickname }
        if let sex = record.first("SEX") {
            member.sex = GEDCOMTreeBuilder.sex(fromGEDCOM: sex.value)
            if !["M", "MALE", "F", "FEMALE", "X", "U", ""].contains(sex.value.trimmingSpaces.uppercased()) {
                warn(.sex, sex.line, "SEX \"\(sex.value)\" of @\(id)@ is not M, F, X or U; read as unknown")
            }
        }
        func readDate(of tag: String, _ what: String) -> (date: PartialDate?, phrase: String?) {
            guard let event = record.first(tag), let dateRecord = event.first("DATE") else { return (nil, nil) }
            let text = GEDCOMTreeBuilder.dateText(dateRecord)
            guard !text.isEmpty else { return (nil, nil) }
            if let date = GEDCOMDate.parse(text) { return (date, nil) }
            warn(.date, dateRecord.line, "\(what) date \"\(text)\" of @\(id)@ is not a date familytree can place; kept as written")
            return (nil, text)
        }
        let birth = readDate(of: "BIRT", "birth")
        let death = readDate(of: "DEAT", "death")
        if let date = birth.date { member.birthday = date }
        if let phrase = birth.phrase { member.birthPhrase = phrase }
        if let date = death.date { member.deathDate = date }
        if let phrase = death.phrase { member.deathPhrase = phrase }
        // GEDCOM 7's sort date orders siblings when the birth date cannot.
        if let sortText = record.first("BIRT")?.first("SDATE").map(GEDCOMTreeBuilder.dateText), !sortText.isEmpty {
            member.sortDate = GEDCOMDate.parse(sortText)
        }
        readGenealogy(of: record, into: &member)
        return (member, warnings)
    }

    /// What a person's record says beyond names, sex and links: events with their places, notes
    /// and sources, the first plain note, citations; everything else kept as written.
    private func readGenealogy(of record: GEDCOMRecord, into member: inout Member) {
        var seen = TagsSeen()
        let births = record.count("BIRT")
        let deaths = record.count("DEAT")
        var events: [LifeEvent] = []
        var recorded: [RecordedStructure] = []
        for child in record.children {
            let first = seen.insert(child.tag)
            switch child.tag {
            case "NAME" where first:
                // GIVN and SURN written otherwise than the exporter writes them (comma lists, a
                // nickname in quotes) are kept as written; the exporter uses them while they still
                // name the member.
                let given = [member.firstName, member.middleName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
                var read: Set<String> = ["NSFX", "NICK"]
                if child.all("GIVN").count == 1, child.first("GIVN")?.children.isEmpty == true, child.first("GIVN")?.value == given { read.insert("GIVN") }
                if child.all("SURN").count == 1, child.first("SURN")?.children.isEmpty == true, child.first("SURN")?.value == (member.lastName ?? "") { read.insert("SURN") }
                if let extra = GEDCOMStructures.complement(child, except: read) { recorded.append(extra) }
            case "SEX" where first:
                // A sex written otherwise than M, F or U ("MALE", X in 5.5.1, nothing) is kept as written.
                let raw = child.value.trimmingSpaces
                if !["M", "F", "U"].contains(raw) {
                    recorded.append(RecordedStructure(tag: "SEX", value: raw, children: child.children.map(GEDCOMStructures.recorded)))
                } else if let extra = GEDCOMStructures.complement(child, except: []) {
                    recorded.append(extra)
                }
            case "BIRT" where first, "DEAT" where first:
                // The date is the member's; the event holds the rest.
                let event = GEDCOMStructures.event(child, readingDate: false)
                if GEDCOMStructures.saysMore(event, than: child) || (child.tag == "BIRT" ? births : deaths) > 1 { events.append(event) }
            case "FAMC" where child.pointer == nil, "FAMS" where child.pointer == nil:
                // A void link (the family not recorded) is kept as written.
                recorded.append(GEDCOMStructures.recorded(child))
            case "FAMC":
                let kind = childKind(pedigree: child.first("PEDI"), adopted: false)
                if let extra = GEDCOMStructures.complement(child, except: kind == .birth ? [] : ["PEDI"], value: child.value) { recorded.append(extra) }
            case "FAMS":
                if let extra = GEDCOMStructures.complement(child, except: [], value: child.value) { recorded.append(extra) }
            case "NOTE" where member.notes == nil && child.pointer == nil && child.children.isEmpty && !child.value.isEmpty:
                member.notes = child.value
            case "SOUR":
                member.citations.append(GEDCOMStructures.citation(child))
            case "_FTID" where first:
                continue
            case let tag where GEDCOMStructures.isIndividualEvent(tag) || GEDCOMStructures.isExtensionEvent(child):
                events.append(GEDCOMStructures.event(child))
            default:
                recorded.append(GEDCOMStructures.recorded(child))
            }
        }
        member.events = events
        member.recorded = recorded
    }

    /// What a family's record says beyond partners and children: its events and sources, and
    /// everything else kept as written.
    private func readGenealogy(of record: GEDCOMRecord, into family: inout Family) {
        var seen = TagsSeen()
        let marriages = record.count("MARR")
        let divorces = record.count("DIV")
        for child in record.children {
            let first = seen.insert(child.tag)
            switch child.tag {
            case "HUSB" where child.pointer == nil, "WIFE" where child.pointer == nil, "CHIL" where child.pointer == nil:
                family.recorded.append(GEDCOMStructures.recorded(child))
            case "HUSB", "WIFE", "CHIL":
                if let extra = GEDCOMStructures.complement(child, except: [], value: child.value) { family.recorded.append(extra) }
            case "MARR" where first, "DIV" where first:
                let event = GEDCOMStructures.event(child, readingDate: false)
                if GEDCOMStructures.saysMore(event, than: child) || (child.tag == "MARR" ? marriages : divorces) > 1 { family.events.append(event) }
            case "SOUR":
                family.citations.append(GEDCOMStructures.citation(child))
            case "_FTID" where first, "_FTWIFEFIRST" where first:
                continue
            case let tag where GEDCOMStructures.isFamilyEvent(tag) || GEDCOMStructures.isExtensionEvent(child):
                family.events.append(GEDCOMStructures.event(child))
            default:
                family.recorded.append(GEDCOMStructures.recorded(child))
            }
        }
    }

    /// The sex a SEX value says (anything but M, F and X is unknown).
    static func sex(fromGEDCOM value: String) -> Sex {
        switch value.trimmingSpaces.uppercased() {
        case "M", "MALE": .male
        case "F", "FEMALE": .female
        case "X": .other
        default: .unknown
        }
    }

    /// A GIVN or SURN value: names separated by commas, as GEDCOM lists them, joined by spaces.
    static func nameList(_ value: String) -> String {
        if !value.utf8.contains(0x2C), let plain = singleSpaced(value[...]) { return plain }
        return value.split(separator: ",").map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A name compared without case, spacing and the punctuation files disagree on.
    static func nameKey(_ name: String) -> String {
        // ASCII (most names) byte by byte: its letters lowercased and its digits, as below.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            let kept = name.utf8.compactMap { byte -> UInt8? in
                switch byte {
                case 0x41...0x5A: byte + 0x20
                case 0x61...0x7A, 0x30...0x39: byte
                default: nil
                }
            }
            return String(decoding: kept, as: UTF8.self)
        }
        return String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    }

    /// `text` with each underscore a space (PAF's spaces within a name).
    static func underscoresAsSpaces(_ text: String) -> String {
        text.utf8.contains(0x5F) ? text.replacing("_", with: " ") : text
    }

    /// The quoted nickname in given names and the names without it, when there is one.
    static func quotedNickname(in given: String) -> (nickname: String, rest: String)? {
        guard given.utf8.contains(0x22), let open = given.firstIndex(of: "\""), let close = given[given.index(after: open)...].firstIndex(of: "\"") else { return nil }
        let nickname = given[given.index(after: open)..<close].trimmingSpaces
        guard !nickname.isEmpty else { return nil }
        let rest = (given[..<open] + given[given.index(after: close)...]).split(separator: " ").joined(separator: " ")
        return (nickname, rest)
    }

    /// A surname written in capitals ("KENNEDY", "O'BRIEN") in title case ("Kennedy", "O'Brien");
    /// one in mixed case is left as written.
    static func titleCased(_ surname: String) -> String {
        guard surname.contains(where: \.isLetter), surname == surname.uppercased() else { return surname }
        var result = ""
        var startOfWord = true
        for character in surname {
            result += startOfWord ? character.uppercased() : character.lowercased()
            startOfWord = !character.isLetter
        }
        return result
    }

    /// `Given /Surname/ Suffix`, with the quirks of real files (`Charlemagne  //`, no space before the slash).
    static func nameParts(_ value: String) -> (given: String, surname: String, suffix: String) {
        // In ASCII every character is one byte (but CR LF, neither a slash nor a space): the
        // bytes split as the characters do, and much faster.
        let pieces = value.utf8.allSatisfy({ $0 < 0x80 })
            ? value.utf8.split(separator: 0x2F, maxSplits: 2, omittingEmptySubsequences: false).map { Substring($0) }
            : value.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        func clean(_ text: Substring) -> String {
            singleSpaced(text) ?? text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        }
        switch pieces.count {
        case 1: return (clean(pieces[0]), "", "")
        case 2: return (clean(pieces[0]), clean(pieces[1]), "")
        default: return (clean(pieces[0]), clean(pieces[1]), clean(pieces[2]))
        }
    }

    /// `text` as it is when its words are already single-spaced (no tab, no space at either end, no
    /// two spaces together): what splitting it at spaces and tabs and joining the words with one
    /// space gives. `nil` when it is not, and the words must be split.
    static func singleSpaced(_ text: Substring) -> String? {
        let bytes = text.utf8
        guard bytes.first != 0x20, bytes.last != 0x20 else { return nil }
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x09 || (byte == 0x20 && previous == 0x20) { return nil }
            previous = byte
        }
        return String(text)
    }
}

/// The tags a record's reading has met: a handful, so a list searched in turn, not a hashed set.
struct TagsSeen {
    private var tags: [String] = []

    /// Whether `tag` is new (and now seen).
    mutating func insert(_ tag: String) -> Bool {
        guard !tags.contains(tag) else { return false }
        tags.append(tag)
        return true
    }
}
