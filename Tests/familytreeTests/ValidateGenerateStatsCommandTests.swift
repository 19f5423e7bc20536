import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

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
