import FamilyTree

/// Transposition: swapping neighbouring units where that removes crossings.
extension Arrangement {
    /// Local improvement of every layer: transposition (swapping neighbouring units while that
    /// removes crossings with the layers above and below), then windowed sifting (moving each unit to
    /// the place within `window` positions where it crosses least, even past neighbours a single swap
    /// would not pass) once per layer. Never across a sibling-order constraint. Transposition visits a
    /// layer again only when it or a neighbouring layer changed.
    mutating func improveLocally(passes: Int, window: Int, startingAt first: Int? = nil) {
        // From one layer: only that layer at first, its neighbours once it changes, and the
        // windowed pass only where something was looked at.
        var dirty = Array(repeating: first == nil, count: layers.count)
        if let first { dirty[first] = true }
        var touched = dirty
        var ends = Array(repeating: LineEnds?.none, count: layers.count)
        for _ in 0..<passes {
            var changedAny = false
            for layer in layers.indices where dirty[layer] {
                dirty[layer] = false
                guard layers[layer].count > 1, improveLayer(layer, window: 0, ends: &ends[layer]) else { continue }
                changedAny = true
                if layer > 0 { (dirty[layer - 1], touched[layer - 1]) = (true, true) }
                if layer + 1 < layers.count { (dirty[layer + 1], touched[layer + 1]) = (true, true) }
            }
            if !changedAny { break }
        }
        for layer in layers.indices where touched[layer] && layers[layer].count > 2 { _ = improveLayer(layer, window: window, ends: &ends[layer]) }
    }

    /// A layer's line ends (`neighbourEnds`) as worked out for the order `units`, and the orders of
    /// the layers above and below they were read from. Within one local improvement a unit's ends
    /// depend on those two layers only (no unit's members turn round here): while neither has
    /// changed, a layer visited again (a later pass, or the windowed one) reads them from here, in
    /// whatever order its own units now stand.
    private struct LineEnds {
        var units: [Int]
        var above: [Int]
        var below: [Int]
        var upper: CompactGraph.Rows
        var lower: CompactGraph.Rows
    }

