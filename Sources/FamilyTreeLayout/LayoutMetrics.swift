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
/// count. Our own layouts add the crossings of marriage lines as drawn: a couple standing apart is
/// joined by a line along its layer that this model does not see.
public struct LayoutMetrics: Sendable, Hashable {
    /// How many members are drawn.
    public var members: Int
    /// How many distinct layers the nodes stand in.
    public var layers: Int
    /// Pairs of edge segments that cross between two neighbouring layers; for our own layouts,
    /// plus `marriageLineCrossings`.
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
    /// Pairs of different families' child lines that run side by side closer than
    /// `LineSeparation.minimumGap`; nil for a drawing without its lines (another engine's positions).
    public var closeLinePairs: Int?
    /// Pairs of different families' child lines drawn on top of each other; nil as `closeLinePairs`.
    public var overlappingLinePairs: Int?
    /// Line segments that run through a person's box (`LinesThroughBoxes`); nil as `closeLinePairs`.
    public var linesThroughBoxes: Int?
    /// Crossings of marriage lines as drawn (`MarriageLineCrossings`), which the straight lines
    /// between layers do not have; nil as `closeLinePairs`.
    public var marriageLineCrossings: Int?

    /// Measures one of our layouts.
    public static func measure(_ layout: Layout, of graph: FamilyGraph) -> LayoutMetrics {
        var metrics = measure(FamilyDrawing(layout), of: graph, leftRight: layout.direction == .leftRight)
        let separation = LineSeparation.measure(layout)
        metrics.closeLinePairs = separation.closePairs
        metrics.overlappingLinePairs = separation.overlappingPairs
        metrics.linesThroughBoxes = LinesThroughBoxes.count(in: layout)
        let marriageLineCrossings = MarriageLineCrossings.count(in: layout)
        metrics.marriageLineCrossings = marriageLineCrossings
        metrics.crossings += marriageLineCrossings
        return metrics
    }

    /// Measures any drawing of `graph`.
    public static func measure(_ drawing: FamilyDrawing, of graph: FamilyGraph, leftRight: Bool = false) -> LayoutMetrics {
        let measures = DrawingMeasures(drawing, of: graph, leftRight: leftRight)
        return LayoutMetrics(
            members: measures.members, layers: measures.layers, crossings: measures.crossings, totalEdgeLength: measures.lineLength,
            width: measures.width, height: measures.height, coupleAdjacencyPercent: measures.coupleAdjacencyPercent,
            birthOrderPercent: measures.birthOrderPercent, overlaps: measures.overlaps, longEdges: measures.longEdges
        )
    }
}
