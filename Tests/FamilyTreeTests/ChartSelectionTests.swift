import Testing
@testable import FamilyTree

/// The parts of a tree the printed charts draw: ancestors, descendants, an hourglass, and the lines
/// joining two relatives (on `RelationshipTests`' family).
@Suite struct ChartSelectionTests {
    let graph = RelationshipTests.calculator.graph

    func ids(_ part: FamilyGraph?) -> Set<String> { Set(part?.members.map(\.id) ?? []) }
    func at(_ id: String) -> Int { graph.index(of: id)! }

    @Test func ancestorsAreTheLineUpwardOnly() throws {
        let part = graph.ancestors(ofMemberAt: at("a"), generations: .max)
        #expect(ids(part) == ["a", "p1", "s1", "g1", "g2", "gg1", "gg2"])
        // Each couple keeps the child of the line only; a grandfather's other marriage is gone.
        #expect(part.unions.first { $0.id == "g12" }?.children.map(\.member) == ["p1"])
        #expect(!part.unions.contains { $0.id == "g13" || $0.id == "p1t" })
        #expect(ids(graph.ancestors(ofMemberAt: at("a"), generations: 1)) == ["a", "p1", "s1"])
        #expect(ids(graph.ancestors(ofMemberAt: at("a"), generations: 0)) == ["a"])
    }

    @Test func descendantsComeWithTheirPartners() {
        let part = graph.descendants(ofMemberAt: at("p1"), generations: .max)
        #expect(ids(part) == ["p1", "a", "b", "c", "a1", "a2", "n1", "fo", "b1", "b1a", "a1a", "s1", "t", "w", "y", "e", "r", "q"])
        // A partner's family with someone not drawn (t's son by u) is not drawn.
        #expect(!part.unions.contains { $0.id == "tu" } && !ids(part).contains("k"))
        #expect(ids(graph.descendants(ofMemberAt: at("p1"), generations: 1)) == ["p1", "a", "b", "c", "s1", "t", "w", "y", "e"])
    }

    @Test func anHourglassIsBothWays() {
        #expect(ids(graph.hourglass(ofMemberAt: at("a"), generations: 1)) == ["a", "p1", "s1", "a1", "a2", "n1", "fo", "w", "q"])
    }

    @Test(arguments: [
        ("a", "d", ["g1", "g2", "p1", "p2", "a", "d"]),                 // first cousins
        ("a", "g1", ["g1", "p1", "a"]),                                 // a grandfather
        ("mc", "oc", ["dgm", "dgf", "dgo", "dgp", "mm", "nn", "oo", "pp", "mc", "oc"]),  // double cousins: every line, each person once
        ("a", "w", ["a", "w"]),                                         // husband and wife
        ("a", "y", ["p1", "s1", "a", "b", "y"]),                        // a sister's husband: through her
        ("a", "a", ["a"]),
    ])
    func theLinesJoiningTwoRelatives(a: String, b: String, expected: [String]) throws {
        let part = try #require(graph.relationshipLines(from: at(a), to: at(b)))
        #expect(ids(part) == Set(expected))
        #expect(part.members.count == expected.count, "each person once")
    }

    @Test func strangersHaveNoLines() {
        #expect(graph.relationshipLines(from: at("gg1"), to: at("dgm")) == nil)
    }

    /// Cousins who married: their child's ancestors reach the same great-grandparents twice, drawn once.
    @Test func aPedigreeCollapseDrawsEachAncestorOnce() throws {
        let cousins = try FamilyGraph(json: Array(#"""
            {"members": [{"id": "g1", "firstName": "G"}, {"id": "g2", "firstName": "H"}, {"id": "x", "firstName": "X"},
              {"id": "xs", "firstName": "XS"}, {"id": "y", "firstName": "Y"}, {"id": "ys", "firstName": "YS"},
              {"id": "c1", "firstName": "C1"}, {"id": "c2", "firstName": "C2"}, {"id": "kid", "firstName": "Kid"}],
             "unions": [{"id": "g", "partners": ["g1", "g2"], "children": ["x", "y"]},
              {"id": "ux", "partners": ["x", "xs"], "children": ["c1"]}, {"id": "uy", "partners": ["y", "ys"], "children": ["c2"]},
              {"id": "uc", "partners": ["c1", "c2"], "children": ["kid"]}]}
            """#.utf8), file: "cousins.json")
        let part = cousins.ancestors(ofMemberAt: cousins.index(of: "kid")!, generations: .max)
        #expect(part.members.count == 9)
        #expect(part.unions.first { $0.id == "g" }?.children.map(\.member) == ["x", "y"], "both lines from the one couple")
    }
}
