import FamilyTree

/// Transposition: swapping neighbouring units where that removes crossings.
extension Arrangement {
    /// Swaps neighbouring units of each layer while that removes crossings with the layers above and
    /// below; never across a sibling-order constraint.
    mutating func transpose(passes: Int) {
        for _ in 0..<passes {
            var improved = false
            for layer in layers.indices where layers[layer].count > 1 {
                improved = transposeLayer(layer) || improved
            }
            if !improved { break }
        }
    }

    /// Positions of each unit's lines to the layer above (union positions, doubled) and below (child slots), sorted.
    private func neighbourPositions(_ unit: Int, layer: Int) -> (upper: [Int], lower: [Int]) {
        let topology = graph.topology
        let layerOf = layering.layerOfMember
        var upper: [Int] = []
        var lower: [Int] = []
        for member in unitMembers[unit] {
            for union in topology.parentUnions[member] {
                let partners = topology.partners[union]
                guard partners.allSatisfy({ layerOf[$0] == layer - 1 }) else { continue }
                upper.append(partners.count == 2 ? slot[partners[0]] + slot[partners[1]] : 2 * slot[partners[0]])
            }
            for union in topology.unionsOfMember[member] where topology.partners[union][0] == member || !unitMembers[unit].contains(topology.partners[union][0]) {
                for child in topology.children[union] where layerOf[child] == layer + 1 { lower.append(slot[child]) }
            }
        }
        for member in unitMembers[unit] {
            for parent in crossParents[member] where layerOf[parent] == layer - 1 { upper.append(2 * slot[parent]) }
            for child in crossChildren[member] where layerOf[child] == layer + 1 { lower.append(slot[child]) }
        }
        return (upper.sorted(), lower.sorted())
    }

    /// Pairs (p in first, q in second) with p > q, for sorted lists.
    private static func inversions(_ first: [Int], _ second: [Int]) -> Int {
        var count = 0
        var index = 0
        for value in first {
            while index < second.count, second[index] < value { index += 1 }
            count += index
        }
        return count
    }

    private mutating func transposeLayer(_ layer: Int) -> Bool {
        var units = layers[layer]
        // Neighbour positions move with their unit when two units swap.
        var positions = units.map { neighbourPositions($0, layer: layer) }
        var improvedAny = false
        var improved = true
        var rounds = 0
        while improved, rounds < 8 {
            improved = false
            rounds += 1
            for index in 0..<(units.count - 1) {
                let (left, right) = (units[index], units[index + 1])
                guard !mustPrecede[left].contains(right) else { continue }
                let (a, b) = (positions[index], positions[index + 1])
                let now = Arrangement.inversions(a.upper, b.upper) + Arrangement.inversions(a.lower, b.lower)
                let swapped = Arrangement.inversions(b.upper, a.upper) + Arrangement.inversions(b.lower, a.lower)
                if swapped < now {
                    units.swapAt(index, index + 1)
                    positions.swapAt(index, index + 1)
                    improved = true
                    improvedAny = true
                }
            }
        }
        if improvedAny {
            layers[layer] = units
            var position = 0
            for unit in units {
                for member in unitMembers[unit] {
                    slot[member] = position
                    position += 1
                }
            }
        }
        return improvedAny
    }
}
