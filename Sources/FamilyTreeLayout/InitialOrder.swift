import FamilyTree

/// The first order of every layer: depth-first along family lines, children in sibling order,
/// with the founders' trees arranged so that trees joined by marriages and cross-bloodline links
/// stand next to each other, on the sides where the links are.
extension Arrangement {
    func initialOrder(_ start: StartingOrder) -> [[Int]] {
        var roots = (0..<unitCount).filter { unit in unitRange(unit).allSatisfy { compact.primaryParentUnion[unitMemberList[$0]] == -1 } }
        switch start.roots {
        case .arranged:
            break
        case .mirrored:
            let order = depthFirst(from: arrangedRoots(depthFirst(from: roots)).reversed())
            return start.movesInLawFamilies ? withInLawFamiliesBeside(order) : order.layers
        case .shuffled(let seed):
            var generator = SplitMix64(seed: seed)
            roots.shuffle(using: &generator)
            if seed % 2 == 0 {
                let order = depthFirst(from: roots)
                return start.movesInLawFamilies ? withInLawFamiliesBeside(order) : order.layers
            }
            // Odd seeds arrange from the shuffled start: other hosts, another arrangement.
        }
        // Which tree reaches a married-in-tree couple first depends on the order, so arrange again
        // from each result while that helps; keep the order that really crosses least.
        var current = depthFirst(from: roots)
        var best = (order: current, crossings: crossings(of: current.layers))
        for _ in 0..<3 {
            current = depthFirst(from: arrangedRoots(current))
            let count = crossings(of: current.layers)
            guard count < best.crossings else { break }
            best = (current, count)
        }
        return start.movesInLawFamilies ? withInLawFamiliesBeside(best.order, crossing: best.crossings) : best.order.layers
    }

    /// `order`'s layers with each in-law family moved beside the family it married into, where that
    /// crosses less.
    ///
    /// An in-law family is a founders' tree whose only tie to the rest is a daughter or son who
    /// married into one unit of another tree (in an ancestry, a wife's parents and her brothers and
    /// sisters). The greedy insertion of trees (`arrangedRoots`) can only stand it at either end of
    /// the tree it married into; when the marriage is in that tree's middle, its lines run across
    /// the chart and no local move brings the family back (moving the parents alone, or the children
    /// alone, crosses more). Here the whole family moves: its units in the couple's layer beside the
    /// couple's brothers and sisters, and in each layer above beside the ancestor of the partner it
    /// married, on the side where its own child stands in the couple.
    func withInLawFamiliesBeside(_ order: DepthFirstOrder, crossing known: Int? = nil) -> [[Int]] {
        let root = order.rootOfUnit
        // Each tree's ties to others, seen from this tree: its unit, the other unit, and whether
        // this end is the parent's.
        // (Rows end to end, not an array per unit: this runs at every start.)
        var ties: [(row: Int, value: (own: Int, other: Int, ownIsParent: Bool))] = []
        func tie(parent: Int, child: Int) {
            let (parentUnit, childUnit) = (unitOfMember[parent], unitOfMember[child])
            guard root[parentUnit] != root[childUnit] else { return }
            ties.append((root[parentUnit], (parentUnit, childUnit, true)))
            ties.append((root[childUnit], (childUnit, parentUnit, false)))
        }
        for member in unitOfMember.indices {
            for entry in compact.parentUnions.range(member) {
                let union = compact.parentUnions.items[entry]
                tie(parent: compact.firstPartner[union], child: member)
                if compact.secondPartner[union] >= 0 { tie(parent: compact.secondPartner[union], child: member) }
            }
            for entry in compact.crossParents.range(member) { tie(parent: compact.crossParents.items[entry], child: member) }
        }
        let tiesOfTree = CompactRows(ties, rows: unitCount)
        let unitsOfTree = CompactRows(order.layers.flatMap { $0.map { (root[$0], $0) } }, rows: unitCount)
        // A host is never an in-law family itself (its ties include a parent's end into the moving
        // tree, or the child's end of one, and it is the larger), so the moves below do not depend
        // on one another's order.
        var moves: [InLawMove] = []
        for tree in order.roots.sorted() {
            let ties = tiesOfTree[tree]
            guard let first = ties.first else { continue }
            // The couple is the host tree's (the in-law family's lines run down into it), or the
            // in-law family's own when the walk reached it from there first.
            let couple: Int
            let host: Int
            if ties.allSatisfy({ $0.ownIsParent && $0.other == first.other }) {
                (couple, host) = (first.other, root[first.other])
            } else if ties.allSatisfy({ !$0.ownIsParent && $0.own == first.own && root[$0.other] == root[first.other] }) {
                (couple, host) = (first.own, root[first.other])
                // The smaller tree moves, never the one it married into.
                guard unitsOfTree[tree].count < unitsOfTree[host].count else { continue }
            } else {
                continue
            }
            let coupleMembers = unitRange(couple).map { unitMemberList[$0] }
            // The in-law child in the couple, and the partner whose ancestors are the host's.
            func parentTree(_ member: Int) -> Int? {
                let union = compact.primaryParentUnion[member]
                return union >= 0 ? root[unitOfMember[compact.firstPartner[union]]] : nil
            }
            guard let inLaw = coupleMembers.firstIndex(where: { parentTree($0) == tree }),
                  let partner = coupleMembers.firstIndex(where: { parentTree($0) == host }) else { continue }
            // The anchor on each layer: the couple, then the partner's ancestors in the host tree.
            var anchors = [unitLayer[couple]: (unit: couple, member: coupleMembers[partner])]
            var member = coupleMembers[partner]
            while compact.primaryParentUnion[member] >= 0 {
                let parentUnit = unitOfMember[compact.firstPartner[compact.primaryParentUnion[member]]]
                guard root[parentUnit] == host else { break }
                let next = unitRange(parentUnit).map { unitMemberList[$0] }.first { parentTree($0) == host } ?? -1
                anchors[unitLayer[parentUnit]] = (parentUnit, next)
                guard next >= 0 else { break }
                member = next
            }
            let units = Array(unitsOfTree[tree])
            guard !units.isEmpty, units.allSatisfy({ anchors[unitLayer[$0]] != nil }) else { continue }
            moves.append(InLawMove(units: units, anchors: anchors, left: inLaw < partner, topLayer: units.map { unitLayer[$0] }.min()!))
        }
        guard !moves.isEmpty else { return order.layers }
        // A family with a unit that finds no place in one layer (the couple moves with it and the
        // partner has no brother or sister there) still moves in the others: its parents beside
        // the partner's pull the couple over in crossing reduction. Keeping it whole instead (not
        // moving it at all) was measured worse: pres2020 151 -> 152 crossings, 651k -> 707k of line.
        let (layers, _) = spliced(order.layers, moving: moves)
        return crossings(of: layers) < (known ?? crossings(of: order.layers)) ? layers : order.layers
    }

