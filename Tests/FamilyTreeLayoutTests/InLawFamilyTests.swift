import Testing
import FamilyTree
@testable import FamilyTreeLayout
import TestSupport

/// An in-law family (a founders' tree tied to the rest only by a daughter or son who married into
/// one family of another tree) stands beside the family it married into, not at an end of that
/// tree, where its lines would cross the families between.
struct InLawFamilyTests {
    /// Founders g1 + g2 with three sons p1, p2, p3, each married, each with four children in the
    /// next generation; p2's eldest, c1, marries amy, the youngest of founders r1 + r2's five.
    static func wifeFromAnotherFamily(childrenOfP2: Int = 4) throws -> FamilyGraph {
        var members = ["g1", "g2", "r1", "r2", "amy"].map { Member(id: $0, firstName: $0.uppercased()) }
        var unions = [Union]()
        func born(_ year: Int) -> PartialDate? { PartialDate(year: year, month: 1, day: 1) }
        members += (1...3).flatMap { [Member(id: "p\($0)", firstName: "P\($0)", birthday: born(1900 + $0)), Member(id: "w\($0)", firstName: "W\($0)")] }
        unions.append(Union(id: "g", partners: ["g1", "g2"], children: (1...3).map { ChildLink("p\($0)") }))
        for son in 1...3 {
            let children = (1...(son == 2 ? childrenOfP2 : 4)).map { "k\(son)\($0)" }
            members += children.enumerated().map { Member(id: $1, firstName: $1.uppercased(), birthday: born(1930 + $0)) }
            unions.append(Union(id: "p\(son)", partners: ["p\(son)", "w\(son)"], children: children.map { ChildLink($0) }))
        }
        members += (1...4).map { Member(id: "s\($0)", firstName: "S\($0)", birthday: born(1925 + $0)) }
        members[members.firstIndex { $0.id == "amy" }!].birthday = born(1932)
        unions.append(Union(id: "r", partners: ["r1", "r2"], children: (1...4).map { ChildLink("s\($0)") } + [ChildLink("amy")]))
        unions.append(Union(id: "marriage", partners: ["k21", "amy"]))
        return try FamilyGraph(members: members, unions: unions)
    }

    static func firstOrder(_ graph: FamilyGraph, movesInLawFamilies: Bool) -> Arrangement {
        let layering = Layering(graph: graph)
        let compact = CompactGraph(graph.topology, memberCount: graph.members.count)
        let chains = LongEdgeChains(compact: compact, layering: layering, memberCount: graph.members.count)
        let start = Arrangement.StartingOrder(roots: .arranged, host: .firstReached, movesInLawFamilies: movesInLawFamilies)
        return Arrangement(graph: graph, compact: chains.compact, nodeLayers: chains.nodeLayers, start: start)
    }

    @Test func anInLawFamilyStandsBesideTheFamilyItMarriedInto() throws {
        let graph = try Self.wifeFromAnotherFamily()
        let index = { (id: String) in graph.index(of: id)! }
        let (atTheEnd, beside) = (Self.firstOrder(graph, movesInLawFamilies: false), Self.firstOrder(graph, movesInLawFamilies: true))
        // At an end of the tree, amy's brothers and sisters and her line cross p1's (or p3's) family.
        #expect(atTheEnd.countCrossings() > 0)
        #expect(beside.countCrossings() == 0)
        // Beside: r1 + r2 next to p2 + w2, and amy's siblings next to the couple, on her side.
        func neighbours(_ order: Arrangement, _ first: String, _ second: String) -> Bool {
            abs(order.slot[index(first)] - order.slot[index(second)]) == 1
        }
        #expect(neighbours(beside, "amy", "k21"))
        #expect(neighbours(beside, "s4", "amy"))
        #expect(beside.slot[index("r1")] < beside.slot[index("p2")] || beside.slot[index("r1")] > beside.slot[index("w2")])
        #expect([neighbours(beside, "r2", "p2"), neighbours(beside, "r1", "w2"), neighbours(beside, "r2", "w2"), neighbours(beside, "r1", "p2")].contains(true))

        // The whole layout: no crossing, every promise kept.
        let layout = LayeredLayout().place(graph)
        let metrics = LayoutMetrics.measure(layout, of: graph)
        #expect(metrics.crossings == 0)
        #expect(metrics.coupleAdjacencyPercent == 100)
        #expect(metrics.birthOrderPercent == 100)
        #expect(layoutViolations(layout, of: graph).isEmpty, "\(layoutViolations(layout, of: graph))")
        #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0))
    }

