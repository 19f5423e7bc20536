import FamilyTree

/// The left-to-right order of family units in every layer.
///
/// A unit is a family component in one layer: a couple, a person with all their partners, or
/// someone alone. Units are ordered as wholes, so partners stay side by side, and the children
/// of each union keep their sibling order as a hard constraint in every reordering.
struct Arrangement {
    let graph: FamilyGraph
    let layering: Layering
    /// Members of each unit, left to right.
    var unitMembers: [[Int]]
    let unitLayer: [Int]
    let unitOfMember: [Int]
    /// Units of each layer, left to right.
    var layers: [[Int]]
    /// Each member's position among the members of its layer.
    var slot: [Int]
    /// "Unit a must stand left of unit b" pairs from sibling order, by the earlier unit.
    let mustPrecede: [[Int]]

    init(graph: FamilyGraph, layering: Layering) {
        self.graph = graph
        self.layering = layering
        let topology = graph.topology
        let memberCount = graph.members.count
        // Units are components; their members are ordered along the partnerships.
        var membersOfComponent = Array(repeating: [Int](), count: memberCount == 0 ? 0 : (layering.componentOfMember.max() ?? -1) + 1)
        for member in 0..<memberCount { membersOfComponent[layering.componentOfMember[member]].append(member) }
        unitMembers = membersOfComponent.map { Arrangement.linearOrder(of: $0, graph: graph, layering: layering) }
        unitOfMember = layering.componentOfMember
        unitLayer = unitMembers.map { layering.layerOfMember[$0[0]] }

        var precede = Array(repeating: [Int](), count: unitMembers.count)
        for children in topology.children {
            for (older, younger) in zip(children, children.dropFirst()) {
                let (first, second) = (layering.componentOfMember[older], layering.componentOfMember[younger])
                if first != second, unitLayer[first] == unitLayer[second] { precede[first].append(second) }
            }
        }
        mustPrecede = precede
        layers = Array(repeating: [], count: layering.layerCount)
        slot = Array(repeating: 0, count: memberCount)
        layers = initialOrder()
        for layer in layers.indices { enforceConstraints(layer: layer) }
        updateSlots()
    }

    /// Members of one component ordered so partners are neighbours: along the chain of partnerships
    /// from one end; a person with three or more partners has the first on one side and the rest on the other.
    static func linearOrder(of members: [Int], graph: FamilyGraph, layering: Layering) -> [Int] {
        guard members.count > 1 else { return members }
        let component = layering.componentOfMember[members[0]]
        func partners(_ member: Int) -> [Int] {
            graph.partners(ofMemberAt: member).filter { layering.componentOfMember[$0] == component }
        }
        let start = members.first { partners($0).count == 1 } ?? members[0]
        var order: [Int] = []
        var placed = Set<Int>()
        var stack = [start]
        while let member = stack.popLast() {
            guard placed.insert(member).inserted else { continue }
            let next = partners(member).filter { !placed.contains($0) }
            if next.count > 1, order.isEmpty {
                // A hub at the very start: its first partner goes to its left.
                order.append(next[0])
                placed.insert(next[0])
                order.append(member)
                stack += next.dropFirst().reversed()
                continue
            }
            order.append(member)
            stack += next.reversed()
        }
        return order
    }

    /// Depth-first along family lines from the founders, children in sibling order.
    private func initialOrder() -> [[Int]] {
        let topology = graph.topology
        var result = Array(repeating: [Int](), count: layering.layerCount)
        var visited = Array(repeating: false, count: unitMembers.count)
        var roots = unitMembers.indices.filter { unit in
            unitMembers[unit].allSatisfy { topology.primaryParentUnion[$0] == -1 }
        }
        roots += unitMembers.indices.filter { !roots.contains($0) }
        for root in roots where !visited[root] {
            var stack = [root]
            while let unit = stack.popLast() {
                guard !visited[unit] else { continue }
                visited[unit] = true
                result[unitLayer[unit]].append(unit)
                var childUnits: [Int] = []
                for member in unitMembers[unit] {
                    for union in topology.unionsOfMember[member] {
                        for child in topology.children[union] where topology.primaryParentUnion[child] == union {
                            let childUnit = unitOfMember[child]
                            if !visited[childUnit] { childUnits.append(childUnit) }
                        }
                    }
                }
                stack += childUnits.reversed()
            }
        }
        return result
    }

    mutating func updateSlots() {
        for layer in layers {
            var position = 0
            for unit in layer {
                for member in unitMembers[unit] {
                    slot[member] = position
                    position += 1
                }
            }
        }
    }

    /// The position of a union: the mean position of its partners.
    func unionPosition(_ union: Int) -> Double {
        let partners = graph.topology.partners[union]
        return Double(partners.reduce(0) { $0 + slot[$1] }) / Double(partners.count)
    }

    func unitCentre(_ unit: Int) -> Double {
        let members = unitMembers[unit]
        return Double(slot[members[0]] + slot[members[members.count - 1]]) / 2
    }

