import FamilyTree

/// Node positions of a family drawing, from any engine: member box centres and sizes, and union points.
///
/// This is what the quality metrics read, so our layout and Graphviz's can be measured the same way.
public struct FamilyDrawing: Sendable {
    /// Centre of each member's box, indexed like `FamilyGraph.members`.
    public var memberCentres: [Point]
    /// Each member's box size, indexed like `FamilyGraph.members`.
    public var memberSizes: [Size]
    /// Each union's point, indexed like `FamilyGraph.unions`.
    public var unionPoints: [Point]

    /// A drawing with the given member centres and sizes and union points.
    public init(memberCentres: [Point], memberSizes: [Size], unionPoints: [Point]) {
        self.memberCentres = memberCentres
        self.memberSizes = memberSizes
        self.unionPoints = unionPoints
    }

    /// The drawing of one of our layouts.
    public init(_ layout: Layout) {
        memberCentres = layout.boxes.map(\.center)
        memberSizes = layout.boxes.map { Size(width: $0.width, height: $0.height) }
        unionPoints = layout.unions.map { Point(x: $0.x, y: $0.y) }
    }
}

/// Layout quality, measured the same way for every engine, so that layouts compare.
///
/// The family graph is drawn as nodes (members and union points) and straight edges partner -> union,
/// union -> child and new parent -> child (cross-bloodline). Layers are the distinct y values of all
/// nodes (top-down; x and y swap for left-right drawings). An edge spanning several layers adds a
/// segment to each gap, its x found along the straight line. Crossings count pairs of segments in one
/// gap whose order swaps, by inversion counting in O(S log S); segments that share an endpoint never
/// count.
public struct LayoutMetrics: Sendable, Hashable {
    /// How many members are drawn.
    public var members: Int
    /// How many distinct layers the nodes stand in.
    public var layers: Int
    /// Pairs of edge segments that cross between two neighbouring layers.
    public var crossings: Int
    /// Sum of the straight edges' lengths.
    public var totalEdgeLength: Double
    /// The drawing's width.
    public var width: Double
    /// The drawing's height.
    public var height: Double
    /// Unions whose two partners are neighbours among the members of their layer, in percent.
    public var coupleAdjacencyPercent: Double
    /// Families (two or more dated children) whose dated children run left to right oldest first, in percent.
    public var birthOrderPercent: Double
    /// Pairs of member boxes in one layer that overlap.
    public var overlaps: Int
    /// Edges that span more than one layer gap.
    public var longEdges: Int

    /// Measures one of our layouts.
    public static func measure(_ layout: Layout, of graph: FamilyGraph) -> LayoutMetrics {
        measure(FamilyDrawing(layout), of: graph, leftRight: layout.direction == .leftRight)
    }

    /// Measures any drawing of `graph`.
    public static func measure(_ drawing: FamilyDrawing, of graph: FamilyGraph, leftRight: Bool = false) -> LayoutMetrics {
        // Work in (along, across) so both directions are measured alike.
        func flip(_ point: Point) -> Point { leftRight ? Point(x: point.y, y: point.x) : point }
        let members = drawing.memberCentres.map(flip)
        let unions = drawing.unionPoints.map(flip)
        let memberCount = members.count
        // Nodes: members, then unions.
        let nodes = members + unions
        let layerValues = LayoutMetrics.clusterLayers(nodes.map(\.y))
        func layer(_ y: Double) -> Int {
            var low = 0
            var high = layerValues.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if layerValues[middle] <= y + 0.5 { low = middle } else { high = middle - 1 }
            }
            return low
        }
        let nodeLayer = nodes.map { layer($0.y) }

        var edges: [(Int, Int)] = []
        let topology = graph.topology
        for (union, partners) in topology.partners.enumerated() {
            for partner in partners { edges.append((partner, memberCount + union)) }
            for child in topology.children[union] { edges.append((memberCount + union, child)) }
        }
        for link in topology.crossLinks { edges.append((link.parent, link.child)) }

        var segments = Array(repeating: [(upper: Int, lower: Int)](), count: max(1, layerValues.count - 1))
        var rawSegments = Array(repeating: [(upper: Double, lower: Double)](), count: segments.count)
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
            let (p, q) = (nodes[top], nodes[bottom])
            func x(atLayer layer: Int) -> Double {
                if layer == upperLayer { return p.x }
                if layer == lowerLayer { return q.x }
                let t = (layerValues[layer] - p.y) / (q.y - p.y)
                return p.x + t * (q.x - p.x)
            }
            for gap in upperLayer..<lowerLayer {
                rawSegments[gap].append((x(atLayer: gap), x(atLayer: gap + 1)))
            }
        }
        // Rank x values per gap side; equal x (rounded to 1/1000) is a shared point and never crosses.
        var crossings = 0
        for (gap, raw) in rawSegments.enumerated() where raw.count > 1 {
            // Dense ranks by one sort of the indices (no hashing of doubles).
            func ranks(_ values: [Double]) -> [Int] {
                let rounded = values.map { ($0 * 1000).rounded() }
                var result = Array(repeating: 0, count: rounded.count)
                var rank = -1
                var previous = -Double.infinity
                for index in rounded.indices.sorted(by: { rounded[$0] < rounded[$1] }) {
                    if rounded[index] != previous {
                        rank += 1
                        previous = rounded[index]
                    }
                    result[index] = rank
                }
                return result
            }
            let upper = ranks(raw.map(\.upper))
            let lower = ranks(raw.map(\.lower))
            segments[gap] = zip(upper, lower).map { (upper: $0, lower: $1) }
            crossings += CrossingCounter.crossings(segments[gap])
        }

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
        return LayoutMetrics(
            members: memberCount, layers: layerValues.count, crossings: crossings, totalEdgeLength: length,
            width: memberCount == 0 ? 0 : maximum.x - minimum.x, height: memberCount == 0 ? 0 : maximum.y - minimum.y,
            coupleAdjacencyPercent: couples == 0 ? 100 : 100 * Double(adjacent) / Double(couples),
            birthOrderPercent: families == 0 ? 100 : 100 * Double(ordered) / Double(families),
            overlaps: overlaps, longEdges: longEdges
        )
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
