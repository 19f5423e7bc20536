/// How one person (B) is related to another (A): a value an app can word in any language;
/// `english` words it in English.
public struct Relationship: Sendable, Hashable {
    /// The shape of the relationship, from A's side: `.ancestor(2)` means B is A's grandparent.
    public enum Kind: Sendable, Hashable {
        /// B is A.
        case same
        /// B is A's parent (1), grandparent (2), great-grandparent (3), ...
        case ancestor(generations: Int)
        /// B is A's child (1), grandchild (2), ...
        case descendant(generations: Int)
        /// B is A's brother or sister.
        case sibling
        /// B is A's sibling's child (1: niece or nephew), grandchild (2), ...
        case siblingsDescendant(generations: Int)
        /// B is A's parent's sibling (1: aunt or uncle), grandparent's sibling (2), ...
        case ancestorsSibling(generations: Int)
        /// B is A's cousin of a degree (1: first cousins share grandparents), removed by generations.
        case cousin(degree: Int, removed: Int)
        /// B is (or, `former`, was) A's spouse or partner.
        case spouse(former: Bool)
        /// B is A's spouse's parent.
        case parentInLaw
        /// B is A's child's spouse.
        case childInLaw
        /// B is A's spouse's sibling, or A's sibling's spouse.
        case siblingInLaw
        /// B is A's parent's spouse who is not A's parent.
        case stepParent
        /// B is A's spouse's child who is not A's child.
        case stepChild
        /// B is A's step-parent's child who shares no parent with A.
        case stepSibling

        /// The blood relationship of B to A through a common ancestor `i` generations above A and
        /// `j` above B (0 being the person: A's ancestor B is `(i, 0)`, A is `(0, 0)`; below 0 is 0).
        public init(ancestorAbove i: Int, andAbove j: Int) {
            switch (max(i, 0), max(j, 0)) {
            case (0, 0): self = .same
            case (0, let n): self = .descendant(generations: n)
            case (let n, 0): self = .ancestor(generations: n)
            case (1, 1): self = .sibling
            case (1, let n): self = .siblingsDescendant(generations: n - 1)
            case (let n, 1): self = .ancestorsSibling(generations: n - 1)
            default: self = .cousin(degree: min(i, j) - 1, removed: abs(i - j))
            }
        }
    }

    /// What the relationship is.
    public var kind: Kind
    /// Blood relatives through one shared parent only (half-siblings and their lines).
    public var isHalf = false
    /// Related twice over the same way (double first cousins: two couples of common grandparents).
    public var isDouble = false
    /// The line passes through an adopted child.
    public var isByAdoption = false
    /// The line passes through a foster child (and no adopted one).
    public var isByFostering = false
    /// B's sex, for the words (aunt or uncle); `nil` words it neutrally.
    public var sex: Sex?
    /// The common ancestors the blood relationship goes through (member positions).
    public var commonAncestors: [Int] = []
    /// The people from A to B through a common ancestor (member positions), for blood relatives.
    public var path: [Int] = []

    /// A relationship of `kind` to a person of `sex` (which only chooses the words).
    public init(kind: Kind, sex: Sex? = nil) {
        self.kind = kind
        self.sex = sex
    }

    /// Whether the two share blood: one descends from the other, or both from a common ancestor
    /// (not a spouse, an in-law or a step relation).
    public var isByBlood: Bool {
        switch kind {
        case .same, .ancestor, .descendant, .sibling, .siblingsDescendant, .ancestorsSibling, .cousin: true
        case .spouse, .parentInLaw, .childInLaw, .siblingInLaw, .stepParent, .stepChild, .stepSibling: false
        }
    }

    /// Generations between A and B plus one for each marriage: smaller is closer.
    var distance: Int {
        switch kind {
        case .same: 0
        case .spouse: 1
        case .ancestor(let n), .descendant(let n): n
        case .sibling: 2
        case .siblingsDescendant(let n), .ancestorsSibling(let n): n + 2
        case .cousin(let degree, let removed): 2 * degree + 2 + removed
        case .parentInLaw, .childInLaw, .stepParent, .stepChild: 2
        case .siblingInLaw, .stepSibling: 3
        }
    }
}

