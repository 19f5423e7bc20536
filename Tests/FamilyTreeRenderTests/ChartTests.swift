import FamilyTree
import FamilyTreeLayout
@testable import FamilyTreeRender
import Testing

/// `Chart`: one value from which every format is drawn, as the command line, a server or an app
/// would ask for it.
@Suite struct ChartTests {
    static let png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

    /// Grandparents, their son and his wife, and two grandchildren; the grandchildren are living.
    static func family() throws -> FamilyGraph {
        var members = [
            Member(id: "opa", firstName: "Karl", lastName: "Berg", sex: .male), Member(id: "oma", firstName: "Greta", lastName: "Berg", sex: .female),
            Member(id: "vater", firstName: "Hans", lastName: "Berg", sex: .male), Member(id: "mutter", firstName: "Ilse", lastName: "Berg", sex: .female),
            Member(id: "tochter", firstName: "Lena", lastName: "Berg", sex: .female), Member(id: "sohn", firstName: "Paul", lastName: "Berg", sex: .male),
        ]
        for index in 0..<4 { members[index].deathDate = PartialDate("1990") }
        members[4].birthday = PartialDate("2001-05-06")
        members[5].photo = "photos/paul.png"
        members[4].photo = png
        let unions = [
            Union(id: "u1", partners: ["opa", "oma"], children: [ChildLink("vater")]),
            Union(id: "u2", partners: ["vater", "mutter"], children: [ChildLink("tochter"), ChildLink("sohn")]),
        ]
        return try FamilyGraph(members: members, unions: unions)
    }

    static let today = CalendarDate.dayNumber(year: 2026, month: 11, day: 25)

    func text(_ chart: Chart) throws -> String {
        var output = CollectedOutput()
        try chart.render(to: &output)
        return output.text
    }

    /// Each format the chart writes is what its renderer writes for the same tree, labels and layout.
    @Test func everyFormatIsItsRenderersOutput() throws {
        let graph = try Self.family()
        let labeler = Labeler(today: Self.today)
        let layout = LayeredLayout(labeler: labeler, direction: .topDown).place(graph)
        var chart = Chart(graph: graph, format: .svg, today: Self.today)
        chart.direction = .topDown
        chart.photos = .embedded
        #expect(try text(chart) == SVGRenderer(labeler: labeler).render(layout, of: graph))
        chart.format = .layoutJSON
        #expect(try text(chart) == LayoutJSONWriter.render(layout, of: graph))
        chart.format = .dotPositioned
        #expect(try text(chart) == DOTWriter(labeler: labeler).positioned(layout, of: graph))
        chart.format = .dot
        #expect(try text(chart) == DOTWriter(labeler: labeler).structure(graph, direction: .topDown))
        #expect(try chart.drawing().layout == nil, "structure DOT is laid out by Graphviz")
        chart.format = .html
        #expect(try text(chart) == HTMLRenderer(labeler: labeler, today: Self.today).render(layout, of: graph))
    }

    /// Our engine sketches a tree's shape with its first start (no search), where the search would
    /// run; the chart under `--fit auto` is the one the full layouts choose.
    @Test func ourEngineSketchesTheShapeWithItsFirstStart() throws {
        // A couple with fourteen children: a strip that columns turn into a page.
        var members = [Member(id: "p", firstName: "P"), Member(id: "q", firstName: "Q")]
        members += (0..<14).map { Member(id: "c\($0)", firstName: "C\($0)") }
        let graph = try FamilyGraph(members: members, unions: [Union(id: "u", partners: ["p", "q"], children: (0..<14).map { ChildLink("c\($0)") })])
        let labeler = Labeler(today: Self.today)
        let sketch = try #require(ChartEngine.familytree.sketch?(graph, labeler, .leftRight))
        var firstStart = LayeredLayout(labeler: labeler, direction: .leftRight)
        firstStart.options.startingOrderBudget = 0
        #expect(sketch.layout == firstStart.place(graph))
        let full = LayeredLayout(labeler: labeler, direction: .leftRight).place(graph)
        #expect(sketch.finish() == full)
        #expect(ChartEngine.familytree(lastStage: .ordering).sketch?(graph, labeler, .topDown) == nil)
        // Beyond the search's budget the full layout is the first start: no sketch.
        let budget = LayeredLayout().options.startingOrderBudget
        let large = try FamilyGraph(members: (0...budget).map { Member(id: "m\($0)", firstName: "M") })
        #expect(ChartEngine.familytree.sketch?(large, labeler, .topDown) == nil)
        let chart = Chart(graph: graph, format: .svg, today: Self.today)
        #expect(try chart.drawing().layout == full)
    }

