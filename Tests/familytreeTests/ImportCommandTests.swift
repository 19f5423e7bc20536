import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

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
