import FamilyTree

/// What a drawing of a family graph measures: the geometry both the layout's own search
/// (`StartingOrderSearch.Score`) and the public benchmark type (`LayoutMetrics`) read, so that what
/// the benchmark reports can change without changing a drawing. See `LayoutMetrics` for how each
/// measure is taken.
struct DrawingMeasures {
    var members: Int
    var layers: Int
    var crossings: Int
    var lineLength: Double
    var width: Double
    var height: Double
    var coupleAdjacencyPercent: Double
    var birthOrderPercent: Double
    var overlaps: Int
    var longEdges: Int

    init(_ drawing: FamilyDrawing, of graph: FamilyGraph, leftRight: Bool) {
        // Work in (along, across) so both directions are measured alike.
        func flip(_ point: Point) -> Point { leftRight ? Point(x: point.y, y: point.x) : point }
        let members = drawing.memberCentres.map(flip)
        let unions = drawing.unionPoints.map(flip)
        let memberCount = members.count
        // Nodes: members, then unions.
        let nodes = members + unions
        let layerValues = DrawingMeasures.clusterLayers(nodes.map(\.y))
        /// The last layer at or above `y` (half a point's tolerance), the first where there is none.
        func layer(_ y: Double) -> Int { max(0, layerValues.partitioningIndex { $0 > y + 0.5 } - 1) }
        let nodeLayer = nodes.map { layer($0.y) }

        var edges: [(Int, Int)] = []
        let topology = graph.topology
        for (union, partners) in topology.partners.enumerated() {
            for partner in partners { edges.append((partner, memberCount + union)) }
            for child in topology.children[union] { edges.append((memberCount + union, child)) }
        }
        for link in topology.crossLinks { edges.append((link.parent, link.child)) }

        // Each line's run across the layers (a line within one layer crosses nothing here).
        var spans: [StraightLineCrossings.Line] = []
        var length = 0.0
        var longEdges = 0
        for (from, to) in edges {
            let (a, b) = (nodes[from], nodes[to])
            length += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            var (top, bottom) = (from, to)
            if nodeLayer[top] > nodeLayer[bottom] { swap(&top, &bottom) }
            let (upperLayer, lowerLayer) = (nodeLayer[top], nodeLayer[bottom])
            guard upperLayer != lowerLayer else { continue }
            if lowerLayer - upperLayer > 1 { longEdges += 1 }
            spans.append(.init(upperLevel: upperLayer, lowerLevel: lowerLayer, top: nodes[top], bottom: nodes[bottom]))
        }
        let crossings = StraightLineCrossings.count(spans, levels: layerValues)

        // Members of each layer in x order.
        var rows: [Int: [Int]] = [:]
        for member in 0..<memberCount { rows[nodeLayer[member], default: []].append(member) }
        var neighbourOrder = Array(repeating: (layer: 0, index: 0), count: memberCount)
        var overlaps = 0
        for (layerIndex, row) in rows {
            let sorted = row.sorted { members[$0].x != members[$1].x ? members[$0].x < members[$1].x : $0 < $1 }
            for (index, member) in sorted.enumerated() { neighbourOrder[member] = (layerIndex, index) }
            let along = { (member: Int) in leftRight ? drawing.memberSizes[member].height : drawing.memberSizes[member].width }
            for (left, right) in zip(sorted, sorted.dropFirst()) where members[left].x + along(left) / 2 > members[right].x - along(right) / 2 + 0.01 {
                overlaps += 1
            }
        }
        var couples = 0
        var adjacent = 0
        for partners in topology.partners where partners.count == 2 {
            couples += 1
            let (a, b) = (neighbourOrder[partners[0]], neighbourOrder[partners[1]])
            if a.layer == b.layer && abs(a.index - b.index) == 1 { adjacent += 1 }
        }
        var families = 0
        var ordered = 0
        for children in topology.children {
            // The date siblings are ordered by (a GEDCOM 7 sort date wins over the birthday).
            let dated = children.filter { graph.members[$0].siblingOrderDate?.sortKey != nil }
            guard dated.count >= 2 else { continue }
            families += 1
            // `children` is already in sibling order, so the dated ones are oldest first.
            if zip(dated, dated.dropFirst()).allSatisfy({ members[$0].x < members[$1].x }) { ordered += 1 }
        }

        var minimum = Point(x: Double.infinity, y: Double.infinity)
        var maximum = Point(x: -Double.infinity, y: -Double.infinity)
        for (member, centre) in drawing.memberCentres.enumerated() {
            let size = drawing.memberSizes[member]
            minimum = Point(x: min(minimum.x, centre.x - size.width / 2), y: min(minimum.y, centre.y - size.height / 2))
            maximum = Point(x: max(maximum.x, centre.x + size.width / 2), y: max(maximum.y, centre.y + size.height / 2))
        }
        self.members = memberCount
        self.layers = layerValues.count
        self.crossings = crossings
        self.lineLength = length
        self.width = memberCount == 0 ? 0 : maximum.x - minimum.x
        self.height = memberCount == 0 ? 0 : maximum.y - minimum.y
        self.coupleAdjacencyPercent = couples == 0 ? 100 : 100 * Double(adjacent) / Double(couples)
        self.birthOrderPercent = families == 0 ? 100 : 100 * Double(ordered) / Double(families)
        self.overlaps = overlaps
        self.longEdges = longEdges
    }

    /// Distinct y values, merging values closer than a tolerance (spline noise in other engines).
    static func clusterLayers(_ values: [Double]) -> [Double] {
        let sorted = values.sorted()
        guard var current = sorted.first else { return [] }
        var layers = [current]
        for value in sorted.dropFirst() where value - current > 0.5 {
            layers.append(value)
            current = value
        }
        return layers
    }
}
