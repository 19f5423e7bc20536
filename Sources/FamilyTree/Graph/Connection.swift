/// How B is tied to A when neither blood nor one marriage relates them: a chain of relatives, each
/// related to the one before by blood or by marriage, read from A's side ("wife's sister's
/// husband", "son's wife's father").
///
/// Genealogists call these people connected rather than related; royal and village trees are full
/// of them. The chain found passes the fewest marriages (and steps from a child to their other,
/// unmarried parent), and among those takes the fewest generations: a wife's first cousin comes
/// before a wife's sister's husband, as a relationship chart goes by blood first.
public struct Connection: Sendable, Hashable {
    /// One step of the chain: the person reached, and how they are related to the person before.
    public struct Link: Sendable, Hashable {
        /// The person reached (a member position).
        public var member: Int
        /// How `member` is related to the person before them (A for the first link): a spouse, or
        /// a relative by blood.
        public var relationship: Relationship

        public init(member: Int, relationship: Relationship) {
            self.member = member
            self.relationship = relationship
        }
    }

    /// The steps from A to B, in order; the last one reaches B.
    public var links: [Link]

    public init(links: [Link]) { self.links = links }

    /// How many marriages the chain passes through.
    public var marriages: Int {
        links.count { if case .spouse = $0.relationship.kind { true } else { false } }
    }

    /// Generations plus marriages along the chain, as `Relationship.distance` counts them.
    public var distance: Int { links.reduce(0) { $0 + $1.relationship.distance } }

    /// The chain in English, as B to A: the links' words joined by "'s", a blood tie of one
    /// generation or a sibling beside a marriage said the short way ("wife's father" is
    /// "father-in-law", "father's wife" "stepmother"), and a note at the end where a line passes
    /// an adoption or a fostering: "sister-in-law's husband", "son's wife's father" being
    /// "daughter-in-law's father".
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
    /// The shortest chain of blood relatives and marriages from A to B (positions in `graph`);
    /// `nil` when no line of parents, children and partners joins them, or when `a == b`.
    ///
    /// Meant for people `relationships(from:to:)` finds unrelated; for a relative it gives a
    /// chain too, without the search's other ways (double, step, by marriage and blood at once).
    public func connection(from a: Int, to b: Int) -> Connection? {
        guard a != b else { return nil }
        return connections(from: a, toEach: [b])[0]
    }

    /// The shortest chain from A to each of `members`, in their order (`nil` for A and for anyone
    /// nothing joins to A). One walk of the tree from A serves them all; the words of their
    /// stretches of blood share `everyoneBudget`, past which a stretch is said by its shape
    /// (up and down, without half or double), so no file makes a chart's labels take hours.
    public func connections(from a: Int, toEach members: [Int]) -> [Connection?] {
        connections(from: a, toEach: members, budget: Self.everyoneBudget)
    }

    /// `connections(from:toEach:)` with the words' searches sharing `budget` pairs.
    func connections(from a: Int, toEach members: [Int], budget: Int) -> [Connection?] {
        let walk = ConnectionWalk(from: a, in: self, until: Set(members))
        var budgetLeft = budget
        return members.map { b in
            guard b != a, let path = walk.path(to: b) else { return nil }
            return connection(along: path, budgetLeft: &budgetLeft)
        }
    }

    /// The links of a walk's path: marriages as they are, and each stretch of blood between two
    /// of them as one relationship.
    private func connection(along path: [ConnectionWalk.Step], budgetLeft: inout Int) -> Connection {
        var links: [Connection.Link] = []
        var stretchStart = path[0].member
        var ups = 0, downs = 0
        func closeStretch(at end: Int) {
            guard end != stretchStart else { return }
            links.append(Connection.Link(member: end, relationship: bloodRelationship(from: stretchStart, to: end, ups: ups, downs: downs, budgetLeft: &budgetLeft)))
        }
        for (previous, step) in zip(path, path.dropFirst()) {
            switch step.move {
            case .marriage:
                closeStretch(at: previous.member)
                links.append(Connection.Link(member: step.member, relationship: spouseRelationship(of: previous.member, and: step.member)))
                stretchStart = step.member
                (ups, downs) = (0, 0)
            case .otherParent:
                closeStretch(at: previous.member)
                stretchStart = previous.member
                (ups, downs) = (1, 0)
            case .up: ups += 1
            case .down: downs += 1
            case .start: break
            }
        }
        closeStretch(at: path[path.count - 1].member)
        return Connection(links: links)
    }

    /// How `b` is related by blood to `a`, whom a stretch of `ups` generations up and `downs` down
    /// joins: the closest way by blood (with its half, double and adoption), else (past the
    /// budget) the stretch's own shape.
    private func bloodRelationship(from a: Int, to b: Int, ups: Int, downs: Int, budgetLeft: inout Int) -> Relationship {
        if let closest = closestBloodRelationship(from: a, to: b, budgetLeft: &budgetLeft), closest.distance <= ups + downs {
            return closest
        }
        return Relationship(kind: Relationship.Kind(ancestorAbove: ups, andAbove: downs), sex: wordedSex(of: b))
    }

