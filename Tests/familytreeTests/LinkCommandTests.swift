import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

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
