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
}