/// Finds every way two members of a graph are related: by blood (through their lowest common
/// ancestors, each relationship once however many paths lead to it), by marriage, by step.
public struct RelationshipCalculator: Sendable {
    /// The family the relationships are found in.
    public let graph: FamilyGraph
    /// Each member's parents and how the child is tied to them; step ties are left out.
    let parents: [[(parent: Int, kind: ChildKind)]]
    /// Each member's children, step ties left out (the other side of `parents`).
    let children: [[Int]]
    /// How many (ancestor, generation) pairs one person's ancestry may hold. Lines are followed
    /// as far as they go (an imperial line of 125 generations); only a tree whose lines rejoin at
    /// nearly every generation (each child of the two before it, say, which grows with the square
    /// of the generations) meets this bound, and `search(from:to:)` then says the answer is not
    /// known rather than "not related".
    public static let ancestryBudget = 1_000_000
    /// How many such pairs the ancestries of all the members of one `relationships(from:toEach:)`
    /// or `closestRelationships(from:toEach:)` may hold together: past it, a member's lines are
    /// followed only as far as the pairs left allow (the member met then is not searched past
    /// that, the members after by marriage only), so no file makes a chart's labels take hours
    /// (one line of 100,000 generations: each person's line followed to its end would be 5
    /// billion pairs).
    public static let everyoneBudget = 20_000_000

    /// A calculator over `graph`; each person's ancestry is read once and cached per query.
    public init(_ graph: FamilyGraph) {
        self.graph = graph
        var parents = Array(repeating: [(parent: Int, kind: ChildKind)](), count: graph.members.count)
        var children = Array(repeating: [Int](), count: graph.members.count)
        let topology = graph.topology
        for (union, childIndices) in topology.children.enumerated() {
            for (child, link) in zip(childIndices, graph.unions[union].children) where link.kind != .step {
                for partner in topology.partners[union] where !parents[child].contains(where: { $0.parent == partner }) {
                    parents[child].append((partner, link.kind))
                    children[partner].append(child)
                }
            }
        }
        for link in topology.crossLinks where !parents[link.child].contains(where: { $0.parent == link.parent }) {
            parents[link.child].append((link.parent, .birth))
            children[link.parent].append(link.child)
        }
        self.parents = parents
        self.children = children
    }

    /// Every distinct way B is related to A, closest first; empty when they are not related.
    /// `a` and `b` are positions in `graph.members` (`graph.index(of:)` gives one for an id).
    public func relationships(from a: Int, to b: Int) -> [Relationship] {
        search(from: a, to: b).relationships
    }

    /// Every distinct way B is related to A, closest first, and whether every ancestor of both
    /// was looked at (false only past `ancestryBudget`: then an empty list does not mean "not
    /// related").
    public func search(from a: Int, to b: Int) -> (relationships: [Relationship], isComplete: Bool) {
        var budget = Self.ancestryBudget
        return relationships(from: Ancestry(of: a, in: self), family: CloseFamily(of: a, in: self), to: b, budgetLeft: &budget)
    }

    /// Every distinct way the member with id `b` is related to the member with id `a`, closest
    /// first; `nil` when either id is not in the graph.
    public func relationships(from a: Member.ID, to b: Member.ID) -> [Relationship]? {
        guard let a = graph.index(of: a), let b = graph.index(of: b) else { return nil }
        return relationships(from: a, to: b)
    }

    /// Every member's relationships to A, by member position: A's ancestry is read once.
    public func relationshipsToEveryone(from a: Int) -> [[Relationship]] {
        relationships(from: a, toEach: Array(graph.members.indices))
    }

    /// The relationships to A of each of `members` (positions), in their order: A's ancestry is
    /// read once, and only these members are related to it (a chart's few people in a big tree).
    public func relationships(from a: Int, toEach members: [Int]) -> [[Relationship]] {
        let ancestry = Ancestry(of: a, in: self, prunes: true)
        let family = CloseFamily(of: a, in: self)
        var left = Self.everyoneBudget
        return members.map { relationships(from: ancestry, family: family, to: $0, budgetLeft: &left).relationships }
    }

