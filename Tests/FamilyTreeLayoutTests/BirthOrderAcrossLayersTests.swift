import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
@testable import FamilyTreeLayout
import TestSupport

/// The real trees in `../shared/data` beside the package, where CI puts them.
enum SharedTrees {
    static let royal92 = TestPaths.shared("royal92/royal92.ged")
    static let tudors = TestPaths.shared("gedcom-samples/EnglishTudorRoyalFamily.ged")
}

/// Siblings drawn in different layers (one married into a later generation) keep their birth order
/// along the layers where that costs little line, on a real royal genealogy full of such marriages.
@Suite(.requiresSharedData("royal92/royal92.ged"))
struct BirthOrderAcrossLayersTests {
    /// Consecutive dated siblings in different layers, and how many of them stand out of order.
    static func pairsAcrossLayers(_ layout: Layout, of graph: FamilyGraph) -> (pairs: Int, outOfOrder: Int) {
        var pairs = 0
        var outOfOrder = 0
        let centre = { (member: Int) in layout.boxes[member].x + layout.boxes[member].width / 2 }
        for children in graph.topology.children {
            let dated = children.filter { graph.members[$0].siblingOrderDate?.sortKey != nil }
            for (elder, younger) in zip(dated, dated.dropFirst()) where layout.boxes[elder].layer != layout.boxes[younger].layer {
                pairs += 1
                if centre(younger) <= centre(elder) { outOfOrder += 1 }
            }
        }
        return (pairs, outOfOrder)
    }

    @Test func siblingsInOtherLayersStandInBirthOrderMoreOftenForLittleLine() throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: SharedTrees.royal92)))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        var options = LayeredLayout.Options()
        let kept = LayeredLayout(options: options).place(graph)
        options.birthOrderAcrossLayersWeight = 0
        let free = LayeredLayout(options: options).place(graph)

        let (pairs, keptOut) = Self.pairsAcrossLayers(kept, of: graph)
        let freeOut = Self.pairsAcrossLayers(free, of: graph).outOfOrder
        #expect(pairs > 20, "royal92 has many siblings a generation apart")
        // 16 against 19 when measured (the search's choice among equally good drawings moves this by one or two).
        #expect(keptOut < freeOut, "\(keptOut) of \(pairs) out of order, against \(freeOut) without the rule")
        let (keptMetrics, freeMetrics) = (LayoutMetrics.measure(kept, of: graph), LayoutMetrics.measure(free, of: graph))
        #expect(keptMetrics.birthOrderPercent > freeMetrics.birthOrderPercent)
        #expect(keptMetrics.width <= freeMetrics.width * 1.02)
        #expect(keptMetrics.totalEdgeLength <= freeMetrics.totalEdgeLength * 1.05)
        #expect(keptMetrics.crossings <= freeMetrics.crossings + freeMetrics.crossings / 100)
        // No hard rule is broken that was kept without it (a real tree has couples that cannot all stand together).
        #expect(Set(layoutViolations(kept, of: graph)).isSubset(of: Set(layoutViolations(free, of: graph))))
    }
}
