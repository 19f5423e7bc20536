import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

@Suite struct RenderCommandTests {
    @Test func rendersTheExampleExactlyAsCommitted() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("render", scratch.path("tree.json").path, "-o", scratch.path("tree.svg").path) == 0)
        let committed = try String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/family.svg"), encoding: .utf8)
        #expect(try scratch.read("tree.svg") == committed)
    }

    @Test func formatFollowsTheExtensionAndFormatOverridesIt() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("render", tree, "-o", scratch.path("tree.dot").path) == 0)
        #expect(try scratch.read("tree.dot").hasPrefix("digraph family {\n  graph [rankdir=\"TB\""))
        #expect(await scratch.run("render", tree, "-o", scratch.path("layout.json").path) == 0)
        #expect(try scratch.read("layout.json").contains("\"layerCount\": 4"))
        #expect(await scratch.run("render", tree, "-o", scratch.path("pinned.dot").path, "--format", "dot-positioned") == 0)
        #expect(try scratch.read("pinned.dot").contains("pos=\""))
        #expect(await scratch.run("render", tree, "-o", scratch.path("tree.png").path) == 2)
        #if PDF
        #expect(await scratch.run("render", tree, "--format", "pdf", "-o", scratch.path("tree.pdf").path) == 0)
        #else
        #expect(await scratch.run("render", tree, "--format", "pdf") == 2, "a build without the PDF trait says how to get one")
        #endif
    }

    @Test func rootAndGenerationsDrawThePartAroundOnePerson() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("render", scratch.path("tree.json").path, "-o", scratch.path("peter.svg").path, "--root", "Peter Müller", "--generations", "1") == 0)
        let svg = try scratch.read("peter.svg")
        // Peter and Emily, his parents and Margarethe (his father's other wife), their children, and
        // his sister Anna and half-brother Lukas with Zoë.
        let members = svg.components(separatedBy: "data-member=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(Set(members) == ["peter", "emily", "karl", "siobhan", "margarethe", "sophie", "jonas", "anna", "lukas", "zoe"])
        // The person the chart is about is marked out, and only they are.
        #expect(svg.contains("class=\"member male root\" data-member=\"peter\"") && svg.components(separatedBy: " root\"").count == 2)
        #expect(await scratch.run("render", scratch.path("tree.json").path, "-o", scratch.path("alone.svg").path, "--root", "Peter Müller", "--generations", "1", "--no-siblings") == 0)
        #expect(try scratch.read("alone.svg").components(separatedBy: "data-member=").count - 1 == 7)
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--root", "Nobody Atall") == 1)
    }

    @Test func chartKindsDrawOnePersonsLineOrTheLinesJoiningTwo() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        func members(_ file: String) throws -> [String] {
            try scratch.read(file).components(separatedBy: "data-member=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        // Jonas's parents are cousins: Heinrich and Greta are his great-grandparents twice, drawn once.
        #expect(await scratch.run("render", tree, "-o", scratch.path("jonas.svg").path, "--chart", "ancestors", "Jonas Müller") == 0)
        let ancestors = try members("jonas.svg")
        #expect(Set(ancestors) == ["jonas", "peter", "emily", "karl", "siobhan", "liesel", "james", "heinrich", "greta", "tomas", "aoife"])
        #expect(ancestors.count == 11, "each ancestor once")
        #expect(try scratch.read("jonas.svg").contains("class=\"member male root\" data-member=\"jonas\""))

        #expect(await scratch.run("render", tree, "-o", scratch.path("heinrich.svg").path, "--chart", "descendants", "heinrich", "--generations", "1") == 0)
        #expect(Set(try members("heinrich.svg")) == ["heinrich", "greta", "liesel", "karl", "james", "siobhan", "margarethe"])
        #expect(await scratch.run("render", tree, "-o", scratch.path("karl.dot").path, "--chart", "hourglass", "Karl Müller", "--generations", "1") == 0)
        let dot = try scratch.read("karl.dot")
        #expect(dot.contains("\"heinrich\"") && dot.contains("\"lukas\"") && !dot.contains("\"jonas\""), "structure DOT of the same part")

        // Cousins: the lines through their grandparents, each box saying how the person is related to Cian.
        #expect(await scratch.run("render", tree, "-o", scratch.path("cousins.svg").path, "--chart", "relationship", "Cian Ó Briain", "Peter Müller") == 0)
        #expect(Set(try members("cousins.svg")) == ["cian", "padraig", "tomas", "aoife", "siobhan", "peter"])
        let words = try scratch.read("cousins.svg")
        #expect(words.contains("Home person") && words.contains("Grandfather") && words.contains("First cousin"), "\(words.prefix(4000))")

        // Joined only through a marriage: the chain's people, each box worded from Cian's side.
        #expect(await scratch.run("render", tree, "-o", scratch.path("chain.svg").path, "--chart", "relationship", "Cian Ó Briain", "Chloé Müller") == 0)
        #expect(Set(try members("chain.svg")) == ["cian", "padraig", "tomas", "aoife", "siobhan", "karl", "lukas", "chloe"])
        let chain = try scratch.read("chain.svg")
        #expect(chain.contains("Aunt&#39;s former husband&#39;s granddaughter") || chain.contains("Aunt's former husband's granddaughter"), "\(chain.prefix(4000))")
        // Nothing joins a newcomer to anyone: refused, exit 1.
        #expect(await scratch.run("add", "Nora Newcomer", "--tree", tree) == 0)
        #expect(await scratch.run("render", tree, "--chart", "relationship", "Cian Ó Briain", "Nora Newcomer") == 1, "not joined")
        #expect(await scratch.run("render", tree, "-o", scratch.path("fan.svg").path, "--chart", "fan", "Jonas Müller", "--generations", "4") == 0)
        #expect(try scratch.read("fan.svg").contains("class=\"family-tree fan-chart\""))
        #expect(await scratch.run("render", tree, "-o", scratch.path("fan.dot").path, "--chart", "fan", "Jonas Müller") == 1, "a fan is SVG")
        #expect(await scratch.run("render", tree, "--chart", "fan", "Jonas Müller", "--generations", "11") == 2)
        #expect(await scratch.run("render", tree, "--chart", "pie", "Peter Müller") == 2)
        #expect(await scratch.run("render", tree, "--chart", "relationship", "Peter Müller") == 2)
        #expect(await scratch.run("render", tree, "--chart", "ancestors", "Peter Müller", "--root", "Peter Müller") == 2)
    }

    @Test func aChartStoppedAfterAStageShowsThatStagesWork() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        var layouts: [String: String] = [:]
        for stage in ["ranking", "ordering", "placement"] {
            #expect(await scratch.run("render", tree, "-o", scratch.path("\(stage).json").path, "--last-stage", stage) == 0)
            layouts[stage] = try scratch.read("\(stage).json")
        }
        #expect(await scratch.run("render", tree, "-o", scratch.path("full.json").path) == 0)
        #expect(layouts["placement"] == (try scratch.read("full.json")), "placement is the full layout")
        #expect(layouts["ranking"] != layouts["placement"])
        #expect(await scratch.run("render", tree, "--last-stage", "drawing") == 2)
        #expect(await scratch.run("render", tree, "--last-stage", "ranking", "--engine", "graphviz") == 2)
    }

    /// A middle child of seven married to an only child: by default the couple stands apart (a
    /// marriage line from each partner to the union point); `--couples-side-by-side` keeps them
    /// together (one line between them), and refuses Graphviz, whose layout has no such rule.
    @Test func couplesSideBySideKeepsEveryCoupleTogether() async throws {
        let scratch = try Scratch()
        let children = (1...7).map { "{\"id\": \"c\($0)\", \"firstName\": \"C\($0)\", \"birthday\": \"190\($0)-01-01\"}" }
        let members = ["a1", "a2", "b1", "b2", "d", "k"].map { "{\"id\": \"\($0)\", \"firstName\": \"\($0.uppercased())\"}" } + children
        try scratch.write("middle.json", """
            {"members": [\(members.joined(separator: ", "))],
             "unions": [{"id": "a", "partners": ["a1", "a2"], "children": ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]},
              {"id": "b", "partners": ["b1", "b2"], "children": ["d"]}, {"id": "cd", "partners": ["c4", "d"], "children": ["k"]}]}
            """)
        let tree = scratch.path("middle.json").path
        /// Who the partner edges of union `cd` join: members drawn apart each to the union, or one line.
        func marriageLines(_ file: String) throws -> [String] {
            let layout = try JSONSerialization.jsonObject(with: Data(try scratch.read(file).utf8)) as! [String: Any]
            return (layout["edges"] as! [[String: Any]]).compactMap { edge in
                guard edge["kind"] as? String == "partner", let from = edge["from"] as? [String: String], let to = edge["to"] as? [String: String] else { return nil }
                if to["union"] == "cd" { return "\(from["member"]!)->cd" }
                return Set([from["member"], to["member"]]) == ["c4", "d"] ? "c4-d" : nil
            }.sorted()
        }
        #expect(await scratch.run("render", tree, "-o", scratch.path("apart.json").path, "--direction", "top-down") == 0)
        #expect(try marriageLines("apart.json") == ["c4->cd", "d->cd"])
        #expect(await scratch.run("render", tree, "-o", scratch.path("together.json").path, "--direction", "top-down", "--couples-side-by-side") == 0)
        #expect(try marriageLines("together.json") == ["c4-d"])
        #expect(await scratch.run("render", tree, "--couples-side-by-side", "--engine", "graphviz") == 2)
        // stats measures either rule: the couple apart crosses nothing, side by side it does.
        func stats(_ extra: String...) throws -> JSONValue {
            let result = try ProcessTests().run(["stats", tree, "--format", "json"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONParser.parse(result.stdout).root
        }
        let apart = try stats(), together = try stats("--couples-side-by-side")
        #expect(try #require(apart["coupleAdjacencyPercent"]?.doubleValue) < 100)
        #expect(together["coupleAdjacencyPercent"]?.doubleValue == 100)
        #expect(try #require(apart["crossings"]?.doubleValue) < together["crossings"]?.doubleValue ?? 0)
        let refused = try ProcessTests().run(["stats", tree, "--couples-side-by-side", "--engine", "dot"])
        #expect(refused.status != 0 && refused.stderr.contains("rule of our layout"))
    }

    @Test func theSVGFitsThePageOrTheWidthAskedFor() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("render", tree, "-o", scratch.path("page.svg").path) == 0)
        let page = try scratch.read("page.svg")
        let viewBox = try #require(page.firstMatch(of: /viewBox="0 0 ([0-9.]+) ([0-9.]+)"/))
        // Responsive: the column's width, at most the natural size inline, proportions from the viewBox.
        #expect(page.contains("width=\"100%\" style=\"max-width: \(viewBox.1)px; height: auto\""))
        #expect(await scratch.run("render", tree, "-o", scratch.path("800.svg").path, "--width", "800") == 0)
        let fixed = try scratch.read("800.svg")
        let size = try #require(fixed.firstMatch(of: /width="800" height="([0-9.]+)"/))
        let expected = Double(viewBox.2)! * 800 / Double(viewBox.1)!
        #expect(abs(Double(size.1)! - expected) < 0.1)
        #expect(await scratch.run("render", tree, "--width", "0") == 2)
        #expect(await scratch.run("render", tree, "--width", "wide") == 2)
    }

    @Test func leftRightAndNameAgeLabels() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("render", scratch.path("tree.json").path, "-o", scratch.path("lr.svg").path, "--direction", "left-right", "--label", "name-age", "--today", "2026-11-22") == 0)
        #expect(try scratch.read("lr.svg").contains("Coco • 42"))
        // A bad --today is a usage error, like any bad option.
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--today", "2026-02-30") == 2)
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--direction", "sideways") == 2)
    }

    @Test func badInputFailsCleanlyAndWritesNothing() async throws {
        let scratch = try Scratch()
        try scratch.write("broken.json", "{\"members\": [\n  {\"id\": \"a\",, }\n]}")
        #expect(await scratch.run("render", scratch.path("broken.json").path, "-o", scratch.path("out.svg").path) == 1)
        #expect(await scratch.run("render", scratch.path("missing.json").path, "-o", scratch.path("out.svg").path) == 1)
        try scratch.write("cycle.json", #"{"members": [{"id": "a", "firstName": "A"}], "unions": [{"id": "u", "partners": ["a"], "children": ["a"]}]}"#)
        #expect(await scratch.run("render", scratch.path("cycle.json").path, "-o", scratch.path("out.svg").path) == 1)
        #expect(await scratch.run("render", scratch.path("tree.json").path, "-o", scratch.path("no/such/dir/out.svg").path) == 1)
        #expect(try scratch.files() == ["broken.json", "cycle.json", "tree.json"])
    }
}

