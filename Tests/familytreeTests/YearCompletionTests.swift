import Foundation
import Testing
import TestSupport

/// Completing birthdays without a year while contacts come in: `--year NAME=YYYY` for scripts,
/// and `--complete-years` asking on a real terminal (tmux, as a person would type).
@Suite struct YearCompletionTests {
    static let contacts = Scratch.packageRoot.appendingPathComponent("examples/contacts.vcf").path

    func familytree(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(ProcessTests.binary, arguments)
    }

    @Test func aScriptGivesTheYearsAsFlags() throws {
        let scratch = try Scratch()
        let tree = scratch.path("family.json").path
        let result = try familytree(["import", Self.contacts, "-o", tree, "--year", "Amara Okafor=1990"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("completed Amara Okafor: 1990-12-02"))
        #expect(try scratch.read("family.json").contains("\"birthday\": \"1990-12-02\""))
        #expect(try familytree(["birthdays", tree, "--missing-year"]).stdout.contains("Amara") == false)
    }

    @Test(arguments: [
        ("Amara Okafor=2999", "is in the future", 2),
        ("Amara Okafor=90", "is not a year", 2),
        ("Amara Okafor", "has no =", 2),
        ("Grace Okafor=1960", "is not one without a year", 2),
        ("Nobody=1960", "no member", 1),
    ])
    func aWrongYearIsRefusedAndNothingIsWritten(argument: String, message: String, status: Int32) throws {
        let scratch = try Scratch()
        let result = try familytree(["import", Self.contacts, "-o", scratch.path("family.json").path, "--year", argument])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("family.json").path))
    }

    @Test func asksOnATerminalUntilTheAnswerIsAYear() throws {
        let scratch = try Scratch()
        let tree = scratch.path("family.json").path
        // A leap-day birthday too: 1990 is no leap year, 1992 is.
        try scratch.write("cards.vcf", try String(contentsOfFile: Self.contacts, encoding: .utf8) + """
            BEGIN:VCARD\r\nVERSION:3.0\r\nN:Leap;Lea;;;\r\nFN:Lea Leap\r\nBDAY;X-APPLE-OMIT-YEAR=1604:1604-02-29\r\nEND:VCARD\r\n
            """)
        let session = "familytree-\(UUID().uuidString.prefix(8))"
        let done = scratch.path("status").path
        let command = "\(ProcessTests.binary.path) import \(scratch.path("cards.vcf").path) -o \(tree) --complete-years; echo $? > \(done)"
        #expect(try tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "20", command]).status == 0)
        defer { _ = try? tmux(["kill-session", "-t", session]) }

        try waitFor(session, toShow: "Amara Okafor, born Dec 2: the year? (Enter skips)")
        try type(session, "nineteen-ninety")
        try waitFor(session, toShow: "\"nineteen-ninety\" is not a year")
        try type(session, "1990")
        try waitFor(session, toShow: "Lea Leap, born Feb 29: the year?")
        try type(session, "1990")
        try waitFor(session, toShow: "Feb 29, 1990 does not exist")
        try type(session, "1992")
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: done), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try String(contentsOfFile: done, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let written = try scratch.read("family.json")
        #expect(written.contains("\"birthday\": \"1990-12-02\""))
        #expect(written.contains("\"birthday\": \"1992-02-29\""))
    }

    @Test func enterSkipsAndTheBirthdayStaysWithoutAYear() throws {
        let scratch = try Scratch()
        let tree = scratch.path("family.json").path
        let session = "familytree-\(UUID().uuidString.prefix(8))"
        let done = scratch.path("status").path
        let command = "\(ProcessTests.binary.path) import \(Self.contacts) -o \(tree) --complete-years; echo $? > \(done)"
        #expect(try tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "20", command]).status == 0)
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        try waitFor(session, toShow: "Amara Okafor, born Dec 2")
        try type(session, "")
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: done), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try scratch.read("family.json").contains("\"birthday\": \"--12-02\""))
    }

    @Test func withoutATerminalItSaysToUseFlags() throws {
        let scratch = try Scratch()
        let result = try familytree(["import", Self.contacts, "-o", scratch.path("family.json").path, "--complete-years"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("give the years with --year NAME=YYYY"))
    }

    // MARK: tmux

    /// A tmux server of the test run's own (`-L`), never the developer's.
    private func tmux(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "-L", "familytree-tests-\(getpid())"] + arguments, timeLimit: 30)
    }

    private func type(_ session: String, _ text: String) throws {
        if !text.isEmpty { _ = try tmux(["send-keys", "-t", session, "-l", text]) }
        _ = try tmux(["send-keys", "-t", session, "Enter"])
    }

    /// Waits until the pane shows `text` (10 s at most), then expects it.
    private func waitFor(_ session: String, toShow text: String) throws {
        let deadline = Date().addingTimeInterval(10)
        var screen = ""
        while Date() < deadline {
            screen = try tmux(["capture-pane", "-p", "-t", session]).stdout
            if screen.contains(text) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the terminal never showed \"\(text)\"; it shows:\n\(screen)")
    }
}
