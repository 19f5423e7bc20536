/// Who counts as living, for hiding the living before a chart or a file is published.
///
/// A person is living unless a death date or death phrase is recorded, or they were born more
/// than `maximumAge` years ago, or (no birth year known) a child of theirs was born more than
/// `childBornYearsAgo` years ago or a parent more than `parentBornYearsAgo` years ago.
public struct LivingRule: Sendable, Hashable {
    /// A person born fewer than this many years ago, with no date of death, is taken to be living.
    public var maximumAge: Int
    /// A person with a child born fewer than this many years ago is taken to be living.
    public var childBornYearsAgo: Int
    /// A person with a parent born fewer than this many years ago is taken to be living.
    public var parentBornYearsAgo: Int

    /// The rule with the given limits (the defaults are the README's).
    public init(maximumAge: Int = 110, childBornYearsAgo: Int = 90, parentBornYearsAgo: Int = 130) {
        self.maximumAge = maximumAge
        self.childBornYearsAgo = childBornYearsAgo
        self.parentBornYearsAgo = parentBornYearsAgo
    }

    /// Whether `member` is known or taken to be dead on `today` (a day number) by their own
    /// record: a death recorded (a date or a phrase), or a birth more than `maximumAge` years
    /// before. Birthday lists, calendars and ages read it, so no one "turns 141"; `living(in:today:)`
    /// also reads the family.
    public func isDead(_ member: Member, on today: Int) -> Bool {
        member.deathDate != nil || member.deathPhrase != nil || Self.bornBefore(member, yearsAgo: maximumAge, today: today)
    }

    /// The last calendar year `member` may be living in by their birth alone: the year their birth
    /// can last be, plus `maximumAge`; `nil` when no birth is known. A calendar celebrates no one
    /// past it.
    public func lastYearLiving(_ member: Member) -> Int? {
        member.birthday?.possibleDays.map { CalendarDate.date(fromDayNumber: $0.upperBound).year + maximumAge }
    }

    /// Whether the latest day `member`'s birth can be ("1900" counts from its last day, "about
    /// 1900" from 1905) lies more than `yearsAgo` years before `today`.
    private static func bornBefore(_ member: Member, yearsAgo: Int, today: Int) -> Bool {
        guard let latest = member.birthday?.possibleDays?.upperBound else { return false }
        return latest < today - Int((Double(yearsAgo) * 365.2425).rounded(.up))
    }

    /// Which members of `graph` count as living on `today` (a day number), by position.
    public func living(in graph: FamilyGraph, today: Int) -> [Bool] {
        func bornBefore(_ member: Member, yearsAgo: Int) -> Bool { Self.bornBefore(member, yearsAgo: yearsAgo, today: today) }
        var children = Array(repeating: [Int](), count: graph.members.count)
        for (union, kids) in graph.topology.children.enumerated() {
            for partner in graph.topology.partners[union] { children[partner] += kids }
        }
        return graph.members.indices.map { index in
            let member = graph.members[index]
            if isDead(member, on: today) { return false }
            if member.birthday?.possibleDays != nil { return true }
            if children[index].contains(where: { bornBefore(graph.members[$0], yearsAgo: childBornYearsAgo) }) { return false }
            if graph.parents(ofMemberAt: index).contains(where: { bornBefore(graph.members[$0], yearsAgo: parentBornYearsAgo) }) { return false }
            return true
        }
    }
}

/// What of a living person's name a private chart keeps.
public enum PrivateNames: String, Sendable, Hashable, CaseIterable {
    /// "Living Müller".
    case surname
    /// "Living".
    case none
}

extension FamilyGraph {
    /// The tree with every living person reduced to "Living" (and their surname, if kept): no
    /// other names, dates, sex, box colour, photo, notes, events, places, sources or contact
    /// details, and an id that says nothing
    /// (`living-1`, ...). Unions with a living partner lose their dates and get plain ids too. The
    /// structure (who is whose child and partner) stays, so the chart keeps its shape.
    public func privatizingLiving(_ living: [Bool], names: PrivateNames = .surname) -> (graph: FamilyGraph, privateIDs: Set<Member.ID>) {
        // Plain ids no record already uses.
        func freshIDs(_ prefix: String, count: Int, taken: Set<String>) -> [String] {
            var result: [String] = []
            var number = 0
            while result.count < count {
                number += 1
                if !taken.contains("\(prefix)\(number)") { result.append("\(prefix)\(number)") }
            }
            return result
        }
        var newID: [Member.ID: Member.ID] = [:]
        let livingIDs = members.indices.filter { living[$0] }.map { members[$0].id }
        for (old, new) in zip(livingIDs, freshIDs("living-", count: livingIDs.count, taken: Set(members.map(\.id)))) { newID[old] = new }
        guard !newID.isEmpty else { return (self, []) }
        func mapped(_ id: Member.ID) -> Member.ID { newID[id] ?? id }
        let newMembers = members.enumerated().map { index, member -> Member in
            guard living[index] else { return member }
            // No sex and no colour either: a box's colour is whatever its maker meant by it.
            var hidden = Member(id: mapped(member.id), firstName: "Living", lastName: names == .surname ? member.lastName : nil)
            hidden.isTopOfBloodline = member.isTopOfBloodline
            hidden.isMarriedIntoFamily = member.isMarriedIntoFamily
            return hidden
        }
        let privateUnions = unions.indices.filter { unions[$0].partners.contains { newID[$0] != nil } }
        var unionIDs = Dictionary(uniqueKeysWithValues: zip(privateUnions, freshIDs("private-union-", count: privateUnions.count, taken: Set(unions.map(\.id)))))
        let newUnions = unions.enumerated().map { index, union -> Union in
            var copy = union
            copy.partners = union.partners.map(mapped)
            copy.children = union.children.map { ChildLink(mapped($0.member), kind: $0.kind) }
            if let id = unionIDs.removeValue(forKey: index) {
                copy.id = id
                copy.marriage = nil
                copy.divorce = nil
                copy.marriagePhrase = nil
                copy.divorcePhrase = nil
                copy.events = []
                copy.citations = []
                copy.recorded = []
            }
            return copy
        }
        let privateLinks = crossBloodlineConnections.indices.filter { newID[crossBloodlineConnections[$0].fromChild] != nil || newID[crossBloodlineConnections[$0].toNewParent] != nil }
        var linkIDs = Dictionary(uniqueKeysWithValues: zip(privateLinks, freshIDs("private-link-", count: privateLinks.count, taken: Set(crossBloodlineConnections.map(\.id)))))
        let newConnections = crossBloodlineConnections.enumerated().map { index, connection -> CrossBloodlineConnection in
            guard let id = linkIDs.removeValue(forKey: index) else { return connection }
            return CrossBloodlineConnection(id: id, fromChild: mapped(connection.fromChild), toNewParent: mapped(connection.toNewParent))
        }
        // The same structure with other ids and fewer fields is valid as before.
        var document = TreeDocument(members: newMembers, unions: newUnions, crossBloodlineConnections: newConnections)
        document.sources = sources
        document.genealogyFile = genealogyFile
        let graph = try! FamilyGraph(document: document)
        return (graph, Set(newID.values))
    }
}
