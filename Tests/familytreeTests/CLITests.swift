import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

/// A scratch directory holding a copy of the example tree, deleted when the test is done with it.
struct Scratch {
    private let folder: ScratchFolder
    var directory: URL { folder.url }
    static let packageRoot = TestPaths.packageRoot

    init() throws {
        folder = try ScratchFolder("cli")
        try FileManager.default.copyItem(at: Scratch.packageRoot.appendingPathComponent("examples/family.json"), to: path("tree.json"))
    }

    func path(_ name: String) -> URL { directory.appendingPathComponent(name) }
    func read(_ name: String) throws -> String { try String(contentsOf: path(name), encoding: .utf8) }
    func write(_ name: String, _ text: String) throws { try text.write(to: path(name), atomically: true, encoding: .utf8) }
    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }
    func run(_ arguments: String...) async -> Int32 { await FamilyTreeCommand.run(arguments: arguments) }
    func run(_ arguments: [String]) async -> Int32 { await FamilyTreeCommand.run(arguments: arguments) }
}

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
        #expect(await scratch.run("render", tree, "--format", "pdf") == 2)
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

@Suite struct LinkCommandTests {
    @Test func linksByNameAndKeepsEverythingElse() async throws {
        let scratch = try Scratch()
        // A field familytree does not know survives the rewrite.
        let original = try scratch.read("tree.json").replacingOccurrences(of: "\"id\": \"mei\",", with: "\"id\": \"mei\", \"appField\": {\"z\": 1.50, \"a\": [true]},")
        try scratch.write("tree.json", original)
        #expect(await scratch.run("link", "Mei Carter", "Pádraig Ó Briain", "--tree", scratch.path("tree.json").path, "--id", "link-2") == 0)
        let text = try scratch.read("tree.json")
        let graph = try FamilyGraph(json: Array(text.utf8))
        #expect(graph.crossBloodlineConnections.last == CrossBloodlineConnection(id: "link-2", fromChild: "mei", toNewParent: "padraig"))
        #expect(graph.members.count == 22 && graph.unions.count == 8)
        #expect(text.contains("\"appField\": {\n        \"a\": [\n          true\n        ],\n        \"z\": 1.50\n      }"))
        // Sorted keys, two-space indent: a second identical edit changes only the new lines.
        #expect(text.hasPrefix("{\n  \"crossBloodlineConnections\": [\n    {\n      \"fromChild\": \"tom\","))
        #expect(try scratch.files() == ["tree.json"], "no temporary file left behind")
    }

    @Test func refusesCyclesRepeatedParentsAndUnknownNamesWithoutTouchingTheFile() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        let before = try scratch.read("tree.json")
        #expect(await scratch.run("link", "heinrich", "sophie", "--tree", tree) == 1, "Heinrich would be his own ancestor")
        #expect(await scratch.run("link", "peter", "karl", "--tree", tree) == 1, "Karl is already Peter's parent")
        #expect(await scratch.run("link", "tom", "padraig", "--tree", tree) == 1, "the same link twice")
        #expect(await scratch.run("link", "Nobody", "karl", "--tree", tree) == 1)
        #expect(try scratch.read("tree.json") == before)
    }

    @Test func ambiguousNamesListTheCandidates() async throws {
        let scratch = try Scratch()
        try scratch.write("twins.json", #"{"members": [{"id": "j1", "firstName": "John", "lastName": "Smith"}, {"id": "j2", "firstName": "John", "lastName": "Smith"}, {"id": "p", "firstName": "Pat"}]}"#)
        #expect(await scratch.run("link", "John Smith", "Pat", "--tree", scratch.path("twins.json").path) == 1)
        let graph = try FamilyGraph(json: Array(try scratch.read("twins.json").utf8))
        #expect(throws: CLIError.self) { _ = try graph.resolveMember("John Smith") }
        #expect(try graph.resolveMember("j2") == 1)
        #expect(try graph.resolveMember("pat") == 2)
    }

    @Test func usageErrorsExitTwo() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("link", "only-one") == 2)
        #expect(await scratch.run("frobnicate") == 2)
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--generations", "-1") == 2)
        #expect(await scratch.run("generate", "--members", "0") == 2)
    }
}

