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
        // Peter Müller and Emily Carter stand apart, her brother Tom between them, so the lines to
        // them cross less: 7 of the 8 couples side by side (all with --couples-side-by-side).
        #expect(ours["coupleAdjacencyPercent"]?.doubleValue == 87.5)
        let together = try JSONParser.parse(try ProcessTests().run(["stats", scratch.path("tree.json").path, "--couples-side-by-side", "--format", "json"]).stdout).root
        #expect(together["coupleAdjacencyPercent"]?.doubleValue == 100)
        #expect((ours["crossings"]?.doubleValue ?? .infinity) < (together["crossings"]?.doubleValue ?? 0))
        #expect(ours["birthOrderPercent"]?.doubleValue == 100)
        #expect(await scratch.run("stats", scratch.path("tree.json").path, "--format", "yaml") == 2)
        // Our lines are measured too; dot's splines are not.
        #expect(ours["closeLinePairs"]?.doubleValue == 0 && ours["overlappingLinePairs"]?.doubleValue == 0)
        #expect(ours["linesThroughBoxes"]?.doubleValue == 0)
        #expect(ours["marriageLineCrossings"]?.doubleValue.map { $0 >= 0 && $0 <= ours["crossings"]?.doubleValue ?? -1 } == true)
        #expect(dot["closeLinePairs"] == .null && dot["linesThroughBoxes"] == .null && dot["marriageLineCrossings"] == .null)
    }

    /// A person with thousands of partners, each couple drawn apart with a union point of its own
    /// across the layer: the measures held a piece of every marriage line at every union point's
    /// level: 504 MB for `stats` of 3,000 partners, 355 MB for a render of 2,400 (whose search
    /// measures each drawing), 148 MB for `stats` of 1,500. The time stays quadratic (each marriage
    /// line crosses each level), so the test's 1,000 keep a debug build's run short.
    @Test func thousandsOfPartnersAreMeasuredInLittleMemory() async throws {
        let scratch = try Scratch()
        let partners = 1_000
        var members = [#"{"id": "king", "firstName": "King", "sex": "male"}"#]
        var unions: [String] = []
        for index in 0..<partners {
            members.append(#"{"id": "w\#(index)", "firstName": "Wife \#(index)", "sex": "female"}"#)
            members.append(#"{"id": "c\#(index)", "firstName": "Child \#(index)"}"#)
            unions.append(#"{"id": "u\#(index)", "partners": ["king", "w\#(index)"], "children": ["c\#(index)"]}"#)
        }
        try scratch.write("harem.json", #"{"members": [\#(members.joined(separator: ","))], "unions": [\#(unions.joined(separator: ","))]}"#)
        // The peak read while it runs (every 2 ms): the pieces were held to the end of the count.
        let child = try ChildProcess.start(ProcessTests.binary, ["stats", scratch.path("harem.json").path])
        var peak = 0
        while child.isRunning {
            peak = max(peak, child.residentPeakKB(runningAs: ProcessTests.binary) ?? 0)
            usleep(2_000)
        }
        #expect(try child.wait() == 0)
        #expect(peak > 0 && peak < 60_000, "stats held \(peak / 1024) MB")
    }

    /// `--chart` measures the part that chart draws, for each engine alike; a fan is refused by name.
    @Test func statsMeasuresAChartsPart() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        let result = try ProcessTests().run(["stats", tree, "--chart", "ancestors", "jonas", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let ancestors = try JSONParser.parse(result.stdout).root
        let whole = try Self.metrics(scratch, "familytree")
        let members = try #require(ancestors["members"]?.doubleValue)
        #expect(members > 2 && members < whole["members"]!.doubleValue!, "Jonas, his parents and theirs, not everyone")
        let dot = try ProcessTests().run(["stats", tree, "--chart", "ancestors", "jonas", "--engine", "dot", "--format", "json"])
        #expect(try JSONParser.parse(dot.stdout).root["members"]?.doubleValue == members)
        let text = try ProcessTests().run(["stats", tree])
        #expect(text.stdout.contains("close line pairs        0\n") && text.stdout.contains("lines on top            0\n"))
        let fan = try ProcessTests().run(["stats", tree, "--chart", "fan", "jonas"])
        #expect(fan.status != 0 && fan.stderr.contains("a fan chart is drawn in rings"))
    }

    static func metrics(_ scratch: Scratch, _ engine: String) throws -> JSONValue {
        let result = try ProcessTests().run(["stats", scratch.path("tree.json").path, "--engine", engine, "--format", "json"])
        #expect(result.status == 0, "stats --engine \(engine): \(result.stderr)")
        return try JSONParser.parse(result.stdout).root
    }
}
