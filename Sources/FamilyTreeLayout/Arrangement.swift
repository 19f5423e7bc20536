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
    /// The number of members in each layer.
    let layerSizes: [Int]
    /// Scratch: each unit's position in its layer while that layer is reordered.
    private var rankInLayer: [Int]
    /// Cross-bloodline parents and children of each member.
    let crossParents: [[Int]]
    let crossChildren: [[Int]]

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
        rankInLayer = Array(repeating: 0, count: unitMembers.count)
        var sizes = Array(repeating: 0, count: layering.layerCount)
        for member in 0..<memberCount { sizes[layering.layerOfMember[member]] += 1 }
        layerSizes = sizes
        var parentsByLink = Array(repeating: [Int](), count: memberCount)
        var childrenByLink = Array(repeating: [Int](), count: memberCount)
        for link in topology.crossLinks {
            parentsByLink[link.child].append(link.parent)
            childrenByLink[link.parent].append(link.child)
        }
        crossParents = parentsByLink
        crossChildren = childrenByLink
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

    /// Alternating barycenter sweeps over units, each followed by transposition, keeping the order
    /// with the fewest crossings seen after any half-sweep.
    mutating func reduceCrossings(sweeps: Int) {
        guard layers.count > 1 else { return }
        var best = (layers: layers, units: unitMembers, crossings: countCrossings())
        var roundsWithoutGain = 0
        for _ in 0..<sweeps {
            var gained = false
            for towardParents in [true, false] {
                if towardParents {
                    for layer in 1..<layers.count { reorder(layer: layer, towardParents: true) }
                } else {
                    for layer in stride(from: layers.count - 2, through: 0, by: -1) { reorder(layer: layer, towardParents: false) }
                }
                if !towardParents { transpose(passes: 4) }
                let crossings = countCrossings()
                if crossings < best.crossings {
                    best = (layers, unitMembers, crossings)
                    gained = true
                }
            }
            roundsWithoutGain = gained ? 0 : roundsWithoutGain + 1
            if roundsWithoutGain == 2 { break }
        }
        layers = best.layers
        unitMembers = best.units
        updateSlots()
    }

    /// A member's position within its layer scaled to 0...1, so layers of different sizes compare.
    private func relativePosition(_ member: Int) -> Double {
        let count = layerSizes[layering.layerOfMember[member]]
        return count > 1 ? Double(slot[member]) / Double(count - 1) : 0.5
    }

    /// Sorts a layer's units by the mean position of their parents (or children), within sibling order.
    private mutating func reorder(layer: Int, towardParents: Bool) {
        let topology = graph.topology
        let units = layers[layer]
        var key = Array(repeating: Double.nan, count: units.count)
        for (index, unit) in units.enumerated() {
            var sum = 0.0
            var count = 0
            var orientation = 0.0
            let members = unitMembers[unit]
            let centre = (relativePosition(members[0]) + relativePosition(members[members.count - 1])) / 2
            for member in members {
                if towardParents {
                    for union in topology.parentUnions[member] {
                        let partners = topology.partners[union]
                        let position = partners.reduce(0.0) { $0 + relativePosition($1) } / Double(partners.count)
                        sum += position
                        count += 1
                        orientation += (position - centre) * (relativePosition(member) - centre)
                    }
                } else {
                    for union in topology.unionsOfMember[member] {
                        for child in topology.children[union] where layering.layerOfMember[child] > layer {
                            sum += relativePosition(child)
                            count += 1
                        }
                    }
                }
            }
            // Turn a couple round when each partner's family stands on the other side.
            if orientation < 0 { unitMembers[unit].reverse() }
            if count > 0 { key[index] = sum / Double(count) }
        }
        layers[layer] = orderedByKeys(units, key: key, layer: layer)
        enforceConstraints(layer: layer)
        var position = 0
        for unit in layers[layer] {
            for member in unitMembers[unit] {
                slot[member] = position
                position += 1
            }
        }
    }

    /// Sorts units by key (`nan` for none; indexed like `units`) without tearing families apart.
    ///
    /// Units without a key take the key of the keyed unit before them (they keep their place among
    /// the keyed ones). Then, for each sibling group, keys are made non-decreasing in sibling order by
    /// isotonic regression (pooling adjacent violators), so one sibling pulled far away moves its
    /// group a little instead of dragging its younger siblings across the layer.
    private func orderedByKeys(_ units: [Int], key: [Double], layer: Int) -> [Int] {
        guard let firstKey = key.first(where: { !$0.isNaN }) else { return units }
        var filled = key
        var previous = firstKey
        for index in filled.indices {
            if filled[index].isNaN { filled[index] = previous } else { previous = filled[index] }
        }
        for group in siblingGroups(in: units, layer: layer) where group.count > 1 {
            var blocks: [(mean: Double, count: Int)] = []
            for index in group {
                var block = (mean: filled[index], count: 1)
                while let last = blocks.last, last.mean > block.mean {
                    blocks.removeLast()
                    let count = last.count + block.count
                    block = ((last.mean * Double(last.count) + block.mean * Double(block.count)) / Double(count), count)
                }
                blocks.append(block)
            }
            var position = 0
            for block in blocks {
                for _ in 0..<block.count {
                    filled[group[position]] = block.mean
                    position += 1
                }
            }
        }
        let order = units.indices.sorted { filled[$0] != filled[$1] ? filled[$0] < filled[$1] : $0 < $1 }
        return order.map { units[$0] }
    }

    /// The units of one layer grouped by the union their members are children of, in sibling order,
    /// as indices into `units`.
    private func siblingGroups(in units: [Int], layer: Int) -> [[Int]] {
        let topology = graph.topology
        var indexOfUnit: [Int: Int] = [:]
        indexOfUnit.reserveCapacity(units.count)
        for (index, unit) in units.enumerated() { indexOfUnit[unit] = index }
        var groups: [[Int]] = []
        for unit in units {
            for member in unitMembers[unit] {
                let union = topology.primaryParentUnion[member]
                guard union >= 0 else { continue }
                // Each group is built once: from its eldest member drawn in this layer.
                let inLayer = topology.children[union].lazy.filter { topology.primaryParentUnion[$0] == union && self.unitLayer[self.unitOfMember[$0]] == layer }
                guard inLayer.first == member else { continue }
                var group: [Int] = []
                for child in inLayer {
                    let index = indexOfUnit[unitOfMember[child]]!
                    if !group.contains(index) { group.append(index) }
                }
                groups.append(group)
            }
        }
        return groups
    }

    /// Reorders a layer minimally so every sibling-order constraint holds: a topological sort that
    /// always takes the earliest unit whose elder siblings' units are placed. A cycle of constraints
    /// (two sibling groups intermarried both ways) is broken by taking the earliest waiting unit.
    private mutating func enforceConstraints(layer: Int) {
        let units = layers[layer]
        guard units.count > 1 else { return }
        // Constraints only join units of one layer, so positions in this layer index everything.
        for (position, unit) in units.enumerated() { rankInLayer[unit] = position }
        var waiting = Array(repeating: 0, count: units.count)
        var constrained = false
        for unit in units {
            for later in mustPrecede[unit] {
                waiting[rankInLayer[later]] += 1
                constrained = true
            }
        }
        guard constrained else { return }
        var ready = MinHeap()
        for position in units.indices where waiting[position] == 0 { ready.insert(position) }
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
                let laterRank = rankInLayer[later]
                guard !placed[laterRank] else { continue }
                waiting[laterRank] -= 1
                if waiting[laterRank] == 0 { ready.insert(laterRank) }
            }
        }
        layers[layer] = result
    }

    /// Crossings between adjacent layers of the lines union -> child and new parent -> child, with a
    /// union at the mean of its partners (positions doubled to stay whole numbers).
    func countCrossings() -> Int { countCrossings(slot: slot) }

    /// Crossings of a candidate order of every layer.
    func crossings(of candidate: [[Int]]) -> Int {
        var candidateSlot = Array(repeating: 0, count: slot.count)
        for layer in candidate {
            var position = 0
            for unit in layer {
                for member in unitMembers[unit] {
                    candidateSlot[member] = position
                    position += 1
                }
            }
        }
        return countCrossings(slot: candidateSlot)
    }

    private func countCrossings(slot: [Int]) -> Int {
        var lines = Array(repeating: [(upper: Int, lower: Int)](), count: layers.count)
        let topology = graph.topology
        let layerOf = layering.layerOfMember
        for (union, children) in topology.children.enumerated() {
            let partners = topology.partners[union]
            let upper = partners.count == 2 ? slot[partners[0]] + slot[partners[1]] : 2 * slot[partners[0]]
            let layer = partners.map { layerOf[$0] }.max()!
            for child in children where layerOf[child] == layer + 1 { lines[layer].append((upper, slot[child])) }
        }
        for link in topology.crossLinks where layerOf[link.child] == layerOf[link.parent] + 1 {
            lines[layerOf[link.parent]].append((2 * slot[link.parent], slot[link.child]))
        }
        return lines.reduce(0) { $0 + CrossingCounter.crossings($1) }
    }
}