    /// An in-law family to move: its units, its anchor on each layer (a unit of the host and the
    /// member whose brothers and sisters it stands beside), its side, and its founders' layer.
    struct InLawMove {
        var units: [Int]
        var anchors: [Int: (unit: Int, member: Int)]
        var left: Bool
        var topLayer: Int
    }

    /// `layers` with every move made at once, one pass over each layer: the units that stay, then
    /// each family inserted at its anchor's place among them. `unplaced`: the moves (indices) with
    /// a unit that found no place; the layers they touch are left as they were.
    func spliced(_ layers: [[Int]], moving moves: [InLawMove]) -> (layers: [[Int]], unplaced: Set<Int>) {
        // Arrays by unit, not dictionaries: this runs at every start.
        var moverOf = Array(repeating: -1, count: unitCount)
        for (index, move) in moves.enumerated() { for unit in move.units { moverOf[unit] = index } }
        var position = Array(repeating: -1, count: unitCount)
        var result = layers
        var unplaced = Set<Int>()
        for (layer, units) in layers.enumerated() where units.contains(where: { moverOf[$0] >= 0 }) {
            let rest = units.filter { moverOf[$0] < 0 }
            for (index, unit) in rest.enumerated() { position[unit] = index }
            defer { for unit in rest { position[unit] = -1 } }
            // Before (or after) the anchor's brothers and sisters in this layer, not among them,
            // so the family's lines from above cross none of theirs.
            var insertions: [(at: Int, sequence: Int, unit: Int)] = []
            var placedAll = true
            for unit in units {
                let mover = moverOf[unit]
                guard mover >= 0 else { continue }
                let move = moves[mover]
                guard let (anchor, member) = move.anchors[layer] else { continue }
                var block = position[anchor] >= 0 ? [position[anchor]] : []
                // The family's founders (no lines from above) stand right beside the anchor.
                if layer > move.topLayer, member >= 0, compact.primaryParentUnion[member] >= 0 {
                    for entry in compact.children.range(compact.primaryParentUnion[member]) {
                        let index = position[unitOfMember[compact.children.items[entry]]]
                        if index >= 0 { block.append(index) }
                    }
                }
                guard let first = block.min(), let last = block.max() else {
                    unplaced.insert(mover)
                    placedAll = false
                    continue
                }
                insertions.append((move.left ? first : last + 1, insertions.count, unit))
            }
            guard placedAll else { continue }
            // Each family's units in their order, before the unit that stays at that index.
            insertions.sort { ($0.at, $0.sequence) < ($1.at, $1.sequence) }
            var row: [Int] = []
            row.reserveCapacity(units.count)
            var next = 0
            for index in 0...rest.count {
                while next < insertions.count, insertions[next].at == index {
                    row.append(insertions[next].unit)
                    next += 1
                }
                if index < rest.count { row.append(rest[index]) }
            }
            result[layer] = row
        }
        return (result, unplaced)
    }