    /// The closest relationship to A of each of `members` (what a chart's labels say), the same
    /// as the first of `relationships(from:toEach:)`: B's lines are followed up only until no
    /// closer common ancestor can come, so a royal pedigree's thousands of far ways are not counted.
    public func closestRelationships(from a: Int, toEach members: [Int]) -> [Relationship?] {
        var left = Self.everyoneBudget
        return closestRelationships(from: a, toEach: members, budgetLeft: &left)
    }

    /// `closestRelationships(from:toEach:)` taking its pairs from `budgetLeft`, what it spent
    /// taken off: a chart's labels share one budget between this and the chains of those it
    /// leaves unrelated (`connectionWords`).
    package func closestRelationships(from a: Int, toEach members: [Int], budgetLeft: inout Int) -> [Relationship?] {
        closestRelationships(from: Ancestry(of: a, in: self, prunes: true), family: CloseFamily(of: a, in: self), toEach: members, budgetLeft: &budgetLeft)
    }

    /// The closest relationship of B to A, the first of `relationships(from:to:)`: for one pair,
    /// without the pruning `closestRelationships(from:toEach:)` makes (a walk of the whole tree).
    public func closestRelationship(from a: Int, to b: Int) -> Relationship? {
        var left = Self.everyoneBudget
        return closestRelationships(from: Ancestry(of: a, in: self), family: CloseFamily(of: a, in: self), toEach: [b], budgetLeft: &left)[0]
    }

    /// The closest way B is related to A by blood, with its half, double and adoption; `nil` when
    /// they share no ancestor, or none is found within `ancestryBudget` pairs of `budgetLeft` (A's
    /// ancestry and B's both take theirs from it, what they spent taken off).
    func closestBloodRelationship(from a: Int, to b: Int, budgetLeft: inout Int) -> Relationship? {
        guard budgetLeft > 0 else { return nil }
        return Self.spending(&budgetLeft) { budget in
            let ancestry = Ancestry(of: a, in: self, budget: &budget)
            return closestBloodRelationship(from: ancestry, to: b, sex: sex(of: b), budget: &budget)
        }
    }

    private func closestRelationships(from ancestry: Ancestry, family: CloseFamily, toEach members: [Int], budgetLeft: inout Int) -> [Relationship?] {
        members.map { b in
            let sex = sex(of: b)
            if ancestry.member == b { return Relationship(kind: .same, sex: sex) }
            let blood = Self.spending(&budgetLeft) { closestBloodRelationship(from: ancestry, to: b, sex: sex, budget: &$0) }
            return Self.closestFirst((blood.map { [$0] } ?? []) + marriageRelationships(from: family, to: b, sex: sex)).first
        }
    }

    /// One member's ancestry by generation, the generations each ancestor stands at, and who can
    /// share an ancestor with them at all.
    struct Ancestry {
        let member: Int
        let levels: [Set<Int>]
        let generationsOf: [Int: [Int]]
        /// Whether the ancestry was followed to its end (see `ancestryBudget`).
        let isComplete: Bool
        /// By member: whether they are one of these ancestors or descend from one. Only such a
        /// member can lead another's line to a common ancestor, so no other is followed up. Made
        /// (in time linear in the tree) only for queries of many members (`prunes`).
        let reachesAncestor: [Bool]?

        init(of member: Int, in calculator: RelationshipCalculator, prunes: Bool = false) {
            var budget = RelationshipCalculator.ancestryBudget
            self.init(of: member, in: calculator, prunes: prunes, budget: &budget)
        }

        /// The ancestry, its (ancestor, generation) pairs taken from `budget`.
        init(of member: Int, in calculator: RelationshipCalculator, prunes: Bool = false, budget: inout Int) {
            self.member = member
            (levels, isComplete) = calculator.ancestry(of: member, budget: &budget)
            var generationsOf: [Int: [Int]] = [:]
            for (generation, level) in levels.enumerated() {
                for ancestor in level { generationsOf[ancestor, default: []].append(generation) }
            }
            self.generationsOf = generationsOf
            guard prunes else {
                reachesAncestor = nil
                return
            }
            var reaches = Array(repeating: false, count: calculator.parents.count)
            var stack = Array(generationsOf.keys)
            for ancestor in stack { reaches[ancestor] = true }
            while let next = stack.popLast() {
                for child in calculator.children[next] where !reaches[child] {
                    reaches[child] = true
                    stack.append(child)
                }
            }
            reachesAncestor = reaches
        }
    }

