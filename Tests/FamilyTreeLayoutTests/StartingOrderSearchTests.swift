import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
@testable import FamilyTreeLayout
import TestSupport

/// The multi-start search reduces and places each distinct order once: a repeat draws the same and
/// cannot win. Skipping repeats also orders host trials ahead of time (and again after a trial
/// wins); placing all does neither, so the same drawing from both shows neither changes the result.
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

    /// washington.ged (a fixture): none of the first starts comes near the first order's crossings,
    /// so the later shuffled starts are not tried, and the drawing is the one trying them all gives.
    @Test func theLaterShuffledStartsAreSkippedWhereTheFirstCameNowhereNear() throws {
        let graph = try LayoutFixtures.washington()
        let (skipping, placingAll) = Self.compare(graph)
        #expect(!skipping.triedEveryStart && placingAll.triedEveryStart)
        #expect(skipping.best == placingAll.best)
        #expect(skipping.reductions + 18 <= placingAll.reductions, "\(skipping.reductions) against \(placingAll.reductions)")
    }

    @Test(.requiresSharedData("gedcom-samples/EnglishTudorRoyalFamily.ged"))
    func theTudorsDrawTheSameWithFewerPlacements() throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: SharedTrees.tudors)))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        let (skipping, placingAll) = Self.compare(graph)
        #expect(skipping.best == placingAll.best)
        #expect(skipping.triedEveryStart, "a shuffled start came near the first order")
        // Most host trials end in an order placed before.
        #expect(skipping.placements * 3 <= placingAll.placements * 2, "\(skipping.placements) against \(placingAll.placements)")
        #expect(skipping.reductions < placingAll.reductions, "\(skipping.reductions) against \(placingAll.reductions)")
    }

    @Test func anOrderThatCrossesLessByBreakingBirthOrderDoesNotWin() {
        // Queen.ged's numbers: the first order, and another start's (15% fewer crossings, 6% less
        // line, 2.5% wider, 2.8 points more families out of birth order).
        let first = StartingOrderSearch.Score(crossings: 4_351, lineLength: 2_772_535, width: 26_340, birthOrderPercent: 95.3)
        var other = StartingOrderSearch.Score(crossings: 3_716, lineLength: 2_600_766, width: 26_989, birthOrderPercent: 92.5)
        #expect(other.relative(to: first) > first.relative(to: first))
        // The same order with birth order kept wins.
        other.birthOrderPercent = 95.3
        #expect(other.relative(to: first) < first.relative(to: first))
    }

    @Test(.requiresSharedData("royal92/royal92.ged"))
    func royal92IsSearchedAndKeepsMoreFamiliesInBirthOrder() throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: SharedTrees.royal92)))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        let searched = LayeredLayout().search(graph)
        let first = LayeredLayout(options: .init(startingOrderBudget: 0)).place(graph)
        #expect(graph.members.count > 3_000 && searched.placements > 1, "3,010 people are within the search's budget")
        let (best, single) = (LayoutMetrics.measure(searched.best, of: graph), LayoutMetrics.measure(first, of: graph))
        #expect(best.crossings < single.crossings)
        #expect(best.birthOrderPercent >= single.birthOrderPercent)
    }
}
