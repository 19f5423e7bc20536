import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
import TestSupport
@testable import FamilyTreeLayout

/// The layout's stages by name: stopping after one draws what it decided, and the size limits
/// that switch a stage to its large-tree method are options.
@Suite struct LayoutStageTests {
    static func graph(seed: UInt64) throws -> FamilyGraph {
        try FamilyGraph(document: TreeGenerator(memberCount: 160, seed: seed).generate())
    }

    static func layout(_ graph: FamilyGraph, _ change: (inout LayeredLayout.Options) -> Void = { _ in }) -> Layout {
        var options = LayeredLayout.Options(startingOrderBudget: 0)
        change(&options)
        return LayeredLayout(options: options).place(graph)
    }

    @Test func eachStageDrawsAChartThatKeepsEveryPromise() throws {
        var crossings: [LayeredLayout.Stage: Int] = [:]
        var lineLength: [LayeredLayout.Stage: Double] = [:]
        for seed: UInt64 in [3, 11, 42] {
            let graph = try Self.graph(seed: seed)
            for stage in LayeredLayout.Stage.allCases {
                let layout = Self.layout(graph) { $0.lastStage = stage }
                let broken = layoutViolations(layout, of: graph)
                #expect(broken.isEmpty, "seed \(seed), stopped after \(stage): \(broken.prefix(3))")
                let metrics = LayoutMetrics.measure(layout, of: graph)
                crossings[stage, default: 0] += metrics.crossings
                lineLength[stage, default: 0] += metrics.totalEdgeLength
            }
        }
        // Each stage does its job: crossing reduction crosses less than the first order, and
        // placement draws shorter lines than packing every layer left.
        #expect(crossings[.ordering]! < crossings[.ranking]!, "\(crossings)")
        #expect(lineLength[.placement]! < lineLength[.ordering]!, "\(lineLength)")
    }

    @Test func stoppingAfterRankingKeepsTheLayersAndPacksEachLeft() throws {
        let graph = try Self.graph(seed: 7)
        let full = Self.layout(graph)
        let ranked = Self.layout(graph) { $0.lastStage = .ranking }
        // The same layers as the full layout (where each stands across depends on the lines
        // between, which the packing draws differently).
        #expect(ranked.boxes.map(\.layer) == full.boxes.map(\.layer))
        // Every row starts at the margin: nothing was moved along the layers.
        let margin = LayeredLayout.Options().margin
        let rows = Dictionary(grouping: ranked.boxes, by: \.center.y)
        for (_, row) in rows { #expect(row.map(\.x).min() == margin) }
        #expect(Self.layout(graph) { $0.lastStage = .placement } == full)
    }

    @Test func theLimitsAreOptions() throws {
        let graph = try Self.graph(seed: 5)
        let exact = Self.layout(graph)
        // Without the exact placement the balanced positions stay: longer lines, same rows.
        let balanced = Self.layout(graph) { $0.exactPlacementLimit = 0 }
        #expect(balanced.boxes.map(\.center.y) == exact.boxes.map(\.center.y))
        #expect(LayoutMetrics.measure(balanced, of: graph).totalEdgeLength > LayoutMetrics.measure(exact, of: graph).totalEdgeLength)
        // Without optimal ranking the demotion heuristic layers the tree: every promise kept.
        let demoted = Self.layout(graph) { $0.optimalRankingLimit = 0 }
        #expect(layoutViolations(demoted, of: graph).isEmpty)
    }

    /// The ranking limit switches the method: on a real tree the heuristic's layers draw longer
    /// lines than the optimal ones.
    @Test(.requiresSharedData("royal92/royal92.ged"))
    func theRankingLimitChoosesTheMethod() throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: SharedTrees.royal92)))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        func span(_ layering: Layering) -> Int {
            var total = 0
            for (union, children) in graph.topology.children.enumerated() {
                for child in children {
                    for parent in graph.topology.partners[union] { total += layering.layerOfMember[child] - layering.layerOfMember[parent] }
                }
            }
            return total
        }
        let optimal = span(Layering(graph: graph))
        let heuristic = span(Layering(graph: graph, optimalLimit: 0))
        #expect(optimal < heuristic, "\(optimal) against \(heuristic) layers of line")
    }
}