    /// The member's sex where it chooses words (female or male), else `nil`.
    func sex(of member: Int) -> Sex? {
        graph.members[member].sex.flatMap { $0 == .male || $0 == .female ? $0 : nil }
    }

    /// Closest first (`Relationship.distance`); among equals, in the order found.
    private static func closestFirst(_ found: [Relationship]) -> [Relationship] {
        found.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }.map(\.element)
    }

    /// `search` with at most `ancestryBudget` pairs of `budgetLeft`, what it spent taken off.
    private static func spending<Result>(_ budgetLeft: inout Int, _ search: (inout Int) -> Result) -> Result {
        var budget = min(budgetLeft, ancestryBudget)
        let granted = budget
        defer { budgetLeft -= granted - budget }
        return search(&budget)
    }

    /// Every way B is related to A, B's ancestry taking its pairs from `budgetLeft`.
    private func relationships(from a: Ancestry, family: CloseFamily, to b: Int, budgetLeft: inout Int) -> (relationships: [Relationship], isComplete: Bool) {
        let sex = sex(of: b)
        if a.member == b { return ([Relationship(kind: .same, sex: sex)], true) }
        var (found, isComplete) = Self.spending(&budgetLeft) { bloodRelationships(from: a, to: b, sex: sex, budget: &$0) }
        found += marriageRelationships(from: family, to: b, sex: sex)
        return (Self.closestFirst(found), isComplete && a.isComplete)
    }

    /// The members at each number of generations up from `member` (level 0 is the member), only
    /// through members `within` says may (all without it), each (ancestor, generation) pair
    /// taken from `budget`; and whether the lines were followed to their ends within it. Every
    /// level takes at least one pair, so even a file with a loop of parents ends.
    private func ancestry(of member: Int, within reaches: [Bool]? = nil, budget: inout Int) -> (levels: [Set<Int>], isComplete: Bool) {
        var levels: [Set<Int>] = [[member]]
        budget -= 1
        while let next = nextLevel(above: levels.last!, within: reaches, budget: &budget) {
            guard !next.isEmpty else { return (levels, true) }
            levels.append(next)
        }
        return (levels, false)
    }

    /// The parents of `level`'s members (those `within` allows), or `nil` when they would overdraw `budget`.
    private func nextLevel(above level: Set<Int>, within reaches: [Bool]?, budget: inout Int) -> Set<Int>? {
        var next = Set<Int>()
        for child in level {
            for (parent, _) in parents[child] where reaches?[parent] ?? true { next.insert(parent) }
        }
        guard budget >= next.count else { return nil }
        budget -= next.count
        return next
    }

    /// A lowest common ancestor of A and B: `ancestor`, `i` generations above A and `j` above B.
    private typealias Meeting = (ancestor: Int, i: Int, j: Int)

    /// The lowest common ancestors among B's ancestors `j` generations up: common at (i, j) with
    /// no child common at (i - 1, j - 1) on both lines, by ancestor. B's ancestors are looked up
    /// in A's, so a query costs B's ancestry, not A's times B's; each (ancestor, i) looked at is
    /// taken from `budget` (where lines rejoin at every generation, an ancestor stands at
    /// hundreds of i), and `nil` says it ran out.
    private func meetings(_ a: Ancestry, levelsOfB: [Set<Int>], j: Int, budget: inout Int) -> [Meeting]? {
        var found: [Meeting] = []
        for ancestor in levelsOfB[j].sorted() {
            guard let generations = a.generationsOf[ancestor] else { continue }
            guard budget >= generations.count else { return nil }
            budget -= generations.count
            for i in generations {
                let throughChild = i > 0 && j > 0 && firstChild(of: ancestor, inBoth: a.levels[i - 1], levelsOfB[j - 1]) != nil
                if !throughChild { found.append((ancestor, i, j)) }
            }
        }
        return found
    }

    private func bloodRelationships(from ancestryOfA: Ancestry, to b: Int, sex: Sex?, budget: inout Int) -> (relationships: [Relationship], isComplete: Bool) {
        guard ancestryOfA.reachesAncestor?[b] ?? true else { return ([], true) }
        var (levelsOfB, isComplete) = ancestry(of: b, within: ancestryOfA.reachesAncestor, budget: &budget)
        var lowest: [Meeting] = []
        for j in levelsOfB.indices {
            guard let met = meetings(ancestryOfA, levelsOfB: levelsOfB, j: j, budget: &budget) else {
                isComplete = false
                break
            }
            lowest += met
        }
        lowest.sort { ($0.i, $0.j, $0.ancestor) < ($1.i, $1.j, $1.ancestor) }
        // One relationship per shape (i, j), in the order the shapes first come.
        var shapes: [[Int]] = []
        var meetingsOfShape: [[Int]: [Meeting]] = [:]
        for meeting in lowest {
            let shape = [meeting.i, meeting.j]
            if meetingsOfShape[shape] == nil { shapes.append(shape) }
            meetingsOfShape[shape, default: []].append(meeting)
        }
        let found = shapes.map { relationship(through: meetingsOfShape[$0]!, from: ancestryOfA, to: b, levelsOfB: levelsOfB, sex: sex) }
        return (found, isComplete)
    }

    /// The closest of `bloodRelationships` (the least `distance`, i + j; among equals the least
    /// i), finding B's ancestors one generation at a time until none can be closer.
    private func closestBloodRelationship(from ancestryOfA: Ancestry, to b: Int, sex: Sex?, budget: inout Int) -> Relationship? {
        guard ancestryOfA.reachesAncestor?[b] ?? true else { return nil }
        var levelsOfB: [Set<Int>] = [[b]]
        budget -= 1
        var best: [Meeting] = []
        while true {
            let j = levelsOfB.count - 1
            guard let met = meetings(ancestryOfA, levelsOfB: levelsOfB, j: j, budget: &budget) else { break }
            for meeting in met {
                guard let first = best.first else { best = [meeting]; continue }
                let (distance, bestDistance) = (meeting.i + j, first.i + first.j)
                if (distance, meeting.i) < (bestDistance, first.i) {
                    best = [meeting]
                } else if (distance, meeting.i) == (bestDistance, first.i) {
                    best.append(meeting)
                }
            }
            // Anything met further up is j + 1 or more generations away.
            if let first = best.first, j + 1 > first.i + first.j { break }
            guard let next = nextLevel(above: levelsOfB[j], within: ancestryOfA.reachesAncestor, budget: &budget), !next.isEmpty else { break }
            levelsOfB.append(next)
        }
        return best.isEmpty ? nil : relationship(through: best, from: ancestryOfA, to: b, levelsOfB: levelsOfB, sex: sex)
    }

    /// The relationship of one shape from its lowest common ancestors (by ancestor): its words,
    /// whether half or double (the couple, or single parent, above each line counts once), and
    /// the path through the first.
    private func relationship(through meetings: [Meeting], from ancestryOfA: Ancestry, to b: Int, levelsOfB: [Set<Int>], sex: Sex?) -> Relationship {
        let (i, j) = (meetings[0].i, meetings[0].j)
        let up = (a: ancestryOfA.levels, b: levelsOfB)
        var relationship = Relationship(kind: Relationship.Kind(ancestorAbove: i, andAbove: j), sex: sex)
        var couples: [Set<Int>] = []
        for meeting in meetings {
            let couple = coupleAbove(meeting.ancestor, i: i, j: j, levels: up)
            if !couples.contains(couple) { couples.append(couple) }
        }
        if i > 0, j > 0 {
            relationship.isHalf = couples.allSatisfy { $0.count < 2 }
            relationship.isDouble = couples.filter { $0.count == 2 }.count >= 2
        }
        relationship.commonAncestors = meetings.map(\.ancestor)
        let first = meetings[0].ancestor
        relationship.path = path(from: ancestryOfA.member, up: i, to: first, levels: up.a) + path(from: b, up: j, to: first, levels: up.b).reversed().dropFirst()
        let ties = zip(relationship.path, relationship.path.dropFirst()).flatMap { step in
            parents[step.0].filter { $0.parent == step.1 }.map(\.kind) + parents[step.1].filter { $0.parent == step.0 }.map(\.kind)
        }
        relationship.isByAdoption = ties.contains(.adopted)
        relationship.isByFostering = !relationship.isByAdoption && ties.contains(.foster)
        return relationship
    }

    /// The common ancestors above the two lines' children that meet at `ancestor`: both parents of
    /// a full sibling pair, one for a half pair.
    private func coupleAbove(_ ancestor: Int, i: Int, j: Int, levels: (a: [Set<Int>], b: [Set<Int>])) -> Set<Int> {
        guard i > 0, j > 0 else { return [ancestor] }
        let childA = firstChild(of: ancestor, inBoth: levels.a[i - 1])
        let childB = firstChild(of: ancestor, inBoth: levels.b[j - 1])
        guard let childA, let childB else { return [ancestor] }
        let shared = Set(parents[childA].map(\.parent)).intersection(parents[childB].map(\.parent))
        return shared.filter { levels.a[i].contains($0) && levels.b[j].contains($0) }
    }

    /// The first of `ancestor`'s children, in their order, that is in `set` (and in `other`).
    ///
    /// Found from the set's side where it is the smaller, each candidate's few parents looked at:
    /// walking the children of a couple with 30,000 of them for every relative took 4.7 s for
    /// `relation --all-from`.
    private func firstChild(of ancestor: Int, inBoth set: Set<Int>, _ other: Set<Int>? = nil) -> Int? {
        let all = children[ancestor]
        let (smaller, larger) = other.map { $0.count < set.count ? ($0, Optional(set)) : (set, Optional($0)) } ?? (set, nil)
        guard smaller.count < all.count else { return all.first { set.contains($0) && other?.contains($0) ?? true } }
        var found: Int?
        for candidate in smaller where larger?.contains(candidate) ?? true && parents[candidate].contains(where: { $0.parent == ancestor }) {
            // Two of the ancestor's children: the one listed first (rare: a line that rejoins).
            if let earlier = found, all.firstIndex(of: earlier)! < all.firstIndex(of: candidate)! { continue }
            found = candidate
        }
        return found
    }

    /// `member`, its parent on the way up, ... up to `ancestor`, `generations` steps.
    private func path(from member: Int, up generations: Int, to ancestor: Int, levels: [Set<Int>]) -> [Int] {
        var result = [ancestor]
        var current = ancestor
        for level in stride(from: generations - 1, through: 0, by: -1) {
            guard let child = level > 0 ? firstChild(of: current, inBoth: levels[level]) : firstChild(of: current, inBoth: levels[0], [member]) else { break }
            result.append(child)
            current = child
        }
        return result.reversed()
    }

    /// A's close family, what every in-law relationship to A reads on A's side: made once for a
    /// query of many members (a child of a couple with 30,000 children has 29,999 brothers and
    /// sisters, and making their set again for every relative took 26 s for `relation --all-from`).
    struct CloseFamily {
        let member: Int
        let parents: Set<Int>
        let spouses: Set<Int>
        let siblings: Set<Int>
        /// The brothers and sisters of A's spouses.
        let spousesSiblings: Set<Int>
        /// The partners of A's parents who are not A's parents.
        let stepParents: Set<Int>

        init(of member: Int, in calculator: RelationshipCalculator) {
            self.member = member
            parents = Set(calculator.parents[member].map(\.parent))
            spouses = Set(calculator.graph.partners(ofMemberAt: member))
            siblings = Set(parents.flatMap { calculator.children[$0] }).subtracting([member])
            spousesSiblings = Set(spouses.flatMap { spouse in
                calculator.parents[spouse].flatMap { calculator.children[$0.parent] }.filter { $0 != spouse }
            })
            let parents = parents
            stepParents = Set(parents.flatMap(calculator.graph.partners(ofMemberAt:)).filter { !parents.contains($0) })
        }
    }

    /// B's ties to A by marriage: spouse, in-laws, step family. Each test reads B's side (a few
    /// parents and spouses) against A's sets, never A's side in full.
    private func marriageRelationships(from family: CloseFamily, to b: Int, sex: Sex?) -> [Relationship] {
        let topology = graph.topology
        let a = family.member
        func parentsOf(_ member: Int) -> [Int] { parents[member].map(\.parent) }
        var found: [Relationship] = []
        for union in topology.unionsOfMember[a] where topology.partners[union].contains(b) {
            found.append(Relationship(kind: .spouse(former: graph.unions[union].divorce != nil || graph.unions[union].divorcePhrase != nil), sex: sex))
        }
        let bParents = Set(parentsOf(b))
        let bSpouses = Set(graph.partners(ofMemberAt: b))
        if family.spouses.contains(where: { parentsOf($0).contains(b) }), !family.parents.contains(b) { found.append(Relationship(kind: .parentInLaw, sex: sex)) }
        // A spouse of B's is A's child.
        if bSpouses.contains(where: { parentsOf($0).contains(a) }) { found.append(Relationship(kind: .childInLaw, sex: sex)) }
        if (family.spousesSiblings.contains(b) || bSpouses.contains(where: family.siblings.contains)), !family.siblings.contains(b) {
            found.append(Relationship(kind: .siblingInLaw, sex: sex))
        }
        if family.parents.contains(where: bSpouses.contains), !family.parents.contains(b) { found.append(Relationship(kind: .stepParent, sex: sex)) }
        if bParents.contains(where: family.spouses.contains), !bParents.contains(a) { found.append(Relationship(kind: .stepChild, sex: sex)) }
        if family.parents.isDisjoint(with: bParents), bParents.contains(where: family.stepParents.contains) { found.append(Relationship(kind: .stepSibling, sex: sex)) }
        return found
    }
}

