import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// Lines from parents to a child several generations down: royal houses are full of them (a prince
/// marrying into a much later generation of another house).
@Suite struct LongLineTests {
    /// `b` of the family `p` + `q` marries `d`, three generations down another line. Without
    /// grandparents the whole family can move down to `b`. With them (`withGrandparents`), `d` is a
    /// grandchild of `p`'s sister `s1`, so `d` stands a generation below `b`'s siblings, and `a` and `c`
    /// are held in their layer by their own marriages to cousins (children of `s1` and `s2`): the
    /// family stays split, and `b` stands below their siblings.
    static func family(withGrandparents: Bool) throws -> FamilyGraph {
        let dated = ["a": "1900", "b": "1902", "c": "1904"]
        guard withGrandparents else {
            let ids = ["p", "q", "a", "b", "c", "x1", "y1", "x2", "z2", "x3", "z3", "d"]
            let unions = [
                Union(id: "pq", partners: ["p", "q"], children: ["a", "b", "c"].map { ChildLink($0) }),
                Union(id: "x1", partners: ["x1", "y1"], children: [ChildLink("x2")]),
                Union(id: "x2", partners: ["x2", "z2"], children: [ChildLink("x3")]),
                Union(id: "x3", partners: ["x3", "z3"], children: [ChildLink("d")]),
                Union(id: "bd", partners: ["b", "d"]),
            ]
            return try FamilyGraph(members: ids.map { Member(id: $0, firstName: $0, birthday: dated[$0].flatMap { PartialDate($0) }) }, unions: unions)
        }
        let ids = ["gp1", "gm1", "gp2", "gm2", "s1", "s2", "p", "q", "a", "b", "c", "e", "f", "x", "d"]
        let unions = [
            Union(id: "g1", partners: ["gp1", "gm1"], children: [ChildLink("p"), ChildLink("s1")]),
            Union(id: "g2", partners: ["gp2", "gm2"], children: [ChildLink("q"), ChildLink("s2")]),
            Union(id: "pq", partners: ["p", "q"], children: ["a", "b", "c"].map { ChildLink($0) }),
            Union(id: "s1", partners: ["s1"], children: [ChildLink("f"), ChildLink("x")]),
            Union(id: "s2", partners: ["s2"], children: [ChildLink("e")]),
            Union(id: "x", partners: ["x"], children: [ChildLink("d")]),
            Union(id: "ae", partners: ["a", "e"]),
            Union(id: "cf", partners: ["c", "f"]),
            Union(id: "bd", partners: ["b", "d"]),
        ]
        return try FamilyGraph(members: ids.map { Member(id: $0, firstName: $0, birthday: dated[$0].flatMap { PartialDate($0) }) }, unions: unions)
    }

    @Test func aChildWhoMarriedIntoALaterGenerationBringsTheirFamilyDown() throws {
        let graph = try Self.family(withGrandparents: false)
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph).isEmpty)
        let layer = { (id: String) in layout.boxes[graph.index(of: id)!].layer }
        // Longest-path layering puts a, c (and their parents) at the top, three layers above b.
        #expect(layer("a") == layer("b") && layer("c") == layer("b"))
        #expect(layer("p") == layer("b") - 1)
        // No line from a union passes a layer: every child stands just below its parents.
        for (union, children) in graph.topology.children.enumerated() {
            let parentLayer = graph.topology.partners[union].map { layout.boxes[$0].layer }.max()!
            #expect(children.allSatisfy { layout.boxes[$0].layer == parentLayer + 1 }, "\(graph.unions[union].id)")
        }
    }

    @Test func aLongLineGetsPlaceholdersInItsSiblingsPlace() throws {
        let graph = try Self.family(withGrandparents: true)
        let layering = Layering(graph: graph)
        let layer = { (id: String) in layering.layerOfMember[graph.index(of: id)!] }
        try #require(layer("b") == layer("a") + 1 && layer("c") == layer("a"), "the family stays split")
        let compact = CompactGraph(graph.topology, memberCount: graph.members.count)
        let chains = LongEdgeChains(compact: compact, layering: layering, memberCount: graph.members.count)
        #expect(chains.placeholderCount == 1)
        let placeholder = graph.members.count
        #expect(chains.nodeLayers.layerOfNode[placeholder] == layer("a"))
        // In the ordering graph, the placeholder stands between a and c in sibling order, and b
        // hangs from the placeholder's own union.
        let family = graph.unions.firstIndex { $0.id == "pq" }!
        let siblings = Array(chains.compact.children.items[chains.compact.children.range(family)])
        #expect(siblings == [graph.index(of: "a")!, placeholder, graph.index(of: "c")!])
        let lineUnion = chains.compact.primaryParentUnion[graph.index(of: "b")!]
        #expect(chains.compact.firstPartner[lineUnion] == placeholder && chains.compact.secondPartner[lineUnion] == -1)
        #expect(chains.placeholdersOfLine[LongEdgeChains.UnionChild(union: family, child: graph.index(of: "b")!)] == [placeholder])
        // The real graph is untouched.
        #expect(compact.children.items[compact.children.range(family)].contains(graph.index(of: "b")!))
    }

    @Test func aLongLinePassesBetweenTheSiblingsItWasBornAmong() throws {
        let graph = try Self.family(withGrandparents: true)
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph).isEmpty)
        #expect(linesThroughBoxes(layout).isEmpty)
        let (a, b, c) = (layout.boxes[graph.index(of: "a")!], graph.index(of: "b")!, layout.boxes[graph.index(of: "c")!])
        let line = try #require(layout.edges.first { $0.kind == .child && $0.to == .member(b) })
        // Its way down through the siblings' layer runs between a and c.
        let throughSiblings = zip(line.points, line.points.dropFirst()).filter { $0.x == $1.x && $0.y < a.y + a.height && $1.y > a.y }
        #expect(throughSiblings.count == 1)
        #expect(throughSiblings.allSatisfy { $0.0.x > a.x + a.width && $0.0.x < c.x })
        #expect(LayeredLayout().place(graph) == layout, "deterministic")
    }
}