@Suite struct ValidateAndGenerateCommandTests {
    @Test func validateExitsOneOnProblems() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("validate", scratch.path("tree.json").path) == 0)
        try scratch.write("bad.json", #"{"members": [{"id": "a", "firstName": "A", "spouse": "a"}, {"id": "a", "firstName": "B"}]}"#)
        #expect(await scratch.run("validate", scratch.path("bad.json").path) == 1)
    }

    @Test func generateWritesAValidTree() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("generate", "--members", "250", "--seed", "4", "-o", scratch.path("g.json").path) == 0)
        #expect(try FamilyGraph(json: Array(try scratch.read("g.json").utf8)).members.count == 250)
        #expect(await scratch.run("generate", "--members", "250", "--seed", "4", "-o", scratch.path("g.dot").path) == 0)
        #expect(try scratch.read("g.dot").hasPrefix("digraph family"))
    }
}

@Suite struct StatsCommandTests {
    @Test func statsMeasuresOursAndDotTheSameWay() async throws {
        let scratch = try Scratch()
        let graph = try FamilyGraph(json: Array(try scratch.read("tree.json").utf8))
        let ours = try Self.metrics(scratch, "familytree")
        let dot = try Self.metrics(scratch, "dot")
        for metrics in [ours, dot] {
            #expect(metrics["members"]?.doubleValue == Double(graph.members.count))
            #expect(metrics["overlaps"]?.doubleValue == 0)
        }
        #expect(ours["coupleAdjacencyPercent"]?.doubleValue == 100)
        #expect(ours["birthOrderPercent"]?.doubleValue == 100)
        #expect(await scratch.run("stats", scratch.path("tree.json").path, "--format", "yaml") == 2)
    }

    static func metrics(_ scratch: Scratch, _ engine: String) throws -> JSONValue {
        let result = try ProcessTests().run(["stats", scratch.path("tree.json").path, "--engine", engine, "--format", "json"])
        #expect(result.status == 0, "stats --engine \(engine): \(result.stderr)")
        return try JSONParser.parse(result.stdout).root
    }
}

@Suite struct BirthdayAndCalendarCommandTests {
    @Test func birthdaysListsInEveryFormat() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("birthdays", tree, "--today", "2026-11-22", "--within", "30d", "--format", "csv") == 0)
        #expect(await scratch.run("birthdays", tree, "--today", "2026-11-22", "--sort", "age", "--include-deceased", "--format", "json") == 0)
        #expect(await scratch.run("birthdays", tree, "--within", "soon") == 2)
        #expect(await scratch.run("birthdays", tree, "--sort", "shoe-size") == 2)
        #expect(await scratch.run("birthdays", tree, "--today", "2026-13-01") == 2)
    }

    @Test func calendarWritesMonthYearAndICS() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("calendar", tree, "--month", "2027-07", "--today", "2027-07-14", "--first-weekday", "monday", "-o", scratch.path("july.svg").path) == 0)
        let committed = try String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/calendar-2027-07.svg"), encoding: .utf8)
        #expect(try scratch.read("july.svg") == committed)
        #expect(await scratch.run("calendar", tree, "--year", "2027", "--today", "2027-07-14", "--first-weekday", "mon", "-o", scratch.path("2027.svg").path) == 0)
        #expect(try scratch.read("2027.svg") == String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/calendar-2027.svg"), encoding: .utf8))
        #expect(await scratch.run("calendar", tree, "--ics", "--today", "2026-11-22", "-o", scratch.path("family.ics").path) == 0)
        #expect(try scratch.read("family.ics").hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(await scratch.run("calendar", tree, "--month", "2027-7") == 2)
        #expect(await scratch.run("calendar", tree, "--month", "2027-07", "--ics") == 2)
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

@Suite struct ImportCommandTests {
    static let gedcom = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Ada /Byron/\n1 SEX F\n1 BIRT\n2 DATE 10 DEC 1815\n1 FAMC @F1@\n0 @I2@ INDI\n1 NAME George /Byron/\n1 SEX M\n1 FAMS @F1@\n0 @F1@ FAM\n1 HUSB @I2@\n1 CHIL @I1@\n1 CHIL @I9@\n0 TRLR\n"

