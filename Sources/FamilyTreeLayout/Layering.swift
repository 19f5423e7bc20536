import FamilyTree

/// Assigns each member a layer (generation).
///
/// Partners share a layer and every child is below all its parents (union and cross-bloodline
/// parents alike). Partners are fused into family components; components are layered by longest
/// path, founders are then moved down to just above their first children. From there the layers
/// are made optimal (`optimalLayers`: the least total line length, siblings kept together at a
/// price), so the ancestry of someone who married in floats down to their spouse's depth; trees
/// too large for that are improved by moving families toward a child who married into a later
/// generation (`demote`). Where fusing partners
/// would put a child beside a parent (a man marrying his stepdaughter), that partnership is unfused
/// and its partners may stand in different layers.
///
/// The ranking stage: its input is the family graph, its output a layer for each real member (the
/// placeholders of long lines are added after it, by `LongEdgeChains`).
struct Layering {
    /// The layer of each member.
    let layerOfMember: [Int]
    /// The family component of each member (members fused by partnership).
    let componentOfMember: [Int]
    let layerCount: Int

    /// The layers of `graph`'s members: optimal up to `optimalLimit` components and sibling groups,
    /// by the demotion heuristic above it.
    init(graph: FamilyGraph, optimalLimit: Int = LayeredLayout.Options.defaultOptimalRankingLimit) {
        let topology = graph.topology
        let memberCount = graph.members.count
        var parentsOf = Array(repeating: [Int](), count: memberCount)
        for (union, children) in topology.children.enumerated() {
            for child in children { parentsOf[child] += topology.partners[union] }
        }
        for link in topology.crossLinks { parentsOf[link.child].append(link.parent) }

        var unfused = Array(repeating: false, count: topology.partners.count)
        while true {
            let components = Layering.components(topology: topology, memberCount: memberCount, unfused: unfused)
            let siblings = Layering.siblingGroups(topology: topology, components: components)
            if let layers = Layering.layers(components: components, parentsOf: parentsOf, siblings: siblings, optimalLimit: optimalLimit) {
                componentOfMember = components.ofMember
                var layerOfMember = (0..<memberCount).map { layers[components.ofMember[$0]] }
                Layering.moveLoneMembersBelow(&layerOfMember, topology: topology)
                self.layerOfMember = layerOfMember
                layerCount = (layerOfMember.max() ?? -1) + 1
                return
            }
            // Unfuse every partnership of a component that sits on a cycle, then fuse back, one at a
            // time in file order, each that leaves no cycle: only the marriage to a stepdaughter is
            // unfused, not the first marriage too. All-unfused always works because validation
            // rejects ancestry cycles, and without it every loop unfuses more.
            let cyclic = Layering.cyclicComponents(components: components, parentsOf: parentsOf)
            let unfusing = topology.partners.indices.filter { union in
                topology.partners[union].count == 2 && !unfused[union] && cyclic.contains(components.ofMember[topology.partners[union][0]])
            }
            for union in unfusing { unfused[union] = true }
            guard unfusing.count <= Layering.partnershipsTriedBack else { continue }
            for union in unfusing {
                unfused[union] = false
                let trial = Layering.components(topology: topology, memberCount: memberCount, unfused: unfused)
                if !Layering.cyclicComponents(components: trial, parentsOf: parentsOf).isEmpty { unfused[union] = true }
            }
        }
    }

    /// Moves people with no partner, parent or child in the tree out of the first layer into rows
    /// below everyone else: a compact block, in file order, rows as wide as the widest layer
    /// (at least as many as the block is deep), instead of a long row across the top.
    static func moveLoneMembersBelow(_ layerOfMember: inout [Int], topology: Topology) {
        var linked = Array(repeating: false, count: layerOfMember.count)
        for (union, partners) in topology.partners.enumerated() {
            for member in partners { linked[member] = true }
            for child in topology.children[union] { linked[child] = true }
        }
        for link in topology.crossLinks { (linked[link.parent], linked[link.child]) = (true, true) }
        let lone = linked.indices.filter { !linked[$0] }
        guard !lone.isEmpty else { return }
        var widest = [Int: Int]()
        for member in linked.indices where linked[member] { widest[layerOfMember[member], default: 0] += 1 }
        let firstRow = (widest.keys.max() ?? -1) + 1
        let perRow = max(min(lone.count, widest.values.max() ?? 1), Int(Double(lone.count).squareRoot().rounded(.up)))
        for (position, member) in lone.enumerated() { layerOfMember[member] = firstRow + position / perRow }
    }

