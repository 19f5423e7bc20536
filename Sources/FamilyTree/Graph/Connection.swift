/// How B is tied to A when neither blood nor one marriage relates them: a chain of relatives, each
/// related to the one before by blood or by marriage, read from A's side ("wife's sister's
/// husband", "son's wife's father").
///
/// Genealogists call these people connected rather than related; royal and village trees are full
/// of them. The chain found passes the fewest joins (marriages, step families, and steps from a
/// child to their other, unmarried parent), and among those takes the fewest generations: a wife's
/// first cousin comes before a wife's sister's husband, as a relationship chart goes by blood first.
public struct Connection: Sendable, Hashable {
    /// One step of the chain: the person reached, and how they are related to the person before.
    public struct Link: Sendable, Hashable {
        /// The person reached (a member position).
        public var member: Int
        /// How `member` is related to the person before them (A for the first link): a spouse, a
        /// step-parent or step-child, or a relative by blood.
        public var relationship: Relationship

        public init(member: Int, relationship: Relationship) {
            self.member = member
            self.relationship = relationship
        }
    }

    /// The steps from A to B, in order; the last one reaches B.
    public var links: [Link]
    /// Everyone on the way, A first and B last, those between two links included (the common
    /// ancestor of a wife and her first cousin); empty where it was not asked for.
    public var path: [Int]

    /// A chain of `links`. `english` folds pairs ("wife's father" into "father-in-law") on the
    /// understanding that the chain is the shortest, as `RelationshipCalculator` finds it.
    public init(links: [Link], path: [Int] = []) {
        self.links = links
        self.path = path
    }

    /// What joins the chain's stretches of blood.
    public var joins: Joins {
        var joins = Joins()
        for (index, link) in links.enumerated() {
            switch link.relationship.kind {
            case .spouse: joins.marriages += 1
            case .stepParent, .stepChild: joins.stepFamilies += 1
            default:
                // Two relatives by blood in a row: a child, then the child's other parent.
                if index > 0, links[index - 1].relationship.isByBlood, link.relationship.isByBlood { joins.childrensParents += 1 }
            }
        }
        return joins
    }

    /// How many marriages the chain passes through.
    public var marriages: Int { joins.marriages }

    /// The ties that join a chain's stretches of blood, each a step away from blood.
    public struct Joins: Sendable, Hashable {
        /// Marriages and partnerships.
        public var marriages = 0
        /// Ties of a step-parent and a step-child recorded as such in a family.
        public var stepFamilies = 0
        /// Steps from a child to their other parent, who is not married to the one before.
        public var childrensParents = 0

        public init(marriages: Int = 0, stepFamilies: Int = 0, childrensParents: Int = 0) {
            self.marriages = marriages
            self.stepFamilies = stepFamilies
            self.childrensParents = childrensParents
        }

        /// In English: "a marriage", "2 marriages and a step family", "a child's two parents".
        public var english: String {
            func counted(_ count: Int, _ one: String, _ many: String) -> String? {
                count == 0 ? nil : count == 1 ? one : "\(count) \(many)"
            }
            let parts = [
                counted(marriages, "a marriage", "marriages"), counted(stepFamilies, "a step family", "step families"),
                counted(childrensParents, "a child's two parents", "children's two parents"),
            ].compactMap { $0 }
            return parts.count < 2 ? parts.first ?? "nothing" : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        }
    }

    /// The chain in English, as B to A: the links' words joined by "'s" ("sister-in-law's
    /// husband"). A blood tie of one generation, or a sibling, beside a marriage is said the short
    /// way ("wife's father" is "father-in-law", "father's wife" "stepmother", "son's wife's
    /// father" "daughter-in-law's father"), and where a line passes an adoption or a fostering a
    /// note says so at the end.
    public var english: String {
        var words = Self.folded(links.map(\.relationship)).map(\.english).joined(separator: "'s ")
        if links.contains(where: \.relationship.isByAdoption) {
            words += " (by adoption)"
        } else if links.contains(where: \.relationship.isByFostering) {
            words += " (by fostering)"
        }
        return words
    }

