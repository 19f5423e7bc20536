import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// Marriage lines between partners who do not stand side by side: the crossings a reader sees
/// where they run along their layer, counted in `stats`, and kept few by the rows they take.
struct MarriageLineTests {
    /// A layout of two boxes and the given lines (the boxes play no part in the count).
    static func layout(_ edges: [Layout.Edge]) -> Layout {
        let boxes = [Layout.MemberBox(member: 0, x: 0, y: 0, width: 100, height: 40, layer: 0),
                     Layout.MemberBox(member: 1, x: 300, y: 0, width: 100, height: 40, layer: 0)]
        return Layout(boxes: boxes, unions: [], edges: edges, width: 400, height: 300, layerCount: 1, direction: .topDown, layers: [[0, 1]])
    }

    @Test func countsAMarriageLineCrossingAnotherFamilysLineOnceAsAReaderSeesIt() {
        let p = { (x: Double, y: Double) in Point(x: x, y: y) }
        // Partner 0's line to union 0's point along its row at y 60; union 1's trunk comes down at x 150.
        let marriage = Layout.Edge(kind: .partner, from: .member(0), to: .union(0), points: [p(50, 40), p(50, 60), p(250, 60)])
        let children = (2...3).map { child in
            Layout.Edge(kind: .child, from: .union(1), to: .member(child), points: [p(150, 20), p(150, 100), p(Double(child) * 100, 100), p(Double(child) * 100, 120)])
        }
        #expect(MarriageLineCrossings.count(in: Self.layout([marriage] + children)) == 1, "two children, one trunk: one crossing")
        // Its own union's lines, and a line that only meets it at an end, do not cross it.
        let own = Layout.Edge(kind: .child, from: .union(0), to: .member(2), points: [p(250, 60), p(250, 120)])
        let touching = Layout.Edge(kind: .child, from: .union(2), to: .member(3), points: [p(120, 60), p(120, 120)])
        #expect(MarriageLineCrossings.count(in: Self.layout([marriage, own, touching])) == 0)
        // Two marriage lines crossing count once, whichever is drawn first.
        let other = Layout.Edge(kind: .partner, from: .member(1), to: .union(3), points: [p(200, 40), p(200, 80), p(380, 80)])
        #expect(MarriageLineCrossings.count(in: Self.layout([marriage, other])) == 1)
        #expect(MarriageLineCrossings.count(in: Self.layout([other, marriage])) == 1)
        // Lines of other kinds crossing each other are the straight-line count's business.
        let across = Layout.Edge(kind: .child, from: .union(4), to: .member(3), points: [p(0, 90), p(390, 90)])
        #expect(MarriageLineCrossings.count(in: Self.layout(children + [across])) == 0)
    }

    /// A king with six wives and no children: the lines to the wives beyond the two beside him
    /// leave his box in the order of their rows, the line to the nearer wife on the higher row, so
    /// no line drops across another's row, in both directions.
    @Test func marriageLinesToManyPartnersNestAndNeverCrossEachOther() throws {
        let wives = (1...6).map { "w\($0)" }
        let members = [Member(id: "king", firstName: "King")] + wives.map { Member(id: $0, firstName: "Wife \($0)") }
        let graph = try FamilyGraph(members: members, unions: wives.map { Union(id: "u\($0)", partners: ["king", $0]) })
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: .init(direction: direction)).place(graph)
            let marriageLines = layout.edges.filter { $0.kind == .partner && $0.points.count > 2 }
            #expect(marriageLines.count >= 8, "\(direction): four wives or more not beside him")
            #expect(MarriageLineCrossings.count(in: layout) == 0, "\(direction)")
            #expect(LayoutMetrics.measure(layout, of: graph).marriageLineCrossings == 0, "\(direction)")
        }
    }

    /// A king with `wives` wives and a child by each.
    static func king(wives count: Int) throws -> FamilyGraph {
        let wives = (1...count).map { "w\($0)" }
        let members = [Member(id: "king", firstName: "King")] + wives.map { Member(id: $0, firstName: "Wife \($0)") }
            + wives.map { Member(id: "c\($0)", firstName: "Child of \($0)") }
        return try FamilyGraph(members: members, unions: wives.map { Union(id: "u\($0)", partners: ["king", $0], children: [ChildLink("c\($0)")]) })
    }

    /// A king with 400 wives, a child by each: every union point stands apart from the others on
    /// its row, so no two families' lines leave from one point or run down on top of each other.
    /// (Finding each point a clear place read the row's other points past the union's own lines
    /// instead of copying the row for every union: 6,000 wives took 6.6 s, now 0.26 s.)
    @Test func hundredsOfWivesEachHaveAUnionPointOfTheirOwn() throws {
        let graph = try Self.king(wives: 400)
        let layout = LayeredLayout().place(graph)
        let rows = Dictionary(grouping: layout.unions) { $0.y }
        for (_, points) in rows {
            let along = points.map(\.x).sorted()
            #expect(zip(along, along.dropFirst()).allSatisfy { $1 - $0 >= 1 }, "two union points on one spot")
        }
        #expect(LineSeparation.measure(layout).overlappingPairs == 0)
    }

    /// `stats` counts what a reader sees: the crossings between layers and those of marriage lines.
    @Test func theMetricsCountMarriageLineCrossings() throws {
        let graph = try Self.king(wives: 4)
        let layout = LayeredLayout().place(graph)
        let metrics = LayoutMetrics.measure(layout, of: graph)
        let marriageLines = MarriageLineCrossings.count(in: layout)
        // The union points of the nearer wives drop to their children across the farther wives' rows.
        #expect(marriageLines > 0)
        #expect(metrics.marriageLineCrossings == marriageLines)
        #expect(metrics.crossings == LayoutMetrics.measure(FamilyDrawing(layout), of: graph).crossings + marriageLines)
        #expect(LayoutMetrics.measure(FamilyDrawing(layout), of: graph).marriageLineCrossings == nil, "another engine's drawing has none to count")
    }
}
