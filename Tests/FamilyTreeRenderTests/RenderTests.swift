import Foundation
import Testing
import FamilyTree
import FamilyTreeLayout
@testable import FamilyTreeRender
#if canImport(FoundationXML)
import FoundationXML
import TestSupport
#endif

enum Paths {
    static let packageRoot = TestPaths.packageRoot
    static func example(_ name: String) -> URL { packageRoot.appendingPathComponent("examples/\(name)") }

    static func exampleGraph() throws -> FamilyGraph {
        try FamilyGraph(json: Array(try Data(contentsOf: example("family.json"))), file: "examples/family.json")
    }
}

/// Renders the way `familytree render` does with default options.
func renderSVG(_ graph: FamilyGraph, labeler: Labeler = Labeler()) -> String {
    // The layout is made of this graph: it always fits.
    try! SVGRenderer(labeler: labeler).render(LayeredLayout(labeler: labeler).place(graph), of: graph)
}

/// Whether the text parses as XML.
func isWellFormedXML(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
}

@Suite struct SVGRendererTests {
    /// The committed example SVG is what the renderer draws today, byte for byte.
    /// Re-record with `FAMILYTREE_RECORD=1 swift test --filter exampleSVGIsUpToDate`.
    @Test func exampleSVGIsUpToDate() throws {
        let svg = renderSVG(try Paths.exampleGraph())
        let golden = Paths.example("family.svg")
        if ProcessInfo.processInfo.environment["FAMILYTREE_RECORD"] == "1" {
            try svg.write(to: golden, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: golden, encoding: .utf8)
        #expect(svg == committed, "examples/family.svg is stale: re-record with FAMILYTREE_RECORD=1")
    }

    @Test func themesAreLightDarkOrTheSystems() throws {
        let graph = try Paths.exampleGraph()
        let layout = LayeredLayout().place(graph)
        let auto = try SVGRenderer(theme: .auto).render(layout, of: graph)
        let dark = try SVGRenderer(theme: .dark).render(layout, of: graph)
        #expect(auto.contains("@media (prefers-color-scheme: dark) {\n  .background { fill: #14171f; }"))
        #expect(!dark.contains("@media") && dark.contains(".background { fill: #14171f; }"))
        // Dark rules come after the light ones, so they win.
        let light = try #require(dark.range(of: ".background { fill: #ffffff; }")), darkRule = try #require(dark.range(of: ".background { fill: #14171f; }"))
        #expect(light.lowerBound < darkRule.lowerBound)
        for svg in [auto, dark] { #expect(isWellFormedXML(svg)) }
    }

    @Test func svgIsStandaloneAccessibleAndDeterministic() throws {
        let graph = try Paths.exampleGraph()
        let svg = renderSVG(graph)
        #expect(svg == renderSVG(graph))
        #expect(isWellFormedXML(svg))
        #expect(svg.contains("viewBox=\"0 0 "))
        #expect(!svg.contains("<script") && !svg.contains("href=\"http") && !svg.contains("xlink:href") && !svg.contains("@import"))
        // Light by default (a chart on a page must not turn dark with the reader's system).
        #expect(!svg.contains("prefers-color-scheme") && svg.contains(".background { fill: #ffffff; }"))
        for member in graph.members {
            #expect(svg.contains("data-member=\"\(member.id)\""))
        }
        #expect(svg.components(separatedBy: "<g id=\"m-").count - 1 == graph.members.count)
        #expect(svg.components(separatedBy: "<title>").count - 1 == graph.members.count)
        // Cross-bloodline members and lines are highlighted; Heinrich's own colour fills his box.
        #expect(svg.contains("<g id=\"m-tom\" class=\"member male cross-bloodline custom") || svg.contains("<g id=\"m-tom\" class=\"member male cross-bloodline\""))
        #expect(svg.contains("class=\"edge cross-bloodline\""))
        #expect(svg.contains("style=\"fill: #2f6f4f\""))
    }

    @Test func userStringsAreEscaped() throws {
        let hostile = "<script>alert(\"x\")</script> & 'co'"
        let graph = try FamilyGraph(members: [
            Member(id: "a\"><script>", firstName: hostile, lastName: "]]>", nickname: "<b>", notes: "<img onerror=x>"),
        ])
        for format in LabelFormat.allCases {
            let svg = renderSVG(graph, labeler: Labeler(format: format, today: 20_000))
            #expect(!svg.contains("<script"), "\(format)")
            #expect(!svg.contains("<b>"))
            #expect(svg.contains("&lt;script&gt;"))
            #expect(isWellFormedXML(svg))
        }
    }

    @Test func nameAgeLabelsFollowSeed000() throws {
        let graph = try Paths.exampleGraph()
        let labeler = Labeler(format: .nameAge, today: CalendarDate.dayNumber(year: 2026, month: 11, day: 22))
        #expect(labeler.lines(for: graph.member("chloe")!) == ["Coco • 42", "Feb 29, 1984"])
        #expect(labeler.lines(for: graph.member("heinrich")!) == ["Opa Heinrich • †72", "Mar 14, 1890"])
        #expect(labeler.lines(for: graph.member("tom")!) == ["Tom", "Jul 14"])
        #expect(labeler.lines(for: graph.member("mary")!) == ["Mary • ~101", "1924"])
        // Born longer ago than anyone lives, no death recorded: no age today; dead with no date: †.
        #expect(labeler.lines(for: Member(id: "old", firstName: "Frederick", birthday: PartialDate("1886-06-20"))) == ["Frederick", "Jun 20, 1886"])
        var phrase = Member(id: "p", firstName: "Otto", birthday: PartialDate("1960-06-22"))
        phrase.deathPhrase = "died young"
        #expect(labeler.lines(for: phrase) == ["Otto • †", "Jun 22, 1960"])
        let nameYears = Labeler()
        #expect(nameYears.lines(for: graph.member("karl")!) == ["Karl Friedrich Müller", "1915–1990"])
        #expect(nameYears.lines(for: graph.member("tom")!) == ["Tom Carter", "b. Jul 14"])
    }

    @Test func aLongNameWrapsOntoMoreLinesAndTheBoxGrowsBeforeAnythingIsCut() throws {
        let labeler = Labeler()
        var washington = Member(id: "w", firstName: "George", lastName: "Washington", birthday: PartialDate("1732"))
        washington.suffix = "[FIRST U.S. PRESIDENT]"
        let text = labeler.text(for: washington)
        #expect(text.name.count == 2, "\(text.name)")
        #expect(text.name.joined(separator: " ") == washington.fullName, "every word kept, none cut")
        #expect(!text.name.joined().contains("…"))
        #expect(text.name.allSatisfy { Labeler.textWidth($0, fontSize: 13) <= Labeler.maximumWidth - 24 })
        let size = labeler.boxSize(for: washington)
        #expect(size.height == 64 && size.width <= Labeler.maximumWidth, "a line taller for the name's second line")
        #expect(labeler.boxSize(for: Member(id: "y", firstName: "Al")) == Size(width: Labeler.minimumWidth, height: 48))

        // Six long words take three lines; twenty are cut on the third, with an ellipsis.
        let long = Member(id: "x", firstName: Array(repeating: "Bartholomew", count: 6).joined(separator: " "))
        #expect(labeler.text(for: long).name.count == 3)
        #expect(labeler.text(for: long).name.joined(separator: " ") == long.fullName)
        let longer = Member(id: "z", firstName: String(repeating: "Bartholomew ", count: 20))
        let cut = labeler.text(for: longer).name
        #expect(cut.count == Labeler.maximumNameLines && cut.last!.hasSuffix("…"))
        #expect(labeler.boxSize(for: longer).height == 48 + 16 * Double(Labeler.maximumNameLines - 2))
        // One word wider than a box breaks inside the word rather than being cut at once.
        let word = Member(id: "q", firstName: String(repeating: "W", count: 40))
        #expect(labeler.text(for: word).name.joined() == String(repeating: "W", count: 40))

        // Whitespace inside a name (a newline, a tab) reads as one space, never a line of its own;
        // a name of whitespace alone is no name.
        #expect(labeler.text(for: Member(id: "n", firstName: "Ann\n\tLee")).name == ["Ann Lee"])
        #expect(labeler.text(for: Member(id: "b", firstName: " \n ")).name == ["(no name)"])

        // In the SVG: both lines of the name, bold, inside the box, and the years under them.
        let graph = try FamilyGraph(document: TreeDocument(members: [washington]))
        let svg = try SVGRenderer().render(LayeredLayout(labeler: labeler).place(graph), of: graph)
        for line in text.name { #expect(svg.contains("<text class=\"name\"") && svg.contains(">\(line.replacingOccurrences(of: "&", with: "&amp;"))</text>")) }
        #expect(svg.components(separatedBy: "<text class=\"name\"").count - 1 == 2)
        #expect(svg.contains("<text class=\"detail\"") && svg.contains(">b. 1732</text>"))
    }

    @Test func theShortcutForPlainNamesTakesOnlyNamesThatSplittingWouldLeaveAlone() {
        let plain = ["Al", "Ann Lee", "O'Brien-Smith Jr.", "x\" onload=\"y", "A B C D"]
        let other = ["", " ", "Ann  Lee", " Ann", "Ann ", "Ann\tLee", "Ann\nLee", "Ann\u{7F}", "Ann\u{0}", "Zoë Ray", "Ann\u{A0}Lee", "Ann\u{2028}Lee"]
        for text in plain { #expect(Labeler.isPlainASCIIWords(text), "\(text.debugDescription)") }
        for text in other { #expect(!Labeler.isPlainASCIIWords(text), "\(text.debugDescription)") }
        // Whatever the shortcut takes, splitting on whitespace and joining would have given too.
        var generator = SplitMix64(seed: 44)
        let pieces = ["a", "Bo", " ", "  ", "\t", "\n", "é", "\u{85}", "\u{A0}", "\u{7F}", "-", "<", "\u{0}"]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if Labeler.isPlainASCIIWords(text) {
                #expect(text.split(whereSeparator: \.isWhitespace).joined(separator: " ") == text, "\(text.debugDescription)")
            }
            #expect(Labeler.wrapped(text, fontSize: 13).allSatisfy { !$0.contains(where: \.isNewline) && !$0.contains("\t") }, "\(text.debugDescription)")
        }
    }
}

@Suite struct LayoutJSONTests {
    @Test func layoutJSONHasTheDocumentedFields() throws {
        let graph = try Paths.exampleGraph()
        let layout = LayeredLayout(labeler: Labeler()).place(graph)
        let text = try LayoutJSONWriter.render(layout, of: graph)
        let json = try JSONParser.parse(text).root
        guard case .array(let members)? = json["members"], case .array(let unions)? = json["unions"] else {
            Issue.record("members and unions arrays missing")
            return
        }
        #expect(members.count == graph.members.count)
        for member in members {
            for key in ["id", "x", "y", "width", "height", "layer"] { #expect(member[key] != nil, "\(key)") }
        }
        #expect(unions.count == graph.unions.count)
        let karlAndSiobhan = unions.first { $0["id"]?.stringValue == "karl+siobhan" }
        #expect(karlAndSiobhan?["children"] == .array([.string("anna"), .string("peter")]))
        #expect(karlAndSiobhan?["x"]?.doubleValue != nil && karlAndSiobhan?["y"]?.doubleValue != nil)
        #expect(try text == LayoutJSONWriter.render(LayeredLayout(labeler: Labeler()).place(graph), of: graph))
    }
}
