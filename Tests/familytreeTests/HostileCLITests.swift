import Foundation
import Testing
import FamilyTree
import FamilyTreeCalendar
import FamilyTreeFiles
import TestSupport
@testable import familytree

/// The command line against hostile files and paths: links, devices, read-only files, killed
/// writes, endless input, zip bombs, damaged archives, control characters meant for the terminal.
@Suite struct HostileCLITests {
    @Test func aSymlinkedTreeIsWrittenThroughItsLinkAndKeepsItsMode() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.path("real"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: scratch.path("tree.json"), to: scratch.path("real/tree.json"))
        chmod(scratch.path("real/tree.json").path, 0o600)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("tree.json").path, withDestinationPath: "real/tree.json")
        #expect(await scratch.run("link", "mei", "padraig", "--tree", scratch.path("tree.json").path) == 0)
        // Still a link, and the file it points at got the edit.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("tree.json").path) == "real/tree.json")
        #expect(try scratch.read("real/tree.json").contains("\"toNewParent\": \"padraig\""))
        var status = stat()
        #expect(stat(scratch.path("real/tree.json").path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    @Test func aReadOnlyTreeIsRefusedAndUntouched() async throws {
        let scratch = try Scratch()
        let before = try scratch.read("tree.json")
        chmod(scratch.path("tree.json").path, 0o444)
        // As root too: root may write anything, but a file made read-only says "do not change me".
        #expect(await scratch.run("link", "mei", "padraig", "--tree", scratch.path("tree.json").path) == 1)
        #expect(try scratch.read("tree.json") == before)
        #expect(try scratch.files() == ["tree.json"])
    }

    @Test func devicesAreWrittenToNotReplaced() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("render", scratch.path("tree.json").path, "-o", "/dev/null") == 0)
        #expect(await scratch.run("export", scratch.path("tree.json").path, "-o", "/dev/null") == 0)
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func temporaryFilesArePrivateAndAKilledWritesLeftoversAreRemoved() throws {
        let scratch = try Scratch()
        // A run killed mid-write left its temporary file; its process is gone.
        let abandoned = scratch.path(".out.svg.2147483000.12345.tmp")
        try "half a drawing".write(to: abandoned, atomically: false, encoding: .utf8)
        // Not ours to remove: another file's leftover, a live process's file, a name only like ours.
        let kept = [".other.svg.2147483000.12345.tmp", ".out.svg.\(getppid()).7.tmp", ".out.svg.notes.tmp", ".out.svg.1.2.3.tmp"]
        for name in kept { try "someone's".write(to: scratch.path(name), atomically: false, encoding: .utf8) }
        var temporaryMode: mode_t = 0
        try TreeFiles.write(to: scratch.path("out.svg").path) { output in
            let names = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)
            let temporary = try #require(names.first { $0.hasPrefix(".out.svg.\(getpid()).") })
            var status = stat()
            _ = stat(scratch.path(temporary).path, &status)
            temporaryMode = status.st_mode & 0o777
            try output.write(Array("<svg/>".utf8)[...])
        }
        #expect(temporaryMode == 0o600)
        #expect(try scratch.files() == (kept + ["out.svg", "tree.json"]).sorted())
        #expect(try scratch.read("out.svg") == "<svg/>")
    }

    /// A folder entry's name is read up to its end, never as the 256 bytes `d_name` is declared:
    /// here the record is the last thing before a page no one may read, as the last record of
    /// `readdir`'s buffer can be (copying the declared field crashed writes into large folders).
    @Test func aFolderEntrysNameIsReadNoFurtherThanItsEnd() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(memory != MAP_FAILED)
        defer { munmap(memory, 2 * page) }
        try #require(mprotect(memory + page, page, PROT_NONE) == 0)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let name = Array(".out.svg.42.7.tmp".utf8) + [0]
        // The record ends where the readable page does (its start kept aligned for dirent).
        let start = (page - nameOffset - name.count) & ~(MemoryLayout<dirent>.alignment - 1)
        name.withUnsafeBytes { (memory + start + nameOffset).copyMemory(from: $0.baseAddress!, byteCount: name.count) }
        let entry = (memory + start).assumingMemoryBound(to: dirent.self)
        #expect(Array(TreeFiles.entryName(entry)) == name.dropLast())
    }

    @Test func aStreamIsReadWholeThroughGrowingChunks() throws {
        let scratch = try Scratch()
        let pipe = scratch.path("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        // Three megabytes and a few bytes: more than every chunk size the reader goes through.
        let sent = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 16) }
        let writer = Thread {
            let descriptor = open(pipe, O_WRONLY)
            sent.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    guard written > 0 else { break }
                    offset += written
                }
            }
            close(descriptor)
        }
        writer.start()
        #expect(try TreeFiles.read(pipe) == sent)
    }

    @Test func anEndlessStreamIsAnErrorNotAllTheMemory() throws {
        #expect {
            _ = try TreeFiles.read("/dev/zero", limit: 4 << 20)
        } throws: { error in
            String(describing: error).contains("is larger than 4 MiB")
        }
    }

    /// A GEDZIP archive made by Python's zipfile, with `gedcom.ged` holding `text`.
    func gedzip(_ scratch: Scratch, _ name: String, _ script: String) throws -> String {
        let path = scratch.path(name).path
        let result = try ChildProcess.run("python3", ["-c", "import sys, zipfile\n" + script, path])
        try #require(result.status == 0, "\(result.stderr)")
        return path
    }

    func expectRefused(_ archive: String, saying reason: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            _ = try FamilyFile.gedcom(try TreeFiles.read(archive), name: archive)
        } throws: { error in
            String(describing: error).contains(reason)
        }
    }

    @Test func aZipBombIsRefusedBeforeItExpands() throws {
        let scratch = try Scratch()
        let bomb = try gedzip(scratch, "bomb.gdz", """
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('gedcom.ged', b'0 HEAD\\n1 GEDC\\n2 VERS 7.0\\n1 NOTE ' + b'A' * (200 << 20) + b'\\n0 TRLR\\n')
        """)
        expectRefused(bomb, saying: "would expand to")
    }

    @Test func aDamagedArchiveIsRefusedNotImportedWithANameLost() async throws {
        let scratch = try Scratch()
        let damaged = try gedzip(scratch, "damaged.gdz", """
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
            z.writestr('gedcom.ged', b'0 HEAD\\n1 GEDC\\n2 VERS 7.0\\n0 @I1@ INDI\\n1 NAME Johann /Bach/\\n0 TRLR\\n')
        data = bytearray(open(sys.argv[1], 'rb').read())
        data[data.index(b'Johann')] = ord('X')
        open(sys.argv[1], 'wb').write(data)
        """)
        #expect(await scratch.run("validate", damaged) == 1)
        expectRefused(damaged, saying: "CRC-32")
    }

    @Test func aHugeGenerationCountIsTheWholeFamilyNotALoop() async throws {
        let scratch = try Scratch()
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--root", "peter", "--generations", "99999999999", "-o", scratch.path("all.svg").path) == 0)
        #expect(await scratch.run("render", scratch.path("tree.json").path, "--root", "peter", "--generations", "50", "-o", scratch.path("fifty.svg").path) == 0)
        #expect(try scratch.read("all.svg") == scratch.read("fifty.svg"))
    }

    @Test func usageErrorsExitTwoAndBadInputExitsOne() async throws {
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("birthdays", tree, "--today", "9999-99-99") == 2)
        #expect(await scratch.run("calendar", tree, "--today", "x", "--ics") == 2)
        try scratch.write("bad.ged", "0 HEAD\n0 @I1@ INDI\n1 NAME A\n")
        try scratch.write("bad.json", "{\"members\": [{\"id\": \"a\", \"firstName\": \"A\", \"birthday\": 1e400}]}")
        #expect(await scratch.run("validate", scratch.path("bad.json").path) == 1)
    }

    @Test func aFileOfAnotherKindIsNamedAsSuch() async throws {
        let scratch = try Scratch()
        try scratch.write("passwd", "root:x:0:0:root:/root:/bin/bash\n")
        #expect(await scratch.run("render", scratch.path("passwd").path, "-o", scratch.path("x.svg").path) == 1)
        #expect {
            _ = try TreeFiles.loadGraph(scratch.path("passwd").path)
        } throws: { error in
            String(describing: error).contains("is not a tree file: expected tree.json")
        }
        #expect(try scratch.files() == ["passwd", "tree.json"])
    }

    @Test func theEndOfTimeRendersEveryCalendar() async throws {
        let scratch = try Scratch()
        try scratch.write("late.json", #"{"members": [{"id": "a", "firstName": "A", "birthday": "9999-12-31"}], "unions": []}"#)
        let tree = scratch.path("late.json").path
        #expect(await scratch.run("birthdays", tree, "--today", "9999-12-31") == 0)
        #expect(await scratch.run("calendar", tree, "--month", "9999-12", "-o", scratch.path("m.svg").path) == 0)
        #expect(await scratch.run("calendar", tree, "--year", "9999", "-o", scratch.path("y.svg").path) == 0)
        #expect(await scratch.run("calendar", tree, "--ics", "--today", "9999-12-31", "-o", scratch.path("c.ics").path) == 0)
    }
}

