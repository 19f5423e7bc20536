/// Generates realistic family trees for tests and benchmarks, deterministically from a seed.
///
/// Founder couples start bloodlines; each generation's descendants marry people who marry in,
/// now and then a cousin or someone of another line, sometimes remarry, and have 0–6 children
/// listed in random order (the graph sorts them). Birthdays come in every partial form, and some
/// children gain a cross-bloodline connection to another family of their parents' generation.
/// Each sibling group has at most one member who marries within the tree, so the sibling-order
/// constraints of the layout can always all be met.
package struct TreeGenerator: Sendable {
    /// How many members the generated tree has.
    package var memberCount: Int
    /// The random seed: the same seed always gives the same tree.
    package var seed: UInt64

    /// A generator of `memberCount` members from `seed`.
    package init(memberCount: Int, seed: UInt64 = 1) {
        self.memberCount = max(1, memberCount)
        self.seed = seed
    }

    /// The generated tree: valid, deterministic for the seed.
    package func generate() -> TreeDocument {
        var state = GenerationState(limit: memberCount, rng: SplitMix64(seed: seed))
        state.run()
        return TreeDocument(members: state.members, unions: state.unions, crossBloodlineConnections: state.connections)
    }
}

private struct GenerationState {
    let limit: Int
    var rng: SplitMix64
    var members: [Member] = []
    var unions: [Union] = []
    var connections: [CrossBloodlineConnection] = []
    var birthYear: [Int] = []
    var parentUnion: [Int] = []
    var unionCount: [Int] = []
    var unionPartners: [[Int]] = []
    /// Parent unions whose children already include one in-tree marriage.
    var groupsWithInTreeMarriage: Set<Int> = []

    static let maleNames = ["John", "William", "James", "George", "Charles", "Thomas", "Henry", "Jörg", "Edward", "Robert", "Peter", "Paul", "Jan", "Karl", "Søren", "Pierre", "Louis", "Antonio", "José", "Łukasz"]
    static let femaleNames = ["Mary", "Anna", "Elizabeth", "Margaret", "Sarah", "Zoë", "Jane", "Emma", "Alice", "María", "Johanna", "Sophie", "Louise", "Renée", "Rosa", "Clara", "Agnes", "Helena", "Ida", "Martha"]
    static let lastNames = ["Smith", "Jones", "Brown", "Miller", "Wilson", "Taylor", "Clark", "Walker", "Wright", "Green", "Baker", "Hill", "Meyer", "Schmidt", "Müller", "Weber", "Fischer", "Dubois", "Martin", "Rossi", "Novák", "Kowalski", "Jansen", "Visser", "O'Brien"]

    init(limit: Int, rng: SplitMix64) {
        self.limit = limit
        self.rng = rng
    }

    var isFull: Bool { members.count >= limit }

    mutating func run() {
        // About 4 generations for 100 members, 6 for 1,000, 10 for 100,000 (as the peers' generator).
        var generationCount = 0
        var remaining = max(limit, 10)
        while remaining >= 10 { remaining /= 10; generationCount += 2 }
        generationCount = max(3, generationCount)
        let growth = 1.9
        var perFounder = 0.0
        var power = 1.0
        for _ in 0..<generationCount { perFounder += power; power *= growth }
        perFounder *= 2 * 1.8
        let founderCount = max(1, Int((Double(limit) / perFounder).rounded()))
        var generation: [Int] = []
        for _ in 0..<founderCount where !isFull {
            let founder = addPerson(year: 1650 + Int.random(in: 0..<30, using: &rng), parent: -1, marriedIn: false)
            members[founder].isTopOfBloodline = true
            generation.append(founder)
        }
        var depth = 0
        while !isFull {
            var next: [Int] = []
            for person in generation where !isFull {
                guard unionCount[person] == 0, rng.chance(0.8) || depth == 0 else { continue }
                let spouse = findInTreeSpouse(for: person, among: generation) ?? addOutsider(near: person)
                guard let spouse else { break }
                next += marry(person, spouse)
                if rng.chance(0.07), !isFull, let second = addOutsider(near: person) {
                    next += marry(person, second)
                }
            }
            if next.isEmpty, !isFull {
                // The line died out before reaching the size: start a new bloodline.
                let founder = addPerson(year: 1650 + 25 * depth, parent: -1, marriedIn: false)
                members[founder].isTopOfBloodline = true
                next = [founder]
            }
            generation = next
            depth += 1
        }
    }

