import Foundation
import Testing
import TestSupport

/// The real `familytree` binary: standard input and output, stderr messages, exit statuses.
/// `swift build` builds it beside the test bundle (the README's test command runs it first).
@Suite struct ProcessTests {
    static let binary = ChildProcess.productsDirectory.appendingPathComponent("familytree")

    func run(_ arguments: [String], input: String = "") throws -> ChildProcess.Result {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary.path), "build the CLI first: swift build (looked for \(ProcessTests.binary.path))")
        return try ChildProcess.run(ProcessTests.binary, arguments, input: input)
    }

    /// libcurl is loaded by the first HTTP request, not linked: linked (as URLSession links it on
    /// Linux), it and the thirty libraries it needs were mapped at every start, a third of a small
    /// chart's time (docs/layout.md).
    @Test func theCommandDoesNotLinkLibcurl() throws {
        let dynamic = try ChildProcess.run("readelf", ["--dynamic", Self.binary.path])
        #expect(dynamic.status == 0 && dynamic.stdout.contains("(NEEDED)"), "\(dynamic.stderr)")
        #expect(!dynamic.stdout.contains("libcurl") && !dynamic.stdout.contains("FoundationNetworking"), "\(dynamic.stdout)")
    }

    @Test func rendersFromStandardInputToStandardOutput() throws {
        let tree = try String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/family.json"), encoding: .utf8)
        let result = try run(["render", "-"], input: tree)
        #expect(result.status == 0)
        let committed = try String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/family.svg"), encoding: .utf8)
        #expect(result.stdout == committed)
        let dot = try run(["render", "-", "-o", "-", "--format", "dot"], input: tree)
        #expect(dot.status == 0 && dot.stdout.hasPrefix("digraph family"))
    }

    /// The README's completion commands: each shell's script knows the commands and their options.
    @Test(arguments: ["bash", "zsh", "fish"])
    func shellCompletions(shell: String) throws {
        let result = try run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for word in ["render", "calendar", "relation", "surname-case", "no-siblings"] {
            #expect(result.stdout.contains(word), "\(shell): \(word)")
        }
    }

    @Test func malformedJSONOnStandardInputNamesLineAndColumn() throws {
        let result = try run(["validate", "-"], input: "{\n  \"members\": [}\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("<stdin>: malformed JSON at line 2, column 15"))
        #expect(result.stdout.isEmpty)
    }

    @Test func validationListsEveryProblem() throws {
        let result = try run(["validate", "-"], input: #"{"members": [{"id": "a", "firstName": "A"}, {"id": "a", "firstName": "B", "spouse": "zz"}]}"#)
        #expect(result.status == 1)
        #expect(result.stderr.contains("2 problems"))
        #expect(result.stderr.contains("duplicate member id \"a\""))
        #expect(result.stderr.contains("unknown member id \"zz\""))
    }

    @Test func helpVersionAndUsage() throws {
        let help = try run(["render", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Examples:"))
        // A stage's default by its name, not its number.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("(values: ranking, ordering, placement; default: placement)"), "\(help.stdout)")
        for command in ["link", "validate", "generate"] {
            let commandHelp = try run([command, "--help"])
            #expect(commandHelp.status == 0 && commandHelp.stdout.contains("Examples:"), "\(command)")
        }
        let version = try run(["--version"])
        #expect(version.status == 0 && version.stdout.contains("Graphviz support"))
        let usage = try run(["render"])
        #expect(usage.status == 2 && usage.stderr.contains("Missing expected argument"))
    }
}

@Suite struct BirthdaysProcessTests {
    @Test func countdownsAreRedOnlyOnATerminal() throws {
        let tree = Scratch.packageRoot.appendingPathComponent("examples/family.json").path
        let piped = try ProcessTests().run(["birthdays", tree, "--today", "2026-11-22"])
        #expect(piped.status == 0)
        #expect(piped.stdout.hasPrefix("NAME "))
        #expect(piped.stdout.contains("Mei Carter") && piped.stdout.contains("9 days"))
        #expect(!piped.stdout.contains("\u{1B}["), "no colour when piped")
        #expect(!piped.stdout.contains("Karl"), "the deceased only on request")
    }
}

/// The compiled example (Examples/BuildATree): the public API builds a tree and draws it.
@Suite struct ExampleTargetTests {
    @Test func theExampleBuildsATreeInCodeAndDrawsIt() throws {
        let binary = ChildProcess.productsDirectory.appendingPathComponent("familytree-example")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the package first: swift build")
        let result = try ChildProcess.run(binary, [])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("<?xml"))
        #expect(result.stdout.components(separatedBy: "data-member=").count - 1 == 6)
        #expect(result.stdout.contains("Ada Lovelace") && result.stdout.contains("1815–1852"))
    }
}

/// `familytree relation` as a person runs it.
@Suite struct RelationCommandTests {
    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary.path), "build the CLI first: swift build")
        return try ChildProcess.run(ProcessTests.binary, ["relation"] + arguments + ["--tree", Scratch.packageRoot.appendingPathComponent("examples/family.json").path])
    }

    @Test func saysTheClosestCountsTheRestAndListsThemAll() throws {
        let closest = try run(["Peter Müller", "Emily Carter"])
        #expect(closest.status == 0)
        #expect(closest.stdout == "Emily Carter is Peter Müller's wife (and related 1 more way: --all lists them)\n")
        let all = try run(["peter", "emily", "--all"])
        #expect(all.stdout.contains("Emily Carter is Peter Müller's first cousin\n  common ancestors: Heinrich Müller and Greta Schäfer\n"))
        let json = try run(["sophie", "cian", "--format", "json"])
        #expect(json.stdout.contains("\"relationship\": \"first cousin 1x removed\""))
        // Joined only through marriages: the chain, and with --all the people on it.
        let chain = try run(["zoe", "tomas", "--all"])
        #expect(chain.status == 0)
        #expect(chain.stdout.hasPrefix("Tomás Ó Briain is Zoë Dubois's father-in-law's former wife's father (connected through 2 marriages, not by blood)\n  links: Lukas Müller (Zoë Dubois's husband) → "), "\(chain.stdout)")
        #expect(chain.stdout.hasSuffix("  path: Zoë Dubois → Lukas Müller → Karl Friedrich Müller → Siobhán Ó Briain → Tomás Ó Briain\n"), "\(chain.stdout)")
        let chainJSON = try run(["zoe", "tomas", "--format", "json"])
        #expect(chainJSON.stdout.contains("\"words\": \"father-in-law's former wife's father\"") && chainJSON.stdout.contains("\"marriages\": 2"), "\(chainJSON.stdout)")
        #expect(try run(["nobody", "tomas"]).status == 1)
        // Nothing joins a newcomer to anyone: not related is an answer, not an error.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appendingPathComponent("tree.json")
        var family = try Data(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/family.json"))
        let text = String(decoding: family, as: UTF8.self).replacingOccurrences(of: #""members": ["#, with: #""members": [{"id": "nora", "firstName": "Nora", "lastName": "Newcomer"}, "#)
        family = Data(text.utf8)
        try family.write(to: tree)
        let none = try ChildProcess.run(ProcessTests.binary, ["relation", "zoe", "nora", "--tree", tree.path])
        #expect(none.status == 0 && none.stdout == "Nora Newcomer and Zoë Dubois are not related in \(tree.path)\n", "\(none.stdout)\(none.stderr)")
    }

    /// A line of 100 generations is followed to its end (it was once cut at 64: "not related");
    /// lines that rejoin at every generation stop at the search's budget, and the answer says the
    /// two may be related instead of "not related".
    @Test func farRelativesAreFoundAndAnUnfinishedSearchSaysSo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func tree(_ count: Int, ladder: Bool) throws -> String {
            let members = (0..<count).map { "{\"id\": \"p\($0)\", \"firstName\": \"P\($0)\"}" }
            let unions = (1..<count).map { "{\"id\": \"u\($0)\", \"partners\": [\"p\($0 - 1)\"], \"children\": [\"p\($0)\"]}" }
            let links = ladder ? (2..<count).map { "{\"id\": \"x\($0)\", \"fromChild\": \"p\($0)\", \"toNewParent\": \"p\($0 - 2)\"}" } : []
            let file = folder.appendingPathComponent(ladder ? "ladder.json" : "line.json")
            let json = "{\"members\": [\(members.joined(separator: ","))], \"unions\": [\(unions.joined(separator: ","))], \"crossBloodlineConnections\": [\(links.joined(separator: ","))]}"
            try Data(json.utf8).write(to: file)
            return file.path
        }
        let line = try ChildProcess.run(ProcessTests.binary, ["relation", "p0", "p99", "--tree", try tree(100, ladder: false)])
        #expect(line.status == 0 && line.stdout == "P99 is P0's 97th great-grandchild\n", "\(line.stdout)\(line.stderr)")
        let ladder = try tree(3_200, ladder: true)
        let unfinished = try ChildProcess.run(ProcessTests.binary, ["relation", "p0", "p3199", "--tree", ladder])
        #expect(unfinished.status == 0 && unfinished.stdout.contains("may be related") && !unfinished.stdout.contains("are not related"), "\(unfinished.stdout)")
        let json = try ChildProcess.run(ProcessTests.binary, ["relation", "p0", "p3199", "--tree", ladder, "--format", "json"])
        #expect(json.stdout.contains("\"complete\": false"), "\(json.stdout)")
        // Found, but by a search cut short (the first person's own ancestry is past the budget).
        let cut = try ChildProcess.run(ProcessTests.binary, ["relation", "p3199", "p3197", "--tree", ladder])
        #expect(cut.stdout.hasPrefix("P3197 is P3199's parent") && cut.stdout.contains("a closer way may be missed"), "\(cut.stdout)")
    }
}
