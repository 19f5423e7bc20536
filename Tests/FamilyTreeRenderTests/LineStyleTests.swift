import Foundation
import Testing
import FamilyTree
import FamilyTreeLayout
@testable import FamilyTreeRender

/// Adopted, step and foster children and divorced couples are drawn their own way in the SVG, the
/// HTML chart and DOT, with a legend when a chart uses any; a chart of birth children and married
/// couples only has neither.
@Suite struct LineStyleTests {
    /// A couple who divorced, with a birth child, an adopted child, a step-child and a foster child.
    static func family() throws -> FamilyGraph {
        try FamilyGraph(json: Array(#"""
        {"members": [
          {"id": "pa", "firstName": "Pa", "sex": "male"}, {"id": "ma", "firstName": "Ma", "sex": "female"},
          {"id": "born", "firstName": "Born", "birthday": "1970"}, {"id": "adopted", "firstName": "Adopted", "birthday": "1971"},
          {"id": "step", "firstName": "Step", "birthday": "1972"}, {"id": "foster", "firstName": "Foster", "birthday": "1973"}
        ], "unions": [{"id": "u", "partners": ["pa", "ma"], "divorce": "1980", "children": [
          "born", {"id": "adopted", "kind": "adopted"}, {"id": "step", "kind": "step"}, {"id": "foster", "kind": "foster"}]}]}
        """#.utf8))
    }

    @Test func eachEdgeGetsTheStyleOfItsTie() throws {
        let graph = try Self.family()
        let layout = LayeredLayout().place(graph)
        let styles = LineStyle.styles(of: layout, in: graph)
        func style(toChild id: String) -> LineStyle?? {
            let index = graph.index(of: id)!
            return zip(layout.edges, styles).first { edge, _ in edge.kind == .child && edge.to == .member(index) }.map(\.1)
        }
        #expect(style(toChild: "born") == .some(nil))
        #expect(style(toChild: "adopted") == .adopted && style(toChild: "step") == .step && style(toChild: "foster") == .foster)
        #expect(zip(layout.edges, styles).filter { $0.0.kind == .partner }.allSatisfy { $0.1 == .divorced })
    }

    @Test func theSVGDrawsThemAndSaysWhatTheyMean() throws {
        let graph = try Self.family()
        let svg = try SVGRenderer().render(LayeredLayout().place(graph), of: graph)
        #expect(isWellFormedXML(svg))
        for style in ["adopted", "step", "foster", "divorced"] {
            #expect(svg.contains("class=\"edge child \(style)\"") || svg.contains("class=\"edge partner \(style)\""), "\(style)")
        }
        #expect(svg.contains("class=\"divorce-mark\""))
        #expect(svg.contains("<g class=\"legend\">") && svg.contains(">step-child</text>") && svg.contains(">divorced</text>"))
        // Birth children of a married couple: no styled line, no legend, the height of the layout.
        let plain = try FamilyGraph(json: Array(#"{"members": [{"id": "a", "firstName": "A"}, {"id": "b", "firstName": "B"}, {"id": "c", "firstName": "C"}], "unions": [{"id": "u", "partners": ["a", "b"], "children": ["c"]}]}"#.utf8))
        let plainLayout = LayeredLayout().place(plain)
        let plainSVG = try SVGRenderer().render(plainLayout, of: plain)
        #expect(!plainSVG.contains("<g class=\"legend\">") && !plainSVG.contains("class=\"divorce-mark\"") && !plainSVG.contains("dashed"))
        #expect(plainSVG.contains("viewBox=\"0 0 \(Formatting.number(plainLayout.width)) \(Formatting.number(plainLayout.height))\""))
    }

    @Test func dotAndTheHTMLChartStyleThemToo() throws {
        let graph = try Self.family()
        let layout = LayeredLayout().place(graph)
        let structure = DOTWriter().structure(graph)
        #expect(structure.contains("\"u:u\" -> \"step\" [style=\"dotted\", label=\"step\""))
        #expect(structure.contains("\"u:u\" -> \"adopted\" [style=\"dashed\""))
        #expect(structure.contains("\"pa\" -> \"u:u\" [style=\"dashed\"]"))
        let positioned = try DOTWriter().positioned(layout, of: graph)
        #expect(positioned.contains("style=dotted") && positioned.contains("style=dashed"))
        let page = try HTMLRenderer().render(layout, of: graph)
        #expect(page.contains("\"legend\":[[4,\"adopted\"],[5,\"step-child\"],[4,\"foster\"],[6,\"divorced\"]]"))
        for code in ["[4,", "[5,", "[6,"] { #expect(page.contains("\"e\":[") && page.components(separatedBy: code).count > 2, "\(code)") }
    }
}
