import Foundation
import Testing
import FamilyTree
import FamilyTreeLayout
@testable import FamilyTreeRender
import TestSupport

/// Text that tries to break out of its quoting, in every class of character, as ids, names and
/// notes; each output must parse back (DOT by real `dot`, SVG by an XML parser) with nothing of
/// the text turned into code.
@Suite struct HostileTextTests {
    /// Pieces that have broken or could break a writer's quoting.
    static let pieces: [String] = [
        "a\\", "\\", "\\\\", "\\\"", "\"", "q\"\u{301}", "]; X [URL=<javascript:alert(1)>]", "\"]; Y [URL=\"javascript:alert(2)\"]; z=\"",
        "line\nbreak", "cr\r\nlf", "tab\there", "nul\u{0}byte", "esc\u{1B}[31m", "\u{FFFE}\u{FFFF}", "<b>bold</b> & &amp;",
        "</script><script>alert(3)</script>", "{ } -> -- // /* #", "🌳 \u{202E}rtl", "u:x", "m:y", "100%", "%41", "\\N \\G \\L",
    ]

    /// A tree whose every member has one piece as id, first name, last name and notes, all in one
    /// union's children so the unions are hostile too.
    static func hostileGraph() throws -> FamilyGraph {
        var members: [Member] = [Member(id: "x", firstName: "Parent")]
        for (index, piece) in pieces.enumerated() {
            var member = Member(id: piece, firstName: piece, lastName: "L" + piece)
            member.notes = piece
            member.nickname = "n" + String(index)
            members.append(member)
        }
        let unions = [Union(id: "x", partners: ["x"], children: pieces.map { ChildLink($0) })]
            + [Union(id: "\\\"]; evil", partners: ["a\\", "\\"], children: [])]
        return try FamilyGraph(members: members, unions: unions)
    }

    @Test func structureDOTIsReadBackByDotWithEveryNameAndLabelIntact() throws {
        let graph = try Self.hostileGraph()
        let dot = DOTWriter().structure(graph)
        let json = try runGraphviz("dot", ["-Tjson0"], input: dot)
        let all = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["objects"] as? [[String: Any]])
        // Subgraphs (the rank=same groups) list their nodes; the rest are nodes.
        let objects = all.filter { $0["nodes"] == nil }
        let names = Set(objects.compactMap { $0["name"] as? String })
        // One node per member and per union, each named as the writer named it: nothing merged, nothing added.
        let expected = Set(graph.members.map(StructureGraph.memberNodeName) + graph.unions.map(StructureGraph.unionNodeName))
        #expect(names == expected)
        #expect(objects.count == graph.members.count + graph.unions.count)
        #expect(!objects.contains { $0["URL"] != nil || $0["href"] != nil })
        let labeler = Labeler()
        for member in graph.members {
            let object = try #require(objects.first { $0["name"] as? String == StructureGraph.memberNodeName(member) })
            // Graphviz keeps labels as escStrings; ours come back exactly as written, less what XML forbids.
            let expectedLabel = StructureGraph.escString(labeler.lines(for: member).joined(separator: "\n")).unicodeScalars
                .filter { $0 == "\t" || SafeText.isXMLCharacter($0) && !SafeText.isTerminalControl($0) }
            #expect((object["label"] as? String)?.unicodeScalars.elementsEqual(expectedLabel) == true, "label of \(member.id.debugDescription)")
        }
    }

    @Test func positionedDOTAndDotsOwnSVGParseBack() throws {
        let graph = try Self.hostileGraph()
        let layout = LayeredLayout().place(graph)
        let positioned = try DOTWriter().positioned(layout, of: graph)
        let svg = try runGraphviz("neato", ["-n2", "-Tsvg"], input: positioned)
        try expectWellFormedXML(svg)
        // The text "javascript:" is in names; a link (`xlink:href`) would be code.
        #expect(!svg.contains("xlink:href"))
        let plain = try runGraphviz("dot", ["-Tsvg"], input: DOTWriter().structure(graph))
        try expectWellFormedXML(plain)
        #expect(!plain.contains("xlink:href"))
    }

    @Test func ourSVGIsWellFormedAndHoldsNoMarkupFromNames() throws {
        let graph = try Self.hostileGraph()
        var output = CollectedOutput()
        try SVGRenderer().render(LayeredLayout().place(graph), of: graph, to: &output)
        let svg = output.text
        try expectWellFormedXML(svg)
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("<b>"))
        #expect(!svg.unicodeScalars.contains { !SafeText.isXMLCharacter($0) })
    }

    @Test func aMemberNamedLikeAUnionNodeKeepsItsOwnNode() throws {
        let graph = try FamilyGraph(members: [Member(id: "p", firstName: "P"), Member(id: "u:f", firstName: "Child")],
                                    unions: [Union(id: "f", partners: ["p"], children: [ChildLink("u:f")])])
        let dot = DOTWriter().structure(graph)
        #expect(dot.contains(#""u:f" -> "m:u:f""#))
        #expect(!dot.contains(#""u:f" -> "u:f""#))
    }

    @Test func dotQuotingNeverEndsAStringEarly() {
        #expect(DOTWriter.quoted(#"a\"#) == #""a\\""#)
        #expect(DOTWriter.quoted(#"a\"b"#) == #""a\\\"b""#)
        #expect(DOTWriter.quoted(#"a\\"#) == #""a\\""#)
        #expect(DOTWriter.quoted("a\\\nb") == "\"a\\\\\nb\"")
        #expect(DOTWriter.quoted("q\"\u{301}") == "\"q\\\"\u{301}\"")
    }
}