    /// A family tied to the tree twice (two daughters married into two families) is no in-law
    /// family: it stays where the trees were arranged.
    @Test func aFamilyTiedTwiceStaysWhereItWasArranged() throws {
        var graph = try Self.wifeFromAnotherFamily()
        var unions = graph.unions
        unions.append(Union(id: "second", partners: ["k31", "s1"]))
        graph = try FamilyGraph(members: graph.members, unions: unions)
        let (atTheEnd, beside) = (Self.firstOrder(graph, movesInLawFamilies: false), Self.firstOrder(graph, movesInLawFamilies: true))
        #expect(atTheEnd.layers == beside.layers)
    }

    /// Where the couple is the in-law family's own (the walk reached it from there) and the partner
    /// has no brother or sister to stand beside, the couple's layer finds no place for the family:
    /// that layer is left as it was (the splice says so), and here moving the parents alone would
    /// cross more, so the first order is kept.
    @Test func aFamilyWithNoPlaceInOneLayerIsLeftThereAndMovesOnlyWhereThatCrossesLess() throws {
        let graph = try Self.wifeFromAnotherFamily(childrenOfP2: 1)
        let (atTheEnd, beside) = (Self.firstOrder(graph, movesInLawFamilies: false), Self.firstOrder(graph, movesInLawFamilies: true))
        let index = { (id: String) in graph.index(of: id)! }
        try #require(atTheEnd.unitOfMember[index("amy")] == atTheEnd.unitOfMember[index("k21")], "amy and k21 are one couple")
        #expect(beside.layers == atTheEnd.layers)

        // The splice itself: the couple's layer has no place for the family (k21 has no brother
        // or sister left to stand beside once the couple moves), so that move is reported and the
        // layer is left as it was.
        let unit = { (id: String) in atTheEnd.unitOfMember[index(id)] }
        let layerOf = { (id: String) in atTheEnd.unitLayer[unit(id)] }
        let move = Arrangement.InLawMove(
            units: ["r1", "s1", "s2", "s3", "s4", "amy"].map(unit),
            anchors: [layerOf("amy"): (unit("k21"), index("k21")), layerOf("r1"): (unit("p2"), index("p2"))],
            left: true, topLayer: layerOf("r1"))
        let (layers, unplaced) = atTheEnd.spliced(atTheEnd.layers, moving: [move])
        #expect(unplaced == [0])
        #expect(layers[layerOf("amy")] == atTheEnd.layers[layerOf("amy")])
        // Where every unit has a place (k21 with three brothers), nothing is unplaced.
        let withSiblings = try Self.wifeFromAnotherFamily()
        let order = Self.firstOrder(withSiblings, movesInLawFamilies: false)
        let unitThere = { (id: String) in order.unitOfMember[withSiblings.index(of: id)!] }
        let layerThere = { (id: String) in order.unitLayer[unitThere(id)] }
        let placeable = Arrangement.InLawMove(
            units: ["r1", "s1", "s2", "s3", "s4", "amy"].map(unitThere),
            anchors: [layerThere("amy"): (unitThere("k21"), withSiblings.index(of: "k21")!), layerThere("r1"): (unitThere("p2"), withSiblings.index(of: "p2")!)],
            left: true, topLayer: layerThere("r1"))
        let placed = order.spliced(order.layers, moving: [placeable])
        #expect(placed.unplaced.isEmpty)
        #expect(placed.layers.map(\.count) == order.layers.map(\.count))
    }
}
