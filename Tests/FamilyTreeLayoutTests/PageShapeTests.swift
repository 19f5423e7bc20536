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

    /// Each direction's layout, and its sketch, counting how often each is asked for and finished.
    final class CountingPlacer {
        let graph: FamilyGraph
        var asked: [LayoutDirection] = []
        var sketched: [LayoutDirection] = []
        var finished: [LayoutDirection] = []

        init(_ graph: FamilyGraph) { self.graph = graph }

        func place(_ direction: LayoutDirection) -> Layout {
            asked.append(direction)
            return LayeredLayout(options: .init(direction: direction)).place(graph)
        }

        func sketch(_ direction: LayoutDirection) -> LayoutSketch? {
            sketched.append(direction)
            guard let sketch = LayeredLayout(options: .init(direction: direction)).sketch(graph) else { return nil }
            return LayoutSketch(sketch.layout) {
                self.finished.append(direction)
                return sketch.finish()
            }
        }
    }

    @Test func aClearShapeIsChosenFromSketchesAndOnlyThatOneIsFinished() throws {
        for (children, expected) in [(14, LayoutDirection.leftRight), (2, .topDown)] {
            let graph = try Self.family(children: children, lone: 0)
            let placer = CountingPlacer(graph)
            let chosen = LayoutFit.auto.layout(sketch: placer.sketch, placer.place)
            // The same drawing as without sketches, for one search instead of up to two.
            #expect(chosen == LayoutFit.auto.layout(CountingPlacer(graph).place))
            #expect(chosen.direction == expected)
            #expect(placer.sketched == (expected == .topDown ? [.topDown] : [.topDown, .leftRight]))
            #expect(placer.finished == [expected], "the chosen sketch is finished")
            #expect(placer.asked.isEmpty, "nothing is laid out from the start again")
        }
    }

    /// A sketch is the search's first start, and finishing it is the search: the same layout as
    /// `place`, on a tree where the search improves on its first start.
    @Test func aFinishedSketchIsTheFullLayout() throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 120, seed: 4).generate())
        for direction in LayoutDirection.allCases {
            let engine = LayeredLayout(options: .init(direction: direction))
            let sketch = try #require(engine.sketch(graph))
            var firstStart = engine
            firstStart.options.startingOrderBudget = 0
            #expect(sketch.layout == firstStart.place(graph))
            #expect(sketch.layout != engine.place(graph), "the search improves on the first start")
            #expect(sketch.finish() == engine.place(graph))
        }
        // Beyond the search's budget, and for a stage stopped before placement, there is none.
        var small = LayeredLayout()
        small.options.startingOrderBudget = graph.members.count - 1
        #expect(small.sketch(graph) == nil)
        var ordering = LayeredLayout()
        ordering.options.lastStage = .ordering
        #expect(ordering.sketch(graph) == nil)
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
        // Sketches that finish into the full layouts: which were finished, which laid out anew.
        func chooseFromSketches(rows sketchedRows: Layout, columns sketchedColumns: Layout) -> (Layout, finished: [LayoutDirection], asked: [LayoutDirection]) {
            var finished: [LayoutDirection] = []
            let sketches = { (direction: LayoutDirection) in
                LayoutSketch(direction == .topDown ? sketchedRows : sketchedColumns) {
                    finished.append(direction)
                    return direction == .topDown ? rows : columns
                }
            }
            let full = CountingPlacer(graph)
            let chosen = LayoutFit.auto.layout(sketch: sketches, full.place)
            return (chosen, finished, full.asked)
        }
        let nearRatio = chooseFromSketches(rows: rows, columns: sketchedColumns)
        #expect(nearRatio.0 == columns)
        #expect(nearRatio.finished == [.topDown, .leftRight] && nearRatio.asked.isEmpty)
        // A rows sketch near the strip threshold: columns are asked for only once the full rows
        // are a strip, and then finished from their sketch too, not laid out from the start.
        var nearStrip = rows
        nearStrip.width = rows.height * LayoutFit.stripAspect * 1.1
        let nearStripChoice = chooseFromSketches(rows: nearStrip, columns: columns)
        #expect(nearStripChoice.0 == columns)
        #expect(nearStripChoice.finished == [.topDown, .leftRight] && nearStripChoice.asked.isEmpty)
        // A sketch far from the full drawing (wider than tall, not a strip) stays in rows outright.
        let squareish = CountingPlacer(graph)
        var square = rows
        square.width = rows.height * 1.5
        #expect(LayoutFit.auto.layout(sketch: { _ in LayoutSketch(final: square) }, squareish.place) == square)
        #expect(squareish.asked.isEmpty)
        // An engine with no sketch for a tree is laid out as without sketches.
        let unsketched = CountingPlacer(graph)
        #expect(LayoutFit.auto.layout(sketch: { _ in nil }, unsketched.place) == columns)
        #expect(unsketched.asked == [.topDown, .leftRight])
    }
}