    struct Components {
        var ofMember: [Int]
        var count: Int
    }

    /// At most this many partnerships of cyclic components are tried back one by one (each trial
    /// is a pass over the tree); beyond that they all stay unfused.
    static let partnershipsTriedBack = 64

    /// Union-find over the partnerships not `unfused` (by union), numbering components by their first member.
    static func components(topology: Topology, memberCount: Int, unfused: [Bool]) -> Components {
        var parent = Array(0..<memberCount)
        func find(_ member: Int) -> Int {
            var root = member
            while parent[root] != root { root = parent[root] }
            var current = member
            while parent[current] != root { (parent[current], current) = (root, parent[current]) }
            return root
        }
        for (union, partners) in topology.partners.enumerated() where partners.count == 2 && !unfused[union] {
            let (first, second) = (find(partners[0]), find(partners[1]))
            if first != second { parent[max(first, second)] = min(first, second) }
        }
        var number = Array(repeating: -1, count: memberCount)
        var ofMember = Array(repeating: 0, count: memberCount)
        var count = 0
        for member in 0..<memberCount {
            let root = find(member)
            if number[root] == -1 { number[root] = count; count += 1 }
            ofMember[member] = number[root]
        }
        return Components(ofMember: ofMember, count: count)
    }

    /// Parent-component to child-component edges, deduplicated per pair only where cheap.
    static func componentEdges(components: Components, parentsOf: [[Int]]) -> (children: [[Int]], indegree: [Int]) {
        var children = Array(repeating: [Int](), count: components.count)
        var indegree = Array(repeating: 0, count: components.count)
        for (member, parents) in parentsOf.enumerated() {
            let child = components.ofMember[member]
            for parent in parents {
                children[components.ofMember[parent]].append(child)
                indegree[child] += 1
            }
        }
        return (children, indegree)
    }

    /// Longest-path layers with founders pulled down, then made optimal (`optimalLayers`), or on trees
    /// above `optimalLimit` improved by demoting families; `nil` when the component graph has a cycle.
    static func layers(components: Components, parentsOf: [[Int]], siblings: SiblingGroups, optimalLimit: Int) -> [Int]? {
        var (children, indegree) = componentEdges(components: components, parentsOf: parentsOf)
        let hasParents = indegree.map { $0 > 0 }
        var order: [Int] = []
        order.reserveCapacity(components.count)
        for component in 0..<components.count where indegree[component] == 0 { order.append(component) }
        var layer = Array(repeating: 0, count: components.count)
        var head = 0
        while head < order.count {
            let component = order[head]
            head += 1
            for child in children[component] {
                layer[child] = max(layer[child], layer[component] + 1)
                indegree[child] -= 1
                if indegree[child] == 0 { order.append(child) }
            }
        }
        guard order.count == components.count else { return nil }
        // Founders sit just above their highest child, not at the top of the chart.
        for component in order.reversed() where !hasParents[component] && !children[component].isEmpty {
            let highestChild = children[component].map { layer[$0] }.min()!
            layer[component] = max(layer[component], highestChild - 1)
        }
        if components.count + siblings.members.start.count - 1 <= optimalLimit {
            layer = optimalLayers(startingFrom: layer, children: children, siblings: siblings)
        } else {
            Layering.demote(&layer, children: children, order: order, siblings: siblings)
        }
        children.removeAll()
        return layer
    }

    /// How much a child standing one layer below the eldest of their siblings costs, against one
    /// layer of a line from parent to child.
    static let siblingSpreadWeight = 2