    /// Around a person: other formats draw only their part and mark them; a page draws everyone
    /// and opens on them.
    @Test func aChartAroundAPersonCutsOrOpens() throws {
        var chart = Chart(graph: try Self.family(), format: .svg, today: Self.today)
        chart.extent = .around("tochter", generations: 1, siblings: false)
        let prepared = try chart.prepare()
        #expect(prepared.graph.members.map(\.id).sorted() == ["mutter", "tochter", "vater"])
        #expect(prepared.highlighted == "tochter" && prepared.openOn == nil)
        chart.format = .html
        let page = try chart.prepare()
        #expect(page.graph.members.count == 6 && page.openOn == "tochter" && page.highlighted == nil)
        chart.extent = .around("nobody", generations: 1, siblings: true)
        #expect(throws: ChartError.unknownMember("nobody")) { try chart.prepare() }
    }

    /// The person a chart is drawn around is outlined and their name is never cut, however long;
    /// everyone else's name is cut after three lines.
    @Test func theOutlinedPersonsNameIsNeverCut() throws {
        let longName = Array(repeating: "Bartholomew", count: 20).joined(separator: " ")
        var graph = try Self.family()
        var members = graph.members
        members[4].firstName = longName
        members[5].firstName = longName
        graph = try FamilyGraph(document: TreeDocument(members: members, unions: graph.unions))
        var chart = Chart(graph: graph, format: .svg, today: Self.today)
        chart.extent = .around("tochter", generations: 1, siblings: true)
        let prepared = try chart.prepare()
        let outlined = prepared.labeler.text(for: prepared.graph.member("tochter")!).name
        #expect(outlined.count > Labeler.maximumNameLines)
        #expect(outlined.joined(separator: " ") == longName + " Berg", "every word kept")
        let other = prepared.labeler.text(for: prepared.graph.member("sohn")!).name
        #expect(other.count == Labeler.maximumNameLines && other.last!.hasSuffix("…"))
        // The box grows with the name, and the SVG has every line of it.
        let svg = try text(chart)
        for line in outlined { #expect(svg.contains(">\(line)</text>"), "\(line)") }
        let layout = try chart.drawing().layout!
        let box = layout.boxes[prepared.graph.index(of: "tochter")!]
        #expect(box.height == 48 + 16 * Double(outlined.count - 1), "the name's lines and the years")
        // Hostile input stays a box: a name of 10,000 words stops at `unabridgedNameLines`.
        var labeler = Labeler()
        labeler.unabridged = ["x"]
        let endless = labeler.text(for: Member(id: "x", firstName: String(repeating: "Bart ", count: 10_000))).name
        #expect(endless.count == Labeler.unabridgedNameLines && endless.last!.hasSuffix("…"))
    }

    /// A relationship chart draws the lines of blood through common ancestors, so its labels name
    /// the blood relationship first: Queen Victoria's husband Albert was her first cousin, drawn
    /// below their grandparents, and labelled "Husband" alone before.
    @Test func aRelationshipChartNamesTheBloodItDrawsBeforeAMarriage() throws {
        let person = { (id: String, sex: Sex) in Member(id: id, firstName: id.capitalized, sex: sex) }
        let graph = try FamilyGraph(
            members: [person("francis", .male), person("augusta", .female), person("ernest", .male), person("louisa", .female),
                      person("edward", .male), person("albert", .male), person("victoria", .female)],
            unions: [Union(id: "grandparents", partners: ["francis", "augusta"], children: [ChildLink("ernest"), ChildLink("louisa")]),
                     Union(id: "coburg", partners: ["ernest"], children: [ChildLink("albert")]),
                     Union(id: "kent", partners: ["edward", "louisa"], children: [ChildLink("victoria")]),
                     Union(id: "marriage", partners: ["albert", "victoria"])]
        )
        var chart = Chart(graph: graph, format: .svg, today: Self.today)
        chart.extent = .relationship("victoria", "albert")
        chart.home = "victoria"
        chart.label = .relation
        let relations = try chart.prepare().labeler.relations
        #expect(relations["albert"] == "First cousin (husband)")
        #expect(relations["ernest"] == "Uncle (father-in-law)")
        #expect(relations["louisa"] == "Mother")
        #expect(relations["francis"] == "Grandfather")
        // Elsewhere a label says the closest relationship alone.
        chart.extent = .whole
        #expect(try chart.prepare().labeler.relations["albert"] == "Husband")
    }

    /// Hidden people keep their places: the chart's marks and relation labels follow them under
    /// their new ids, and a relationship to a hidden person says no sex.
    @Test func privacyKeepsMarksAndLabelsAndHidesSex() throws {
        var chart = Chart(graph: try Self.family(), format: .svg, today: Self.today)
        chart.extent = .around("sohn", generations: 2, siblings: true)
        chart.home = "opa"
        chart.label = .relation
        chart.privacy = Chart.Privacy()
        let prepared = try chart.prepare()
        let hidden = try #require(prepared.graph.members.first { $0.id == prepared.highlighted })
        #expect(hidden.firstName == "Living" && hidden.sex == nil && hidden.photo == nil)
        #expect(prepared.labeler.relations[hidden.id] == "Grandchild")
        #expect(prepared.labeler.relations["vater"] == "Son", "the dead keep their words")
        let svg = try text(chart)
        #expect(!svg.contains("Paul") && !svg.contains("Lena") && !svg.contains("Grandson") && !svg.contains("Granddaughter"))
        // The home person need not be drawn: relations are read in the whole tree.
        chart.home = "opa"
        chart.privacy = nil
        chart.extent = .around("vater", generations: 0, siblings: false)
        let alone = try chart.prepare()
        #expect(!alone.graph.members.contains { $0.id == "opa" } && alone.labeler.relations["vater"] == "Son")
        chart.home = "nobody"
        #expect(throws: ChartError.unknownMember("nobody")) { try chart.prepare() }
    }

    /// Photos: data URLs by default, none, or whatever a resolver makes of each.
    @Test func photosComeAsTheChartSays() throws {
        var chart = Chart(graph: try Self.family(), format: .svg, today: Self.today)
        #expect(try chart.prepare().graph.members.compactMap(\.photo) == [Self.png], "a path is left out by default")
        chart.photos = .none
        #expect(try chart.prepare().graph.members.compactMap(\.photo).isEmpty)
        chart.photos = .resolved { photo, index, graph in
            photo.hasPrefix("photos/") ? Self.png : graph.members[index].id == "tochter" ? nil : photo
        }
        let resolved = try chart.prepare().graph
        #expect(resolved.member("sohn")?.photo == Self.png && resolved.member("tochter")?.photo == nil)
        #expect(try text(chart).components(separatedBy: "<image ").count - 1 == 1)
    }
}

/// A layout drawn with a graph it was not made of is an error, not an out-of-range crash.
@Suite struct LayoutMismatchTests {
    @Test func everyWriterRefusesALayoutOfAnotherTree() throws {
        let big = try ChartTests.family()
        let small = try FamilyGraph(members: [Member(id: "solo", firstName: "Solo")], unions: [])
        let layout = LayeredLayout().place(big)
        #expect(throws: LayoutMismatch.self) { try SVGRenderer().render(layout, of: small) }
        #expect(throws: LayoutMismatch.self) { try HTMLRenderer().render(layout, of: small) }
        #expect(throws: LayoutMismatch.self) { try LayoutJSONWriter.render(layout, of: small) }
        #expect(throws: LayoutMismatch.self) { try DOTWriter().positioned(layout, of: small) }
        var output = CollectedOutput()
        #expect(throws: LayoutMismatch.self) { try SVGRenderer().render(layout, of: small, to: &output) }
        #expect(output.bytes.isEmpty, "nothing written before the check")
        do {
            _ = try SVGRenderer().render(layout, of: small)
        } catch {
            #expect(error.description.hasPrefix("the layout was not made of this graph: box "))
        }
        // Its own graph fits.
        #expect(throws: Never.self) { try layout.check(against: big) }
    }
}
