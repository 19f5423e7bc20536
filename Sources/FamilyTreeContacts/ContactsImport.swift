import FamilyTree

/// Something the import could not place as the cards say, for `familytree import --report`.
public struct ContactsReportEntry: Sendable, Hashable, CustomStringConvertible {
    /// What a report entry is about.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A related name or URI that matches no card.
        case unmatched
        /// A related name that matches several cards: no link is made.
        case ambiguous
        /// Relations that contradict each other or the tree's rules (a cycle, a third parent).
        case conflict
        /// A link the import made from what the cards imply (the spouse of a child's only named parent).
        case inferred
        /// A relation the tree cannot show (`kin`, siblings with no parent on any card).
        case unplaced
        /// A second card with a UID already read.
        case duplicate
        /// A field changed both in the tree and on the card since the last pull: the card's value
        /// was taken, and the entry names the tree's.
        case overwritten
    }

    /// What the entry is about.
    public var kind: Kind
    /// The line of the card (or of the relation on it).
    public var line: Int
    /// The name on the card.
    public var card: String
    /// The entry in words.
    public var message: String

    /// `line 12 (Jane Doe): unmatched: ...`; entries about the tree rather than a card have no line (0).
    public var description: String { "\(line > 0 ? "line \(line) " : "")(\(card)): \(kind.rawValue): \(message)" }

    /// Counts by kind, in the order of `Kind`: `2 inferred, 1 unmatched`; empty for no entries.
    public static func counts(of entries: [ContactsReportEntry]) -> String {
        Kind.allCases.compactMap { kind in
            let count = entries.count { $0.kind == kind }
            return count == 0 ? nil : "\(count) \(kind.rawValue)"
        }.joined(separator: ", ")
    }
}

/// Contact cards turned into a tree: one member per card, unions from the relations between cards.
///
/// Related names are matched to cards by full name, then nickname, then first name; a name that
/// matches no card, or several at the first level that matches, is reported and never linked.
public struct ContactsImport: Sendable {
    /// Members in card order and the unions the relations make (ids start `contacts:`).
    public var document: TreeDocument
    /// Relations that could not be drawn, card by card.
    public var report: [ContactsReportEntry]
    /// Problems reading the cards (skipped lines, bad dates).
    public var warnings: [VCardWarning]
    /// How many cards were read.
    public var cardCount: Int
    /// Members whose sex was read off a relative's label (`Mother`, `Son`) because their own card has none.
    public var membersWithHintedSex: Set<Member.ID>

    /// Union ids the import makes start with this, so a re-import knows which unions are its own.
    public static let unionPrefix = "contacts:"

    /// Reads the cards in a vCard file.
    public init(bytes: [UInt8]) {
        var parser = VCardParser()
        let cards = parser.parse(bytes)
        self.init(cards: cards, warnings: parser.warnings)
    }

    /// The tree the cards make.
    public init(cards: [VCard], warnings: [VCardWarning] = []) {
        var builder = ContactsTreeBuilder(cards: cards)
        builder.build()
        document = TreeDocument(members: builder.people.map(\.member), unions: builder.unions)
        membersWithHintedSex = Set(builder.hintedSex.map { builder.people[$0].member.id })
        report = builder.report
        self.warnings = warnings
        cardCount = cards.count
    }
}

/// Builds the tree: reads the cards, resolves relations, makes unions.
struct ContactsTreeBuilder {
    private let cards: [VCard]
    private(set) var people: [ContactPerson] = []
    private(set) var unions: [Union] = []
    private(set) var report: [ContactsReportEntry] = []

    private var parents: [[Int]] = []
    private var spouses: [[Int]] = []
    private var siblingRoot: [Int] = []
    private var sexHints: [Int: Sex?] = [:]
    /// People whose sex comes from another card's label (`Mother`), not their own card.
    private(set) var hintedSex: Set<Int> = []

    init(cards: [VCard]) { self.cards = cards }

    mutating func build() {
        readPeople()
        parents = Array(repeating: [], count: people.count)
        spouses = Array(repeating: [], count: people.count)
        siblingRoot = Array(people.indices)
        resolveRelations()
        applySexHints()
        makeUnions()
        placeAnniversaries()
        for index in people.indices {
            // A sex read off another card's label is no change of this card.
            var ownCard = people[index].member
            if hintedSex.contains(index) { ownCard.sex = nil }
            people[index].member.contact?.fingerprint = Self.fingerprint(of: ownCard)
        }
    }

    private mutating func note(_ kind: ContactsReportEntry.Kind, _ person: Int, line: Int? = nil, _ message: String) {
        report.append(ContactsReportEntry(kind: kind, line: line ?? people[person].line, card: people[person].member.fullName, message: message))
    }

    // MARK: Cards