    /// Whether the family of `child` may take in the child's unit (see `StartingOrder.Host`).
    func isHost(_ child: Int) -> Bool {
        let unit = unitOfMember[child]
        if hostOfUnit[unit] >= 0 { return child == hostOfUnit[unit] }
        let range = unitRange(unit)
        guard host != .firstReached, range.count > 1 else { return true }
        let withParents = range.lazy.map { self.unitMemberList[$0] }.filter { self.compact.primaryParentUnion[$0] >= 0 }
        return (host == .lastPartner ? withParents.reversed().first : withParents.first) == child
    }

    struct DepthFirstOrder {
        var layers: [[Int]]
        /// The root each unit was reached from.
        var rootOfUnit: [Int]
        /// The roots in the order the walks started from them.
        var roots: [Int]
    }

    /// Preorder from each root in turn, then from any unit not reached yet.
    func depthFirst(from roots: [Int]) -> DepthFirstOrder {
        // Room for every unit up front (a layer has no more units than members), one stack for all
        // walks: this runs several times at every start.
        var layers = layerSizes.map { size in
            var units: [Int] = []
            units.reserveCapacity(size)
            return units
        }
        var visited = Array(repeating: false, count: unitCount)
        var rootOfUnit = Array(repeating: -1, count: unitCount)
        var startedFrom: [Int] = []
        var stack: [Int] = []
        func visit(_ root: Int) {
            startedFrom.append(root)
            stack.append(root)
            while let unit = stack.popLast() {
                guard !visited[unit] else { continue }
                visited[unit] = true
                rootOfUnit[unit] = root
                layers[unitLayer[unit]].append(unit)
                // Children in sibling order: pushed in reverse so the eldest is visited first.
                let mark = stack.count
                for index in unitRange(unit) {
                    let member = unitMemberList[index]
                    for entry in compact.unionsOfMember.range(member) {
                        let union = compact.unionsOfMember.items[entry]
                        for childEntry in compact.children.range(union) {
                            let child = compact.children.items[childEntry]
                            if compact.primaryParentUnion[child] == union, !visited[unitOfMember[child]], isHost(child) { stack.append(unitOfMember[child]) }
                        }
                    }
                }
                stack[mark...].reverse()
            }
        }
        for root in roots where !visited[root] { visit(root) }
        for unit in 0..<unitCount where !visited[unit] { visit(unit) }
        return DepthFirstOrder(layers: layers, rootOfUnit: rootOfUnit, roots: startedFrom)
    }

    /// A link between two trees, seen from one of them: the layer it is measured at, this end's
    /// relative position in its tree on its own layer (0 left edge, 1 right edge), and the other end's.
    private struct TreeLink {
        var layer: Int
        var position: Double
        var otherTree: Int
        var otherPosition: Double
    }

    /// Each founders' tree's width on each layer (`width[tree * layerCount + layer]`), and its
    /// links to other trees (see `TreeLink`), the trees numbered in `order.roots`' order (flat
    /// arrays, not dictionaries or arrays of arrays: this runs at every start; `otherTree` is such
    /// a number).
    private func treeLinks(_ order: DepthFirstOrder) -> (width: [Double], links: CompactRows<TreeLink>) {
        let layerCount = order.layers.count
        var treeOfRoot = Array(repeating: -1, count: unitCount)
        for (tree, root) in order.roots.enumerated() { treeOfRoot[root] = tree }
        let treeOfUnit = order.rootOfUnit.map { treeOfRoot[$0] }
        // Each tree's width on each layer, and each unit's relative place in its tree's run on its layer.
        var width = Array(repeating: 0.0, count: order.roots.count * layerCount)
        var relative = Array(repeating: 0.5, count: unitCount)
        for (layer, units) in order.layers.enumerated() {
            var start = 0
            while start < units.count {
                let tree = treeOfUnit[units[start]]
                var end = start
                while end < units.count, treeOfUnit[units[end]] == tree { end += 1 }
                var run = 0.0
                for unit in units[start..<end] { run += Double(unitRange(unit).count) }
                width[tree * layerCount + layer] += run
                for (index, unit) in units[start..<end].enumerated() where end - start > 1 {
                    relative[unit] = Double(index) / Double(end - start - 1)
                }
                start = end
            }
        }
        // Each link seen from both ends, in the order the lines are met; then grouped by tree.
        var ends: [(row: Int, value: TreeLink)] = []
        func link(_ first: Int, _ second: Int) {
            let (a, b) = (treeOfUnit[first], treeOfUnit[second])
            guard a != b else { return }
            let layer = max(unitLayer[first], unitLayer[second])
            ends.append((a, TreeLink(layer: layer, position: relative[first], otherTree: b, otherPosition: relative[second])))
            ends.append((b, TreeLink(layer: layer, position: relative[second], otherTree: a, otherPosition: relative[first])))
        }
        let topology = graph.topology
        for member in graph.members.indices {
            for union in topology.parentUnions[member] {
                link(unitOfMember[member], unitOfMember[topology.partners[union][0]])
            }
        }
        for crossLink in topology.crossLinks { link(unitOfMember[crossLink.child], unitOfMember[crossLink.parent]) }
        return (width, CompactRows(ends, rows: order.roots.count))
    }