    // MARK: Crossing reduction

    /// Alternating barycenter sweeps over units, keeping the order with the fewest crossings.
    mutating func reduceCrossings(sweeps: Int) {
        guard layers.count > 1 else { return }
        var best = (layers: layers, units: unitMembers, crossings: countCrossings())
        for _ in 0..<sweeps {
            for layer in 1..<layers.count { reorder(layer: layer, towardParents: true) }
            for layer in stride(from: layers.count - 2, through: 0, by: -1) { reorder(layer: layer, towardParents: false) }
            let crossings = countCrossings()
            if crossings < best.crossings {
                best = (layers, unitMembers, crossings)
            } else {
                break
            }
        }
        layers = best.layers
        unitMembers = best.units
        updateSlots()
    }

    /// Sorts a layer's units by the mean position of their parents (or children), within sibling order.
    private mutating func reorder(layer: Int, towardParents: Bool) {
        let topology = graph.topology
        var key: [Int: Double] = [:]
        for unit in layers[layer] {
            var sum = 0.0
            var count = 0
            var orientation = 0.0
            let centre = unitCentre(unit)
            for member in unitMembers[unit] {
                if towardParents {
                    let parentUnion = topology.primaryParentUnion[member]
                    guard parentUnion >= 0 else { continue }
                    let position = unionPosition(parentUnion)
                    sum += position
                    count += 1
                    orientation += (position - centre) * (Double(slot[member]) - centre)
                } else {
                    for union in topology.unionsOfMember[member] {
                        for child in topology.children[union] where unitLayer[unitOfMember[child]] > layer {
                            sum += Double(slot[child])
                            count += 1
                        }
                    }
                }
            }
            // Turn a couple round when each partner's family stands on the other side.
            if orientation < 0 { unitMembers[unit].reverse() }
            key[unit] = count > 0 ? sum / Double(count) : centre
        }
        var centres: [Int: Double] = [:]
        for unit in layers[layer] { centres[unit] = unitCentre(unit) }
        layers[layer].sort { key[$0]! != key[$1]! ? key[$0]! < key[$1]! : centres[$0]! < centres[$1]! }
        enforceConstraints(layer: layer)
        var position = 0
        for unit in layers[layer] {
            for member in unitMembers[unit] {
                slot[member] = position
                position += 1
            }
        }
    }

    /// Reorders a layer minimally so every sibling-order constraint holds: a topological sort that
    /// always takes the earliest unit whose elder siblings' units are placed. A cycle of constraints
    /// (two sibling groups intermarried both ways) is broken by taking the earliest waiting unit.
    private mutating func enforceConstraints(layer: Int) {
        let units = layers[layer]
        guard units.count > 1 else { return }
        var rank: [Int: Int] = [:]
        for (position, unit) in units.enumerated() { rank[unit] = position }
        var waiting = [Int: Int]()
        for unit in units {
            for later in mustPrecede[unit] where rank[later] != nil { waiting[later, default: 0] += 1 }
        }
        guard !waiting.isEmpty else { return }
        var ready = MinHeap()
        for (position, unit) in units.enumerated() where waiting[unit] == nil { ready.insert(position) }
        var placed = Array(repeating: false, count: units.count)
        var result: [Int] = []
        result.reserveCapacity(units.count)
        var scan = 0
        while result.count < units.count {
            let position: Int
            if let next = ready.popMin() {
                position = next
            } else {
                while placed[scan] { scan += 1 }
                position = scan
            }
            guard !placed[position] else { continue }
            placed[position] = true
            let unit = units[position]
            result.append(unit)
            for later in mustPrecede[unit] {
                guard let laterRank = rank[later], !placed[laterRank], let count = waiting[later] else { continue }
                waiting[later] = count - 1
                if count == 1 { ready.insert(laterRank) }
            }
        }
        layers[layer] = result
    }

    /// Crossings between adjacent layers of parent-to-child lines.
    func countCrossings() -> Int {
        var total = 0
        let topology = graph.topology
        var pairsByLayer = Array(repeating: [(Int, Int)](), count: layers.count)
        for (union, children) in topology.children.enumerated() {
            let from = topology.partners[union][0]
            for child in children where layering.layerOfMember[child] == layering.layerOfMember[from] + 1 {
                for partner in topology.partners[union] { pairsByLayer[layering.layerOfMember[from]].append((slot[partner], slot[child])) }
            }
        }
        for pairs in pairsByLayer where pairs.count > 1 {
            total += CrossingCounter.crossings(pairs)
        }
        return total
    }
}

/// A binary min-heap of integers.
struct MinHeap {
    private var items: [Int] = []

    mutating func insert(_ value: Int) {
        items.append(value)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count, items[left] < items[smallest] { smallest = left }
                if right < items.count, items[right] < items[smallest] { smallest = right }
                guard smallest != parent else { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}