    /// The layers with the least total line length (each parent-child line counted per parent,
    /// each sibling's distance below the highest of their siblings counted `siblingSpreadWeight`
    /// times), every child at least one layer below its parents.
    static func optimalLayers(startingFrom layer: [Int], children: [[Int]], siblings: SiblingGroups) -> [Int] {
        var weightOfPair: [Int: Int] = [:]
        var pairs: [(Int, Int)] = []
        let count = layer.count
        for (parent, list) in children.enumerated() {
            for child in list {
                let key = parent * count + child
                if let weight = weightOfPair[key] {
                    weightOfPair[key] = weight + 1
                } else {
                    weightOfPair[key] = 1
                    pairs.append((parent, child))
                }
            }
        }
        let (standIn, alike) = leavesAlike(pairs: pairs, weightOfPair: weightOfPair, children: children, siblings: siblings)
        var edges = pairs.filter { standIn[$0.1] == $0.1 }.map {
            NetworkSimplex.Edge(tail: $0.0, head: $0.1, minLength: 1, weight: weightOfPair[$0.0 * count + $0.1]! * alike[$0.1])
        }
        var ranks = layer
        // Each sibling group is a node just above (or level with) its highest member: its edges
        // down to the members measure how far the group is spread.
        let groupCount = siblings.members.start.count - 1
        for group in 0..<groupCount where siblingSpreadWeight > 0 {
            let node = ranks.count
            let members = siblings.members.items[siblings.members.range(group)]
            ranks.append(members.map { layer[$0] }.min()!)
            for member in members where standIn[member] == member {
                edges.append(NetworkSimplex.Edge(tail: node, head: member, minLength: 0, weight: siblingSpreadWeight * alike[member]))
            }
        }
        var simplex = NetworkSimplex(nodeCount: ranks.count, edges: edges, feasibleRanks: ranks)
        simplex.solve(maxExchanges: 20 * ranks.count + 1_000)
        return (0..<count).map { simplex.rank[standIn[$0]] }
    }

    /// Childless components alike: the same parents by the same number of lines, in the same
    /// sibling groups. Each such set is ranked as its first one (`standIn`), whose lines count as
    /// many times as the set has components (`alike`; 1 for every other component).
    ///
    /// A childless component's lines all run up, each lengthening as it moves down, so it takes the
    /// highest layer its parents allow in every optimal ranking: components alike take the same
    /// one, and one standing in for the rest changes no optimal ranking. Without this, the brothers
    /// and sisters of one family were one network simplex exchange each (their sibling group takes
    /// them from their parents one at a time), each renumbering the whole family: 30,000 children of
    /// one couple took 4.7 s.
    static func leavesAlike(
        pairs: [(Int, Int)], weightOfPair: [Int: Int], children: [[Int]], siblings: SiblingGroups
    ) -> (standIn: [Int], alike: [Int]) {
        let count = children.count
        var standIn = Array(0..<count)
        var alike = Array(repeating: 1, count: count)
        // Each childless component's parents, each followed by its line count.
        var parents = Array(repeating: [(parent: Int, lines: Int)](), count: count)
        for (parent, child) in pairs where children[child].isEmpty {
            parents[child].append((parent, weightOfPair[parent * count + child]!))
        }
        var first: [[Int]: Int] = [:]
        for component in 0..<count where children[component].isEmpty && !parents[component].isEmpty {
            // Parents sorted (they come in the order lines were read), then the sibling groups.
            let key = parents[component].sorted { $0.parent < $1.parent }.flatMap { [$0.parent, $0.lines] } + [-1]
                + siblings.groupsOfComponent.items[siblings.groupsOfComponent.range(component)]
            if let standing = first[key] {
                standIn[component] = standing
                alike[standing] += 1
            } else {
                first[key] = component
            }
        }
        return (standIn, alike)
    }