/// The real binary, for what reaches the terminal.
@Suite struct TerminalOutputTests {
    @Test func controlCharactersInNamesNeverReachTheTerminal() throws {
        let binary = ProcessTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the CLI first: swift build")
        let tree = #"{"members": [{"id": "e\u001b]0;owned\u0007", "firstName": "Eve\u001b[2J\u009b31m", "birthday": "1990-05-05"}], "unions": []}"#
        let listed = try ChildProcess.run(binary, ["birthdays", "-", "--today", "2026-01-01"], input: tree)
        #expect(listed.status == 0)
        #expect(listed.stdout.contains(#"Eve\u{1B}[2J\u{9B}31m"#))
        let refused = try ChildProcess.run(binary, ["render", "-", "--root", "Eve\u{1B}[2J"], input: tree)
        #expect(refused.status == 1)
        for output in [listed.stdout, listed.stderr, refused.stdout, refused.stderr] {
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{7}" })
        }
    }
}

/// Small things a user hits (first weekday by number, relative months).
@Suite struct CalendarOptionTests {
    @Test func weekdaysByNumberCountFromSundayAndMonthsFromToday() async throws {
        #expect(Weekday(argument: "0") == .sunday && Weekday(argument: "7") == .sunday && Weekday(argument: "1") == .monday && Weekday(argument: "6") == .saturday)
        #expect(Weekday(argument: "8") == nil && Weekday(argument: "Sun") == .sunday)
        #expect(Weekday.allValueStrings.first == "monday")
        let scratch = try Scratch()
        let tree = scratch.path("tree.json").path
        #expect(await scratch.run("calendar", tree, "--month", "next", "--today", "2026-12-15", "--first-weekday", "0", "-o", scratch.path("next.svg").path) == 0)
        #expect(try scratch.read("next.svg").contains("data-date=\"2027-01-31\""))
        #expect(await scratch.run("calendar", tree, "--month", "last", "--today", "2027-01-15", "-o", scratch.path("last.svg").path) == 0)
        #expect(try scratch.read("last.svg").contains("data-date=\"2026-12-31\""))
        #expect(await scratch.run("calendar", tree, "--month", "someday") == 2)
    }
}
