import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
@testable import FamilyTreeLayout

/// The multi-start search reduces and places each distinct order once: a repeat draws the same and
/// cannot win.
struct StartingOrderSearchTests {
    static func compare(_ graph: FamilyGraph) -> (skipping: StartingOrderSearch, placingAll: StartingOrderSearch) {
        var options = LayeredLayout.Options()
        let skipping = LayeredLayout(options: options).search(graph)
        options.skipsRepeatedOrders = false
        return (skipping, LayeredLayout(options: options).search(graph))
    }

    @Test func aGeneratedTreeDrawsTheSameWithFewerPlacements() throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 500, seed: 11).generate())
        let (skipping, placingAll) = Self.compare(graph)
        #expect(skipping.best == placingAll.best)
        #expect(skipping.placements < placingAll.placements, "\(skipping.placements) against \(placingAll.placements)")
        #expect(skipping.reductions < placingAll.reductions, "\(skipping.reductions) against \(placingAll.reductions)")
    }

    @Test(.enabled(if: SharedTrees.haveTudors, "../shared/data is not beside the package"))
    func theTudorsDrawTheSameWithFewerPlacements() throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: SharedTrees.tudors)))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        let (skipping, placingAll) = Self.compare(graph)
        #expect(skipping.best == placingAll.best)
        // Most host trials end in an order placed before.
        #expect(skipping.placements * 3 <= placingAll.placements * 2, "\(skipping.placements) against \(placingAll.placements)")
        #expect(skipping.reductions < placingAll.reductions, "\(skipping.reductions) against \(placingAll.reductions)")
    }
}