    private mutating func readPeople() {
        var usedIDs: Set<String> = []
        var seenUIDs: [String: String] = [:]
        for card in cards {
            let rawUID = card.first("UID")?.text.trimmingSpaces ?? ""
            var person = ContactCardReader(card: card).read(id: "", uid: "")
            let nameKey = Self.normalized(person.member.fullName.isEmpty ? person.formattedName : person.member.fullName)
            let uid = rawUID.isEmpty ? "name:\(nameKey)" : rawUID
            if let first = seenUIDs[uid] {
                report.append(ContactsReportEntry(kind: .duplicate, line: card.line, card: person.member.fullName, message: "the same contact as \(first) (UID \(uid)): this card is skipped"))
                continue
            }
            seenUIDs[uid] = person.member.fullName
            var base = rawUID.isEmpty ? "contact-" + Self.slug(nameKey) : rawUID
            if base.lowercased().hasPrefix("urn:uuid:") { base = String(base.dropFirst(9)) }
            if base.isEmpty || base == "contact-" { base = "contact" }
            var id = base
            var suffix = 2
            while usedIDs.contains(id) {
                id = "\(base)-\(suffix)"
                suffix += 1
            }
            usedIDs.insert(id)
            person.member.id = id
            person.member.contact?.uid = uid
            people.append(person)
        }
    }

    static func normalized(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
    }

