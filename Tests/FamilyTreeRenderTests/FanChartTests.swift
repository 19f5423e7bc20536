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

    @Test func aFanIsSVGOrAPageOfItsOwn() throws {
        var chart = Chart(graph: try Paths.exampleGraph(), format: .dot, today: 0)
        chart.extent = .fan("jonas", generations: 3)
        #expect(throws: ChartError.fanIsSVG(.dot)) { try chart.drawing() }
        chart.format = .layoutJSON
        #expect(throws: ChartError.fanIsSVG(.layoutJSON)) { try chart.drawing() }
    }

    /// As HTML: a page with the SVG inline (no XML declaration inside it), titled by the person,
    /// on the theme's background; a hostile name stays text in the page's title too.
    @Test func anHTMLPageHoldsTheSameFan() throws {
        func page(_ graph: FamilyGraph, of id: String, theme: SVGRenderer.Theme = .light) throws -> String {
            var chart = Chart(graph: graph, format: .html, today: 0)
            chart.extent = .fan(id, generations: 4)
            chart.theme = theme
            var output = CollectedOutput()
            try chart.render(to: &output)
            return output.text
        }
        let example = try Paths.exampleGraph()
        let html = try page(example, of: "jonas")
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<title>Fan chart of Jonas Müller</title>"))
        #expect(!html.contains("<?xml") && html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"family-tree fan-chart\""))
        // The same wedges as the SVG.
        let svg = try chart(of: "jonas", generations: 4)
        #expect(html.components(separatedBy: "class=\"wedge").count == svg.components(separatedBy: "class=\"wedge").count)
        #expect(html.contains("html { background: #ffffff; }") && !html.contains("prefers-color-scheme: dark) { html"))
        #expect(try page(example, of: "jonas", theme: .auto).contains("@media (prefers-color-scheme: dark) { html { background: #14171f; } }"))

        let hostile = try FamilyGraph(json: Array(#"{"members": [{"id": "kid", "firstName": "</title><script>alert(1)</script>"}]}"#.utf8), file: "hostile.json")
        let hostilePage = try page(hostile, of: "kid")
        #expect(!hostilePage.contains("<script") && hostilePage.contains("<title>Fan chart of &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"))
    }

    /// The person the fan is drawn around is never cut where their name can fit: it takes more
    /// lines, and a smaller size, in the half disc (before, "George WASHINGT…").
    @Test func theMiddlePersonsWholeNameIsShown() throws {
        let name = "George WASHINGTON [FIRST U.S. PRESIDENT]"
        let graph = try FamilyGraph(json: Array("""
            {"members": [{"id": "kid", "firstName": "\(name)"},
              {"id": "dad", "firstName": "Augustine", "sex": "male"}, {"id": "mum", "firstName": "Mary", "sex": "female"}],
             "unions": [{"id": "u", "partners": ["dad", "mum"], "children": ["kid"]}]}
            """.utf8), file: "president.json")
        let svg = try chart(of: "kid", generations: 3, in: graph)
        // The middle's lines are the only text placed by x (the rings' are turned in groups).
        let middle = svg.components(separatedBy: "<text class=\"name\" x=\"").dropFirst()
            .map { $0.components(separatedBy: ">")[1].components(separatedBy: "</text")[0] }
        #expect(middle.count >= 2, "\(middle)")
        #expect(middle.joined(separator: " ") == name)

        let radius = FanChartRenderer.centreRadius
        for text in [name, "Maximilian Alexander Ferdinand Karl von Habsburg-Lothringen", "Jo"] {
            let (size, lines) = FanChartRenderer.centreName(text, radius: radius)
            #expect(lines.joined(separator: " ") == text, "\(text): \(lines)")
            #expect(size >= 8 && size <= 14)
            // Each line fits the disc where it stands: its top's height above the base.
            for (index, line) in lines.enumerated() {
                let top = FanChartRenderer.centreBaseline(line: index, of: lines.count, size: size) + size * 0.8
                #expect(Labeler.textWidth(line, fontSize: size) <= 2 * (radius * radius - top * top).squareRoot(), "\(text): \(line)")
            }
        }
        #expect(FanChartRenderer.centreName("Jo", radius: radius).size == 14, "a short name keeps the full size")
        // Only a name that no size holds (one word of 60 letters) is cut.
        let word = String(repeating: "W", count: 60)
        #expect(FanChartRenderer.centreName(word, radius: radius).lines.first?.hasSuffix("…") == true)
    }

    /// In the wide wedges of the third ring a long name takes two lines, or three where two would
    /// cut it, its years below, before it is cut (Queen Victoria's fan cut "Elizabeth of Saxe-
    /// Hildburghausen Albertin"; this one is longer still).
    @Test func aLongNameInAWideOuterWedgeTakesMoreLines() throws {
        let long = "Elizabeth of Saxe-Hildburghausen Albertine"
        let graph = try FamilyGraph(json: Array("""
            {"members": [{"id": "kid", "firstName": "Kid"}, {"id": "dad", "firstName": "Dad", "sex": "male"},
              {"id": "mum", "firstName": "Mum", "sex": "female"}, {"id": "gd", "firstName": "Grandad", "sex": "male"},
              {"id": "gm", "firstName": "Gran", "sex": "female"}, {"id": "ggd", "firstName": "Great", "sex": "male"},
              {"id": "ggm", "firstName": "\(long)", "sex": "female", "birthday": "1713", "deathDate": "1761"}],
             "unions": [{"id": "u1", "partners": ["dad", "mum"], "children": ["kid"]},
                        {"id": "u2", "partners": ["gd", "gm"], "children": ["dad"]},
                        {"id": "u3", "partners": ["ggd", "ggm"], "children": ["gd"]}]}
            """.utf8), file: "wide.json")
        let svg = try chart(of: "kid", generations: 4, in: graph)
        #expect(!svg.contains("…"), "nothing is cut")
        let group = try #require(svg.components(separatedBy: "<g transform=").first { $0.contains("Hildburghausen") })
        let lines = group.components(separatedBy: "<text class=\"name\"").dropFirst()
            .map { $0.components(separatedBy: ">")[1].components(separatedBy: "</text")[0] }
        #expect(lines.count >= 2 && lines.joined(separator: " ") == long, "\(lines)")
        #expect(group.contains(">1713–1761</text>"))
    }

    /// A long name's split is chosen from each space's two sides measured in one pass (a name of
    /// 10,000 words took 4.6 s to draw, measuring both sides at every space); the split is the one
    /// measuring each side on its own picks.
    @Test func wrappingMeasuresEachSplitAsItsTwoLinesMeasure() throws {
        func slowWrapped(_ text: String, fontSize: Double, limit: Double) -> [String] {
            guard Labeler.textWidth(text, fontSize: fontSize) > limit else { return [text] }
            let splits = text.indices.filter { text[$0] == " " }.map { index in
                (index: index, left: Labeler.textWidth(String(text[..<index]), fontSize: fontSize),
                 right: Labeler.textWidth(String(text[text.index(after: index)...]), fontSize: fontSize))
            }
            let fitting = splits.filter { $0.left <= limit && $0.right <= limit }
            guard let split = (fitting.isEmpty ? splits : fitting).min(by: { abs($0.left - $0.right) < abs($1.left - $1.right) })?.index else {
                return [Labeler.shortened(text, fontSize: fontSize, limit: limit)]
            }
            return [String(text[..<split]), String(text[text.index(after: split)...])].map { Labeler.shortened($0, fontSize: fontSize, limit: limit) }
        }
        /// A fixed sequence, so every run tries the same names.
        struct Seeded: RandomNumberGenerator {
            var state: UInt64
            mutating func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
        }
        var generator = Seeded(state: 34)
        let pieces = ["Anne", "of", "Saxe-", "Coburg", "WÜRTTEMBERG", "李", "e\u{301}", "I", "mm", "[Sir]", "Ōtomo"]
        for _ in 0..<300 {
            let name = (0..<Int.random(in: 1...9, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: " ")
            let limit = Double.random(in: 20...200, using: &generator)
            // The same split, or one as even (the two ways of adding widths round differently,
            // and "Anne of Anne" has two splits equally even).
            let (fast, slow) = (FanChartRenderer.wrapped(name, fontSize: 11.5, limit: limit), slowWrapped(name, fontSize: 11.5, limit: limit))
            func imbalance(_ lines: [String]) -> Double {
                lines.count == 2 ? abs(Labeler.textWidth(lines[0], fontSize: 11.5) - Labeler.textWidth(lines[1], fontSize: 11.5)) : 0
            }
            #expect(fast == slow || (fast.count == 2 && slow.count == 2 && abs(imbalance(fast) - imbalance(slow)) < 1e-9), "\(name), \(limit)")
        }
        let huge = Array(repeating: "ab", count: 10_000).joined(separator: " ")
        let lines = FanChartRenderer.wrapped(huge, fontSize: 11.5, limit: 138)
        #expect(lines.count == 2 && lines.allSatisfy { Labeler.textWidth($0, fontSize: 11.5) <= 138 })
    }

    /// A hostile name long enough to wrap, in the middle and in a wide outer wedge, stays text on
    /// every line it is split onto.
    @Test func aHostileNameWrappedOntoLinesStaysText() throws {
        let hostile = #"</text><script>alert("x")</script> & O'Brien \\ of Saxe-Hildburghausen-Albertine the Elder"#
        let escaped = hostile.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let graph = try FamilyGraph(json: Array("""
            {"members": [{"id": "kid", "firstName": "\(escaped)"}, {"id": "dad", "firstName": "Dad", "sex": "male"},
              {"id": "mum", "firstName": "Mum", "sex": "female"}, {"id": "gd", "firstName": "Grandad", "sex": "male"},
              {"id": "gm", "firstName": "Gran", "sex": "female"}, {"id": "ggd", "firstName": "Great", "sex": "male"},
              {"id": "ggm", "firstName": "\(escaped)", "sex": "female"}],
             "unions": [{"id": "u1", "partners": ["dad", "mum"], "children": ["kid"]},
                        {"id": "u2", "partners": ["gd", "gm"], "children": ["dad"]},
                        {"id": "u3", "partners": ["ggd", "ggm"], "children": ["gd"]}]}
            """.utf8), file: "hostile.json")
        let svg = try chart(of: "kid", generations: 4, in: graph)
        #expect(!svg.contains("<script") && svg.contains("&lt;/text&gt;&lt;script&gt;"))
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
        // The name starts a text line in the middle and in its wedge (the title and label name the
        // middle person too, inside their own quoting).
        #expect(svg.components(separatedBy: ">&lt;/text&gt;&lt;script&gt;alert").count - 1 == 2)
        #expect(svg.contains("aria-label=\"Fan chart of &lt;/text&gt;&lt;script&gt;alert(&quot;x&quot;)"))
    }
}
