import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// A partnership that would put a child beside a parent is drawn across layers, and only that one:
/// the rest of the family keeps its partners side by side.
struct CyclicPartnershipTests {
    @Test func aManWhoMarriesHisStepdaughterKeepsHisFirstWifeBesideHim() throws {
        let graph = try FamilyGraph(
            members: ["wife", "first", "daughter", "man"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "u1", partners: ["wife", "first"], children: [ChildLink("daughter")]),
                     Union(id: "u2", partners: ["man", "wife"]), Union(id: "u3", partners: ["man", "daughter"])]
        )
        let (wife, first, daughter, man) = (0, 1, 2, 3)
        let layering = Layering(graph: graph)
        #expect(layering.componentOfMember[man] == layering.componentOfMember[wife])
        #expect(layering.componentOfMember[wife] == layering.componentOfMember[first])
        #expect(layering.componentOfMember[daughter] != layering.componentOfMember[man])
        #expect(layering.layerOfMember[daughter] > layering.layerOfMember[wife])

        let layout = LayeredLayout().place(graph)
        // Only the partnership across layers breaks a rule.
        #expect(layoutViolations(layout, of: graph) == ["partners of u3 are not side by side"])
        let metrics = LayoutMetrics.measure(layout, of: graph)
        // Two of the three couples can stand together: the man with his wife, the wife with her first husband.
        #expect(metrics.coupleAdjacencyPercent > 66)
        #expect(metrics.overlaps == 0)
    }

    @Test func judahAndTamarLeaveJudahBesideShuah() throws {
        // Judah and Shuah's son Er married Tamar; Tamar's sons were Judah's.
        let graph = try FamilyGraph(
            members: ["judah", "shuah", "er", "tamar", "pharez"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "u1", partners: ["judah", "shuah"], children: [ChildLink("er")]),
                     Union(id: "u2", partners: ["tamar", "er"]),
                     Union(id: "u3", partners: ["tamar", "judah"], children: [ChildLink("pharez")])]
        )
        let (judah, shuah, er, tamar) = (0, 1, 2, 3)
        let layering = Layering(graph: graph)
        #expect(layering.componentOfMember[judah] == layering.componentOfMember[shuah])
        #expect(layering.componentOfMember[tamar] == layering.componentOfMember[er])
        #expect(layering.layerOfMember[er] > layering.layerOfMember[judah])
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph) == ["partners of u3 are not side by side"])
    }

    /// Lot and his daughters (Genesis 19): his line to each daughter's union drops from his box
    /// through the gap below, beside his line to his daughters, never on it, and the two marriage
    /// lines run along rows of their own.
    @Test func aMansMarriageLinesToTheLayerBelowRunBesideHisLineToHisChildren() throws {
        let graph = try FamilyGraph(
            members: ["lot", "wife", "elder", "younger", "moab", "benammi"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "family", partners: ["lot"], children: [ChildLink("elder"), ChildLink("younger")]),
                     Union(id: "first", partners: ["lot", "elder"], children: [ChildLink("moab")]),
                     Union(id: "second", partners: ["lot", "younger"], children: [ChildLink("benammi")])]
        )
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: .init(direction: direction)).place(graph)
            #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(direction)")
            #expect(layout.boxes[graph.index(of: "elder")!].layer > layout.boxes[graph.index(of: "lot")!].layer)
        }
    }
}
