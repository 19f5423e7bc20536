import Foundation
import Testing
import TestSupport

/// The CLI's server commands where no server is needed: where a token may go, and what a
/// device that is not signed in is told (the default build has these commands too).
@Suite struct ServerCLITests {
    func run(_ arguments: [String], home: String) throws -> ChildProcess.Result {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary.path), "build the CLI first: swift build")
        return try ChildProcess.run(ProcessTests.binary, arguments, environment: ["FAMILYTREE_HOME": home])
    }

    @Test func aTokenGoesOnlyWhereItIsSafeAndAStrangerIsToldToSignIn() throws {
        let folder = try ScratchFolder("server-cli")
        let home = folder.path("home").path
        let output = folder.path("tree.json").path
        // Plain HTTP to a name that only looks like this machine: refused before any request.
        let lookalike = try run(["sync", "pull", "-o", output, "--store", "http://127.example.org"], home: home)
        #expect(lookalike.status == 1)
        #expect(lookalike.stderr.contains("must be reached over https://"), "\(lookalike.stderr)")
        // A server this device never signed in to: told how, not "give --user".
        let stranger = try run(["sync", "pull", "-o", output, "--store", "https://family.example.org"], home: home)
        #expect(stranger.status == 1)
        #expect(stranger.stderr.contains("not signed in to https://family.example.org: run familytree login"), "\(stranger.stderr)")
        let invite = try run(["sync", "invite", "--store", "sqlite:\(folder.path("s.sqlite").path)", "--user", "alice", "--role", "viewer"], home: home)
        #expect(invite.status == 2)
        #expect(!FileManager.default.fileExists(atPath: output))
        // Without the Server trait, serve says how to get it; with it, a missing folder is named.
        let serve = try run(["serve", "--store", "sqlite:/nonexistent-folder/s.sqlite", "--port", "0"], home: home)
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("--traits Server") || serve.stderr.contains("/nonexistent-folder does not exist"), "\(serve.stderr)")
    }

    /// A server whose certificate this machine does not trust: no password goes there, the sign-in
    /// fails and says why, and nothing is written.
    @Test func aServerWithAnUntrustedCertificateGetsNoPassword() throws {
        let folder = try ScratchFolder("server-cli-tls")
        let (certificate, key) = try folder.selfSignedCertificate()
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/HTTP/test_server.py").path
        let (server, port) = try ChildProcess.startServer(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-u", script, certificate, key], output: folder.path("port.txt"))
        defer {
            server.signal(SIGKILL)
            _ = try? server.wait(timeLimit: 30)
        }
        let home = folder.path("home").path
        let login = try ChildProcess.run(
            ProcessTests.binary, ["login", "https://127.0.0.1:\(port)", "--user", "alice"], input: "alice's password\n",
            environment: ["FAMILYTREE_HOME": home])
        #expect(login.status == 1)
        #expect(login.stderr.contains("cannot reach https://127.0.0.1:\(port): the TLS connection failed"), "\(login.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/credentials.json"))
    }
}
