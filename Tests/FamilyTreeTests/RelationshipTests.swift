import Testing
@testable import FamilyTree

/// "How are we related?" on a family built for it: every kind of relationship, half and double
/// ones, a remarriage, an adoption, and a marriage between cousins that makes two relationships.
@Suite struct RelationshipTests {
    static let fixture = #"""
    {"members": [
      {"id": "gg1", "firstName": "Gustav", "sex": "male"}, {"id": "gg2", "firstName": "Greta", "sex": "female"},
      {"id": "g1", "firstName": "Georg", "sex": "male"}, {"id": "g2", "firstName": "Gisela", "sex": "female"},
      {"id": "g3", "firstName": "Grete", "sex": "female"}, {"id": "g1b", "firstName": "Gerda", "sex": "female"},
      {"id": "gx", "firstName": "Gunnar", "sex": "male"},
      {"id": "p1", "firstName": "Paul", "sex": "male", "birthday": "1940"}, {"id": "s1", "firstName": "Susanne", "sex": "female"},
      {"id": "p2", "firstName": "Petra", "sex": "female", "birthday": "1942"}, {"id": "s2", "firstName": "Stefan", "sex": "male"},
      {"id": "h1", "firstName": "Hanna", "sex": "female"}, {"id": "x", "firstName": "Xaver", "sex": "male"},
      {"id": "t", "firstName": "Tanja", "sex": "female"}, {"id": "u", "firstName": "Uwe", "sex": "male"},
      {"id": "p3", "firstName": "Peter", "sex": "male"}, {"id": "p3w", "firstName": "Pia", "sex": "female"},
      {"id": "a", "firstName": "Anton", "sex": "male", "birthday": "1965"}, {"id": "b", "firstName": "Berta", "sex": "female", "birthday": "1967"},
      {"id": "c", "firstName": "Carl", "sex": "male", "birthday": "1970"}, {"id": "d", "firstName": "Dora", "sex": "female"},
      {"id": "e", "firstName": "Emil", "sex": "male"}, {"id": "k", "firstName": "Kurt", "sex": "male"},
      {"id": "f", "firstName": "Fritz", "sex": "male"}, {"id": "fw", "firstName": "Frieda", "sex": "female"},
      {"id": "w", "firstName": "Wilma", "sex": "female"}, {"id": "y", "firstName": "Yannick", "sex": "male"}, {"id": "z", "firstName": "Zeno", "sex": "male"},
      {"id": "a1", "firstName": "Alma", "sex": "female", "birthday": "1990"}, {"id": "a2", "firstName": "Arno", "sex": "male", "birthday": "1992"},
      {"id": "n1", "firstName": "Noa", "birthday": "1995"},
      {"id": "b1", "firstName": "Bruno", "sex": "male"}, {"id": "d1", "firstName": "Dagmar", "sex": "female"}, {"id": "f1", "firstName": "Fenja", "sex": "female"},
      {"id": "q", "firstName": "Quirin", "sex": "male"}, {"id": "r", "firstName": "Rita", "sex": "female"}, {"id": "v", "firstName": "Viktor", "sex": "male"},
      {"id": "a1a", "firstName": "Ada", "sex": "female"}, {"id": "b1a", "firstName": "Bodo", "sex": "male"}, {"id": "d1a", "firstName": "Dirk", "sex": "male"},
      {"id": "dgm", "firstName": "Max", "sex": "male"}, {"id": "dgf", "firstName": "Frida", "sex": "female"},
      {"id": "dgo", "firstName": "Otto", "sex": "male"}, {"id": "dgp", "firstName": "Paula", "sex": "female"},
      {"id": "mm", "firstName": "Moritz", "sex": "male"}, {"id": "nn", "firstName": "Nele", "sex": "female"},
      {"id": "oo", "firstName": "Oskar", "sex": "male"}, {"id": "pp", "firstName": "Paulina", "sex": "female"},
      {"id": "mc", "firstName": "Mia", "sex": "female"}, {"id": "oc", "firstName": "Olga", "sex": "female"},
      {"id": "fo", "firstName": "Fabian", "sex": "male", "birthday": "1998"}
    ],
    "unions": [
      {"id": "gg", "partners": ["gg1", "gg2"], "children": ["g1", "g1b"]},
      {"id": "g12", "partners": ["g1", "g2"], "children": ["p1", "p2"]},
      {"id": "g13", "partners": ["g1", "g3"], "children": ["h1"]},
      {"id": "g1bx", "partners": ["g1b", "gx"], "children": ["p3"]},
      {"id": "p1s1", "partners": ["p1", "s1"], "divorce": "1975", "children": ["a", "b", {"id": "c", "kind": "adopted"}]},
      {"id": "p1t", "partners": ["p1", "t"]},
      {"id": "tu", "partners": ["t", "u"], "children": ["k"]},
      {"id": "p2s2", "partners": ["p2", "s2"], "children": ["d"]},
      {"id": "h1x", "partners": ["h1", "x"], "children": ["e"]},
      {"id": "p3w", "partners": ["p3", "p3w"], "children": ["f"]},
      {"id": "aw", "partners": ["a", "w"], "children": ["a1", "a2", "n1", {"id": "fo", "kind": "foster"}]},
      {"id": "by", "partners": ["b", "y"], "children": ["b1"]},
      {"id": "be", "partners": ["b", "e"]},
      {"id": "dz", "partners": ["d", "z"], "children": ["d1"]},
      {"id": "ffw", "partners": ["f", "fw"], "children": ["f1"]},
      {"id": "a1q", "partners": ["a1", "q"], "children": ["a1a"]},
      {"id": "b1r", "partners": ["b1", "r"], "children": ["b1a"]},
      {"id": "d1v", "partners": ["d1", "v"], "children": ["d1a"]},
      {"id": "dgmf", "partners": ["dgm", "dgf"], "children": ["mm", "nn"]},
      {"id": "dgop", "partners": ["dgo", "dgp"], "children": ["oo", "pp"]},
      {"id": "mmpp", "partners": ["mm", "pp"], "children": ["mc"]},
      {"id": "oonn", "partners": ["oo", "nn"], "children": ["oc"]}
    ]}
    """#

    static let calculator: RelationshipCalculator = {
        RelationshipCalculator(try! FamilyGraph(json: Array(fixture.utf8), file: "fixture.json"))
    }()

    /// How B is related to A, every relationship, closest first.
    func words(_ a: String, _ b: String) -> [String] {
        let graph = Self.calculator.graph
        return Self.calculator.relationships(from: graph.index(of: a)!, to: graph.index(of: b)!).map(\.english)
    }

    @Test(arguments: [
        ("a", "a", ["the same person"]),
        ("a", "p1", ["father"]), ("a", "s1", ["mother"]), ("a", "g1", ["grandfather"]), ("a", "g2", ["grandmother"]),
        ("a", "gg1", ["great-grandfather"]), ("a", "gg2", ["great-grandmother"]), ("a1a", "gg1", ["3rd great-grandfather"]),
        ("p1", "a", ["son"]), ("g1", "a", ["grandson"]), ("gg1", "a", ["great-grandson"]), ("gg1", "a1", ["2nd great-granddaughter"]),
        ("a", "a1", ["daughter"]), ("a", "a2", ["son"]), ("a", "n1", ["child"]), ("a", "a1a", ["granddaughter"]),
        ("a", "b", ["sister"]), ("b", "a", ["brother"]), ("a", "c", ["brother (by adoption)"]), ("c", "b", ["sister (by adoption)"]),
        ("p1", "h1", ["half-sister"]), ("a", "h1", ["half-aunt"]),
        ("a", "p2", ["aunt"]), ("d", "p1", ["uncle"]), ("b1", "a", ["uncle"]), ("a", "g1b", ["great-aunt"]), ("b1a", "a", ["great-uncle"]),
        ("a", "b1", ["nephew"]), ("a", "b1a", ["grandnephew"]), ("b", "n1", ["sibling's child"]), ("p1", "d", ["niece"]),
        ("a", "d", ["first cousin"]), ("d", "a", ["first cousin"]), ("a", "d1", ["first cousin 1x removed"]), ("a", "d1a", ["first cousin 2x removed"]),
        ("a", "p3", ["first cousin 1x removed"]), ("a", "f", ["2nd cousin"]), ("a", "f1", ["2nd cousin 1x removed"]), ("f1", "a1", ["3rd cousin"]),
        ("mc", "oc", ["double first cousin"]), ("mm", "nn", ["sister"]),
        ("a", "w", ["wife"]), ("w", "a", ["husband"]), ("p1", "s1", ["former wife"]), ("p1", "t", ["wife"]),
        ("w", "p1", ["father-in-law"]), ("w", "s1", ["mother-in-law"]), ("p1", "w", ["daughter-in-law"]), ("w", "b", ["sister-in-law"]), ("a", "y", ["brother-in-law"]),
        ("a", "t", ["stepmother"]), ("t", "a", ["stepson"]), ("a", "k", ["stepbrother"]), ("k", "b", ["stepsister"]),
        // Berta married her half first cousin Emil: two relationships, the closer first.
        ("e", "b", ["wife", "half first cousin"]), ("a", "e", ["brother-in-law", "half first cousin"]),
        ("a", "fo", ["son (by fostering)"]), ("a1", "fo", ["brother (by fostering)"]), ("p1", "fo", ["grandson (by fostering)"]),
        ("a", "u", []), ("a", "mc", []),
    ] as [(String, String, [String])])
    func relationships(a: String, b: String, expected: [String]) {
        #expect(words(a, b) == expected, "\(b) to \(a)")
    }

    @Test func aRelationshipNamesItsCommonAncestorsAndPath() throws {
        let graph = Self.calculator.graph
        let cousin = try #require(Self.calculator.relationships(from: graph.index(of: "a")!, to: graph.index(of: "d")!).first)
        #expect(Set(cousin.commonAncestors.map { graph.members[$0].id }) == ["g1", "g2"])
        #expect(cousin.path.map { graph.members[$0].id }.first == "a" && cousin.path.map { graph.members[$0].id }.last == "d")
        #expect(cousin.path.count == 5)
        #expect(cousin.kind == .cousin(degree: 1, removed: 0))
    }

    /// By id as well as by position; an id not in the tree is `nil`, not a crash.
    @Test func relationshipsByIdAreThoseByPosition() throws {
        let graph = Self.calculator.graph
        let byID = try #require(Self.calculator.relationships(from: "a", to: "d"))
        #expect(byID.map(\.english) == Self.calculator.relationships(from: graph.index(of: "a")!, to: graph.index(of: "d")!).map(\.english))
        #expect(byID.first?.english == "first cousin")
        #expect(Self.calculator.relationships(from: "a", to: "nobody") == nil)
    }

    /// Every member's closest relationship to each of the fixture's people, found the short way,
    /// is the first of every way.
    @Test func theClosestIsTheFirstOfEveryWay() throws {
        let calculator = Self.calculator
        let everyone = Array(calculator.graph.members.indices)
        for home in everyone {
            let closest = calculator.closestRelationships(from: home, toEach: everyone)
            #expect(closest == calculator.relationships(from: home, toEach: everyone).map(\.first), "from \(calculator.graph.members[home].id)")
            // One pair at a time, without the pruning walk: the same answers.
            #expect(everyone.map { calculator.closestRelationship(from: home, to: $0) } == closest, "from \(calculator.graph.members[home].id)")
        }
    }

    /// A tree of `generations` people, each the only child of the one before (a line of kings),
    /// and, with `ladder`, each also a child of the one before that by a cross-bloodline link.
    static func line(generations: Int, ladder: Bool = false) throws -> RelationshipCalculator {
        let members = (0..<generations).map { #"{"id": "p\#($0)", "firstName": "P\#($0)"}"# }
        let unions = (1..<generations).map { #"{"id": "u\#($0)", "partners": ["p\#($0 - 1)"], "children": ["p\#($0)"]}"# }
        let links = ladder ? (2..<generations).map { #"{"id": "x\#($0)", "fromChild": "p\#($0)", "toNewParent": "p\#($0 - 2)"}"# } : []
        let json = #"{"members": [\#(members.joined(separator: ","))], "unions": [\#(unions.joined(separator: ","))], "crossBloodlineConnections": [\#(links.joined(separator: ","))]}"#
        return RelationshipCalculator(try FamilyGraph(json: Array(json.utf8), file: "line.json"))
    }

    /// A line is followed as far as it goes: the Japanese imperial line in a public GEDCOM file
    /// runs 66 generations from its first emperor to its last, and was once cut at 64 ("not related").
    @Test func aLongLineIsFollowedToItsEnd() throws {
        let calculator = try Self.line(generations: 150)
        let last = calculator.graph.members.count - 1
        let (found, isComplete) = calculator.search(from: 0, to: last)
        #expect(found.first?.kind == .descendant(generations: 149))
        #expect(isComplete)
        #expect(calculator.relationships(from: last, to: 0).first?.english == "147th great-grandparent")
        #expect(calculator.closestRelationships(from: last, toEach: [0, 75, last]).map { $0?.kind } == [.ancestor(generations: 149), .ancestor(generations: 74), .same])
    }

    /// Lines that rejoin at every generation (each person a child of the two before) hold
    /// ancestors by the square of the generations: the search stops at its budget and says it
    /// did not finish, rather than "not related" or taking minutes.
    @Test func aLadderOfLinesStopsAtTheBudgetAndSaysSo() throws {
        let calculator = try Self.line(generations: 3_200, ladder: true)
        let last = calculator.graph.members.count - 1
        let near = calculator.search(from: 10, to: 30)
        #expect(near.isComplete)
        #expect(near.relationships.first?.kind == .descendant(generations: 10))
        let far = calculator.search(from: 0, to: last)
        #expect(!far.isComplete)
        #expect(far.relationships.isEmpty)
        // The short way stops as soon as nothing closer can come: the near ones are found whole.
        #expect(calculator.closestRelationships(from: last, toEach: [last - 1, last - 2, last - 40]).map { $0?.kind } == [.ancestor(generations: 1), .ancestor(generations: 1), .ancestor(generations: 20)])
    }

    /// A couple with thousands of children, one of whom married: everyone's relationship to one
    /// child, and to the parents, read their side only (the parents' 3,000 children were walked,
    /// and the child's 2,999 brothers and sisters gathered, again for every relative).
    @Test func aFamilyOfThousandsIsRelatedFromEverySide() throws {
        let count = 3_000
        let members = (0..<count).map { #"{"id": "c\#($0)", "firstName": "C\#($0)"}"# }
            + [#"{"id": "m", "firstName": "M"}"#, #"{"id": "f", "firstName": "F"}"#, #"{"id": "s", "firstName": "S"}"#, #"{"id": "k", "firstName": "K"}"#]
        let children = (0..<count).map { "\"c\($0)\"" }.joined(separator: ",")
        let json = #"{"members": [\#(members.joined(separator: ","))], "unions": [{"id": "u", "partners": ["m", "f"], "children": [\#(children)]}, {"id": "w", "partners": ["c7", "s"], "children": ["k"]}]}"#
        let calculator = RelationshipCalculator(try FamilyGraph(json: Array(json.utf8), file: "family.json"))
        let graph = calculator.graph
        let everyone = Array(graph.members.indices)
        let index = { (id: String) in graph.index(of: id)! }
        let fromChild = calculator.closestRelationships(from: index("c0"), toEach: everyone)
        #expect((1..<count).allSatisfy { fromChild[index("c\($0)")]?.kind == .sibling })
        #expect(fromChild[index("m")]?.kind == .ancestor(generations: 1))
        #expect(fromChild[index("s")]?.kind == .siblingInLaw, "a brother's wife")
        #expect(fromChild[index("k")]?.kind == .siblingsDescendant(generations: 1))
        let fromParent = calculator.closestRelationships(from: index("m"), toEach: everyone)
        #expect((0..<count).allSatisfy { fromParent[index("c\($0)")]?.kind == .descendant(generations: 1) })
        #expect(fromParent[index("s")]?.kind == .childInLaw && fromParent[index("k")]?.kind == .descendant(generations: 2))
        #expect(calculator.relationships(from: index("s"), toEach: [index("c3"), index("m")]).map { $0.first?.kind } == [.siblingInLaw, .parentInLaw])
    }
}
