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
            return depthFirst(from: arrangedRoots(depthFirst(from: roots)).reversed()).layers
        case .shuffled(let seed):
            var generator = SplitMix64(seed: seed)
            roots.shuffle(using: &generator)
            if seed % 2 == 0 { return depthFirst(from: roots).layers }
            // Odd seeds arrange from the shuffled start: other hosts, another arrangement.
        }
        // Which tree reaches a married-in-tree couple first depends on the order, so arrange again
        // from each result while that helps; keep the order that really crosses least.
        var current = depthFirst(from: roots)
        var best = (layers: current.layers, crossings: crossings(of: current.layers))
        for _ in 0..<3 {
            current = depthFirst(from: arrangedRoots(current))
            let count = crossings(of: current.layers)
            guard count < best.crossings else { break }
            best = (current.layers, count)
        }
        return best.layers
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
        /// The root each unit was reached from, and its position in that root's tree (preorder).
        var rootOfUnit: [Int]
        var preorder: [Int]
        var treeSize: [Int: Int]
        var roots: [Int]
    }

    /// Preorder from each root in turn, then from any unit not reached yet.
    func depthFirst(from roots: [Int]) -> DepthFirstOrder {
        var layers = Array(repeating: [Int](), count: nodeLayers.layerCount)
        var visited = Array(repeating: false, count: unitCount)
        var rootOfUnit = Array(repeating: -1, count: unitCount)
        var preorder = Array(repeating: 0, count: unitCount)
        var treeSize: [Int: Int] = [:]
        var startedFrom: [Int] = []
        func visit(_ root: Int) {
            startedFrom.append(root)
            var stack = [root]
            var count = 0
            while let unit = stack.popLast() {
                guard !visited[unit] else { continue }
                visited[unit] = true
                rootOfUnit[unit] = root
                preorder[unit] = count
                count += 1
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
            treeSize[root] = count
        }
        for root in roots where !visited[root] { visit(root) }
        for unit in 0..<unitCount where !visited[unit] { visit(unit) }
        return DepthFirstOrder(layers: layers, rootOfUnit: rootOfUnit, preorder: preorder, treeSize: treeSize, roots: startedFrom)
    }

    /// A link between two trees, seen from one of them: the layer it is measured at, this end's
    /// relative position in its tree on its own layer (0 left edge, 1 right edge), and the other end's.
    private struct TreeLink {
        var layer: Int
        var position: Double
        var otherTree: Int
        var otherPosition: Double
    }

    /// Each tree's width on each layer, and its links to other trees (see `TreeLink`).
    private func treeLinks(_ order: DepthFirstOrder) -> (width: [Int: [Double]], links: [Int: [TreeLink]]) {
        let topology = graph.topology
        let layerCount = order.layers.count
        // Each tree's width on each layer, and each unit's relative place in its tree's run on its layer.
        var width: [Int: [Double]] = [:]
        var relative = Array(repeating: 0.5, count: unitCount)
        for (layer, units) in order.layers.enumerated() {
            var start = 0
            while start < units.count {
                let tree = order.rootOfUnit[units[start]]
                var end = start
                while end < units.count, order.rootOfUnit[units[end]] == tree { end += 1 }
                var run = 0.0
                for unit in units[start..<end] { run += Double(unitRange(unit).count) }
                width[tree, default: Array(repeating: 0, count: layerCount)][layer] += run
                for (index, unit) in units[start..<end].enumerated() where end - start > 1 {
                    relative[unit] = Double(index) / Double(end - start - 1)
                }
                start = end
            }
        }
        var linksOfTree: [Int: [TreeLink]] = [:]
        func link(_ first: Int, _ second: Int) {
            let (a, b) = (order.rootOfUnit[first], order.rootOfUnit[second])
            guard a != b else { return }
            let layer = max(unitLayer[first], unitLayer[second])
            linksOfTree[a, default: []].append(TreeLink(layer: layer, position: relative[first], otherTree: b, otherPosition: relative[second]))
            linksOfTree[b, default: []].append(TreeLink(layer: layer, position: relative[second], otherTree: a, otherPosition: relative[first]))
        }
        for member in graph.members.indices {
            for union in topology.parentUnions[member] {
                link(unitOfMember[member], unitOfMember[topology.partners[union][0]])
            }
        }
        for crossLink in topology.crossLinks { link(unitOfMember[crossLink.child], unitOfMember[crossLink.parent]) }
        return (width, linksOfTree)
    }

    /// Orders the trees by greedy insertion: widest first, each placed where its links to the trees
    /// already placed pass over the fewest members, counted on the layer of the link's lower end.
    func arrangedRoots(_ order: DepthFirstOrder) -> [Int] {
        let (width, linksOfTree) = treeLinks(order)
        // Greedy insertion costs trees x links; beyond a few tens of millions of steps (thousands of
        // linked trees) keep the order found, so no input makes this phase quadratic.
        let linkCount = linksOfTree.values.reduce(0) { $0 + $1.count }
        guard !linksOfTree.isEmpty, order.roots.count * linkCount <= 20_000_000 else { return order.roots }

        let total = { (tree: Int) in width[tree]!.reduce(0, +) }
        let bySize = order.roots.enumerated().sorted { (total($0.element), -$0.offset) > (total($1.element), -$1.offset) }.map(\.element)
        var placed: [Int] = []
        var unlinked = Set<Int>()
        // Each placed tree's slot (by root unit, -1 before it is placed), and scratch for prefix sums
        // by layer: arrays, as this loop runs for every tree at every start.
        var slotOf = Array(repeating: -1, count: unitCount)
        var prefix = Array(repeating: [Double](), count: order.layers.count)
        for tree in bySize {
            guard let links = linksOfTree[tree], !placed.isEmpty else {
                if linksOfTree[tree] == nil { unlinked.insert(tree) } else { placed.append(tree) }
                continue
            }
            for (index, other) in placed.enumerated() { slotOf[other] = index }
            // Prefix sums of placed widths on each layer a link of this tree is measured at.
            for link in links { prefix[link.layer] = [] }
            for link in links where prefix[link.layer].isEmpty {
                var sums = [0.0]
                for other in placed { sums.append(sums.last! + width[other]![link.layer]) }
                prefix[link.layer] = sums
            }
            // Each link to a placed tree, looked up once rather than at every slot.
            let placedLinks = links.compactMap { link -> (slot: Int, sums: [Double], own: Double, other: Double, link: TreeLink)? in
                let otherSlot = slotOf[link.otherTree]
                guard otherSlot >= 0 else { return nil }
                return (otherSlot, prefix[link.layer], width[tree]![link.layer], width[link.otherTree]![link.layer], link)
            }
            var bestSlot = placed.count
            var bestCost = Double.infinity
            for slot in 0...placed.count {
                var cost = 0.0
                for (otherSlot, sums, own, other, link) in placedLinks {
                    if otherSlot < slot {
                        cost += link.position * own + (1 - link.otherPosition) * other + sums[slot] - sums[otherSlot + 1]
                    } else {
                        cost += (1 - link.position) * own + link.otherPosition * other + sums[otherSlot] - sums[slot]
                    }
                }
                if cost < bestCost {
                    bestCost = cost
                    bestSlot = slot
                }
            }
            placed.insert(tree, at: bestSlot)
        }
        return placed + order.roots.filter(unlinked.contains)
    }
}