    @Test func importWritesATreeAndRenderReadsGEDCOM() async throws {
        let scratch = try Scratch()
        try scratch.write("byron.ged", ImportCommandTests.gedcom)
        #expect(await scratch.run("import", scratch.path("byron.ged").path, "-o", scratch.path("byron.json").path) == 0)
        let graph = try FamilyGraph(json: Array(try scratch.read("byron.json").utf8))
        #expect(graph.members.map(\.fullName) == ["Ada Byron", "George Byron"])
        #expect(graph.member("I1")?.birthday == PartialDate("1815-12-10"))
        #expect(await scratch.run("render", scratch.path("byron.ged").path, "-o", scratch.path("byron.svg").path) == 0)
        #expect(try scratch.read("byron.svg").contains("data-member=\"I1\""))
        // A warning (CHIL @I9@ does not exist) is an error with --strict, and nothing is written.
        #expect(await scratch.run("import", scratch.path("byron.ged").path, "--strict", "-o", scratch.path("strict.json").path) == 1)
        #expect(!(try scratch.files()).contains("strict.json"))
        // GEDZIP: gedcom.ged at the root of a zip archive (made here with Python's zipfile).
        let zip = try ChildProcess.run("python3", ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED); z.write(sys.argv[2], 'gedcom.ged'); z.close()",
                                                   scratch.path("byron.gdz").path, scratch.path("byron.ged").path])
        #expect(zip.status == 0, "\(zip.stderr)")
        #expect(await scratch.run("import", scratch.path("byron.gdz").path, "-o", scratch.path("gdz.json").path) == 0)
        #expect(try scratch.read("gdz.json") == (try scratch.read("byron.json")))
        try scratch.write("not.ged", "just some text")
        #expect(await scratch.run("import", scratch.path("not.ged").path, "-o", scratch.path("x.json").path) == 1)
    }
}

@Suite struct ContactsCommandTests {
    static let family = """
    BEGIN:VCARD\r\nVERSION:3.0\r\nUID:mum\r\nN:Holm;Eva;;;\r\nFN:Eva Holm\r\nBDAY:1962-05-01\r\nitem1.X-ABRELATEDNAMES:Nils Holm\r\nitem1.X-ABLabel:_$!<Spouse>!$_\r\n\
    item2.X-ABRELATEDNAMES:Ida\r\nitem2.X-ABLabel:_$!<Daughter>!$_\r\nitem3.X-ABRELATEDNAMES:Bo\r\nitem3.X-ABLabel:_$!<Son>!$_\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:3.0\r\nUID:dad\r\nN:Holm;Nils;;;\r\nFN:Nils Holm\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ida\r\nN:Holm;Ida;;;\r\nFN:Ida Holm\r\nBDAY:1991-01-01\r\nEND:VCARD\r\n\
    BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bo\r\nN:Holm;Bo;;;\r\nFN:Bo Holm\r\nBDAY:1989-01-01\r\nitem1.X-ABRELATEDNAMES:Nobody\r\nitem1.X-ABLabel:_$!<Sister>!$_\r\nEND:VCARD\r\n
    """