    /// The relationships with each pair that has a word of its own folded into it, left to
    /// right; adoption and fostering notes taken off (`english` says them once, at the end).
    ///
    /// Each fold is right because the chain is the shortest: a wife's son reached through the
    /// wife is not one's own son (he would be reached by blood), so he is a stepson.
    static func folded(_ relationships: [Relationship]) -> [Relationship] {
        func isSpouse(_ relationship: Relationship) -> Bool {
            if case .spouse = relationship.kind { true } else { false }
        }
        /// The word for `first`'s `second`, where there is one.
        func fold(_ first: Relationship, _ second: Relationship) -> Relationship.Kind? {
            // A half-sister's husband stays one ("half-brother-in-law" says something else), and so
            // does a former wife's father.
            guard !first.isHalf, !second.isHalf, !first.isDouble, !second.isDouble else { return nil }
            if case .spouse(former: true) = first.kind { return nil }
            if case .spouse(former: true) = second.kind { return nil }
            switch (first.kind, second.kind) {
            case (.spouse, .ancestor(generations: 1)): return .parentInLaw
            case (.descendant(generations: 1), .spouse): return .childInLaw
            case (.spouse, .sibling), (.sibling, .spouse): return .siblingInLaw
            case (.ancestor(generations: 1), .spouse): return .stepParent
            case (.spouse, .descendant(generations: 1)): return .stepChild
            default: return nil
            }
        }
        var result: [Relationship] = []
        var index = relationships.startIndex
        while index < relationships.endIndex {
            var relationship = relationships[index]
            if index + 1 < relationships.endIndex, isSpouse(relationship) != isSpouse(relationships[index + 1]),
                let kind = fold(relationship, relationships[index + 1]) {
                relationship = Relationship(kind: kind, sex: relationships[index + 1].sex)
                index += 1
            }
            relationship.isByAdoption = false
            relationship.isByFostering = false
            result.append(relationship)
            index += 1
        }
        return result
    }
}

extension RelationshipCalculator {
    /// The shortest chain of blood relatives, marriages and step families from A to B (positions
    /// in `graph`), with everyone on its way; `nil` when nothing joins them, or when `a == b`.
    ///
    /// Meant for people `relationships(from:to:)` finds unrelated; for a relative it gives a
    /// chain too, without the search's other ways (double, step, by marriage and blood at once).
    /// The words of its stretches of blood search `ancestryBudget` pairs in all.
    public func connection(from a: Int, to b: Int) -> Connection? {
        guard a != b else { return nil }
        let walk = ConnectionWalk(from: a, in: self, until: [b])
        var budgetLeft = Self.ancestryBudget
        return walk.stretches(to: b).map { connection(of: $0, path: walk.path(to: b), budgetLeft: &budgetLeft) }
    }

    /// The shortest chain from A to each of `members`, in their order (`nil` for A and for anyone
    /// nothing joins to A), each with its path. One walk of the tree from A serves them all; the
    /// words of their stretches of blood share `everyoneBudget`, past which a stretch is said by
    /// its shape (up and down, without half or double).
    public func connections(from a: Int, toEach members: [Int]) -> [Connection?] {
        connections(from: a, toEach: members, budget: Self.everyoneBudget)
    }

    /// `connections(from:toEach:)` with the words' searches sharing `budget` pairs.
    func connections(from a: Int, toEach members: [Int], budget: Int) -> [Connection?] {
        let walk = ConnectionWalk(from: a, in: self, until: Set(members))
        var budgetLeft = budget
        return members.map { b in
            guard b != a else { return nil }
            return walk.stretches(to: b).map { connection(of: $0, path: walk.path(to: b), budgetLeft: &budgetLeft) }
        }
    }

    /// Each of `members`' chain from A in words, as a chart's label or a card says it: a chain of
    /// more than `maximumLinks` links by what joins it ("connected through 9 marriages"), so a
    /// chart of a chain of thousands is not labelled with thousands of words each. Neither the
    /// path nor a long chain is made: the work is the walk's, and each short chain's links.
    public func connectionWords(from a: Int, toEach members: [Int], maximumLinks: Int) -> [String?] {
        var budgetLeft = Self.everyoneBudget
        return connectionWords(from: a, toEach: members, maximumLinks: maximumLinks, budgetLeft: &budgetLeft)
    }