@Suite struct FitCommandTests {
    /// The viewBox's width over its height.
    static func aspect(_ svg: String) throws -> Double {
        let box = try #require(svg.firstRange(of: "viewBox=\"").map { svg[$0.upperBound...].prefix { $0 != "\"" } })
        let numbers = box.split(separator: " ").compactMap { Double($0) }
        return numbers[2] / numbers[3]
    }

    @Test(.requiresSharedData("gedcom-samples/kennedy.ged")) func aWideRealTreeIsDrawnInColumnsUnlessAskedForRows() async throws {
        let kennedy = Scratch.packageRoot.appendingPathComponent("../shared/data/gedcom-samples/kennedy.ged")
        try #require(FileManager.default.fileExists(atPath: kennedy.path), "../shared/data is part of the test set-up")
        let scratch = try Scratch()
        #expect(await scratch.run("render", kennedy.path, "-o", scratch.path("auto.svg").path) == 0)
        #expect(await scratch.run("render", kennedy.path, "--fit", "wide", "-o", scratch.path("wide.svg").path) == 0)
        #expect(await scratch.run("render", kennedy.path, "--direction", "top-down", "-o", scratch.path("rows.svg").path) == 0)
        #expect(try Self.aspect(scratch.read("wide.svg")) > 4)
        #expect(try Self.aspect(scratch.read("auto.svg")) < 1.5)
        #expect(try scratch.read("rows.svg") == scratch.read("wide.svg"))
        #expect(await scratch.run("render", kennedy.path, "--fit", "square", "-o", scratch.path("x.svg").path) == 2)
    }
}