    static func slug(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isLetter || character.isNumber {
                result.append(character)
            } else if result.last != "-", !result.isEmpty {
                result.append("-")
            }
        }
        while result.last == "-" { result.removeLast() }
        return result
    }

    // MARK: Relations

    private mutating func resolveRelations() {
        // Names by the one rule every lookup uses; the card's formatted name counts as a full name.
        let names = NameIndex(people.map(\.member), otherNames: Dictionary(uniqueKeysWithValues: people.indices.map { ($0, [people[$0].formattedName]) }))
        var byUID: [String: [Int]] = [:]
        var byEmail: [String: [Int]] = [:]
        func add(_ key: String, _ index: Int, to table: inout [String: [Int]]) {
            let key = Self.normalized(key)
            guard !key.isEmpty, table[key]?.last != index else { return }
            table[key, default: []].append(index)
        }
        for (index, person) in people.enumerated() {
            if let uid = person.uidKey { add(uid, index, to: &byUID) }
            for email in person.emails { add(email, index, to: &byEmail) }
        }
        for index in people.indices {
            for relation in people[index].relations {
                let candidates: [Int]
                let written: String
                switch relation.target {
                case .uid(let uid):
                    (candidates, written) = (byUID[uid] ?? [], uid)
                case .email(let email):
                    (candidates, written) = (byEmail[email] ?? [], email)
                case .name(let name):
                    (candidates, written) = (names.tiers(for: name).first { Self.count(of: $0, without: index) > 0 } ?? [], name)
                }
                let othersCount = Self.count(of: candidates, without: index)
                guard let other = candidates.first(where: { $0 != index }) else {
                    note(.unmatched, index, line: relation.line, "\(relation.label) \"\(written)\" matches no card")
                    continue
                }
                guard othersCount == 1 else {
                    // A few names say enough; thousands of cards sharing a name must not make the report quadratic.
                    let shown = Array(candidates.lazy.filter { $0 != index }.prefix(Self.namesShown))
                    var names = shown.map { "\(people[$0].member.fullName) (line \(people[$0].line))" }.joined(separator: ", ")
                    if othersCount > Self.namesShown { names += " and \(othersCount - Self.namesShown) more" }
                    note(.ambiguous, index, line: relation.line, "\(relation.label) \"\(written)\" matches \(othersCount) cards: \(names); not linked")
                    continue
                }
                link(index, other, relation)
            }
            for relation in people[index].unplaced {
                note(.unplaced, index, line: relation.line, "\(relation.label) names a relative of no kind the tree can draw")
                // Not drawn, but "Grandma" still says the named card is a woman.
                if let sex = relation.sexOfTarget, case .name(let name) = relation.target {
                    let matches = names.matches(for: name, excluding: index)
                    if matches.count == 1 { hint(sex, for: matches[0]) }
                }
            }
        }
    }

    /// How many cards an ambiguous relation names in the report.
    static let namesShown = 5

    /// The number of entries of `indices` (ascending, each once) other than `index`, by binary search.
    static func count(of indices: [Int], without index: Int) -> Int {
        var low = 0
        var high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < index { low = middle + 1 } else { high = middle }
        }
        return indices.count - (low < indices.count && indices[low] == index ? 1 : 0)
    }

    private mutating func link(_ person: Int, _ other: Int, _ relation: CardRelation) {
        switch relation.kind {
        case .parent: if !parents[person].contains(other) { parents[person].append(other) }
        case .child: if !parents[other].contains(person) { parents[other].append(person) }
        case .spouse:
            if !spouses[person].contains(other) { spouses[person].append(other) }
            if !spouses[other].contains(person) { spouses[other].append(person) }
        case .sibling:
            let (first, second) = (root(person), root(other))
            if first != second { siblingRoot[max(first, second)] = min(first, second) }
        }
        if let sex = relation.sexOfTarget { hint(sex, for: other) }
    }

    /// Records that a label names `person` as `sex`; labels that disagree leave it unknown.
    private mutating func hint(_ sex: Sex, for person: Int) {
        if let hinted = sexHints[person], hinted != sex { sexHints[person] = .some(nil) } else if sexHints[person] == nil { sexHints[person] = sex }
    }

    private mutating func root(_ index: Int) -> Int {
        var index = index
        while siblingRoot[index] != index {
            siblingRoot[index] = siblingRoot[siblingRoot[index]]
            index = siblingRoot[index]
        }
        return index
    }

    private mutating func applySexHints() {
        for (index, hint) in sexHints.sorted(by: { $0.key < $1.key }) where people[index].member.sex == nil {
            if let hint {
                people[index].member.sex = hint
                hintedSex.insert(index)
            }
        }
    }

    // MARK: Unions

    private mutating func makeUnions() {
        // Siblings share their parents: the parents any of them names are all of theirs, unless that makes more than two.
        var groups: [Int: [Int]] = [:]
        for index in people.indices { groups[root(index), default: []].append(index) }
        var parentsOf = parents
        for (_, members) in groups.sorted(by: { $0.key < $1.key }) where members.count > 1 {
            var shared: [Int] = []
            for member in members { for parent in parents[member] where !shared.contains(parent) && !members.contains(parent) { shared.append(parent) } }
            if shared.isEmpty {
                let names = members.map { people[$0].member.fullName }.joined(separator: ", ")
                note(.unplaced, members[0], "siblings \(names) have no parent on any card: they are not linked")
            } else if shared.count > 2 {
                let names = members.map { people[$0].member.fullName }.joined(separator: ", ")
                note(.conflict, members[0], "siblings \(names) name \(shared.count) different parents between them: each keeps the parents on its own cards")
            } else {
                for member in members { parentsOf[member] = shared }
            }
        }
        var unionIndex: [[Int]: Int] = [:]
        func union(of partners: [Int]) -> Int {
            let key = partners.sorted()
            if let existing = unionIndex[key] { return existing }
            unionIndex[key] = unions.count
            let ids = key.map { people[$0].member.id }
            unions.append(Union(id: ContactsImport.unionPrefix + ids.joined(separator: "+"), partners: partners.map { people[$0].member.id }))
            return unions.count - 1
        }
        for index in people.indices {
            for spouse in spouses[index] where spouse > index { _ = union(of: [index, spouse]) }
        }
        var childrenOf: [[Int]] = Array(repeating: [], count: people.count)
        for child in people.indices {
            var childParents = parentsOf[child]
            if childParents.count > 2 {
                let names = childParents.map { people[$0].member.fullName }.joined(separator: ", ")
                note(.conflict, child, "\(childParents.count) parents named (\(names)): the first two are kept")
                childParents = Array(childParents.prefix(2))
            }
            if childParents.count == 1, spouses[childParents[0]].count == 1 {
                let other = spouses[childParents[0]][0]
                if other != child {
                    note(.inferred, child, "only \(people[childParents[0]].member.fullName) is named as a parent; \(people[other].member.fullName), their spouse, is taken as the other")
                    childParents.append(other)
                }
            }
            // A parent who is already the child's descendant would close a cycle.
            childParents.removeAll { parent in
                guard isDescendant(parent, of: child, childrenOf: childrenOf) else { return false }
                note(.conflict, child, "\(people[parent].member.fullName) is named as a parent but is a descendant: that link is left out")
                return true
            }
            guard !childParents.isEmpty else { continue }
            let position = union(of: childParents)
            unions[position].children.append(ChildLink(people[child].member.id))
            for parent in childParents { childrenOf[parent].append(child) }
        }
    }

    private func isDescendant(_ candidate: Int, of ancestor: Int, childrenOf: [[Int]]) -> Bool {
        var stack = [ancestor]
        var seen: Set<Int> = [ancestor]
        while let next = stack.popLast() {
            if next == candidate { return true }
            for child in childrenOf[next] where seen.insert(child).inserted { stack.append(child) }
        }
        return false
    }

    private mutating func placeAnniversaries() {
        for index in people.indices {
            for (date, line) in people[index].anniversaries {
                let id = people[index].member.id
                let couples = unions.indices.filter { unions[$0].partners.count == 2 && unions[$0].partners.contains(id) }
                if couples.count == 1 {
                    let position = couples[0]
                    if let existing = unions[position].marriage, existing != date {
                        note(.conflict, index, line: line, "anniversary \(date) differs from \(existing) on the spouse's card: \(existing) is kept")
                    } else {
                        unions[position].marriage = date
                    }
                } else {
                    people[index].member.contact?.dates.append(LabeledValue(label: "Anniversary", value: date.description))
                    if couples.count > 1 {
                        note(.unplaced, index, line: line, "anniversary \(date) with \(couples.count) spouses on the cards: kept on the card, not on a marriage")
                    }
                }
            }
        }
    }

    /// A stable hash of the member's tree.json, without the fingerprint itself.
    static func fingerprint(of member: Member) -> String {
        var plain = member
        plain.contact?.fingerprint = nil
        return StableHash.fnv1a64(JSONWriter.string(from: plain.jsonValue))
    }
}
