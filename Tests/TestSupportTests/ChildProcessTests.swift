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
}
