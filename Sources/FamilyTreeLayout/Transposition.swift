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

    /// Each unit's line ends in the layers above (union positions, doubled) and below (child slots),
    /// sorted, stored end to end; indexed by the unit's position in `units`.
    private func neighbourEnds(_ units: [Int], layer: Int) -> (upper: CompactGraph.Rows, lower: CompactGraph.Rows) {
        let layerOf = layering.layerOfMember
        var upperStart = [0]
        var lowerStart = [0]
        var upper: [Int] = []
        var lower: [Int] = []
        upperStart.reserveCapacity(units.count + 1)
        lowerStart.reserveCapacity(units.count + 1)
        for unit in units {
            let upperFrom = upper.count
            let lowerFrom = lower.count
            for index in unitRange(unit) {
                let member = unitMemberList[index]
                for entry in compact.parentUnions.range(member) {
                    let union = compact.parentUnions.items[entry]
                    let second = compact.secondPartner[union]
                    guard layerOf[compact.firstPartner[union]] == layer - 1, second < 0 || layerOf[second] == layer - 1 else { continue }
                    upper.append(doubledUnionPosition(union, slot: slot))
                }
                for entry in compact.unionsOfMember.range(member) {
                    let union = compact.unionsOfMember.items[entry]
                    // A union of two partners in this unit is counted once, from its first partner.
                    let first = compact.firstPartner[union]
                    guard first == member || unitOfMember[first] != unit else { continue }
                    for childEntry in compact.children.range(union) {
                        let child = compact.children.items[childEntry]
                        if layerOf[child] == layer + 1 { lower.append(slot[child]) }
                    }
                }
                for entry in compact.crossParents.range(member) {
                    let parent = compact.crossParents.items[entry]
                    if layerOf[parent] == layer - 1 { upper.append(2 * slot[parent]) }
                }
                for entry in compact.crossChildren.range(member) {
                    let child = compact.crossChildren.items[entry]
                    if layerOf[child] == layer + 1 { lower.append(slot[child]) }
                }
            }
            upper[upperFrom...].sort()
            lower[lowerFrom...].sort()
            upperStart.append(upper.count)
            lowerStart.append(lower.count)
        }
        return (CompactGraph.Rows(start: upperStart, items: upper), CompactGraph.Rows(start: lowerStart, items: lower))
    }

    /// Pairs (p in first, q in second) with p > q, for sorted rows.
    @inline(__always) private static func inversions(_ rows: CompactGraph.Rows, _ first: Int, _ second: Int) -> Int {
        var count = 0
        var index = rows.start[second]
        let end = rows.start[second + 1]
        for entry in rows.range(first) {
            let value = rows.items[entry]
            while index < end, rows.items[index] < value { index += 1 }
            count += index - rows.start[second]
        }
        return count
    }

    /// Windowed sifting: moves each unit to the place within `window` positions where it crosses
    /// least, even past neighbours a single swap would not pass; never across a sibling-order constraint.
    mutating func sift(window: Int) {
        for layer in layers.indices where layers[layer].count > 2 { siftLayer(layer, window: window) }
    }

    private mutating func siftLayer(_ layer: Int, window: Int) {
        var units = layers[layer]
        let ends = neighbourEnds(units, layer: layer)
        var row = Array(units.indices)
        var moved = false
        // Visit units in their original order; find each one's current position as we go.
        var positionOfRow = Array(units.indices)
        for origin in 0..<units.count {
            let current = positionOfRow[origin]
            let unit = units[current]
            // The crossing change of putting this unit on the other side of each neighbour in turn.
            var bestDelta = 0
            var bestPosition = current
            var delta = 0
            var position = current
            while position > 0, current - position < window {
                let other = units[position - 1]
                if mustPrecede.contains(unit, inRow: other) { break }
                let (a, b) = (row[position - 1], origin)
                delta += Arrangement.inversions(ends.upper, b, a) + Arrangement.inversions(ends.lower, b, a)
                    - Arrangement.inversions(ends.upper, a, b) - Arrangement.inversions(ends.lower, a, b)
                position -= 1
                if delta < bestDelta { bestDelta = delta; bestPosition = position }
            }
            delta = 0
            position = current
            while position < units.count - 1, position - current < window {
                let other = units[position + 1]
                if mustPrecede.contains(other, inRow: unit) { break }
                let (a, b) = (origin, row[position + 1])
                delta += Arrangement.inversions(ends.upper, b, a) + Arrangement.inversions(ends.lower, b, a)
                    - Arrangement.inversions(ends.upper, a, b) - Arrangement.inversions(ends.lower, a, b)
                position += 1
                if delta < bestDelta { bestDelta = delta; bestPosition = position }
            }
            guard bestPosition != current else { continue }
            // Shift the units in between by one place: at most `window` moves, never the whole layer.
            let step = bestPosition > current ? 1 : -1
            var index = current
            while index != bestPosition {
                units[index] = units[index + step]
                row[index] = row[index + step]
                positionOfRow[row[index]] = index
                index += step
            }
            units[bestPosition] = unit
            row[bestPosition] = origin
            positionOfRow[origin] = bestPosition
            moved = true
        }
        if moved {
            layers[layer] = units
            updateSlots(layer: layer)
        }
    }

    private mutating func transposeLayer(_ layer: Int) -> Bool {
        var units = layers[layer]
        let ends = neighbourEnds(units, layer: layer)
        // Ends stay put; `row[position]` says which unit's ends stand at that position now.
        var row = Array(units.indices)
        var improvedAny = false
        var improved = true
        var rounds = 0
        while improved, rounds < 8 {
            improved = false
            rounds += 1
            for index in 0..<(units.count - 1) {
                let (left, right) = (units[index], units[index + 1])
                guard !mustPrecede.contains(right, inRow: left) else { continue }
                let (a, b) = (row[index], row[index + 1])
                let now = Arrangement.inversions(ends.upper, a, b) + Arrangement.inversions(ends.lower, a, b)
                let swapped = Arrangement.inversions(ends.upper, b, a) + Arrangement.inversions(ends.lower, b, a)
                if swapped < now {
                    units.swapAt(index, index + 1)
                    row.swapAt(index, index + 1)
                    improved = true
                    improvedAny = true
                }
            }
        }
        if improvedAny {
            layers[layer] = units
            updateSlots(layer: layer)
        }
        return improvedAny
    }
}

extension CompactGraph.Rows {
    init(start: [Int], items: [Int]) {
        self.start = start
        self.items = items
    }

    func contains(_ item: Int, inRow row: Int) -> Bool {
        for entry in range(row) where items[entry] == item { return true }
        return false
    }
}
