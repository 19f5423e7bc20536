// Compiled with the Graphviz trait only: `swift test --traits Graphviz` (the README's test command runs both builds).
#if Graphviz
import Foundation
import Testing
import FamilyTree
import FamilyTreeLayout
import FamilyTreeRender
@testable import FamilyTreeGraphviz
import TestSupport

enum Examples {
    static let packageRoot = TestPaths.packageRoot

    static func family() throws -> FamilyGraph {
        try FamilyGraph(json: Array(try Data(contentsOf: packageRoot.appendingPathComponent("examples/family.json"))))
    }
}

@Suite struct GraphvizEngineTests {
    @Test func dotThroughCgraphLaysOutTheExample() throws {
        let graph = try Examples.family()
        let layout = try GraphvizEngine().place(graph)
        #expect(layout.boxes.count == graph.members.count && layout.unions.count == graph.unions.count)
        let metrics = LayoutMetrics.measure(layout, of: graph)
        #expect(metrics.members == 22)
        // Partners share a rank; children are below their parents.
        for (union, partners) in graph.topology.partners.enumerated() where partners.count == 2 {
            #expect(layout.boxes[partners[0]].layer == layout.boxes[partners[1]].layer, "\(graph.unions[union].id)")
        }
        for member in graph.members.indices {
            for parent in graph.parents(ofMemberAt: member) { #expect(layout.boxes[parent].y < layout.boxes[member].y) }
        }
        // Our engine keeps couples side by side but where one apart crosses less (the example's
        // Peter and Emily: 7 of 8 couples), or every one when asked; Graphviz, on the same graph,
        // need not keep any.
        let ours = LayoutMetrics.measure(LayeredLayout(labeler: Labeler()).place(graph), of: graph)
        #expect(ours.coupleAdjacencyPercent == 87.5)
        #expect(ours.crossings <= metrics.crossings)
        var sideBySide = LayeredLayout(labeler: Labeler())
        sideBySide.options.keepsCouplesTogether = true
        let together = LayoutMetrics.measure(sideBySide.place(graph), of: graph)
        #expect(together.coupleAdjacencyPercent == 100)
        #expect(ours.crossings < together.crossings)
        #expect(try GraphvizEngine().place(graph) == layout, "deterministic")
    }

    @Test func agwriteGivesTheSameGraphAsOurStructureDOT() throws {
        for graph in [try Examples.family(), try FamilyGraph(document: TreeGenerator(memberCount: 300, seed: 8).generate())] {
            let ours = try GraphSummary(dot: DOTWriter().structure(graph))
            let cgraph = try GraphSummary(dot: try GraphvizEngine().dot(graph))
            #expect(ours.nodes == cgraph.nodes)
            #expect(ours.edges == cgraph.edges)
            #expect(ours.sameRank == cgraph.sameRank)
            #expect(ours.graphAttributes == cgraph.graphAttributes)
            #expect(ours.nodes.count == graph.members.count + graph.unions.count)
            #expect(ours.edges.values.reduce(0, +) > graph.members.count)
        }
    }

    @Test func graphvizRendersItsOwnFormats() throws {
        let graph = try Examples.family()
        let engine = GraphvizEngine()
        let svg = String(decoding: try engine.render(graph, format: "svg"), as: UTF8.self)
        #expect(svg.contains("<svg") && svg.contains("Karl Friedrich Müller"))
        #expect(try engine.render(graph, format: "png").starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try engine.render(graph, format: "pdf").starts(with: Array("%PDF".utf8)))
        #expect(throws: GraphvizError.self) { _ = try engine.render(graph, format: "no-such-format") }
    }

    @Test func graphvizErrorsCarryItsMessage() {
        #expect {
            _ = try GraphSummary(dot: "digraph { a -> }")
        } throws: { error in
            guard case GraphvizError.graphRejected(let message) = error else { return false }
            return message.contains("syntax error")
        }
    }

    @Test func concurrentCallsAreSerializedAndAgree() async throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 200, seed: 3).generate())
        let expected = try GraphvizEngine().place(graph)
        try await withThrowingTaskGroup(of: Layout.self) { group in
            for _ in 0..<8 { group.addTask { try GraphvizEngine().place(graph) } }
            for try await layout in group { #expect(layout == expected) }
        }
    }

    @Test func hostileNamesStayText() throws {
        let graph = try FamilyGraph(members: [Member(id: "a\"b", firstName: "<script>alert(1)</script>"), Member(id: "c", firstName: "C")],
                                    unions: [Union(id: "u", partners: ["a\"b", "c"])])
        let svg = String(decoding: try GraphvizEngine().render(graph, format: "svg"), as: UTF8.self)
        #expect(!svg.contains("<script") && svg.contains("&lt;script&gt;"))
    }
}
#endif