    /// `connectionWords(from:toEach:maximumLinks:)` taking the searches' pairs from `budgetLeft`.
    package func connectionWords(from a: Int, toEach members: [Int], maximumLinks: Int, budgetLeft: inout Int) -> [String?] {
        let walk = ConnectionWalk(from: a, in: self, until: Set(members))
        return members.map { b in
            guard b != a, let summary = walk.summary(to: b) else { return nil }
            guard summary.links <= maximumLinks, let stretches = walk.stretches(to: b) else { return "connected through " + summary.joins.english }
            return connection(of: stretches, path: [], budgetLeft: &budgetLeft).english
        }
    }

    /// The chain of a walk's stretches: each join as its own link, each stretch of blood as one.
    private func connection(of stretches: [ConnectionWalk.Stretch], path: [Int], budgetLeft: inout Int) -> Connection {
        var links: [Connection.Link] = []
        for stretch in stretches {
            // A join is a link of its own, to the stretch's start (after a child's other parent
            // the stretch starts at the child, where the one before ended: no link).
            let joined: Relationship? = switch stretch.openedBy {
            case .marriage: spouseRelationship(of: stretch.joinedFrom, and: stretch.start)
            case .stepParent: Relationship(kind: .stepParent, sex: sex(of: stretch.start))
            case .stepChild: Relationship(kind: .stepChild, sex: sex(of: stretch.start))
            case .start, .up, .down, .otherParent: nil
            }
            if let joined { links.append(Connection.Link(member: stretch.start, relationship: joined)) }
            guard stretch.end != stretch.start else { continue }
            let relationship = bloodRelationship(from: stretch.start, to: stretch.end, ups: stretch.ups, downs: stretch.downs, budgetLeft: &budgetLeft)
            links.append(Connection.Link(member: stretch.end, relationship: relationship))
        }
        return Connection(links: links, path: path)
    }

    /// How `b` is related by blood to `a`, whom a stretch of `ups` generations up and `downs` down
    /// joins: the closest way by blood (with its half, double and adoption), else (past the
    /// budget) the stretch's own shape.
    private func bloodRelationship(from a: Int, to b: Int, ups: Int, downs: Int, budgetLeft: inout Int) -> Relationship {
        if let closest = closestBloodRelationship(from: a, to: b, budgetLeft: &budgetLeft), closest.distance <= ups + downs {
            return closest
        }
        return Relationship(kind: Relationship.Kind(ancestorAbove: ups, andAbove: downs), sex: sex(of: b))
    }

    /// `b` as `a`'s spouse, former where every union of theirs ended in divorce.
    private func spouseRelationship(of a: Int, and b: Int) -> Relationship {
        let topology = graph.topology
        let unions = topology.unionsOfMember[a].filter { topology.partners[$0].contains(b) }
        let former = !unions.isEmpty && unions.allSatisfy { graph.unions[$0].divorce != nil || graph.unions[$0].divorcePhrase != nil }
        return Relationship(kind: .spouse(former: former), sex: sex(of: b))
    }
}

/// A walk from one member over parents, children, partners and step families, in which a stretch
/// of blood goes up and then down. A marriage starts a new stretch, and so do a step-parent's or
/// step-child's tie and a step up after a step down (from a child to their other parent, who is
/// not a blood relative: "son's mother" where the two never married, as a cross-bloodline
/// parent). Each member is reached first by the fewest such joins, and among those by the fewest
/// steps: everyone related by blood before anyone through a marriage, as a relationship chart's
/// lines and labels go by blood first. Ties go to the first found, in the members' own order, so
/// the same tree gives the same chain.
///
/// Each state keeps what its chain needs (its stretch, what opened it, and counts), so a chain is
/// made in steps of its links, not of its generations.
struct ConnectionWalk {
    /// How a state was reached from the one before: a step of a stretch (up, down) or a join
    /// that opens the next (`otherParent`: from a child up to their other parent).
    enum Move { case start, up, down, marriage, otherParent, stepParent, stepChild }

    /// A stretch of blood of a chain: opened by `openedBy` from the member `joinedFrom` (-1 for
    /// the first), then from `start`, `ups` generations up and `downs` down, to `end`.
    struct Stretch {
        let openedBy: Move
        let joinedFrom: Int
        let start: Int
        let end: Int
        let ups: Int
        let downs: Int
    }

