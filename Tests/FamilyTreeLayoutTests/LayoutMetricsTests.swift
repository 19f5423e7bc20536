import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeLayout

@Suite struct LayoutMetricsTests {
    /// Crossings counted pair by pair, the slow and obvious way, as evaluate.py defines them.
    func bruteForceCrossings(_ layout: Layout, of graph: FamilyGraph) -> Int {
        let drawing = FamilyDrawing(layout)
        let nodes = drawing.memberCentres + drawing.unionPoints
        let members = graph.members.count
        var edges: [(Int, Int)] = []
        for (union, partners) in graph.topology.partners.enumerated() {
            for partner in partners { edges.append((partner, members + union)) }
            for child in graph.topology.children[union] { edges.append((members + union, child)) }
        }
        for link in graph.topology.crossLinks { edges.append((link.parent, link.child)) }
        let layers = DrawingMeasures.clusterLayers(nodes.map(\.y))
        func layer(_ y: Double) -> Int { layers.lastIndex { $0 <= y + 0.5 }! }
        // Segments per gap: (gap, x above, x below, edge).
        var segments: [(gap: Int, upper: Double, lower: Double, ends: (Int, Int))] = []
        for (from, to) in edges {
            var (a, b) = (from, to)
            if nodes[a].y > nodes[b].y { swap(&a, &b) }
            let (top, bottom) = (layer(nodes[a].y), layer(nodes[b].y))
            guard top != bottom else { continue }
            func x(_ index: Int) -> Double {
                if index == top { return nodes[a].x }
                if index == bottom { return nodes[b].x }
                return nodes[a].x + (layers[index] - nodes[a].y) / (nodes[b].y - nodes[a].y) * (nodes[b].x - nodes[a].x)
            }
            for gap in top..<bottom { segments.append((gap, (x(gap) * 1000).rounded(), (x(gap + 1) * 1000).rounded(), (from, to))) }
        }
        var count = 0
        for i in segments.indices {
            for j in segments.indices where i < j && segments[i].gap == segments[j].gap {
                let (s, t) = (segments[i], segments[j])
                if (s.upper < t.upper && s.lower > t.lower) || (s.upper > t.upper && s.lower < t.lower) { count += 1 }
            }
        }
        return count
    }

    @Test(arguments: [3, 11, 27, 58])
    func crossingsMatchAPairByPairCount(seed: UInt64) throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 150 + Int(seed) * 5, seed: seed).generate())
        let layout = LayeredLayout(options: .init(startingOrderBudget: 0)).place(graph)
        let metrics = LayoutMetrics.measure(layout, of: graph)
        // Between layers; our own layouts add the marriage lines' (`MarriageLineTests`).
        #expect(LayoutMetrics.measure(FamilyDrawing(layout), of: graph).crossings == bruteForceCrossings(layout, of: graph))
        #expect(metrics.crossings == bruteForceCrossings(layout, of: graph) + (metrics.marriageLineCrossings ?? -1))
        #expect(metrics.coupleAdjacencyPercent == 100)
        #expect(metrics.birthOrderPercent == 100)
        #expect(metrics.overlaps == 0)
    }

    @Test func overlapsAndOrderAreSeenInAForeignDrawing() throws {
        let graph = try FamilyGraph(
            members: [Member(id: "a", firstName: "A"), Member(id: "b", firstName: "B"),
                      Member(id: "c", firstName: "C", birthday: PartialDate("1900")), Member(id: "d", firstName: "D", birthday: PartialDate("1901"))],
            unions: [Union(id: "u", partners: ["a", "b"], children: [ChildLink("c"), ChildLink("d")])]
        )
        let size = Size(width: 100, height: 40)
        // Partners on one row but overlapping, children in the wrong order.
        let drawing = FamilyDrawing(
            memberCentres: [Point(x: 0, y: 0), Point(x: 50, y: 0), Point(x: 300, y: 100), Point(x: 100, y: 100)],
            memberSizes: Array(repeating: size, count: 4), unionPoints: [Point(x: 25, y: 0)]
        )
        let metrics = LayoutMetrics.measure(drawing, of: graph)
        #expect(metrics.overlaps == 1)
        #expect(metrics.birthOrderPercent == 0)
        #expect(metrics.coupleAdjacencyPercent == 100)
        #expect(metrics.crossings == 0)
        #expect(metrics.width == 400 && metrics.height == 140)
    }
}
