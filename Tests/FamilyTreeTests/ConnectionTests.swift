import Testing
@testable import FamilyTree

/// People joined only through marriages (or a child's two unmarried parents): the chain from A's
/// side, the shortest by marriages first, and the lines a relationship chart draws for it.
@Suite struct ConnectionTests {
    /// Anton married Wilma; her sister Sara married Hugo (son of Hans) and then Quirin, Wilma's first
    /// cousin; Anton's son Carl married Dora, daughter of Dieter. Xaver is also a parent (a
    /// cross-bloodline link) of Kai, the son of Karla and Kurt; Karla later married Kilian. Stella
    /// raises Simon as her step-son; he married Sofia. Zeno is joined to nobody.
    static let graph = try! FamilyGraph(json: Array(#"""
        {"members": [
          {"id": "a", "firstName": "Anton", "sex": "male"}, {"id": "w", "firstName": "Wilma", "sex": "female"},
          {"id": "c", "firstName": "Carl", "sex": "male"}, {"id": "d", "firstName": "Dora", "sex": "female"},
          {"id": "df", "firstName": "Dieter", "sex": "male"}, {"id": "dm", "firstName": "Doris", "sex": "female"},
          {"id": "wp", "firstName": "Walter", "sex": "male"}, {"id": "wm", "firstName": "Wanda", "sex": "female"},
          {"id": "s", "firstName": "Sara", "sex": "female"}, {"id": "h", "firstName": "Hugo", "sex": "male"},
          {"id": "hf", "firstName": "Hans", "sex": "male"},
          {"id": "gp", "firstName": "Gustav", "sex": "male"}, {"id": "gm", "firstName": "Gisela", "sex": "female"},
          {"id": "u", "firstName": "Ulrich", "sex": "male"},
          {"id": "q", "firstName": "Quirin", "sex": "male"},
          {"id": "k", "firstName": "Kai", "sex": "male"}, {"id": "k1", "firstName": "Karla", "sex": "female"},
          {"id": "k2", "firstName": "Kurt", "sex": "male"}, {"id": "x", "firstName": "Xaver", "sex": "male"},
          {"id": "z", "firstName": "Zeno"},
          {"id": "sp", "firstName": "Stella", "sex": "female"}, {"id": "sc", "firstName": "Simon", "sex": "male"},
          {"id": "sw", "firstName": "Sofia", "sex": "female"}, {"id": "k1h", "firstName": "Kilian", "sex": "male"}
        ],
        "unions": [
          {"id": "aw", "partners": ["a", "w"], "children": ["c"]},
          {"id": "cd", "partners": ["c", "d"]},
          {"id": "dd", "partners": ["df", "dm"], "children": ["d"]},
          {"id": "gg", "partners": ["gp", "gm"], "children": ["wp", "u"]},
          {"id": "ww", "partners": ["wp", "wm"], "children": ["w", "s"]},
          {"id": "uu", "partners": ["u"], "children": ["q"]},
          {"id": "sh", "partners": ["s", "h"], "divorce": "1990"},
          {"id": "sq", "partners": ["s", "q"]},
          {"id": "hh", "partners": ["hf"], "children": ["h"]},
          {"id": "kk", "partners": ["k1", "k2"], "children": ["k"]},
          {"id": "kh", "partners": ["k1", "k1h"]},
          {"id": "step", "partners": ["sp"], "children": [{"id": "sc", "kind": "step"}]},
          {"id": "scw", "partners": ["sc", "sw"]}
        ],
        "crossBloodlineConnections": [{"id": "l", "fromChild": "k", "toNewParent": "x"}]}
        """#.utf8), file: "connections.json")
    let calculator = RelationshipCalculator(Self.graph)

    func at(_ id: String) -> Int { Self.graph.index(of: id)! }

    func chain(_ a: String, _ b: String) -> Connection? { calculator.connection(from: at(a), to: at(b)) }

    @Test(arguments: [
        ("a", "h", "sister-in-law's former husband", 2),
        ("a", "hf", "sister-in-law's former husband's father", 2),
        ("a", "df", "daughter-in-law's father", 1),
        ("df", "a", "son-in-law's father", 1),
        // Fewer marriages first: Quirin is also Sara's husband (two marriages, four steps), but one
        // marriage and five steps make him Anton's wife's first cousin.
        ("a", "q", "wife's first cousin", 1),
        // A child's other parent, never married to this one: a new stretch, not a blood tie.
        ("x", "k1", "son's mother", 0),
        ("k1", "x", "son's father", 0),
        // After a child's other parent, her husband: the son's stepfather (his father is Kurt).
        ("x", "k1h", "son's stepfather", 1),
        // A step family recorded as such: a join of its own.
        ("sp", "sc", "stepson", 0),
        ("sp", "sw", "stepson's wife", 1),
        ("sw", "sp", "husband's stepmother", 1),
    ])
    func theShortestChainInWords(a: String, b: String, words: String, marriages: Int) throws {
        // These are not related by blood or one marriage: the chain is what there is to say.
        #expect(calculator.relationships(from: at(a), to: at(b)).isEmpty)
        let connection = try #require(chain(a, b))
        #expect(connection.english == words)
        #expect(connection.marriages == marriages)
        #expect(connection.links.last?.member == at(b))
    }

    @Test func eachLinkNamesThePersonReachedAndHowTheyAreRelatedToThePersonBefore() throws {
        let connection = try #require(chain("a", "h"))
        #expect(connection.links.map { Self.graph.members[$0.member].id } == ["w", "s", "h"])
        // Everyone on the way: Wilma's and Sara's father between them.
        #expect(connection.path.map { Self.graph.members[$0].id } == ["a", "w", "wp", "s", "h"])
        #expect(connection.joins == Connection.Joins(marriages: 2))
        #expect(try #require(chain("x", "k1h")).joins.english == "a marriage and a child's two parents")
        #expect(try #require(chain("sp", "sw")).joins.english == "a marriage and a step family")
        #expect(connection.links.map(\.relationship.kind) == [.spouse(former: false), .sibling, .spouse(former: true)])
    }

    /// A blood tie of one generation, or a sibling, beside a marriage is said the short way; a
    /// former spouse's and a half-sibling's are not.
    @Test func pairsWithAWordOfTheirOwnAreFolded() {
        func words(_ kinds: [(Relationship.Kind, Sex?, half: Bool)]) -> String {
            Connection(links: kinds.enumerated().map { index, kind in
                var relationship = Relationship(kind: kind.0, sex: kind.1)
                relationship.isHalf = kind.half
                return Connection.Link(member: index, relationship: relationship)
            }).english
        }
        #expect(words([(.spouse(former: false), .female, false), (.ancestor(generations: 1), .male, false)]) == "father-in-law")
        #expect(words([(.ancestor(generations: 1), .male, false), (.spouse(former: false), .female, false)]) == "stepmother")
        #expect(words([(.spouse(former: false), .male, false), (.descendant(generations: 1), .female, false)]) == "stepdaughter")
        #expect(words([(.sibling, .male, false), (.spouse(former: false), .female, false), (.ancestor(generations: 2), nil, false)]) == "sister-in-law's grandparent")
        #expect(words([(.spouse(former: true), .female, false), (.ancestor(generations: 1), .male, false)]) == "former wife's father")
        #expect(words([(.sibling, .female, true), (.spouse(former: false), .male, false)]) == "half-sister's husband")
        #expect(words([(.spouse(former: false), .male, false), (.spouse(former: false), .female, false)]) == "husband's wife")
    }

    /// Labels say a chain of up to `maximumLinks` links in full, a longer one by what joins it,
    /// without making it.
    @Test func wordsForLabelsStopAtTheMostLinks() {
        let words = calculator.connectionWords(from: at("a"), toEach: [at("hf"), at("z"), at("q")], maximumLinks: 3)
        #expect(words == ["connected through 2 marriages", nil, "wife's first cousin"])
        #expect(calculator.connectionWords(from: at("a"), toEach: [at("hf")], maximumLinks: 4) == ["sister-in-law's former husband's father"])
    }

    /// Joins that open a round at very different counts of steps: the walk goes from one to the
    /// next without stepping through the counts between (a line of 2,000 generations between two
    /// chains of marriages), and still takes the chain with the fewest joins.
    @Test func joinsFarApartInStepsAreTakenInOrder() throws {
        var members = [#"{"id": "a"}"#], unions: [String] = []
        let line = 2_000, chain = 50
        for index in 1...line {
            members.append(#"{"id": "d\#(index)"}"#)
            unions.append(#"{"id": "l\#(index)", "partners": ["\#(index == 1 ? "a" : "d\(index - 1)")"], "children": ["d\#(index)"]}"#)
        }
        for (head, prefix) in [("a", "s"), ("d\(line)", "t")] {
            for index in 1...chain {
                members.append(#"{"id": "\#(prefix)\#(index)"}"#)
                unions.append(#"{"id": "m\#(prefix)\#(index)", "partners": ["\#(index == 1 ? head : "\(prefix)\(index - 1)")", "\#(prefix)\#(index)"]}"#)
            }
        }
        let graph = try FamilyGraph(json: Array(#"{"members": [\#(members.joined(separator: ","))], "unions": [\#(unions.joined(separator: ","))]}"#.utf8))
        let calculator = RelationshipCalculator(graph)
        let far = try #require(calculator.connection(from: 0, to: graph.index(of: "t\(chain)")!))
        #expect(far.links.count == chain + 1 && far.marriages == chain)
        #expect(far.links[0].relationship.kind == .descendant(generations: line))
        #expect(far.path.count == line + chain + 1)
        let near = try #require(calculator.connection(from: 0, to: graph.index(of: "s\(chain)")!))
        #expect(near.marriages == chain && near.path.count == chain + 1)
    }

    @Test func generationsAboveEachMakeAKind() {
        #expect(Relationship.Kind(ancestorAbove: 0, andAbove: 0) == .same)
        #expect(Relationship.Kind(ancestorAbove: 2, andAbove: 0) == .ancestor(generations: 2))
        #expect(Relationship.Kind(ancestorAbove: 0, andAbove: 3) == .descendant(generations: 3))
        #expect(Relationship.Kind(ancestorAbove: 1, andAbove: 1) == .sibling)
        #expect(Relationship.Kind(ancestorAbove: 1, andAbove: 3) == .siblingsDescendant(generations: 2))
        #expect(Relationship.Kind(ancestorAbove: 3, andAbove: 1) == .ancestorsSibling(generations: 2))
        #expect(Relationship.Kind(ancestorAbove: 3, andAbove: 5) == .cousin(degree: 2, removed: 2))
        #expect(Relationship.Kind(ancestorAbove: -1, andAbove: 2) == .descendant(generations: 2), "below 0 is 0")
    }

    @Test func nobodyJoinedMeansNoChain() {
        #expect(chain("a", "z") == nil)
        #expect(chain("z", "a") == nil)
        #expect(chain("a", "a") == nil)
        // One walk answers many: in the members' order, nil for A and for the unjoined.
        let many = calculator.connections(from: at("a"), toEach: [at("h"), at("z"), at("a"), at("df")])
        #expect(many.map { $0?.english } == ["sister-in-law's former husband", nil, nil, "daughter-in-law's father"])
    }

    @Test func theChartDrawsEachStretchOfBloodAndEachMarriage() throws {
        let lines = try #require(Self.graph.relationshipLines(from: at("a"), to: at("hf")))
        #expect(Set(lines.members.map(\.id)) == ["a", "w", "wp", "wm", "s", "h", "hf"])
        let coParents = try #require(Self.graph.relationshipLines(from: at("x"), to: at("k1")))
        #expect(Set(coParents.members.map(\.id)) == ["x", "k", "k1"])
        #expect(Self.graph.relationshipLines(from: at("a"), to: at("z")) == nil)
    }

    /// Lines that rejoin at every generation (each person a child of the two before) make every
    /// blood search costly: a chart's labels of thousands of chains share one budget, and past it
    /// a stretch is said by its shape, the same words where the search would have found them.
    @Test func aLadderOfChainsSharesOneBudget() throws {
        let calculator = try RelationshipTests.line(generations: 3_200, ladder: true)
        let everyone = Array(calculator.graph.members.indices)
        // The shortest way down to p(k) takes every second generation: (k + 1) / 2 steps.
        let expected = everyone.dropFirst().map { [Relationship.Kind.descendant(generations: ($0 + 1) / 2)] }
        // A budget a tenth of a chart's (this is a debug build): the first few searched, the rest by shape.
        for budget in [0, RelationshipCalculator.everyoneBudget / 10] {
            let chains = calculator.connections(from: 0, toEach: everyone, budget: budget)
            #expect(chains[0] == nil)
            #expect(everyone.dropFirst().map { chains[$0]?.links.map(\.relationship.kind) } == expected, "budget \(budget)")
        }
    }

    /// A chain of 10,000 marriages, each husband the brother of the wife before, is found in one
    /// walk of the tree (not a search per person).
    @Test func aLongChainIsFoundInOneWalk() throws {
        var members: [String] = [], unions: [String] = []
        let length = 20_000
        for index in 0..<length {
            members.append(#"{"id": "m\#(index)", "sex": "\#(index % 2 == 0 ? "male" : "female")"}"#)
            // m0 married m1, whose brother m2 married m3, whose brother m4 ...
            if index % 2 == 1 {
                unions.append(#"{"id": "u\#(index)", "partners": ["m\#(index - 1)", "m\#(index)"]}"#)
                if index + 1 < length {
                    members.append(#"{"id": "p\#(index)"}, {"id": "q\#(index)"}"#)
                    unions.append(#"{"id": "f\#(index)", "partners": ["p\#(index)", "q\#(index)"], "children": ["m\#(index)", "m\#(index + 1)"]}"#)
                }
            }
        }
        let graph = try FamilyGraph(json: Array(#"{"members": [\#(members.joined(separator: ","))], "unions": [\#(unions.joined(separator: ","))]}"#.utf8))
        let connection = try #require(RelationshipCalculator(graph).connection(from: graph.index(of: "m0")!, to: graph.index(of: "m\(length - 1)")!))
        #expect(connection.links.count == length - 1)
        #expect(connection.marriages == length / 2)
        // Compared in part: a failure should not print 200 KB of words.
        #expect(connection.english.prefix(34) == "brother-in-law's brother-in-law's ")
        #expect(connection.english.suffix(21) == "brother-in-law's wife")
    }
}