    /// `b` as `a`'s spouse, former where every union of theirs ended in divorce.
    private func spouseRelationship(of a: Int, and b: Int) -> Relationship {
        let topology = graph.topology
        let unions = topology.unionsOfMember[a].filter { topology.partners[$0].contains(b) }
        let former = !unions.isEmpty && unions.allSatisfy { graph.unions[$0].divorce != nil || graph.unions[$0].divorcePhrase != nil }
        return Relationship(kind: .spouse(former: former), sex: wordedSex(of: b))
    }

    /// The member's sex where it chooses words (female or male), else `nil`.
    private func wordedSex(of member: Int) -> Sex? {
        graph.members[member].sex.flatMap { $0 == .male || $0 == .female ? $0 : nil }
    }
}

/// A walk from one member over parents, children and partners, in which a stretch of blood goes
/// up and then down. A marriage starts a new stretch, and so does a step up after a step down
/// (from a child to their other parent, who is not a blood relative: "son's mother" where the two
/// never married, as a cross-bloodline parent). Each member is reached first by the fewest such
/// joins, and among those by the fewest steps: everyone related by blood before anyone through a
/// marriage, as a relationship chart's lines and labels go by blood first. Ties go to the first
/// found, in the members' own order, so the same tree gives the same chain.
struct ConnectionWalk {
    enum Move {
        case start, up, down, marriage
        /// Up to a child's other parent: the step opens a new stretch.
        case otherParent
    }

    struct Step {
        let member: Int
        let move: Move
    }

    /// By state (member × 2, plus 1 once the stretch has turned down): the state it was reached
    /// from (-1 for the start, -2 not reached), how, the steps taken and the joins among them.
    private var from: [Int]
    private var moves: [Move]
    private var steps: [Int]
    private var joins: [Int]

    /// Walks from `start` until every one of `targets` is reached (or the walk has reached
    /// everyone it can).
    init(from start: Int, in calculator: RelationshipCalculator, until targets: Set<Int>) {
        let count = calculator.graph.members.count
        from = Array(repeating: -2, count: 2 * count)
        moves = Array(repeating: .start, count: 2 * count)
        steps = Array(repeating: 0, count: 2 * count)
        joins = Array(repeating: 0, count: 2 * count)
        let topology = calculator.graph.topology
        var left = targets.subtracting([start])
        var done = Array(repeating: false, count: 2 * count)
        // One round per number of joins; within a round, states by steps taken (a bucket per count
        // from the round's least: the joins that open a round start at different counts).
        var opened: [(state: Int, from: Int, move: Move)] = [(2 * start, -1, .start)]
        var round = 0
        while !opened.isEmpty, !left.isEmpty {
            var buckets: [[Int]] = []
            let least = opened.map { $0.from < 0 ? 0 : steps[$0.from] + 1 }.min()!
            func offer(_ state: Int, from previous: Int, by move: Move) {
                guard !done[state] else { return }
                let taken = previous < 0 ? 0 : steps[previous] + 1
                guard from[state] == -2 || taken < steps[state] else { return }
                (from[state], moves[state], steps[state], joins[state]) = (previous, move, taken, round)
                while buckets.count <= taken - least { buckets.append([]) }
                buckets[taken - least].append(state)
            }
            for (state, previous, move) in opened { offer(state, from: previous, by: move) }
            var joined: [(state: Int, from: Int, move: Move)] = []
            var count = 0
            while count < buckets.count {
                // `buckets[count]` may grow while it is read: a state reached by more steps is
                // never put in it, but read by index all the same.
                var index = 0
                while index < buckets[count].count {
                    let state = buckets[count][index]
                    index += 1
                    guard !done[state], steps[state] == least + count else { continue }
                    done[state] = true
                    left.remove(state / 2)
                    let member = state / 2
                    for (parent, _) in calculator.parents[member] {
                        if state % 2 == 0 {
                            offer(2 * parent, from: state, by: .up)
                        } else if !done[2 * parent] {
                            joined.append((2 * parent, state, .otherParent))
                        }
                    }
                    for child in calculator.children[member] { offer(2 * child + 1, from: state, by: .down) }
                    for union in topology.unionsOfMember[member] {
                        for partner in topology.partners[union] where partner != member && !done[2 * partner] {
                            joined.append((2 * partner, state, .marriage))
                        }
                    }
                }
                count += 1
            }
            opened = joined
            round += 1
        }
    }

    /// The steps from the start to `member`, the start first; `nil` when the walk did not reach them.
    func path(to member: Int) -> [Step]? {
        // Either way of standing at the member: the one with fewer joins, then fewer steps.
        let reached = [2 * member, 2 * member + 1].filter { from[$0] != -2 }
        guard var state = reached.min(by: { (joins[$0], steps[$0]) < (joins[$1], steps[$1]) }) else { return nil }
        var path: [Step] = []
        while true {
            path.append(Step(member: state / 2, move: moves[state]))
            guard from[state] >= 0 else { break }
            state = from[state]
        }
        return path.reversed()
    }
}
