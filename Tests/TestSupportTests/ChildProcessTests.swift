import Foundation
import Testing
import TestSupport

/// The tests' own child-process runner: it must neither hang on a child that starts a daemon nor
/// wait for ever on one that never ends.
@Suite struct ChildProcessTests {
    @Test func aChildThatStartsADaemonIsDoneWhenItExits() throws {
        let started = Date()
        // The background sleep keeps no descriptor of ours: the run ends with the shell.
        let result = try ChildProcess.run("sh", ["-c", "sleep 60 >/dev/null 2>&1 </dev/null & echo started; exit 3"])
        #expect(result.status == 3)
        #expect(result.stdout == "started\n")
        #expect(Date().timeIntervalSince(started) < 30, "waited for the daemon, not for the shell")
    }

    @Test func aChildThatNeverEndsIsKilledAtItsTimeLimit() throws {
        #expect(throws: ChildProcess.TimedOut.self) {
            try ChildProcess.run("sleep", ["60"], timeLimit: 1)
        }
    }

    @Test func inputOutputErrorsAndSignalsArePassed() throws {
        let echoed = try ChildProcess.run("sh", ["-c", "cat; echo oops >&2"], input: String(repeating: "x", count: 300_000))
        #expect(echoed.stdout.count == 300_000)
        #expect(echoed.stderr == "oops\n")
        #expect(try ChildProcess.run("sh", ["-c", "kill -TERM $$"]).status == 128 + SIGTERM)
        let variable = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", "echo $FAMILYTREE_CHILD_TEST"], environment: ["FAMILYTREE_CHILD_TEST": "set"])
        #expect(variable.stdout == "set\n")
    }

    @Test func aStartedChildHoldsNoOtherDescriptorOfOurs() throws {
        // A pipe without close-on-exec, as Foundation's `Pipe` makes them: a child started now
        // must not keep its write end open (its reader would wait for ever for the end).
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { _ = close($0) } }
        let folder = try ScratchFolder("child")
        let listing = folder.path("descriptors.txt")
        let lister = try ChildProcess.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "ls /proc/$$/fd"], standardOutput: listing)
        #expect(try lister.wait() == 0)
        #expect(try String(contentsOf: listing, encoding: .utf8).split(separator: "\n") == ["0", "1", "2"])
    }

    @Test func aStartedChildIsSignalledAndWaitedForWithALimit() throws {
        let folder = try ScratchFolder("child")
        let errors = folder.path("errors.txt")
        let reader = try ChildProcess.start(URL(fileURLWithPath: "/bin/sh"), ["-c", "read line; echo \"got $line\" >&2; exit 4"], input: "hello\n", standardError: errors)
        #expect(try reader.wait() == 4)
        #expect(!reader.isRunning)
        #expect(try String(contentsOf: errors, encoding: .utf8) == "got hello\n")

        let sleeper = try ChildProcess.start(URL(fileURLWithPath: "/bin/sleep"), ["60"])
        #expect(sleeper.isRunning)
        #expect(throws: ChildProcess.TimedOut.self) { try sleeper.wait(timeLimit: 0.2) }
        #expect(!sleeper.isRunning, "killed at its limit")
        let stopped = try ChildProcess.start(URL(fileURLWithPath: "/bin/sleep"), ["60"])
        stopped.signal(SIGTERM)
        #expect(try stopped.wait(timeLimit: 10) == 128 + SIGTERM)
    }
}