    /// Moves families down toward their lowest children while that shortens lines overall (the
    /// promotion heuristic of Nikolov and Tarassov, turned downward): a family moves down one layer
    /// together with every descendant it would otherwise touch, and the move is kept only when the
    /// lines it lengthens are fewer than the lines it shortens and it leaves no more sibling groups
    /// split across layers than it found. This closes the long gaps longest-path layering leaves
    /// when one child married into a much later generation than their siblings.
    static func demote(_ layer: inout [Int], children: [[Int]], order: [Int], siblings: SiblingGroups) {
        var parentCount = Array(repeating: 0, count: layer.count)
        for list in children { for child in list { parentCount[child] += 1 } }
        var moved: [Int] = []
        // Each attempt may move many descendants, so attempts share a budget that keeps the work
        // linear in the tree's size.
        var budget = 500 * layer.count + 100_000
        var movedIn = Array(repeating: -1, count: layer.count)
        var attempt = 0
        var groupSeen = Array(repeating: -1, count: siblings.members.start.count - 1)
        /// How many more families the attempt leaves split across layers than it found (negative
        /// when it brings more together than it parts).
        func splitFamiliesAdded() -> Int {
            var added = 0
            for component in moved {
                for entry in siblings.groupsOfComponent.range(component) {
                    let group = siblings.groupsOfComponent.items[entry]
                    guard groupSeen[group] != attempt else { continue }
                    groupSeen[group] = attempt
                    let range = siblings.members.range(group)
                    let first = siblings.members.items[range.lowerBound]
                    let firstBefore = layer[first] - (movedIn[first] == attempt ? 1 : 0)
                    var splitBefore = false
                    var splitAfter = false
                    for sibling in siblings.members.items[range] {
                        if layer[sibling] - (movedIn[sibling] == attempt ? 1 : 0) != firstBefore { splitBefore = true }
                        if layer[sibling] != layer[first] { splitAfter = true }
                    }
                    added += (splitAfter ? 1 : 0) - (splitBefore ? 1 : 0)
                }
            }
            return added
        }
        /// Moves `component` (and descendants in the way) down one layer; returns the change in total span.
        func push(_ component: Int) -> Int {
            var change = parentCount[component] - children[component].count
            for child in children[component] where layer[child] == layer[component] + 1 {
                change += push(child)
            }
            layer[component] += 1
            moved.append(component)
            movedIn[component] = attempt
            budget -= 1
            return change
        }
        var improved = true
        while improved, budget > 0 {
            improved = false
            // Only a family with a child more than one layer down can gain: others would move
            // everyone below them for nothing.
            for component in order.reversed() where budget > 0 && children[component].contains(where: { layer[$0] > layer[component] + 1 }) {
                while budget > 0 {
                    moved.removeAll(keepingCapacity: true)
                    attempt += 1
                    let change = push(component)
                    let split = splitFamiliesAdded()
                    if split <= 0, change < 0 {
                        improved = true
                    } else {
                        for undone in moved { layer[undone] -= 1 }
                        break
                    }
                }
            }
        }
    }

    /// The children of each union (their components, with at least two) and, for each component,
    /// the groups it belongs to.
    struct SiblingGroups {
        var members: CompactGraph.Rows
        var groupsOfComponent: CompactGraph.Rows
    }

    static func siblingGroups(topology: Topology, components: Components) -> SiblingGroups {
        var groups: [[Int]] = []
        var count = Array(repeating: 0, count: components.count)
        for (union, children) in topology.children.enumerated() {
            var group: [Int] = []
            for child in children where topology.primaryParentUnion[child] == union {
                let component = components.ofMember[child]
                if !group.contains(component) { group.append(component) }
            }
            guard group.count > 1 else { continue }
            for component in group { count[component] += 1 }
            groups.append(group)
        }
        // Counting sort of (component, group) pairs by component.
        var start = [0]
        start.reserveCapacity(components.count + 1)
        for number in count { start.append(start.last! + number) }
        var next = Array(start.dropLast())
        var items = Array(repeating: 0, count: start.last!)
        for (group, list) in groups.enumerated() {
            for component in list {
                items[next[component]] = group
                next[component] += 1
            }
        }
        return SiblingGroups(members: CompactGraph.Rows(groups), groupsOfComponent: CompactGraph.Rows(start: start, items: items))
    }

    /// Components on a cycle, or between two: what neither forward nor backward peeling removes.
    static func cyclicComponents(components: Components, parentsOf: [[Int]]) -> Set<Int> {
        let (children, _) = componentEdges(components: components, parentsOf: parentsOf)
        var parents = Array(repeating: [Int](), count: components.count)
        for (component, list) in children.enumerated() { for child in list { parents[child].append(component) } }
        func peel(_ successors: [[Int]], _ predecessors: [[Int]]) -> [Bool] {
            var remaining = predecessors.map(\.count)
            var queue = (0..<components.count).filter { remaining[$0] == 0 }
            var removed = Array(repeating: false, count: components.count)
            var head = 0
            while head < queue.count {
                let component = queue[head]
                head += 1
                removed[component] = true
                for next in successors[component] {
                    remaining[next] -= 1
                    if remaining[next] == 0 { queue.append(next) }
                }
            }
            return removed
        }
        let fromTop = peel(children, parents)
        let fromBottom = peel(parents, children)
        return Set((0..<components.count).filter { !fromTop[$0] && !fromBottom[$0] })
    }
}
