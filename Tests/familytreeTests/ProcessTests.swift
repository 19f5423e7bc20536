import Foundation
import Testing

/// The real `familytree` binary: standard input and output, stderr messages, exit statuses.
/// `swift build` builds it beside the test bundle (the README's test command runs it first).
@Suite struct ProcessTests {
    static let binary: URL = {
        let buildDirectory = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [buildDirectory, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("familytree") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? buildDirectory.appendingPathComponent("familytree")
    }()

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    func run(_ arguments: [String], input: String = "") throws -> Result {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary.path), "build the CLI first: swift build (looked for \(ProcessTests.binary.path))")
        let process = Process()
        process.executableURL = ProcessTests.binary
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: out, stderr: err)
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