    /// A link of the tree being inserted to a tree already placed: the other tree's slot, where the
    /// prefix sums of the link's layer start, both trees' widths there, and both ends' positions.
    private struct PlacedLink {
        var slot: Int
        var sums: Int
        var own: Double
        var other: Double
        var position: Double
        var otherPosition: Double
    }

    /// Orders the trees by greedy insertion: widest first, each placed where its links to the trees
    /// already placed pass over the fewest members, counted on the layer of the link's lower end.
    func arrangedRoots(_ order: DepthFirstOrder) -> [Int] {
        let (width, linksOfTree) = treeLinks(order)
        let layerCount = order.layers.count
        // Greedy insertion costs trees x links; beyond a few tens of millions of steps (thousands of
        // linked trees) keep the order found, so no input makes this phase quadratic.
        let linkCount = linksOfTree.items.count
        guard linkCount > 0, order.roots.count * linkCount <= 20_000_000 else { return order.roots }

        let total = order.roots.indices.map { tree in width[(tree * layerCount)..<((tree + 1) * layerCount)].reduce(0, +) }
        let bySize = order.roots.indices.sorted { (total[$0], -$0) > (total[$1], -$1) }
        var placed: [Int] = []
        var unlinked = Array(repeating: false, count: order.roots.count)
        // Each placed tree's slot (-1 before it is placed), and where each layer's prefix sums
        // stand in `sums` (-1 before they are made for this tree).
        var slotOf = Array(repeating: -1, count: order.roots.count)
        var sumsAt = Array(repeating: -1, count: order.layers.count)
        var sums: [Double] = []
        var placedLinks: [PlacedLink] = []
        for tree in bySize {
            let links = linksOfTree[tree]
            guard !links.isEmpty, !placed.isEmpty else {
                if links.isEmpty { unlinked[tree] = true } else { placed.append(tree) }
                continue
            }
            for (index, other) in placed.enumerated() { slotOf[other] = index }
            // Prefix sums of placed widths on each layer a link of this tree is measured at, all
            // in one array: the loop over slots below reads no array of arrays.
            sums.removeAll(keepingCapacity: true)
            for link in links { sumsAt[link.layer] = -1 }
            for link in links where sumsAt[link.layer] < 0 {
                sumsAt[link.layer] = sums.count
                var sum = 0.0
                sums.append(sum)
                for other in placed {
                    sum += width[other * layerCount + link.layer]
                    sums.append(sum)
                }
            }
            // Each link to a placed tree, looked up once rather than at every slot.
            placedLinks.removeAll(keepingCapacity: true)
            for link in links where slotOf[link.otherTree] >= 0 {
                placedLinks.append(PlacedLink(
                    slot: slotOf[link.otherTree], sums: sumsAt[link.layer], own: width[tree * layerCount + link.layer],
                    other: width[link.otherTree * layerCount + link.layer], position: link.position, otherPosition: link.otherPosition))
            }
            var bestSlot = placed.count
            var bestCost = Double.infinity
            sums.withUnsafeBufferPointer { sums in
                for slot in 0...placed.count {
                    var cost = 0.0
                    for link in placedLinks {
                        if link.slot < slot {
                            cost += link.position * link.own + (1 - link.otherPosition) * link.other + sums[link.sums + slot] - sums[link.sums + link.slot + 1]
                        } else {
                            cost += (1 - link.position) * link.own + link.otherPosition * link.other + sums[link.sums + link.slot] - sums[link.sums + slot]
                        }
                    }
                    if cost < bestCost {
                        bestCost = cost
                        bestSlot = slot
                    }
                }
            }
            placed.insert(tree, at: bestSlot)
        }
        return (placed + order.roots.indices.filter { unlinked[$0] }).map { order.roots[$0] }
    }
}