@Suite struct PhotoTests {
    /// A 1x1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    @Test func photoFilesAreEmbeddedAndMissingOnesOnlyWarn() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.path("photos"), withIntermediateDirectories: true)
        try PhotoTests.png.write(to: scratch.path("photos/ada.png"))
        try scratch.write("people.json", #"{"members": [{"id": "ada", "firstName": "Ada", "photo": "photos/ada.png"}, {"id": "bob", "firstName": "Bob", "photo": "photos/missing.jpg"}, {"id": "cy", "firstName": "Cy", "photo": "photos"}]}"#)
        #expect(await scratch.run("render", scratch.path("people.json").path, "-o", scratch.path("people.svg").path) == 0)
        let svg = try scratch.read("people.svg")
        #expect(svg.contains("<image href=\"data:image/png;base64,iVBORw0KGgo"))
        #expect(svg.components(separatedBy: "<image ").count - 1 == 1, "only the readable photo")
        #expect(await scratch.run("render", scratch.path("people.json").path, "--no-photos", "-o", scratch.path("plain.svg").path) == 0)
        #expect(!(try scratch.read("plain.svg")).contains("<image"))
    }

    @Test func imageTypesAreRecognisedByTheirBytes() {
        #expect(ImageData.mimeType(of: PhotoTests.png) == "image/png")
        #expect(ImageData.mimeType(of: Data([0xFF, 0xD8, 0xFF, 0xE0])) == "image/jpeg")
        #expect(ImageData.mimeType(of: Data("GIF89a".utf8)) == "image/gif")
        #expect(ImageData.mimeType(of: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(ImageData.mimeType(of: Data("<svg>".utf8)) == nil)
    }