    /// By state (member × 2, plus 1 once the stretch has turned down): the state it was reached
    /// from (-1 for the start, -2 not reached) and the steps taken.
    private var previous: [Int]
    private var stepsTaken: [Int]
    /// By state: where its stretch started (a member), its ups and downs, the state before the
    /// join that opened it (-1 for the first stretch), and that join.
    private var stretchStart: [Int]
    private var ups: [Int]
    private var downs: [Int]
    private var opener: [Int]
    private var openingMove: [Move]
    /// By state: the links before its stretch, and the joins of its chain.
    private var linksBefore: [Int]
    private var joins: [Connection.Joins]

    /// Walks from `start` until every one of `targets` is reached (or the walk has reached
    /// everyone it can).
    init(from start: Int, in calculator: RelationshipCalculator, until targets: Set<Int>) {
        let states = 2 * calculator.graph.members.count
        previous = Array(repeating: -2, count: states)
        stepsTaken = Array(repeating: 0, count: states)
        stretchStart = Array(repeating: 0, count: states)
        ups = Array(repeating: 0, count: states)
        downs = Array(repeating: 0, count: states)
        opener = Array(repeating: -1, count: states)
        openingMove = Array(repeating: .start, count: states)
        linksBefore = Array(repeating: 0, count: states)
        joins = Array(repeating: Connection.Joins(), count: states)
        let (stepParents, stepChildren) = Self.stepTies(in: calculator.graph)
        let topology = calculator.graph.topology
        var left = targets.subtracting([start])
        var done = Array(repeating: false, count: states)

        // Sets `state` as reached from `from` by `move`, unless it was reached by as few steps.
        func offer(_ state: Int, from: Int, by move: Move) -> Bool {
            guard !done[state] else { return false }
            let taken = from < 0 ? 0 : stepsTaken[from] + 1
            guard previous[state] == -2 || taken < stepsTaken[state] else { return false }
            (previous[state], stepsTaken[state]) = (from, taken)
            let member = state / 2
            switch move {
            case .start:
                (stretchStart[state], ups[state], downs[state], opener[state], openingMove[state]) = (member, 0, 0, -1, .start)
                (linksBefore[state], joins[state]) = (0, Connection.Joins())
            case .up, .down:
                (stretchStart[state], opener[state], openingMove[state]) = (stretchStart[from], opener[from], openingMove[from])
                (linksBefore[state], joins[state]) = (linksBefore[from], joins[from])
                ups[state] = ups[from] + (move == .up ? 1 : 0)
                downs[state] = downs[from] + (move == .down ? 1 : 0)
            case .marriage, .stepParent, .stepChild:
                (stretchStart[state], ups[state], downs[state], opener[state], openingMove[state]) = (member, 0, 0, from, move)
                linksBefore[state] = links(at: from) + 1
                joins[state] = joins[from]
                if move == .marriage { joins[state].marriages += 1 } else { joins[state].stepFamilies += 1 }
            case .otherParent:
                (stretchStart[state], ups[state], downs[state], opener[state], openingMove[state]) = (from / 2, 1, 0, from, move)
                linksBefore[state] = links(at: from)
                joins[state] = joins[from]
                joins[state].childrensParents += 1
            }
            return true
        }

        // One round per number of joins. Within a round, states in order of steps taken: the
        // joins that open it at each count first (they were found first), then the round's own
        // steps up and down, one count at a time, jumping over counts nothing stands at.
        var opened: [(state: Int, from: Int, move: Move)] = [(2 * start, -1, .start)]
        while !opened.isEmpty, !left.isEmpty {
            func seedSteps(_ seed: (state: Int, from: Int, move: Move)) -> Int { seed.from < 0 ? 0 : stepsTaken[seed.from] + 1 }
            // By steps, in the order found among equals.
            let seeds = opened.indices.sorted { (seedSteps(opened[$0]), $0) < (seedSteps(opened[$1]), $1) }.map { opened[$0] }
            var nextSeed = 0
            var joined: [(state: Int, from: Int, move: Move)] = []
            var current: [Int] = []
            var count = seedSteps(seeds[0])
            while nextSeed < seeds.count || !current.isEmpty {
                if current.isEmpty { count = max(count, seedSteps(seeds[nextSeed])) }
                while nextSeed < seeds.count, seedSteps(seeds[nextSeed]) == count {
                    let seed = seeds[nextSeed]
                    if offer(seed.state, from: seed.from, by: seed.move) { current.append(seed.state) }
                    nextSeed += 1
                }
                var next: [Int] = []
                // The joins at the next count are offered before this count's steps reach it.
                while nextSeed < seeds.count, seedSteps(seeds[nextSeed]) == count + 1 {
                    let seed = seeds[nextSeed]
                    if offer(seed.state, from: seed.from, by: seed.move) { next.append(seed.state) }
                    nextSeed += 1
                }
                for state in current where !done[state] {
                    done[state] = true
                    let member = state / 2
                    left.remove(member)
                    for (parent, _) in calculator.parents[member] {
                        if state % 2 == 0 {
                            if offer(2 * parent, from: state, by: .up) { next.append(2 * parent) }
                        } else if !done[2 * parent] {
                            joined.append((2 * parent, state, .otherParent))
                        }
                    }
                    for child in calculator.children[member] where offer(2 * child + 1, from: state, by: .down) { next.append(2 * child + 1) }
                    for union in topology.unionsOfMember[member] {
                        for partner in topology.partners[union] where partner != member && !done[2 * partner] {
                            joined.append((2 * partner, state, .marriage))
                        }
                    }
                    for parent in stepParents[member] where !done[2 * parent] { joined.append((2 * parent, state, .stepParent)) }
                    for child in stepChildren[member] where !done[2 * child] { joined.append((2 * child, state, .stepChild)) }
                }
                current = next
                count += 1
            }
            opened = joined
        }
    }

