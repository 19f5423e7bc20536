import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeRender
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The fan chart: ancestors in Ahnentafel order, father left and mother right, upright text,
/// hostile names kept as text, the same bytes every time.
@Suite struct FanChartTests {
    func chart(of id: String, generations: Int, in graph: FamilyGraph? = nil) throws -> String {
        var chart = Chart(graph: try graph ?? Paths.exampleGraph(), format: .svg, today: CalendarDate.dayNumber(year: 2026, month: 11, day: 25))
        chart.extent = .fan(id, generations: generations)
        var output = CollectedOutput()
        try chart.render(to: &output)
        return output.text
    }

    @Test func ancestorsSitInTheirWedgesFatherLeftMotherRight() throws {
        let graph = try Paths.exampleGraph()
        let renderer = FanChartRenderer(generations: 4)
        let slots = renderer.slots(of: graph.index(of: "jonas")!, in: graph).map { $0.map { $0.map { graph.members[$0].id } ?? "-" } }
        #expect(slots == [
            ["jonas"], ["peter", "emily"], ["karl", "siobhan", "james", "liesel"],
            ["heinrich", "greta", "tomas", "aoife", "-", "-", "heinrich", "greta"],
        ])
        let svg = try chart(of: "jonas", generations: 4)
        // Heinrich and Greta are on both sides (Jonas's parents are cousins); unknown ancestors leave empty wedges.
        #expect(svg.components(separatedBy: "data-member=\"heinrich\"").count == 3)
        #expect(svg.components(separatedBy: "class=\"wedge empty\"").count - 1 == 2)
        #expect(svg.contains("Karl Friedrich Müller") && svg.contains("1915–1990"))
        #expect(try chart(of: "jonas", generations: 4) == svg, "the same bytes every time")
    }

    @Test func textIsNeverUpsideDown() throws {
        let svg = try chart(of: "jonas", generations: 10)
        let rotations = svg.components(separatedBy: "rotate(").dropFirst().compactMap { Double($0.prefix { $0 != ")" }) }
        #expect(!rotations.isEmpty && rotations.allSatisfy { (-90.0...90.0).contains($0) }, "\(rotations.filter { abs($0) > 90 })")
    }

    @Test func aHostileNameStaysText() throws {
        let graph = try FamilyGraph(json: Array(#"""
            {"members": [{"id": "kid", "firstName": "</text><script>alert(1)</script>"},
              {"id": "dad", "firstName": "Dad & \"Co\"", "sex": "male"}, {"id": "mum", "firstName": "Mum", "sex": "female"}],
             "unions": [{"id": "u", "partners": ["mum", "dad"], "children": ["kid"]}]}
            """#.utf8), file: "hostile.json")
        let svg = try chart(of: "kid", generations: 2, in: graph)
        #expect(!svg.contains("<script") && svg.contains("&lt;/text&gt;&lt;script&gt;"))
        // Father left even when the mother is recorded first.
        let renderer = FanChartRenderer(generations: 2)
        #expect(renderer.slots(of: 0, in: graph)[1].map { $0.map { graph.members[$0].id } } == ["dad", "mum"])
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    }

    @Test func aFanIsSVGOnly() throws {
        var chart = Chart(graph: try Paths.exampleGraph(), format: .dot, today: 0)
        chart.extent = .fan("jonas", generations: 3)
        #expect(throws: ChartError.fanIsSVG(.dot)) { try chart.drawing() }
    }
}