    /// A photo path is read only inside the tree's folder (or one named with --photos): not through
    /// `..`, not by an absolute path, not through a symbolic link that leads out.
    @Test func aPhotoPathOutsideTheTreesFolderIsNotRead() throws {
        let scratch = try Scratch()
        let manager = FileManager.default
        try manager.createDirectory(at: scratch.path("secret"), withIntermediateDirectories: true)
        try manager.createDirectory(at: scratch.path("family/photos"), withIntermediateDirectories: true)
        try PhotoTests.png.write(to: scratch.path("secret/private.png"))
        try PhotoTests.png.write(to: scratch.path("family/photos/ada.png"))
        try manager.createSymbolicLink(atPath: scratch.path("family/photos/link.png").path, withDestinationPath: scratch.path("secret/private.png").path)
        let secret = scratch.path("secret/private.png").path
        try scratch.write("family/tree.json", """
            {"members": [{"id": "ada", "firstName": "Ada", "photo": "photos/ada.png"},
             {"id": "up", "firstName": "Up", "photo": "../secret/private.png"},
             {"id": "abs", "firstName": "Abs", "photo": "\(secret)"},
             {"id": "link", "firstName": "Link", "photo": "photos/link.png"}]}
            """)
        for format in ["svg", "html"] {
            let output = scratch.path("family/tree.\(format)").path
            let result = try ChildProcess.run(ProcessTests.binary, ["render", scratch.path("family/tree.json").path, "-o", output])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8).components(separatedBy: "iVBORw0KGgo").count - 1 == 1, "only Ada's photo, in the \(format)")
            for id in ["up", "abs", "link"] {
                #expect(result.stderr.contains("of \(id) is outside the tree's folder (--photos FOLDER allows another); drawn without it"), "\(result.stderr)")
            }
        }
        // A folder the user names is allowed: the absolute path and the link now lead inside it.
        let allowed = try ChildProcess.run(ProcessTests.binary, ["render", scratch.path("family/tree.json").path, "--photos", scratch.path("secret").path, "-o", scratch.path("family/allowed.svg").path])
        #expect(allowed.status == 0)
        #expect(try scratch.read("family/allowed.svg").components(separatedBy: "iVBORw0KGgo").count - 1 == 4)
    }

    /// A tree named by a relative path: its photos are read from its own folder, and still only
    /// from there.
    @Test func photosOfATreeNamedRelativelyAreReadFromItsFolder() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.path("family/photos"), withIntermediateDirectories: true)
        try PhotoTests.png.write(to: scratch.path("family/photos/ada.png"))
        try PhotoTests.png.write(to: scratch.path("private.png"))
        try scratch.write("family/tree.json", #"{"members": [{"id": "ada", "firstName": "Ada", "photo": "photos/ada.png"}, {"id": "up", "firstName": "Up", "photo": "../private.png"}]}"#)
        for (folder, tree) in [("family", "tree.json"), (".", "family/tree.json"), ("family/photos", "../tree.json")] {
            let result = try ChildProcess.run("sh", ["-c", "cd '\(scratch.path(folder).path)' && exec '\(ProcessTests.binary.path)' render '\(tree)' -o -"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.components(separatedBy: "iVBORw0KGgo").count - 1 == 1, "only Ada's photo, from \(folder)")
            #expect(result.stderr.contains("of up is outside the tree's folder"), "\(result.stderr)")
        }
    }

    /// A `data:` photo must be base64 of a real image: anything else is left out with a warning,
    /// so no page carries a URL the browser refuses.
    @Test func aDataPhotoThatIsNotABase64ImageIsLeftOut() throws {
        let scratch = try Scratch()
        let good = "data:image/png;base64," + PhotoTests.png.base64EncodedString()
        let notBase64 = "data:image/png;base64,this is not base64!"
        let notAnImage = "data:image/png;base64," + Data("<svg onload=alert(1)>".utf8).base64EncodedString()
        let plain = "data:image/png,%89PNG"
        try scratch.write("tree.json", """
            {"members": [{"id": "good", "firstName": "Good", "photo": "\(good)"}, {"id": "text", "firstName": "Text", "photo": "\(notBase64)"},
             {"id": "svg", "firstName": "Svg", "photo": "\(notAnImage)"}, {"id": "plain", "firstName": "Plain", "photo": "\(plain)"}]}
            """)
        for format in ["svg", "html"] {
            let output = scratch.path("tree.\(format)").path
            let result = try ChildProcess.run(ProcessTests.binary, ["render", scratch.path("tree.json").path, "-o", output])
            #expect(result.status == 0, "\(result.stderr)")
            let page = try String(contentsOfFile: output, encoding: .utf8)
            #expect(page.contains(PhotoTests.png.base64EncodedString()))
            #expect(!page.contains("this is not base64") && !page.contains(Data("<svg onload".utf8).base64EncodedString().prefix(12)) && !page.contains("%89PNG"))
            for id in ["text", "svg", "plain"] {
                #expect(result.stderr.contains("of \(id) is not base64 of a PNG, JPEG, GIF or WebP image of at most 1 MB; drawn without it"), "\(result.stderr)")
            }
        }
    }
}