extension Relationship {
    /// The relationship in English, as B to A: "grandmother", "half-brother", "2nd cousin 1x
    /// removed", "double first cousin", "mother-in-law", "former husband".
    public var english: String {
        func gendered(_ female: String, _ male: String, _ neutral: String) -> String {
            switch sex {
            case .female?: female
            case .male?: male
            default: neutral
            }
        }
        func greats(_ count: Int) -> String {
            switch count {
            case ..<1: ""
            case 1: "great-"
            default: "\(ordinal(count)) great-"
            }
        }
        var words: String
        switch kind {
        case .same: return "the same person"
        case .ancestor(let n):
            let parent = gendered("mother", "father", "parent")
            words = n == 1 ? parent : greats(n - 2) + "grand" + parent
        case .descendant(let n):
            let child = gendered("daughter", "son", "child")
            words = n == 1 ? child : greats(n - 2) + "grand" + child
        case .sibling: words = gendered("sister", "brother", "sibling")
        case .siblingsDescendant(let n):
            let niece = gendered("niece", "nephew", "sibling's child")
            words = n == 1 ? niece : sex == nil ? "sibling's " + greats(n - 2) + "grandchild" : greats(n - 2) + "grand" + niece
        case .ancestorsSibling(let n):
            let aunt = gendered("aunt", "uncle", "parent's sibling")
            words = n == 1 ? aunt : sex == nil ? greats(n - 2) + "grandparent's sibling" : greats(n - 1) + aunt
        case .cousin(let degree, let removed):
            words = (degree == 1 ? "first" : ordinal(degree)) + " cousin" + (removed > 0 ? " \(removed)x removed" : "")
        case .spouse(let former): words = (former ? "former " : "") + gendered("wife", "husband", "spouse")
        case .parentInLaw: words = gendered("mother", "father", "parent") + "-in-law"
        case .childInLaw: words = gendered("daughter", "son", "child") + "-in-law"
        case .siblingInLaw: words = gendered("sister", "brother", "sibling") + "-in-law"
        case .stepParent: words = "step" + gendered("mother", "father", "-parent")
        case .stepChild: words = "step" + gendered("daughter", "son", "child")
        case .stepSibling: words = "step" + gendered("sister", "brother", "-sibling")
        }
        if isHalf { words = (words.contains(" ") ? "half " : "half-") + words }
        if isDouble { words = "double " + words }
        if isByAdoption { words += " (by adoption)" }
        if isByFostering { words += " (by fostering)" }
        return words
    }
}

/// 1st, 2nd, 3rd, 4th, 11th, 21st, ...
func ordinal(_ number: Int) -> String {
    let suffix: String
    switch (number % 10, number % 100) {
    case (_, 11...13): suffix = "th"
    case (1, _): suffix = "st"
    case (2, _): suffix = "nd"
    case (3, _): suffix = "rd"
    default: suffix = "th"
    }
    return "\(number)\(suffix)"
}