    /// A cousin or a member of another line, now and then; never two in-tree marriages per sibling group.
    mutating func findInTreeSpouse(for person: Int, among generation: [Int]) -> Int? {
        let group = parentUnion[person]
        guard group >= 0, !groupsWithInTreeMarriage.contains(group), rng.chance(0.05) else { return nil }
        for _ in 0..<8 {
            let candidate = generation[Int.random(in: 0..<generation.count, using: &rng)]
            let candidateGroup = parentUnion[candidate]
            guard candidate != person, candidateGroup >= 0, candidateGroup != group, unionCount[candidate] == 0,
                  !groupsWithInTreeMarriage.contains(candidateGroup), members[candidate].sex != members[person].sex
            else { continue }
            groupsWithInTreeMarriage.insert(group)
            groupsWithInTreeMarriage.insert(candidateGroup)
            return candidate
        }
        return nil
    }

    mutating func addOutsider(near person: Int) -> Int? {
        guard !isFull else { return nil }
        let spouse = addPerson(year: birthYear[person] + Int.random(in: -6...6, using: &rng), parent: -1, marriedIn: true, oppositeOf: members[person].sex)
        return spouse
    }

    /// Marries two people and gives them children; returns the children.
    mutating func marry(_ first: Int, _ second: Int) -> [Int] {
        unionCount[first] += 1
        unionCount[second] += 1
        let union = unions.count
        let marriageYear = max(birthYear[first], birthYear[second]) + Int.random(in: 18...30, using: &rng)
        var record = Union(id: "u\(union + 1)", partners: [members[first].id, members[second].id])
        if rng.chance(0.5) { record.marriage = .exact(CalendarDate(year: marriageYear)!) }
        unions.append(record)
        unionPartners.append([first, second])
        let count = (0..<6).filter { _ in rng.chance(0.42) }.count
        var children: [Int] = []
        for _ in 0..<count where !isFull {
            let child = addPerson(year: marriageYear + Int.random(in: 1...18, using: &rng), parent: union, marriedIn: false)
            let kind: ChildKind = rng.chance(0.03) ? .adopted : .birth
            unions[union].children.append(ChildLink(members[child].id, kind: kind))
            children.append(child)
            if rng.chance(0.01), let other = unions.indices.randomElement(using: &rng), other != union {
                // Another family of the parents' generation takes the child in too.
                let parentIndex = unionPartners[other][0]
                if !unionPartners[union].contains(parentIndex), birthYear[parentIndex] < birthYear[child] - 15, parentUnion[parentIndex] != union {
                    connections.append(CrossBloodlineConnection(id: "c\(connections.count + 1)", fromChild: members[child].id, toNewParent: members[parentIndex].id))
                }
            }
        }
        return children
    }

    mutating func addPerson(year: Int, parent: Int, marriedIn: Bool, oppositeOf other: Sex? = nil) -> Int {
        let index = members.count
        let sex: Sex = other == .male ? .female : other == .female ? .male : (rng.chance(0.5) ? .male : .female)
        let names = sex == .male ? GenerationState.maleNames : GenerationState.femaleNames
        let lastName: String
        if parent >= 0 {
            lastName = members[unionPartners[parent][0]].lastName ?? GenerationState.lastNames[0]
        } else {
            lastName = GenerationState.lastNames.randomElement(using: &rng)!
        }
        var member = Member(id: "p\(index + 1)", firstName: names.randomElement(using: &rng)!, lastName: lastName, sex: sex, isMarriedIntoFamily: marriedIn)
        member.birthday = randomBirthday(year: year)
        if year < 1950, rng.chance(0.7) {
            member.deathDate = .exact(CalendarDate(year: min(2025, year + Int.random(in: 1...90, using: &rng)))!)
        }
        members.append(member)
        birthYear.append(year)
        parentUnion.append(parent)
        unionCount.append(0)
        return index
    }

    /// A birthday in one of the forms people really record.
    mutating func randomBirthday(year: Int) -> PartialDate? {
        let month = Int.random(in: 1...12, using: &rng)
        let day = Int.random(in: 1...28, using: &rng)
        let roll = Double.random(in: 0..<1, using: &rng)
        switch roll {
        case ..<0.68: return .exact(CalendarDate(year: year, month: month, day: day)!)
        case ..<0.76: return .exact(CalendarDate(year: year)!)
        case ..<0.81: return .exact(CalendarDate(year: year, month: month)!)
        case ..<0.86: return .exact(CalendarDate(month: month, day: day)!)
        case ..<0.90: return .about(CalendarDate(year: year)!)
        case ..<0.92: return .before(CalendarDate(year: year + 1)!)
        case ..<0.94: return .after(CalendarDate(year: year - 1)!)
        case ..<0.95: return .between(CalendarDate(year: year - 1)!, CalendarDate(year: year + 1)!)
        default: return nil
        }
    }
}