@Suite struct GraphvizCommandTests {
    #if Graphviz
    @Test func graphvizEngineAndRenderer() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("render", tree, "--engine", "graphviz", "-o", scratch.path("native.svg").path) == 0)
        #expect(try scratch.read("native.svg").contains("data-member=\"karl\""))
        #expect(await scratch.run("render", tree, "--engine", "graphviz", "--renderer", "graphviz", "-o", scratch.path("tree.png").path) == 0)
        #expect(try Data(contentsOf: scratch.path("tree.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(await scratch.run("render", tree, "--engine", "graphviz", "--renderer", "graphviz", "--format", "pdf", "-o", scratch.path("tree.out").path) == 0)
        #expect(await scratch.run("render", tree, "--engine", "graphviz", "-o", scratch.path("cgraph.dot").path) == 0)
        #expect(try scratch.read("cgraph.dot").contains("digraph family"))
        #expect(await scratch.run("render", tree, "--engine", "graphviz", "--renderer", "graphviz", "--format", "nonsense", "-o", scratch.path("x.out").path) == 1)
        #expect(await scratch.run("stats", tree, "--engine", "graphviz") == 0)
        #expect(!(try scratch.files()).contains("x.out"), "nothing written when Graphviz fails")
    }
    #else
    @Test func withoutTheTraitGraphvizIsAClearUsageError() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--engine", "graphviz") == 2)
        #expect(await scratch.run("stats", scratch.path("tree.json").path, "--engine", "graphviz") == 2)
    }
    #endif

    @Test func renderingWithGraphvizNeedsItsEngine() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--renderer", "graphviz") == 2)
    }
}
