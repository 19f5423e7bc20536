import Foundation

/// Runs another program for a test: a tool found on the PATH or an executable file, with standard
/// input given as text and both outputs collected.
public enum ChildProcess {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `tool` (a name looked up on the PATH) with `arguments`.
    public static func run(_ tool: String, _ arguments: [String], input: String = "") throws -> Result {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, input: input)
    }

    /// Runs the executable at `executable` with `arguments`.
    /// `environment` is added to (or replaces variables of) the test's own.
    public static func run(_ executable: URL, _ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Feed standard input from another thread, so a large input cannot block on a full output pipe.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errorOutput = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errorOutput, as: UTF8.self))
    }

    /// The directory of the running test binary, where `swift build` puts the package's executables.
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }
}