    /// Each unit's line ends in the layers above (union positions, doubled) and below (child slots),
    /// sorted, stored end to end; indexed by the unit's position in `units`.
    private func neighbourEnds(_ units: [Int], layer: Int) -> (upper: CompactGraph.Rows, lower: CompactGraph.Rows) {
        let layerOf = nodeLayers.layerOfNode
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
            Self.sortTail(&upper, from: upperFrom)
            Self.sortTail(&lower, from: lowerFrom)
            upperStart.append(upper.count)
            lowerStart.append(lower.count)
        }
        return (CompactGraph.Rows(start: upperStart, items: upper), CompactGraph.Rows(start: lowerStart, items: lower))
    }

    /// Sorts `values[start...]`, a unit's few line ends, in place (insertion sort: a generic sort
    /// of a slice costs more than the sorting for a handful of values).
    @inline(__always) private static func sortTail(_ values: inout [Int], from start: Int) {
        guard values.count - start > 1 else { return }
        for index in (start + 1)..<values.count {
            let value = values[index]
            var hole = index
            while hole > start, values[hole - 1] > value {
                values[hole] = values[hole - 1]
                hole -= 1
            }
            values[hole] = value
        }
    }

    /// For sorted rows: the pairs (p in first, q in second) with p > q, which cross when `first`
    /// stands before `second`, and those with p < q, which cross when it stands after; one merge.
    @inline(__always) private static func crossings(_ rows: CompactGraph.RowsView, _ first: Int, _ second: Int) -> (firstBefore: Int, secondBefore: Int) {
        let items = rows.items
        let start = rows.start[second]
        let end = rows.start[second + 1]
        var below = start  // the first q not less than p
        var notAbove = start  // the first q greater than p
        var firstBefore = 0
        var secondBefore = 0
        for entry in rows.start[first]..<rows.start[first + 1] {
            let value = items[entry]
            while below < end, items[below] < value { below += 1 }
            if notAbove < below { notAbove = below }
            while notAbove < end, items[notAbove] <= value { notAbove += 1 }
            firstBefore += below - start
            secondBefore += end - notAbove
        }
        return (firstBefore, secondBefore)
    }

    /// Transposition then sifting on one layer; returns whether its order changed. `known` holds
    /// the layer's line ends from an earlier visit, and is brought up to date.
    private mutating func improveLayer(_ layer: Int, window: Int, ends known: inout LineEnds?) -> Bool {
        let units = layers[layer]
        // Line ends belong to the adjacent layers, which stay put while this layer is reordered.
        let above = layer > 0 ? layers[layer - 1] : []
        let below = layer + 1 < layers.count ? layers[layer + 1] : []
        if known == nil || known!.above != above || known!.below != below {
            let (upper, lower) = neighbourEnds(units, layer: layer)
            known = LineEnds(units: units, above: above, below: below, upper: upper, lower: lower)
        }
        let ends = known!
        // The pairs' costs are most of crossing reduction's time: read through raw buffers.
        return ends.upper.withView { upper in
            ends.lower.withView { lower in improveLayer(layer, units: units, window: window, endsOrder: ends.units, upper: upper, lower: lower) }
        }
    }

    /// `improveLayer` on `units`, the layer's order, its units' line ends read through `upper` and
    /// `lower` (row `i` the ends of `endsOrder[i]`).
    private mutating func improveLayer(
        _ layer: Int, units: [Int], window: Int, endsOrder: [Int], upper: CompactGraph.RowsView, lower: CompactGraph.RowsView
    ) -> Bool {
        var units = units
        // `row[position]` says whose line ends stand at that position now (their row in `upper` and `lower`).
        var row = Array(units.indices)
        if endsOrder != units {
            for (index, unit) in endsOrder.enumerated() { rankInLayer[unit] = index }
            row = units.map { rankInLayer[$0] }
        }
        // The units in the order they stood when this visit began, by their ends' index.
        let visitOrder = row
        /// The crossings between `a` and `b` with `a` first, and with `b` first, in one pass each way.
        func costs(_ a: Int, _ b: Int) -> (aFirst: Int, bFirst: Int) {
            let above = Arrangement.crossings(upper, a, b)
            let below = Arrangement.crossings(lower, a, b)
            return (above.firstBefore + below.firstBefore, above.secondBefore + below.secondBefore)
        }
        var changed = false
        var improved = true
        var rounds = 0
        // A neighbouring pair looked at and left, or just swapped, stays as it is until a swap
        // beside it brings a new neighbour: its costs never change, so it is not looked at again.
        var settled = Array(repeating: false, count: units.count - 1)
        while improved, rounds < 8 {
            improved = false
            rounds += 1
            for index in 0..<(units.count - 1) where !settled[index] {
                settled[index] = true
                guard !mustPrecede.contains(units[index + 1], inRow: units[index]) else { continue }
                let cost = costs(row[index], row[index + 1])
                if cost.bFirst < cost.aFirst {
                    units.swapAt(index, index + 1)
                    row.swapAt(index, index + 1)
                    if index > 0 { settled[index - 1] = false }
                    if index + 2 < units.count { settled[index + 1] = false }
                    improved = true
                    changed = true
                }
            }
        }
        guard window > 0, units.count > 2 else {
            if changed { layers[layer] = units; updateSlots(layer: layer) }
            return changed
        }
        var positionOfRow = Array(repeating: 0, count: units.count)
        for (position, origin) in row.enumerated() { positionOfRow[origin] = position }
        for origin in visitOrder {
            let current = positionOfRow[origin]
            let unit = units[current]
            // The crossing change of putting this unit on the other side of each neighbour in turn.
            var bestDelta = 0
            var bestPosition = current
            var delta = 0
            var position = current
            while position > 0, current - position < window {
                if mustPrecede.contains(unit, inRow: units[position - 1]) { break }
                let cost = costs(origin, row[position - 1])
                delta += cost.aFirst - cost.bFirst
                position -= 1
                if delta < bestDelta { bestDelta = delta; bestPosition = position }
            }
            delta = 0
            position = current
            while position < units.count - 1, position - current < window {
                if mustPrecede.contains(units[position + 1], inRow: unit) { break }
                let cost = costs(origin, row[position + 1])
                delta += cost.bFirst - cost.aFirst
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
            changed = true
        }
        if changed {
            layers[layer] = units
            updateSlots(layer: layer)
        }
        return changed
    }
}

extension CompactGraph {
    /// A table's rows read through raw buffers, without bounds checks: only inside `Rows.withView`.
    struct RowsView {
        let start: UnsafeBufferPointer<Int>
        let items: UnsafeBufferPointer<Int>
    }
}

extension CompactGraph.Rows {
    /// `body` with this table read through raw buffers (valid only while it runs).
    @inline(__always) func withView<Result>(_ body: (CompactGraph.RowsView) -> Result) -> Result {
        start.withUnsafeBufferPointer { start in items.withUnsafeBufferPointer { items in body(CompactGraph.RowsView(start: start, items: items)) } }
    }
}
