import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
@testable import FamilyTreeLayout
import TestSupport

/// A middle child married to someone who grew up in another family of the tree: side by side, one
/// partner's line from their parents must cross the lines to the other's younger (or elder)
/// siblings. Such a couple may stand apart, each among their own siblings, joined by a marriage
/// line, where that removes more crossings than it costs.
struct CouplesApartTests {
    /// Founders a1 + a2 with seven children (the fourth, c4, married), founders b1 + b2 with one (d),
    /// and c4 + d with two children.
    static func middleChildMarriedIn() throws -> FamilyGraph {
        var members = ["a1", "a2", "b1", "b2", "d", "k1", "k2"].map { Member(id: $0, firstName: $0.uppercased()) }
        members += (1...7).map { Member(id: "c\($0)", firstName: "C\($0)", birthday: PartialDate(year: 1900 + $0, month: 1, day: 1)) }
        return try FamilyGraph(members: members, unions: [
            Union(id: "a", partners: ["a1", "a2"], children: (1...7).map { ChildLink("c\($0)") }),
            Union(id: "b", partners: ["b1", "b2"], children: [ChildLink("d")]),
            Union(id: "cd", partners: ["c4", "d"], children: [ChildLink("k1"), ChildLink("k2")]),
        ])
    }

    /// Founders a1 + a2 with three children, founders b1 + b2 with one (d), and `married` (one
    /// of c1, c2, c3) + d with a child.
    static func oneOfThreeMarriedIn(_ married: String) throws -> FamilyGraph {
        var members = ["a1", "a2", "b1", "b2", "d", "k"].map { Member(id: $0, firstName: $0.uppercased()) }
        members += (1...3).map { Member(id: "c\($0)", firstName: "C\($0)", birthday: PartialDate(year: 1900 + $0, month: 1, day: 1)) }
        return try FamilyGraph(members: members, unions: [
            Union(id: "a", partners: ["a1", "a2"], children: [ChildLink("c1"), ChildLink("c2"), ChildLink("c3")]),
            Union(id: "b", partners: ["b1", "b2"], children: [ChildLink("d")]),
            Union(id: "cd", partners: [married, "d"], children: [ChildLink("k")]),
        ])
    }

    static func layout(_ graph: FamilyGraph, together: Bool = false, direction: LayoutDirection = .topDown) -> Layout {
        var options = LayeredLayout.Options(direction: direction)
        options.keepsCouplesTogether = together
        return LayeredLayout(options: options).place(graph)
    }

    @Test func aMiddleChildsCoupleStandsApartWhereThatCrossesLess() throws {
        let graph = try Self.middleChildMarriedIn()
        let index = { (id: String) in graph.members.firstIndex { $0.id == id }! }
        let couple = graph.unions.firstIndex { $0.id == "cd" }!
        let together = Self.layout(graph, together: true)
        let apart = Self.layout(graph)
        let (togetherMetrics, apartMetrics) = (LayoutMetrics.measure(together, of: graph), LayoutMetrics.measure(apart, of: graph))
        // Side by side, d's line crosses three of c4's brothers' and sisters' lines; apart, none.
        #expect(togetherMetrics.crossings == 3)
        #expect(togetherMetrics.coupleAdjacencyPercent == 100)
        #expect(apartMetrics.crossings == 0)
        // The marriage line: one from each partner to the union point, which stands between them.
        let marriageLines = apart.edges.filter { $0.kind == .partner && $0.to == .union(couple) }.map(\.from)
        #expect(Set(marriageLines) == [.member(index("c4")), .member(index("d"))])
        let point = apart.unions.first { $0.union == couple }!
        let centres = ["c4", "d"].map { apart.boxes[index($0)].x + apart.boxes[index($0)].width / 2 }
        #expect(point.x >= centres.min()! && point.x <= centres.max()!)
        // c4 still stands among the siblings in birth order, d beside none of them.
        let row = apart.layers[apart.boxes[index("c4")].layer]
        let siblings = row.filter { graph.members[$0].id.hasPrefix("c") }.map { graph.members[$0].id }
        #expect(siblings == (1...7).map { "c\($0)" })
        #expect(layoutViolations(apart, of: graph).isEmpty, "\(layoutViolations(apart, of: graph))")
        #expect(linesThroughBoxes(apart).isEmpty)
        #expect(LineSeparation.measure(apart) == LineSeparation(closePairs: 0, overlappingPairs: 0))
        #expect(Self.layout(graph) == apart, "deterministic")
    }

