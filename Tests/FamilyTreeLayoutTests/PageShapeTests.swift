import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// The chart's shape: people with no links in a block below, and the direction `LayoutFit` chooses.
@Suite struct PageShapeTests {
    /// A couple with `children` children, each married, plus `lone` people with no links at all.
    static func family(children: Int, lone: Int) throws -> FamilyGraph {
        var members = [Member(id: "p", firstName: "P"), Member(id: "q", firstName: "Q")]
        var unions = [Union(id: "pq", partners: ["p", "q"], children: (0..<children).map { ChildLink("c\($0)") })]
        for child in 0..<children {
            members += [Member(id: "c\(child)", firstName: "C\(child)"), Member(id: "s\(child)", firstName: "S\(child)")]
            unions.append(Union(id: "u\(child)", partners: ["c\(child)", "s\(child)"]))
        }
        members += (0..<lone).map { Member(id: "l\($0)", firstName: "L\($0)") }
        return try FamilyGraph(members: members, unions: unions)
    }

    @Test func peopleWithNoLinksStandInABlockBelowTheFamily() throws {
        let graph = try Self.family(children: 3, lone: 10)
        let layering = Layering(graph: graph)
        let layer = { (id: String) in layering.layerOfMember[graph.index(of: id)!] }
        let familyBottom = ["p", "q", "c0", "s2"].map(layer).max()!
        let loneLayers = (0..<10).map { layer("l\($0)") }
        #expect(loneLayers.allSatisfy { $0 > familyBottom })
        // Rows as wide as the widest layer (6 people), or as the block is deep (4): 6 then 4, in file order.
        #expect(loneLayers == Array(repeating: familyBottom + 1, count: 6) + Array(repeating: familyBottom + 2, count: 4))
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph).isEmpty)
    }

    @Test func aTreeOfLonePeopleOnlyIsASquareishBlockNotOneRow() throws {
        let graph = try Self.family(children: 0, lone: 16)
        let layering = Layering(graph: graph)
        let rows = Dictionary(grouping: (2..<18).map { layering.layerOfMember[$0] }, by: { $0 })
        #expect(rows.count == 4 && rows.values.allSatisfy { $0.count == 4 })
    }

    @Test func autoTurnsAStripIntoColumnsAndLeavesASmallFamilyInRows() throws {
        let strip = try Self.family(children: 14, lone: 0)
        let place = { (direction: LayoutDirection) in LayeredLayout(options: .init(direction: direction)).place(strip) }
        let rows = LayoutFit.wide.layout(place)
        #expect(rows.direction == .topDown && rows.width > 4 * rows.height)
        let automatic = LayoutFit.auto.layout(place)
        #expect(automatic.direction == .leftRight && automatic.height > automatic.width)
        #expect(LayoutFit.page.layout(place).direction == .leftRight)

        let small = try Self.family(children: 2, lone: 0)
        let placeSmall = { (direction: LayoutDirection) in LayeredLayout(options: .init(direction: direction)).place(small) }
        #expect(LayoutFit.auto.layout(placeSmall).direction == .topDown)
    }

    /// Each direction's layout, counting how often each is asked for.
    final class CountingPlacer {
        let graph: FamilyGraph
        let options: LayeredLayout.Options
        var asked: [LayoutDirection] = []

        init(_ graph: FamilyGraph, startingOrderBudget: Int = 5_000) {
            self.graph = graph
            options = LayeredLayout.Options(startingOrderBudget: startingOrderBudget)
        }

        func place(_ direction: LayoutDirection) -> Layout {
            asked.append(direction)
            var options = options
            options.direction = direction
            return LayeredLayout(options: options).place(graph)
        }
    }

    @Test func aClearShapeIsChosenFromSketchesAndLaidOutInFullOnce() throws {
        for (children, expected) in [(14, LayoutDirection.leftRight), (2, .topDown)] {
            let graph = try Self.family(children: children, lone: 0)
            let full = CountingPlacer(graph)
            let sketches = CountingPlacer(graph, startingOrderBudget: 0)
            let chosen = LayoutFit.auto.layout(sketch: sketches.place, full.place)
            // The same drawing as without sketches, for one full layout instead of up to two.
            #expect(chosen == LayoutFit.auto.layout(CountingPlacer(graph).place))
            #expect(chosen.direction == expected && full.asked == [expected])
            #expect(sketches.asked == (expected == .topDown ? [.topDown] : [.topDown, .leftRight]))
        }
    }

    @Test func aShapeNearTheThresholdIsDecidedOnTheFullLayouts() throws {
        let graph = try Self.family(children: 14, lone: 0)
        let rows = LayeredLayout(options: .init(direction: .topDown)).place(graph)
        let columns = LayeredLayout(options: .init(direction: .leftRight)).place(graph)
        // Sketches that say columns by less than the margin: both full layouts are made, and
        // they decide.
        let margin = LayoutFit.sketchMargin * LayoutFit.sketchMargin
        try #require(LayoutFit.aspect(rows) / (2 * LayoutFit.aspect(columns)) > margin)
        var sketchedColumns = columns
        sketchedColumns.height = columns.width * LayoutFit.aspect(rows) / 2.2
        let ratio = LayoutFit.aspect(rows) / (2 * LayoutFit.aspect(sketchedColumns))
        try #require(ratio >= 1 && ratio < margin)
        let full = CountingPlacer(graph)
        let chosen = LayoutFit.auto.layout(sketch: { $0 == .topDown ? rows : sketchedColumns }, full.place)
        #expect(full.asked == [.topDown, .leftRight])
        #expect(chosen == columns)
        // A sketch far from the full drawing (wider than tall, not a strip) stays in rows outright.
        let squareish = CountingPlacer(graph)
        var square = rows
        square.width = rows.height * 1.5
        #expect(LayoutFit.auto.layout(sketch: { _ in square }, squareish.place).direction == .topDown)
        #expect(squareish.asked == [.topDown])
    }
}
