import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// A partnership that would put a child beside a parent is drawn across layers, and only that one:
/// the rest of the family keeps its partners side by side.
struct CyclicPartnershipTests {
    @Test func aManWhoMarriesHisStepdaughterKeepsHisFirstWifeBesideHim() throws {
        let graph = try FamilyGraph(
            members: ["wife", "first", "daughter", "man"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "u1", partners: ["wife", "first"], children: [ChildLink("daughter")]),
                     Union(id: "u2", partners: ["man", "wife"]), Union(id: "u3", partners: ["man", "daughter"])]
        )
        let (wife, first, daughter, man) = (0, 1, 2, 3)
        let layering = Layering(graph: graph)
        #expect(layering.componentOfMember[man] == layering.componentOfMember[wife])
        #expect(layering.componentOfMember[wife] == layering.componentOfMember[first])
        #expect(layering.componentOfMember[daughter] != layering.componentOfMember[man])
        #expect(layering.layerOfMember[daughter] > layering.layerOfMember[wife])

        let layout = LayeredLayout().place(graph)
        // Only the partnership across layers breaks a rule.
        #expect(layoutViolations(layout, of: graph) == ["partners of u3 are not side by side"])
        let metrics = LayoutMetrics.measure(layout, of: graph)
        // Two of the three couples can stand together: the man with his wife, the wife with her first husband.
        #expect(metrics.coupleAdjacencyPercent > 66)
        #expect(metrics.overlaps == 0)
    }

    @Test func judahAndTamarLeaveJudahBesideShuah() throws {
        // Judah and Shuah's son Er married Tamar; Tamar's sons were Judah's.
        let graph = try FamilyGraph(
            members: ["judah", "shuah", "er", "tamar", "pharez"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "u1", partners: ["judah", "shuah"], children: [ChildLink("er")]),
                     Union(id: "u2", partners: ["tamar", "er"]),
                     Union(id: "u3", partners: ["tamar", "judah"], children: [ChildLink("pharez")])]
        )
        let (judah, shuah, er, tamar) = (0, 1, 2, 3)
        let layering = Layering(graph: graph)
        #expect(layering.componentOfMember[judah] == layering.componentOfMember[shuah])
        #expect(layering.componentOfMember[tamar] == layering.componentOfMember[er])
        #expect(layering.layerOfMember[er] > layering.layerOfMember[judah])
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph) == ["partners of u3 are not side by side"])
    }

    /// A queen who married her grandson (Hawaiian_Kings.ged has such a marriage, the Roman gods many):
    /// her marriage line runs down two generations to the union point under his layer, through the
    /// layers between where no box stands, never through her son's or her grandchildren's boxes.
    @Test func aMarriageLineGenerationsDownPassesBetweenTheBoxesOfTheLayersBetween() throws {
        let graph = try FamilyGraph(
            members: ["queen", "king", "son", "wife", "elder", "heir", "younger", "baby"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "first", partners: ["king", "queen"], children: [ChildLink("son")]),
                     Union(id: "second", partners: ["son", "wife"], children: [ChildLink("elder"), ChildLink("heir"), ChildLink("younger")]),
                     Union(id: "late", partners: ["queen", "heir"], children: [ChildLink("baby")])]
        )
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: .init(direction: direction)).place(graph)
            let (queen, heir) = (graph.index(of: "queen")!, graph.index(of: "heir")!)
            #expect(layout.boxes[heir].layer == layout.boxes[queen].layer + 2, "\(direction)")
            #expect(linesThroughBoxes(layout).isEmpty, "\(direction): \(linesThroughBoxes(layout))")
            #expect(LayoutMetrics.measure(layout, of: graph).linesThroughBoxes == 0, "\(direction)")
            #expect(LineSeparation.measure(layout).overlappingPairs == 0, "\(direction)")
            // The line still joins her box to the union point.
            let line = try #require(layout.edges.first { $0.kind == .partner && $0.from == .member(queen) && $0.to == .union(graph.unions.firstIndex { $0.id == "late" }!) })
            let point = try #require(layout.unions.first { $0.union == graph.unions.firstIndex { $0.id == "late" }! })
            #expect(line.points.last.map { abs($0.x - point.x) < 0.01 && abs($0.y - point.y) < 0.01 } == true, "\(direction)")
        }
    }

    /// A queen married to many of her grandsons (no family does this; the Roman gods come near):
    /// her marriage lines pass her son's layer together, as one person's lines may, instead of
    /// each taking a gap of its own until none is left and they run on the lines into her
    /// grandsons' boxes (91 pairs on top at 100 grandsons before); none leaves the drawing.
    @Test(arguments: [5, 40, 120])
    func aQueensManyMarriagesToGrandsonsKeepClearOfTheirLines(grandsons: Int) throws {
        let ids = (0..<grandsons).map { "g\($0)" }
        let graph = try FamilyGraph(
            members: (["queen", "king", "son", "wife"] + ids).map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "first", partners: ["queen", "king"], children: [ChildLink("son")]),
                     Union(id: "second", partners: ["son", "wife"], children: ids.map { ChildLink($0) })]
                + ids.map { Union(id: "m\($0)", partners: ["queen", $0]) }
        )
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: .init(direction: direction)).place(graph)
            #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(grandsons), \(direction)")
            #expect(linesThroughBoxes(layout).isEmpty, "\(grandsons), \(direction)")
            let points = layout.edges.flatMap(\.points)
            #expect(points.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x <= layout.width && $0.y <= layout.height }, "\(grandsons), \(direction)")
        }
    }

    /// A company drawn as a person whose 120 acquisitions are its partners (Cisco_Systems__Inc.ged
    /// in the public gedcom-samples): the rows of marriage lines under the last generation are
    /// inside the drawing, in both directions (they ran 1,400 units past its edge).
    @Test func marriageRowsUnderTheLastGenerationAreInsideTheDrawing() throws {
        let partners = (0..<40).map { "p\($0)" }
        let graph = try FamilyGraph(
            members: (["founder", "firm"] + partners).map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "start", partners: ["founder"], children: [ChildLink("firm")])]
                + partners.map { Union(id: "u\($0)", partners: ["firm", $0]) }
        )
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: .init(direction: direction)).place(graph)
            let points = layout.edges.flatMap(\.points) + layout.unions.map { Point(x: $0.x, y: $0.y) }
            let outside = points.filter { $0.x < 0 || $0.y < 0 || $0.x > layout.width || $0.y > layout.height }
            #expect(outside.isEmpty, "\(direction): \(outside.prefix(3)) outside \(layout.width) x \(layout.height)")
        }
    }

    /// Lot and his daughters (Genesis 19): his line to each daughter's union drops from his box
    /// through the gap below, beside his line to his daughters, never on it, and the two marriage
    /// lines run along rows of their own.
    @Test func aMansMarriageLinesToTheLayerBelowRunBesideHisLineToHisChildren() throws {
        let graph = try FamilyGraph(
            members: ["lot", "wife", "elder", "younger", "moab", "benammi"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "family", partners: ["lot"], children: [ChildLink("elder"), ChildLink("younger")]),
                     Union(id: "first", partners: ["lot", "elder"], children: [ChildLink("moab")]),
                     Union(id: "second", partners: ["lot", "younger"], children: [ChildLink("benammi")])]
        )
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: .init(direction: direction)).place(graph)
            #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(direction)")
            #expect(layout.boxes[graph.index(of: "elder")!].layer > layout.boxes[graph.index(of: "lot")!].layer)
        }
    }

    /// The count `stats` reports: a line straight down through a box counts once, in both
    /// directions; lines ending on box edges (every person's own) do not.
    @Test func linesThroughBoxesCountsALineCrossingABoxAndNotOneEndingOnIt() throws {
        for direction in [LayoutDirection.topDown, .leftRight] {
            let flip = { (x: Double, y: Double) in direction == .topDown ? Point(x: x, y: y) : Point(x: y, y: x) }
            let box = { (member: Int, x: Double, y: Double) -> Layout.MemberBox in
                let corner = flip(x, y)
                let size = flip(100, 40)
                return Layout.MemberBox(member: member, x: corner.x, y: corner.y, width: size.x, height: size.y, layer: member)
            }
            let boxes = [box(0, 0, 0), box(1, 0, 100), box(2, 0, 200)]
            let through = Layout.Edge(kind: .child, from: .member(0), to: .member(2), points: [flip(50, 40), flip(50, 200)])
            let ending = Layout.Edge(kind: .child, from: .member(0), to: .member(1), points: [flip(20, 40), flip(20, 100)])
            let layout = Layout(boxes: boxes, unions: [], edges: [through, ending], width: 200, height: 300, layerCount: 3,
                                direction: direction, layers: [[0], [1], [2]])
            #expect(LinesThroughBoxes.count(in: layout) == 1, "\(direction)")
            #expect(LinesThroughBoxes.count(in: layout) == linesThroughBoxes(layout).count, "\(direction)")
        }
    }
}