    /// A couple married twice and drawn apart: both marriages are lines from each partner to their
    /// own union point between them, on rows of their own, and each family's lines stay apart;
    /// side by side, each marriage's lines leave the line between them a step apart.
    @Test func aCoupleMarriedTwiceIsDrawnApartBothTimes() throws {
        // Both middle children (d the second of three): side by side, eight lines cross.
        var members = ["a1", "a2", "b1", "b2", "k1", "k2"].map { Member(id: $0, firstName: $0.uppercased()) }
        members += (1...7).map { Member(id: "c\($0)", firstName: "C\($0)", birthday: PartialDate(year: 1900 + $0, month: 1, day: 1)) }
        members += [("e1", 1901), ("d", 1902), ("e3", 1903)].map { Member(id: $0, firstName: $0.uppercased(), birthday: PartialDate(year: $1, month: 6, day: 1)) }
        let graph = try FamilyGraph(members: members, unions: [
            Union(id: "a", partners: ["a1", "a2"], children: (1...7).map { ChildLink("c\($0)") }),
            Union(id: "b", partners: ["b1", "b2"], children: [ChildLink("e1"), ChildLink("d"), ChildLink("e3")]),
            Union(id: "first", partners: ["c4", "d"], children: [ChildLink("k1")]),
            Union(id: "second", partners: ["c4", "d"], children: [ChildLink("k2")]),
        ])
        let index = { (id: String) in graph.members.firstIndex { $0.id == id }! }
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = Self.layout(graph, direction: direction)
            let along = { (point: Point) in direction == .topDown ? point.x : point.y }
            let centres = ["c4", "d"].map { id in
                let box = layout.boxes[index(id)]
                return direction == .topDown ? box.x + box.width / 2 : box.y + box.height / 2
            }
            var rows: [Double] = []
            for union in ["first", "second"].map({ id in graph.unions.firstIndex { $0.id == id }! }) {
                let lines = layout.edges.filter { $0.kind == .partner && $0.to == .union(union) }
                #expect(Set(lines.map(\.from)) == [.member(index("c4")), .member(index("d"))], "\(direction)")
                let point = layout.unions.first { $0.union == union }!
                #expect(along(Point(x: point.x, y: point.y)) >= centres.min()! && along(Point(x: point.x, y: point.y)) <= centres.max()!)
                rows += lines.map { direction == .topDown ? $0.points[1].y : $0.points[1].x }
            }
            #expect(Set(rows).count == 2, "\(direction): the two marriages on two rows")
            // Side by side, each marriage's lines leave the line between them a step apart.
            let together = Self.layout(graph, together: true, direction: direction)
            let drops = together.edges.filter { edge in
                guard case .union(let union) = edge.from else { return false }
                return ["first", "second"].contains(graph.unions[union].id)
            }.map { along($0.points[0]) }
            #expect(Set(drops).count == 2 && abs(drops.max()! - drops.min()!) >= LineSeparation.minimumGap, "\(direction): \(drops)")
            #expect(LineSeparation.measure(together) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(direction): together")
            #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(direction)")
            #expect(linesThroughBoxes(layout).isEmpty, "\(direction)")
        }
    }

    @Test func bothDirectionsKeepEveryPromise() throws {
        let graph = try Self.middleChildMarriedIn()
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = Self.layout(graph, direction: direction)
            #expect(layoutViolations(layout, of: graph).isEmpty, "\(direction): \(layoutViolations(layout, of: graph))")
            #expect(linesThroughBoxes(layout).isEmpty, "\(direction)")
            #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(direction)")
        }
    }

    /// A middle child of three married to an only child: side by side, one partner's line crosses
    /// a line to the other's brother or sister; apart, with one of them between, none. One person
    /// between costs half a crossing, so the couple stands apart.
    @Test func aCoupleWithOnePersonBetweenStandsApartToSaveOneCrossing() throws {
        let graph = try Self.oneOfThreeMarriedIn("c2")
        let index = { (id: String) in graph.members.firstIndex { $0.id == id }! }
        #expect(LayoutMetrics.measure(Self.layout(graph, together: true), of: graph).crossings == 1)
        for direction in [LayoutDirection.topDown, .leftRight] {
            let apart = Self.layout(graph, direction: direction)
            let metrics = LayoutMetrics.measure(apart, of: graph)
            #expect(metrics.crossings == 0 && metrics.marriageLineCrossings == 0, "\(direction)")
            let row = apart.layers[apart.boxes[index("c2")].layer]
            let (c2, d) = (row.firstIndex(of: index("c2"))!, row.firstIndex(of: index("d"))!)
            #expect(abs(c2 - d) == 2, "\(direction): one person between them")
            #expect(layoutViolations(apart, of: graph).isEmpty, "\(direction): \(layoutViolations(apart, of: graph))")
        }
    }

    /// An eldest child married to an only child whose family stands beside theirs: side by side
    /// crosses nothing, so nothing is drawn apart.
    @Test func aCoupleThatCrossesNothingStaysSideBySide() throws {
        let graph = try Self.oneOfThreeMarriedIn("c1")
        let metrics = LayoutMetrics.measure(Self.layout(graph), of: graph)
        #expect(metrics.coupleAdjacencyPercent == 100)
        #expect(metrics.crossings == 0)
    }

    /// A king with five wives: at most two stand beside him, and the marriage lines to the others
    /// each take a row of their own under the layer, never along one another, leaving his box a
    /// step apart where it has room, as one trunk where it has not (left to right).
    @Test func marriageLinesToPartnersNotBesideEachRunOnARowOfTheirOwn() throws {
        let wives = (1...5).map { "w\($0)" }
        let members = [Member(id: "king", firstName: "King")] + wives.map { Member(id: $0, firstName: $0.uppercased()) }
            + wives.map { Member(id: "c\($0)", firstName: "Child of \($0)") }
        let graph = try FamilyGraph(members: members, unions: wives.map { Union(id: "u\($0)", partners: ["king", $0], children: [ChildLink("c\($0)")]) })
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = Self.layout(graph, direction: direction)
            let marriageLines = layout.edges.filter { edge in
                guard edge.kind == .partner, case .union = edge.to else { return false }
                return true
            }
            #expect(marriageLines.count >= 6, "\(direction): three wives or more not beside him, two lines each")
            // The run along each line's row: no two of different unions on one row overlap.
            let rows = marriageLines.map { edge -> (union: Layout.Endpoint, across: Double, low: Double, high: Double) in
                let (a, b) = (edge.points[1], edge.points[2])
                return direction == .topDown ? (edge.to, a.y, min(a.x, b.x), max(a.x, b.x)) : (edge.to, a.x, min(a.y, b.y), max(a.y, b.y))
            }
            for (index, one) in rows.enumerated() {
                for other in rows.dropFirst(index + 1) where other.union != one.union && abs(other.across - one.across) < LineSeparation.minimumGap {
                    #expect(min(one.high, other.high) <= max(one.low, other.low) + 0.001, "\(direction): \(one) and \(other) run along one another")
                }
            }
            #expect(Set(rows.map(\.across)).count >= 2, "\(direction): the lines take rows of their own")
            #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(direction)")
            #expect(linesThroughBoxes(layout).isEmpty, "\(direction)")
        }
    }

    /// washington.ged, where middle children married into other families of the tree: side by side
    /// it crosses 94 lines, dot's drawing 5 (the benchmark, boxes the same size); couples a step or
    /// two apart bring ours under dot's, every family still in birth order, no line through a box.
    @Test func washingtonCrossesFewerLinesThanDotWithCouplesApart() throws {
        let graph = try LayoutFixtures.washington()
        let (together, apart) = (Self.layout(graph, together: true), Self.layout(graph))
        let (before, after) = (LayoutMetrics.measure(together, of: graph), LayoutMetrics.measure(apart, of: graph))
        #expect(before.crossings > 50, "\(before.crossings)")
        #expect(after.crossings < 5, "\(after.crossings), marriage lines \(after.marriageLineCrossings ?? -1)")
        #expect(after.coupleAdjacencyPercent > 70, "dot: 66%")
        #expect(after.birthOrderPercent == 100)
        #expect(linesThroughBoxes(apart).isEmpty)
        #expect(LineSeparation.measure(apart) == LineSeparation(closePairs: 0, overlappingPairs: 0))
    }

    /// Real trees: fewer crossings than with every couple side by side, few couples apart, no
    /// line through a box and none beside another family's.
    @Test(.requiresSharedData("gedcom-samples/kennedy.ged"), arguments: ["gedcom-samples/kennedy.ged", "gedcom-samples/EnglishTudorRoyalFamily.ged"])
    func realTreesCrossLessWithFewCouplesApart(path: String) throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: TestPaths.shared(path))))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        let (together, apart) = (Self.layout(graph, together: true), Self.layout(graph))
        let (before, after) = (LayoutMetrics.measure(together, of: graph), LayoutMetrics.measure(apart, of: graph))
        #expect(after.crossings < before.crossings, "\(path): \(after.crossings) against \(before.crossings)")
        // A couple apart costs a quarter crossing per step between the partners: kennedy.ged draws
        // three of its 71 couples apart for 8 fewer crossings.
        #expect(after.coupleAdjacencyPercent >= before.coupleAdjacencyPercent - 5, "\(path)")
        #expect(linesThroughBoxes(apart).isEmpty, "\(path)")
        #expect(LineSeparation.measure(apart) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(path)")
    }
}
