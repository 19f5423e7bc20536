import FamilyTree

/// Assigns each member a layer (generation).
///
/// Partners share a layer and every child is below all its parents (union and cross-bloodline
/// parents alike). Partners are fused into family components; components are layered by longest
/// path, and founders are then moved down to just above their first children. Where fusing partners
/// would put a child beside a parent (a man marrying his stepdaughter), that component is unfused
/// and its partners may stand in different layers.
struct Layering {
    /// The layer of each member.
    let layerOfMember: [Int]
    /// The family component of each member (members fused by partnership).
    let componentOfMember: [Int]
    let layerCount: Int

    init(graph: FamilyGraph) {
        let topology = graph.topology
        let memberCount = graph.members.count
        var parentsOf = Array(repeating: [Int](), count: memberCount)
        for (union, children) in topology.children.enumerated() {
            for child in children { parentsOf[child] += topology.partners[union] }
        }
        for link in topology.crossLinks { parentsOf[link.child].append(link.parent) }

        var unfused = Array(repeating: false, count: memberCount)
        while true {
            let components = Layering.components(topology: topology, memberCount: memberCount, unfused: unfused)
            if let layers = Layering.layers(components: components, parentsOf: parentsOf) {
                componentOfMember = components.ofMember
                layerOfMember = (0..<memberCount).map { layers[components.ofMember[$0]] }
                layerCount = (layerOfMember.max() ?? -1) + 1
                return
            }
            // Unfuse every component that sits on a cycle, then try again; all-unfused always works
            // because validation rejects ancestry cycles.
            let cyclic = Layering.cyclicComponents(components: components, parentsOf: parentsOf)
            for member in 0..<memberCount where cyclic.contains(components.ofMember[member]) { unfused[member] = true }
        }
    }

    struct Components {
        var ofMember: [Int]
        var count: Int
    }

    /// Union-find over partnerships, numbering components by their first member.
    static func components(topology: Topology, memberCount: Int, unfused: [Bool]) -> Components {
        var parent = Array(0..<memberCount)
        func find(_ member: Int) -> Int {
            var root = member
            while parent[root] != root { root = parent[root] }
            var current = member
            while parent[current] != root { (parent[current], current) = (root, parent[current]) }
            return root
        }
        for partners in topology.partners where partners.count == 2 && !unfused[partners[0]] && !unfused[partners[1]] {
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

    /// Longest-path layers with founders pulled down; `nil` when the component graph has a cycle.
    static func layers(components: Components, parentsOf: [[Int]]) -> [Int]? {
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
        children.removeAll()
        return layer
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