    @Test func rendersContactsInOneCommand() async throws {
        let scratch = try Scratch()
        try scratch.write("contacts.vcf", Self.family)
        #expect(await scratch.run("render", scratch.path("contacts.vcf").path, "-o", scratch.path("family.svg").path) == 0)
        let svg = try scratch.read("family.svg")
        for id in ["mum", "dad", "ida", "bo"] { #expect(svg.contains("data-member=\"\(id)\"")) }
        // Bo (1989) is drawn left of Ida (1991): siblings in birth order.
        func x(of id: String) throws -> Int {
            let group = try #require(svg.range(of: "data-member=\"\(id)\""))
            let rect = try #require(svg.range(of: "<rect class=\"box\" x=\"", range: group.upperBound..<svg.endIndex))
            return try #require(Int(svg[rect.upperBound...].prefix { $0.isNumber }))
        }
        #expect(try x(of: "bo") < x(of: "ida"))
    }

    @Test func importIntoMergesAndStrictWritesNothing() async throws {
        let scratch = try Scratch()
        try scratch.write("contacts.vcf", Self.family)
        let tree = scratch.path("tree.json").path
        let before = try scratch.read("tree.json")
        // Bo's "Nobody" matches no card: --strict refuses and the tree is left as it was.
        #expect(await scratch.run("import", scratch.path("contacts.vcf").path, "--into", tree, "--strict") == 1)
        #expect(try scratch.read("tree.json") == before)
        #expect(await scratch.run("import", scratch.path("contacts.vcf").path, "--into", tree) == 0)
        let merged = try FamilyGraph(json: Array(try scratch.read("tree.json").utf8))
        let original = try FamilyGraph(json: Array(before.utf8))
        #expect(merged.members.count == original.members.count + 4)
        #expect(merged.member("bo")?.sex == .male)
        // A card gone from the next export: its member is kept, marked removed, and no longer drawn.
        try scratch.write("fewer.vcf", String(Self.family.split(separator: "BEGIN:VCARD").dropLast().map { "BEGIN:VCARD" + $0 }.joined()))
        #expect(await scratch.run("import", scratch.path("fewer.vcf").path, "--into", tree) == 0)
        #expect(try scratch.read("tree.json").contains("\"removed\": true"))
        #expect(await scratch.run("render", tree, "-o", scratch.path("tree.svg").path) == 0)
        #expect(!(try scratch.read("tree.svg")).contains("data-member=\"bo\""))
        #expect(try scratch.read("tree.svg").contains("data-member=\"ida\""))
    }

    @Test func theContactsExampleRendersAsCommittedAndImportsIntoASchemaValidTree() async throws {
        let scratch = try Scratch()
        let example = Scratch.packageRoot.appendingPathComponent("examples/contacts.vcf").path
        #expect(await scratch.run("render", example, "-o", scratch.path("contacts.svg").path) == 0)
        let committed = Scratch.packageRoot.appendingPathComponent("examples/contacts.svg")
        if ProcessInfo.processInfo.environment["FAMILYTREE_RECORD"] == "1" { try scratch.read("contacts.svg").write(to: committed, atomically: true, encoding: .utf8) }
        #expect(try scratch.read("contacts.svg") == String(contentsOf: committed, encoding: .utf8), "examples/contacts.svg is stale: re-record with FAMILYTREE_RECORD=1")

        #expect(await scratch.run("import", example, "-o", scratch.path("contacts.json").path) == 0)
        let check = "import json, sys, jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))"
        let result = try ChildProcess.run("python3", ["-c", check, Scratch.packageRoot.appendingPathComponent("schema/tree.schema.json").path, scratch.path("contacts.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.read("contacts.json").contains("\"phones\""))
    }

    @Test func intoIsForContactsOnly() async throws {
        let scratch = try Scratch()
        try scratch.write("byron.ged", ImportCommandTests.gedcom)
        #expect(await scratch.run("import", scratch.path("byron.ged").path, "--into", scratch.path("tree.json").path) != 0)
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

@Suite struct DirectGEDCOMReadingTests {
    @Test(.requiresSharedData("gedcom-samples/kennedy.ged")) func surnameCaseAppliesWhereverAGEDCOMFileIsReadDirectly() async throws {
        let kennedy = Scratch.packageRoot.appendingPathComponent("../shared/data/gedcom-samples/kennedy.ged")
        try #require(FileManager.default.fileExists(atPath: kennedy.path), "../shared/data is part of the test set-up")
        let scratch = try Scratch()
        #expect(await scratch.run("render", kennedy.path, "--surname-case", "title", "-o", scratch.path("title.svg").path) == 0)
        #expect(await scratch.run("render", kennedy.path, "-o", scratch.path("as-is.svg").path) == 0)
        #expect(try scratch.read("title.svg").contains(">John Fitzgerald Kennedy<"))
        #expect(try !scratch.read("title.svg").contains("KENNEDY"))
        #expect(try scratch.read("as-is.svg").contains(">John Fitzgerald KENNEDY<"))
        #expect(await scratch.run("export", kennedy.path, "--surname-case", "title", "-o", scratch.path("out.ged").path) == 0)
        #expect(try scratch.read("out.ged").contains("1 NAME John Fitzgerald /Kennedy/"))
        #expect(await scratch.run("validate", kennedy.path, "--surname-case", "loud") == 2)
    }
}

@Suite struct SuggestCommandTests {
    @Test func suggestsTheExamplesFamilyAndMarksWhatIsAlreadyInTheTree() async throws {
        let scratch = try Scratch()
        let contacts = Scratch.packageRoot.appendingPathComponent("examples/contacts.vcf").path
        #expect(await scratch.run("import", contacts, "-o", scratch.path("okafor.json").path) == 0)
        let output = try ProcessTests().run(["suggest", contacts, "--tree", scratch.path("okafor.json").path, "--format", "json"])
        #expect(output.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 9)
        #expect(rows.first?["name"] as? String == "Grace Okafor")
        #expect(rows.allSatisfy { $0["added"] as? Bool == true }, "every card was imported")
        let table = try ProcessTests().run(["suggest", contacts])
        #expect(table.stdout.contains("5 suggested (*) of 9 cards"))
        try scratch.write("notes.txt", "not a card\n")
        #expect(await scratch.run("suggest", scratch.path("notes.txt").path) == 1)
        #expect(await scratch.run("suggest", contacts, "--limit", "-1") == 2)
    }
}

@Suite struct MissingYearTests {
    @Test func birthdaysWithoutAYearAreListedAndCompletedByEdit() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        let before = try ProcessTests().run(["birthdays", tree, "--missing-year", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Tom Carter"])
        #expect(rows.first?["birthday"] as? String == "--07-14")
        #expect(await scratch.run("edit", "Tom Carter", "--birthday", "1980-07-14", "--tree", tree) == 0)
        let after = try ProcessTests().run(["birthdays", tree, "--missing-year", "--format", "json"])
        #expect(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [Any] != nil)
        #expect(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }
}

@Suite struct VCardExportCommandTests {
    @Test func aVcfOutputIsContactCardsThatImportBack() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("export", tree, "-o", scratch.path("family.vcf").path) == 0)
        let cards = try scratch.read("family.vcf")
        #expect(cards.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
        #expect(cards.components(separatedBy: "BEGIN:VCARD").count - 1 == 22)
        #expect(await scratch.run("export", tree, "--format", "vcard", "--vcard-version", "3.0", "-o", scratch.path("apple.txt").path) == 0)
        #expect(try scratch.read("apple.txt").contains("X-ABLabel:_$!<Mother>!$_"))
        #expect(await scratch.run("import", scratch.path("family.vcf").path, "-o", scratch.path("back.json").path) == 0)
        #expect(await scratch.run("relation", "Peter Müller", "Karl Friedrich Müller", "--tree", scratch.path("back.json").path) == 0)
        #expect(await scratch.run("export", tree, "--vcard-version", "2.1", "-o", scratch.path("x.vcf").path) == 2)
    }

    /// Back to the phone with everything the phone had: the original cards, each with only what the
    /// tree changed, other apps' lines kept; a member added in the tree gets a card of the same version.
    @Test func exportOntoTheOriginalCardsKeepsEveryOtherLine() async throws {
        let scratch = try Scratch()
        let original = Scratch.packageRoot.appendingPathComponent("examples/contacts.vcf").path
        // Another app's field on Ruth's card, which familytree does not read.
        let withExtra = try String(contentsOfFile: original, encoding: .utf8).replacingOccurrences(of: "FN:Ruth Mensah\r\n", with: "FN:Ruth Mensah\r\nX-SOCIALPROFILE;type=mastodon:https://example.social/@ruth\r\n")
        try scratch.write("phone.vcf", withExtra)
        let tree = scratch.path("family.json").path
        #expect(await scratch.run("import", scratch.path("phone.vcf").path, "-o", tree) == 0)
        #expect(await scratch.run("edit", "Amara Okafor", "--birthday", "1990-12-02", "--tree", tree) == 0)
        #expect(await scratch.run("add", "Zuri Okafor", "--born", "2026-11-20", "--child-of", "Amara Okafor", "--tree", tree) == 0)
        #expect(await scratch.run("export", tree, "-o", scratch.path("back.vcf").path, "--onto", scratch.path("phone.vcf").path) == 0)

        let back = try scratch.read("back.vcf")
        let lines = Set(back.components(separatedBy: "\r\n"))
        for line in withExtra.components(separatedBy: "\r\n") where !line.isEmpty && !line.hasPrefix("BDAY;X-APPLE-OMIT-YEAR=1604:1604-12-02") {
            #expect(lines.contains(line), "kept: \(line)")
        }
        #expect(back.contains("BDAY:1990-12-02\r\n") && !back.contains("1604-12-02"))
        #expect(back.contains("X-SOCIALPROFILE;type=mastodon:https://example.social/@ruth"))
        let zuri = try #require(back.components(separatedBy: "BEGIN:VCARD").last)
        #expect(zuri.contains("VERSION:3.0") && zuri.contains("FN:Zuri Okafor") && zuri.contains("X-ABRELATEDNAMES:Amara Okafor"))
        #expect(back.components(separatedBy: "BEGIN:VCARD").count - 1 == 10)

        // Imported again, it is the tree: ten people, Amara's year, Zuri her child.
        #expect(await scratch.run("import", scratch.path("back.vcf").path, "-o", scratch.path("again.json").path) == 0)
        let again = try scratch.read("again.json")
        #expect(again.contains("\"birthday\": \"1990-12-02\""))
        let relation = try ChildProcess.run(ProcessTests.binary, ["relation", "Amara Okafor", "Zuri Okafor", "--tree", scratch.path("again.json").path])
        #expect(relation.stdout.contains("Zuri Okafor is Amara Okafor's child"), "\(relation.stdout)")
        #expect(await scratch.run("export", tree, "-o", scratch.path("p.vcf").path, "--onto", scratch.path("phone.vcf").path, "--private", "living") == 2)
    }
}