    /// Each member's step-parents and step-children: the partners of a family that lists the
    /// child as a step-child.
    private static func stepTies(in graph: FamilyGraph) -> (parents: [[Int]], children: [[Int]]) {
        var parents = Array(repeating: [Int](), count: graph.members.count)
        var children = parents
        for (union, members) in graph.topology.children.enumerated() {
            for (child, link) in zip(members, graph.unions[union].children) where link.kind == .step {
                for partner in graph.topology.partners[union] where !parents[child].contains(partner) {
                    parents[child].append(partner)
                    children[partner].append(child)
                }
            }
        }
        return (parents, children)
    }

    /// The links of a state's chain so far: those before its stretch, and the stretch if it has
    /// gone anywhere.
    private func links(at state: Int) -> Int {
        linksBefore[state] + (state / 2 == stretchStart[state] ? 0 : 1)
    }

    /// The better of the two ways of standing at `member`: fewer joins, then fewer steps.
    private func state(of member: Int) -> Int? {
        let reached = [2 * member, 2 * member + 1].filter { previous[$0] != -2 }
        func joinCount(_ state: Int) -> Int { joins[state].marriages + joins[state].stepFamilies + joins[state].childrensParents }
        return reached.min { (joinCount($0), stepsTaken[$0]) < (joinCount($1), stepsTaken[$1]) }
    }

    /// The count of links and the joins of `member`'s chain, without making it.
    func summary(to member: Int) -> (links: Int, joins: Connection.Joins)? {
        state(of: member).map { (links(at: $0), joins[$0]) }
    }

    /// The stretches of `member`'s chain, the first (from the start) first.
    func stretches(to member: Int) -> [Stretch]? {
        guard var state = state(of: member) else { return nil }
        var stretches: [Stretch] = []
        while true {
            let before = opener[state]
            stretches.append(Stretch(
                openedBy: openingMove[state], joinedFrom: before < 0 ? -1 : before / 2, start: stretchStart[state], end: state / 2,
                ups: ups[state], downs: downs[state]
            ))
            guard before >= 0 else { break }
            state = before
        }
        return stretches.reversed()
    }

    /// Everyone from the start to `member`, in order; empty when the walk did not reach them.
    func path(to member: Int) -> [Int] {
        guard var state = state(of: member) else { return [] }
        var path = [state / 2]
        while previous[state] >= 0 {
            state = previous[state]
            path.append(state / 2)
        }
        return path.reversed()
    }
}
