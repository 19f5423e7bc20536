/// The parts of a tree the charts genealogists print are drawn from: one person's ancestors, their
/// descendants, both (an hourglass), and the lines that join two relatives.
///
/// Each is a subgraph: one box per person, so a person reached twice (cousins who married, a
/// pedigree collapse) is drawn once, with every line that reaches them. Families keep only the
/// people drawn; a family left with one partner and no child drawn is left out.
extension FamilyGraph {
    /// The person at `root` and their ancestors up to `generations` back (parents, then their
    /// parents, …, cross-bloodline parents included), each couple with the children of the line only.
    public func ancestors(ofMemberAt root: Int, generations: Int) -> FamilyGraph {
        var keep = Array(repeating: false, count: members.count)
        for member in ancestorsOrSelf(of: root, generations: generations) { keep[member] = true }
        return subgraph(keeping: keep, droppingLoneFamilies: true)
    }

    /// The person at `root` and their descendants down to `generations` (children of every
    /// partner, cross-bloodline children included), each with their partners.
    public func descendants(ofMemberAt root: Int, generations: Int) -> FamilyGraph {
        var keep = Array(repeating: false, count: members.count)
        for member in descendantsOrSelf(of: root, generations: generations) {
            keep[member] = true
            for partner in partners(ofMemberAt: member) { keep[partner] = true }
        }
        return subgraph(keeping: keep, droppingLoneFamilies: true)
    }

    /// The person at `root` with their ancestors above and their descendants below, `generations`
    /// each way, and their partners.
    public func hourglass(ofMemberAt root: Int, generations: Int) -> FamilyGraph {
        var keep = Array(repeating: false, count: members.count)
        for member in ancestorsOrSelf(of: root, generations: generations) { keep[member] = true }
        for member in descendantsOrSelf(of: root, generations: generations) {
            keep[member] = true
            for partner in partners(ofMemberAt: member) { keep[partner] = true }
        }
        return subgraph(keeping: keep, droppingLoneFamilies: true)
    }

    /// The lines that join the people at `a` and `b`: every line from each of their lowest common
    /// ancestors down to each of them, each person once. Related by marriage only (an in-law, a
    /// step-relative), the lines go through the partner who is related by blood, who is drawn
    /// too; connected only through several marriages, they follow the shortest such chain
    /// (`RelationshipCalculator.connection(from:to:)`), each stretch of blood in it drawn the same
    /// way. `nil` when no line of parents, children and partners joins them in this tree.
    public func relationshipLines(from a: Int, to b: Int) -> FamilyGraph? {
        guard a != b else {
            var keep = Array(repeating: false, count: members.count)
            keep[a] = true
            return subgraph(keeping: keep, droppingLoneFamilies: true)
        }
        // By blood first; else through a partner of either (the closest such way).
        var ways = [(a, b, [Int]())]
        ways += partners(ofMemberAt: a).map { ($0, b, [a]) }
        ways += partners(ofMemberAt: b).map { (a, $0, [b]) }
        ways += partners(ofMemberAt: a).flatMap { left in partners(ofMemberAt: b).map { (left, $0, [a, b]) } }
        let parents = parentLists(), children = childLists()
        for (from, to, alsoDrawn) in ways {
            guard let line = bloodLine(from: from, to: to, parents: parents, children: children) else { continue }
            var keep = Array(repeating: false, count: members.count)
            for member in line + alsoDrawn { keep[member] = true }
            return subgraph(keeping: keep, droppingLoneFamilies: true)
        }
        // Only who is on the chain: its words are the labels' work.
        guard let stretches = ConnectionWalk(from: a, in: RelationshipCalculator(self), until: [b]).stretches(to: b) else { return nil }
        var keep = Array(repeating: false, count: members.count)
        for stretch in stretches {
            let line = stretch.end == stretch.start ? nil : bloodLine(from: stretch.start, to: stretch.end, parents: parents, children: children)
            for member in line ?? [stretch.start, stretch.end] { keep[member] = true }
        }
        return subgraph(keeping: keep, droppingLoneFamilies: true)
    }

    // MARK: Walking the generations

    /// Each member's parents by position: the family's partners and cross-bloodline parents.
    package func parentLists() -> [[Int]] {
        var parents = Array(repeating: [Int](), count: members.count)
        for (union, children) in topology.children.enumerated() {
            for child in children { parents[child] += topology.partners[union] }
        }
        for link in topology.crossLinks { parents[link.child].append(link.parent) }
        return parents
    }

    /// Each member's children by position, of every family and cross-bloodline link.
    package func childLists() -> [[Int]] {
        var children = Array(repeating: [Int](), count: members.count)
        for (union, partners) in topology.partners.enumerated() {
            for partner in partners { children[partner] += topology.children[union] }
        }
        for link in topology.crossLinks { children[link.parent].append(link.child) }
        return children
    }

    /// `start` and everyone `next` reaches from it in up to `generations` steps, nearest first.
    func reached(from start: Int, generations: Int, by next: [[Int]]) -> [Int] {
        var seen: Set<Int> = [start]
        var order = [start], frontier = [start]
        var generation = 0
        // Stops where the family ends, so a huge `generations` costs no more than the tree.
        while generation < generations, !frontier.isEmpty {
            generation += 1
            var following: [Int] = []
            for member in frontier {
                for relative in next[member] where seen.insert(relative).inserted {
                    following.append(relative)
                }
            }
            order += following
            frontier = following
        }
        return order
    }

    private func ancestorsOrSelf(of member: Int, generations: Int) -> [Int] {
        reached(from: member, generations: generations, by: parentLists())
    }

    private func descendantsOrSelf(of member: Int, generations: Int) -> [Int] {
        reached(from: member, generations: generations, by: childLists())
    }

    /// The people on every line from the lowest common ancestors of `a` and `b` down to each of
    /// them; `nil` when they have no common ancestor (and neither descends from the other).
    private func bloodLine(from a: Int, to b: Int, parents: [[Int]], children: [[Int]]) -> [Int]? {
        let aboveA = Set(reached(from: a, generations: Int.max, by: parents))
        let aboveB = Set(reached(from: b, generations: Int.max, by: parents))
        let common = aboveA.intersection(aboveB)
        guard !common.isEmpty else { return nil }
        // The lowest: common ancestors none of whose children is also a common ancestor.
        let lowest = common.filter { ancestor in !children[ancestor].contains(where: common.contains) }
        // Down from each lowest common ancestor, only through the two people's ancestors.
        let onEitherLine = aboveA.union(aboveB)
        var line: Set<Int> = []
        var frontier = Array(lowest)
        line.formUnion(lowest)
        while let member = frontier.popLast() {
            for child in children[member] where onEitherLine.contains(child) && line.insert(child).inserted {
                frontier.append(child)
            }
        }
        return line.sorted()
    }
}
