import FamilyTree

/// The left-to-right order of the members of one family unit (a person with all their partners,
/// their partners' partners and so on, in one layer), with as many couples side by side as the
/// partnerships allow.
///
/// The first order is a walk along the partnerships from one end, in marriage order; a person with
/// three or more partners has the first on one side and the rest on the other. That is the best
/// order for a chain of remarriages and for anyone with up to two partners. Where partnerships
/// branch twice (a king with several wives, one of whom married again, whose next husband did too)
/// the walk can leave couples apart that another order keeps together: on the Tudors' Scottish
/// kings it kept 7 of 16 couples side by side where 9 is possible.
///
/// Couples side by side in a row are paths in the graph of partnerships, so the best order is the
/// heaviest set of partnerships that forms paths (each person beside at most two partners, no
/// ring), laid end to end. On a tree of partnerships that set is found exactly, in linear time, by
/// the dynamic programme below; partnerships that close a ring (rare: three people each married to
/// the other two) are left out of the search, and the walk is kept whenever it does as well.
enum PartnerOrder {
    /// Members of one component, ordered so the most partners are neighbours.
    static func order(of members: [Int], graph: FamilyGraph, unitOfMember: [Int]) -> [Int] {
        let (walk, branches) = walkAlongPartnerships(members, graph: graph, unitOfMember: unitOfMember)
        // Without anyone having three or more partners the unit is a chain or a ring, which the walk follows.
        guard branches else { return walk }
        var position: [Int: Int] = [:]
        for (index, member) in walk.enumerated() { position[member] = index }
        // Unions between neighbours in the partnership graph, by position in the walk.
        var unions = Array(repeating: [Int: Int](), count: walk.count)
        for (index, member) in walk.enumerated() {
            for partner in graph.partners(ofMemberAt: member) {
                if let other = position[partner], other != index { unions[index][other, default: 0] += 1 }
            }
        }
        func adjacent(_ order: [Int]) -> Int { zip(order, order.dropFirst()).reduce(0) { $0 + (unions[$1.0][$1.1] ?? 0) } }
        // Of the orders with the most couples together, the one that keeps most of the walk's
        // couples: a first marriage (a king and his queen) before a later partner or a mistress.
        var weights = unions.map { $0.mapValues { $0 * walk.count } }
        for index in 1..<walk.count where weights[index - 1][index] != nil {
            weights[index - 1][index]! += 1
            weights[index][index - 1]! += 1
        }
        let paths = heaviestPaths(weights: weights)
        return adjacent(paths) > adjacent(Array(walk.indices)) ? paths.map { walk[$0] } : walk
    }

    /// The walk along the partnerships, from a member with one partner where there is one.
    static func walk(_ members: [Int], graph: FamilyGraph, unitOfMember: [Int]) -> [Int] {
        walkAlongPartnerships(members, graph: graph, unitOfMember: unitOfMember).order
    }

    /// The walk, and whether anyone on it has three or more partners.
    private static func walkAlongPartnerships(_ members: [Int], graph: FamilyGraph, unitOfMember: [Int]) -> (order: [Int], branches: Bool) {
        guard members.count > 2 else { return (members, false) }
        let component = unitOfMember[members[0]]
        // Each partner once, in marriage order (a couple can marry twice).
        func partners(_ member: Int) -> [Int] {
            var seen = Set<Int>()
            return graph.partners(ofMemberAt: member).filter { unitOfMember[$0] == component && seen.insert($0).inserted }
        }
        let start = members.first { partners($0).count == 1 } ?? members[0]
        var order: [Int] = []
        var placed = Set<Int>()
        var stack = [start]
        var branches = false
        while let member = stack.popLast() {
            guard placed.insert(member).inserted else { continue }
            let all = partners(member)
            branches = branches || all.count > 2
            let next = all.filter { !placed.contains($0) }
            if next.count > 1, order.isEmpty {
                // A hub at the very start: its first partner goes to its left, and that partner's
                // other partners (in a ring, or a couple married twice) come after everyone else.
                order.append(next[0])
                placed.insert(next[0])
                order.append(member)
                stack += partners(next[0]).filter { !placed.contains($0) }.reversed()
                stack += next.dropFirst().reversed()
                continue
            }
            order.append(member)
            stack += next.reversed()
        }
        return (order, branches)
    }

    /// Positions `0..<weights.count` ordered as the heaviest set of partnerships (`weights` between
    /// partners) that forms paths, found on a spanning tree of the partnerships (from position 0,
    /// neighbours in position order); the paths follow each other by their first position, each
    /// from its end with the lower one.
    static func heaviestPaths(weights: [[Int: Int]]) -> [Int] {
        let count = weights.count
        // The spanning tree, depth first (iteratively: a unit can be large).
        var parent = Array(repeating: -1, count: count)
        var visited = Array(repeating: false, count: count)
        var preorder: [Int] = []
        for root in 0..<count where !visited[root] {
            var stack = [root]
            visited[root] = true
            while let node = stack.popLast() {
                preorder.append(node)
                for next in weights[node].keys.sorted(by: >) where !visited[next] {
                    visited[next] = true
                    parent[next] = node
                    stack.append(next)
                }
            }
        }
        var children = Array(repeating: [Int](), count: count)
        for node in preorder where parent[node] >= 0 { children[parent[node]].append(node) }
        // best[node][k]: the most unions inside node's subtree with at most k of node's child edges
        // taken; the edge to a child is worth its unions plus the child's best with at most one of its own.
        var best = Array(repeating: (0, 0, 0), count: count)
        var taken = Array(repeating: [Int](), count: count)
        for node in preorder.reversed() {
            var sum = 0
            var gains: [(gain: Int, child: Int)] = []
            for child in children[node] {
                sum += best[child].2
                let gain = weights[node][child]! + best[child].1 - best[child].2
                if gain > 0 { gains.append((gain, child)) }
            }
            gains.sort { ($0.gain, -$0.child) > ($1.gain, -$1.child) }
            let first = gains.count > 0 ? gains[0].gain : 0
            let second = gains.count > 1 ? gains[1].gain : 0
            best[node] = (sum, sum + first, sum + first + second)
            taken[node] = gains.prefix(2).map(\.child)
        }
        // Down the tree: each node takes its best one or two child edges, as its parent allows.
        var neighbours = Array(repeating: [Int](), count: count)
        var allowed = Array(repeating: 2, count: count)
        for node in preorder {
            let chosen = taken[node].prefix(allowed[node])
            for child in children[node] { allowed[child] = chosen.contains(child) ? 1 : 2 }
            for child in chosen {
                neighbours[node].append(child)
                neighbours[child].append(node)
            }
        }
        // Lay the paths end to end.
        var order: [Int] = []
        var placed = Array(repeating: false, count: count)
        for start in 0..<count where !placed[start] && neighbours[start].count < 2 {
            var (previous, node) = (-1, start)
            while node >= 0 {
                placed[node] = true
                order.append(node)
                let next = neighbours[node].first { $0 != previous && !placed[$0] } ?? -1
                (previous, node) = (node, next)
            }
        }
        return order
    }
}
