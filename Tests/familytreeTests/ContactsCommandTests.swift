import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

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
