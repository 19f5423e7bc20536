/// Positions along the layers with the least weighted total line length, found exactly.
///
/// Gansner et al.'s second use of network simplex (dot's x coordinates): every line from a union to
/// a child becomes an extra node that must stand left of both its ends, so the cost of the edges
/// from it to the ends is the line's horizontal length; neighbouring units in a layer are kept
/// apart by their width and spacing with edges of no cost. Solving the ranking problem on that
/// graph places every unit at once, each family as close to its relatives as the order allows,
/// which is narrower than balancing layer by layer and keeps long lines straight.
extension Placement {
    /// Weight of a line between two real members, between a member and a placeholder, and between two
    /// placeholders: long lines are pulled straight hardest (dot's 1, 2, 8).
    private static let lineWeights = (real: 8, mixed: 16, placeholders: 64)
    /// Weight of the drawing's width: a point of width costs as much as almost four points of line,
    /// so lines bend where that draws the chart together (seven real trees came out 3-55% narrower than
    /// at a weight below one line's, for at most 5% more line length); where the chart has room,
    /// width costs nothing and every line is as short as it can be.
    private static let widthWeight = 30

    /// Moves every unit to its place in the shortest-lines solution, starting from the current
    /// positions; does nothing and returns false when the problem has more than `maximumNodes` nodes.
    @discardableResult
    mutating func shortenLines(maximumNodes: Int) -> Bool {
        let arrangement = self.arrangement
        let compact = arrangement.compact
        let realMembers = arrangement.graph.members.count
        let unitCount = arrangement.unitCount
        var lines: [(union: Int, child: Int, weight: Int)] = []
        for union in 0..<compact.unionCount {
            let fromPlaceholder = compact.firstPartner[union] >= realMembers
            for entry in compact.children.range(union) {
                let child = compact.children.items[entry]
                let toPlaceholder = child >= realMembers
                let weight = fromPlaceholder && toPlaceholder ? Self.lineWeights.placeholders
                    : fromPlaceholder || toPlaceholder ? Self.lineWeights.mixed : Self.lineWeights.real
                lines.append((union, child, weight))
            }
        }
        var crossLines: [(parent: Int, child: Int)] = []
        for child in 0..<min(realMembers, compact.crossParents.start.count - 1) {
            for entry in compact.crossParents.range(child) { crossLines.append((compact.crossParents.items[entry], child)) }
        }
        let siblingPairs = options.birthOrderAcrossLayersWeight > 0 ? siblingPairsAcrossLayers() : []
        // A couple drawn apart has a node for its union point, free anywhere between the partners;
        // its lines to the partners cost their length, so the marriage line is kept short too.
        // Three more nodes hold the drawing's left and right edges and its width allowance: width costs too.
        let nodeCount = unitCount + lines.count + crossLines.count + siblingPairs.count + unionsApart.count + 3
        let (leftEdge, rightEdge, allowance) = (nodeCount - 3, nodeCount - 2, nodeCount - 1)
        guard nodeCount <= maximumNodes, unitCount > 1 else { return false }

        // Ranks are whole points: each unit's left edge; a union or member stands at a fixed offset in its unit.
        let start = unitStart.map { Int($0.rounded()) }
        let firstApartNode = unitCount + lines.count + crossLines.count + siblingPairs.count
        var nodeOfApartUnion: [Int: Int] = [:]
        for (index, union) in unionsApart.enumerated() { nodeOfApartUnion[union] = firstApartNode + index }
        func anchor(ofUnion union: Int) -> (unit: Int, offset: Int) {
            if let node = nodeOfApartUnion[union] { return (node, 0) }
            let unit = arrangement.unitOfMember[compact.firstPartner[union]]
            return (unit, Int(unionAlong(union).rounded()) - start[unit])
        }
        func anchor(ofMember member: Int) -> (unit: Int, offset: Int) {
            let unit = arrangement.unitOfMember[member]
            return (unit, Int(centre(of: member).rounded()) - start[unit])
        }
        var edges: [NetworkSimplex.Edge] = []
        edges.reserveCapacity(unitCount + 2 * (lines.count + crossLines.count))
        var ranks = Array(repeating: 0, count: nodeCount)
        for layer in arrangement.layers {
            var previous = -1
            for unit in layer {
                if previous >= 0 {
                    let gap = Int((unitWidth[previous] + options.unitSpacing).rounded(.up))
                    edges.append(NetworkSimplex.Edge(tail: previous, head: unit, minLength: gap, weight: 0))
                    ranks[unit] = max(start[unit], ranks[previous] + gap)
                } else {
                    ranks[unit] = start[unit]
                }
                previous = unit
            }
        }
        // A line's node stands at or left of both ends; its two edges then cost the distance between them.
        func addLine(_ node: Int, from first: (unit: Int, offset: Int), to second: (unit: Int, offset: Int), weight: Int) {
            edges.append(NetworkSimplex.Edge(tail: node, head: first.unit, minLength: -first.offset, weight: weight))
            edges.append(NetworkSimplex.Edge(tail: node, head: second.unit, minLength: -second.offset, weight: weight))
            ranks[node] = min(ranks[first.unit] + first.offset, ranks[second.unit] + second.offset)
        }
        // The union nodes of couples drawn apart first: lines to children start from them.
        for union in unionsApart {
            let partners = [compact.firstPartner[union], compact.secondPartner[union]]
            let (left, right) = arrangement.slot[partners[0]] < arrangement.slot[partners[1]] ? (anchor(ofMember: partners[0]), anchor(ofMember: partners[1])) : (anchor(ofMember: partners[1]), anchor(ofMember: partners[0]))
            let node = nodeOfApartUnion[union]!
            edges.append(NetworkSimplex.Edge(tail: left.unit, head: node, minLength: left.offset, weight: Self.lineWeights.real))
            edges.append(NetworkSimplex.Edge(tail: node, head: right.unit, minLength: -right.offset, weight: Self.lineWeights.real))
            ranks[node] = ranks[left.unit] + left.offset
        }
        var node = unitCount
        for line in lines {
            addLine(node, from: anchor(ofUnion: line.union), to: anchor(ofMember: line.child), weight: line.weight)
            node += 1
        }
        for line in crossLines {
            addLine(node, from: anchor(ofMember: line.parent), to: anchor(ofMember: line.child), weight: Self.lineWeights.real)
            node += 1
        }
        // A sibling pair's node stands at or right of both the younger's centre and one point right
        // of the elder's; its edge from the younger then costs by how much the order is broken.
        for pair in siblingPairs {
            let (elder, younger) = (anchor(ofMember: pair.elder), anchor(ofMember: pair.younger))
            edges.append(NetworkSimplex.Edge(tail: elder.unit, head: node, minLength: elder.offset + 1 - younger.offset, weight: 0))
            edges.append(NetworkSimplex.Edge(tail: younger.unit, head: node, minLength: 0, weight: options.birthOrderAcrossLayersWeight))
            ranks[node] = max(ranks[elder.unit] + elder.offset + 1 - younger.offset, ranks[younger.unit])
            node += 1
        }
        var right = 0
        for layer in arrangement.layers where !layer.isEmpty {
            edges.append(NetworkSimplex.Edge(tail: leftEdge, head: layer[0], minLength: 0, weight: 0))
            let last = layer[layer.count - 1]
            let extent = Int(unitWidth[last].rounded(.up))
            edges.append(NetworkSimplex.Edge(tail: last, head: rightEdge, minLength: extent, weight: 0))
            right = max(right, ranks[last] + extent)
        }
        ranks[leftEdge] = ranks[0..<unitCount].min() ?? 0
        ranks[rightEdge] = right
        edges.append(NetworkSimplex.Edge(tail: leftEdge, head: rightEdge, minLength: 0, weight: Self.widthWeight))
        // The allowance node stands at or right of both the right edge and the left edge plus the
        // allowed width, so its edge from the left edge costs only for width beyond the allowance.
        let allowed = Int((packedWidth() * options.widthAllowance.ratio).rounded(.up))
        edges.append(NetworkSimplex.Edge(tail: leftEdge, head: allowance, minLength: allowed, weight: options.widthAllowance.weight))
        edges.append(NetworkSimplex.Edge(tail: rightEdge, head: allowance, minLength: 0, weight: 0))
        ranks[allowance] = max(ranks[leftEdge] + allowed, ranks[rightEdge])
        var simplex = NetworkSimplex(nodeCount: nodeCount, edges: edges, feasibleRanks: ranks)
        simplex.solve(maxExchanges: 20 * nodeCount + 1_000)
        let least = (0..<unitCount).map { simplex.rank[$0] }.min() ?? 0
        for unit in 0..<unitCount { unitStart[unit] = Double(simplex.rank[unit] - least) }
        for (union, node) in nodeOfApartUnion { apartUnionAlong[union] = Double(simplex.rank[node] - least) }
        return true
    }

    /// The width of the widest layer with its units packed side by side: no drawing is narrower.
    func packedWidth() -> Double {
        var widest = 0.0
        for layer in arrangement.layers where !layer.isEmpty {
            let units = layer.reduce(0.0) { $0 + unitWidth[$1] }
            widest = max(widest, units + options.unitSpacing * Double(layer.count - 1))
        }
        return widest
    }
}