/// Parses `text` with Python's XML parser (expat): any error is a failed expectation.
func expectWellFormedXML(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let result = try ChildProcess.run("python3", ["-c", "import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.buffer.read())"], input: text)
    #expect(result.status == 0, "not well-formed XML: \(result.stderr)", sourceLocation: sourceLocation)
}

@Suite struct PhotoEmbeddingTests {
    /// A `data:` photo is embedded only when it is base64 of a real image: the renderers check on
    /// their own, for a program that never runs the command's photo pass.
    @Test func onlyABase64ImageIsEmbeddedAsAPhoto() throws {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
        var members = ["good", "text", "script", "plain"].map { Member(id: $0, firstName: $0) }
        members[0].photo = "data:image/png;base64," + png
        members[1].photo = "data:image/png;base64,this is not base64!"
        members[2].photo = "data:image/png;base64," + Data("<script>alert(1)</script>".utf8).base64EncodedString()
        members[3].photo = "data:image/png,%89PNG"
        let graph = try FamilyGraph(members: members, unions: [])
        let layout = LayeredLayout().place(graph)
        let svg = try SVGRenderer().render(layout, of: graph)
        let page = try HTMLRenderer().render(layout, of: graph)
        for output in [svg, page] {
            #expect(output.components(separatedBy: "data:image/").count - 1 == 1, "only the PNG")
            #expect(output.contains(png))
        }
    }
}

@Suite struct LinkedAssetsTests {
    /// A page for a site links the viewer's files instead of carrying them; its data is the same.
    @Test func aLinkedPageCarriesTheDataAndNoScriptOfItsOwn() throws {
        let graph = try FamilyGraph(members: [Member(id: "a", firstName: "</script><script>alert(1)</script>")], unions: [])
        let layout = LayeredLayout().place(graph)
        let inline = try HTMLRenderer().render(layout, of: graph)
        let linked = try HTMLRenderer(assets: .linked(styleSheet: "/app/viewer.css", script: "/app/x.js?a=1&b=\"2\"")).render(layout, of: graph)
        #expect(linked.contains(#"<link rel="stylesheet" href="/app/viewer.css">"#))
        #expect(linked.contains(#"<script src="/app/x.js?a=1&amp;b=&quot;2&quot;"></script>"#), "the address is escaped for its attribute")
        #expect(!linked.contains(HTMLRenderer.viewerScript) && !linked.contains("<style>") && !linked.contains("http-equiv"))
        #expect(inline.contains(HTMLRenderer.viewerScript) && inline.contains("http-equiv=\"Content-Security-Policy\""))
        // The same data block in both.
        func data(_ page: String) -> Substring? {
            guard let start = page.range(of: #"id="family-tree-data">"#), let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex) else { return nil }
            return page[start.upperBound..<end.lowerBound]
        }
        #expect(data(linked) != nil && data(linked) == data(inline))
        #expect(linked.components(separatedBy: "<script").count - 1 == 2, "the data block and the linked viewer")
        #expect(!linked.contains("home-link"))
        let home = try HTMLRenderer(assets: .linked(styleSheet: "/s.css", script: "/v.js", home: .init("← <Trees>", to: "/?a=1&b=2"))).render(layout, of: graph)
        #expect(home.contains(#"role="toolbar" aria-label="Chart controls">"# + "\n" + #"<a id="home-link" href="/?a=1&amp;b=2">← &lt;Trees&gt;</a>"# + "\n<div id=\"search-box\">"))

        // A site's own scripts after the viewer, facts for them on <body>, and the data alone
        // for a page already open: the same data block.
        var live = HTMLRenderer(assets: .linked(styleSheet: "/s.css", script: "/v.js", moreScripts: ["/live.js?x=<1>"]))
        live.pageData = ["user": #""><script>alert(1)</script>"#, "role": "helper", "Bad Key": "dropped", "on-load": "x"]
        let page = try live.render(layout, of: graph)
        #expect(page.contains(#"<script src="/v.js"></script>"# + "\n" + #"<script src="/live.js?x=&lt;1&gt;"></script>"#))
        #expect(page.contains(#"<body data-on-load="x" data-role="helper" data-user="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">"#), "keys in order, values escaped")
        #expect(!page.contains("Bad Key") && !page.contains("dropped"))
        #expect(try live.renderData(layout, of: graph) == data(page).map(String.init))
        #expect(inline.contains("<body>\n"), "no facts, a plain body")

        // A status line from the first paint, as text, before the data; none unless asked for.
        #expect(!page.contains("live-status"))
        live.statusLine = "Drawing </p><script>alert(1)</script>…"
        let saying = try live.render(layout, of: graph)
        let line = #"<p id="live-status" class="live-status" role="status" aria-live="polite">Drawing &lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;…</p>"#
        #expect(saying.contains(line + "\n" + #"<script type="application/json" id="family-tree-data">"#))
        #expect(data(saying) == data(page))
    }
}
