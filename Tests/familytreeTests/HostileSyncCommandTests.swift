import FamilyTree
import FamilyTreeSync
import Foundation
import Testing
import TestSupport

/// `familytree sync` with hostile user ids, store documents and trees, as a real process.
@Suite struct HostileSyncCommandTests {
    let scratch: Scratch
    let home: String

    init() throws {
        scratch = try Scratch()
        home = scratch.path("home").path
    }

    func sync(_ arguments: [String]) throws -> ChildProcess.Result {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary.path), "build the CLI first: swift build")
        return try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["FAMILYTREE_HOME=\(home)", ProcessTests.binary.path, "sync"] + arguments)
    }

    @Test func userIdsThatLookAlikeKeepTheirOwnStateAndDocuments() async throws {
        let store = "sqlite:" + scratch.path("store.sqlite").path
        let tree = scratch.path("tree.json").path
        let users = ["a.b", "a_b", "a/b", "a b", "a%20b", "a*b"]
        for user in users {
            let pushed = try sync(["push", tree, "--user", user, "--store", store, "--new-tree"])
            #expect(pushed.status == 0, "\(user): \(pushed.stderr)")
            #expect(pushed.stderr.contains(" 0 written") == false, "\(user) wrote nothing: \(pushed.stderr)")
        }
        // Each user's store rows are their own, and each device state is a file of its own.
        let states = try FileManager.default.contentsOfDirectory(atPath: home + "/sync").filter { $0.hasSuffix(".sqlite") && $0 != "files.sqlite" }
        #expect(states.count == users.count)
        let direct = try SQLiteDocumentStore(path: scratch.path("store.sqlite").path)
        for user in users { #expect(try await direct.pull(user: user, after: 0, limit: 1_000).count == 31) }
        // A pull as one user writes that user's tree only.
        _ = try await direct.push(user: "a.b", [DocumentWrite(key: DocumentKey(.familyTree, "only-a-dot-b"), body: #"{"firstName":"Dot","id":"only-a-dot-b"}"#, baseVersion: 0)])
        let pulled = try sync(["pull", "--user", "a_b", "--store", store, "-o", scratch.path("a_b.json").path])
        #expect(pulled.status == 0)
        #expect(try !scratch.read("a_b.json").contains("only-a-dot-b"))
    }

    @Test(arguments: [#"{"id": 5}"#, "[]", "{}", #"{"id": "someone-else", "firstName": "X"}"#, "not json"])
    func malformedStoreDocumentsStopThePullWithNothingWritten(body: String) async throws {
        let storePath = scratch.path("store.sqlite").path
        let direct = try SQLiteDocumentStore(path: storePath)
        _ = try await direct.push(user: "eve", [DocumentWrite(key: DocumentKey(.familyTree, "m1"), body: body, baseVersion: 0)])
        try scratch.write("before.json", "{\"members\": []}")
        let pulled = try sync(["pull", "--user", "eve", "--store", "sqlite:" + storePath, "-o", scratch.path("before.json").path])
        #expect(pulled.status == 1)
        #expect(pulled.stderr.contains("familyTree/m1") || pulled.stderr.contains("m1"))
        #expect(pulled.stderr.contains("nothing was written"))
        #expect(try scratch.read("before.json") == "{\"members\": []}")
    }

    /// The embedded store is a file anyone with write access can edit: a row of the wrong type is a
    /// store error with exit 1, never a trap (GRDB's subscripts trap where its decoders throw).
    @Test(arguments: ["UPDATE documents SET version = 'abc' WHERE doc_id = 'karl'", "UPDATE documents SET body = CAST(body AS BLOB) || x'ff' WHERE doc_id = 'karl'", "UPDATE documents SET deleted = 'maybe' WHERE doc_id = 'karl'"])
    func aStoreRowOfTheWrongTypeIsAStoreError(statement: String) async throws {
        let storePath = scratch.path("store.sqlite").path
        #expect(try sync(["push", scratch.path("tree.json").path, "--user", "alice", "--store", "sqlite:" + storePath, "--new-tree"]).status == 0)
        let edit = try ChildProcess.run("python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()", storePath, statement])
        try #require(edit.status == 0, "\(edit.stderr)")
        let pulled = try sync(["pull", "--user", "alice", "--store", "sqlite:" + storePath, "-o", scratch.path("fresh.json").path])
        #expect(pulled.status == 1, "\(pulled.stderr)")
        #expect(pulled.stderr.contains("store error") || pulled.stderr.contains("nothing was written"), "\(pulled.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("fresh.json").path))
    }

    /// A store restored from an older backup lost what it acknowledged: the device notices, says
    /// so and sends nothing; `--resend` sends its tree again, and another device gets it.
    @Test func aStoreRestoredFromAnOlderBackupIsNoticedAndRepaired() async throws {
        let storePath = scratch.path("store.sqlite").path
        let store = "sqlite:" + storePath
        let tree = scratch.path("tree.json").path
        #expect(try sync(["push", tree, "--user", "alice", "--store", store, "--new-tree"]).status == 0)
        let backup = try ChildProcess.run("python3", ["-c", "import sqlite3, sys; s = sqlite3.connect(sys.argv[1]); d = sqlite3.connect(sys.argv[2]); s.backup(d); d.close()", storePath, storePath + ".bak"])
        try #require(backup.status == 0, "\(backup.stderr)")
        #expect(try ChildProcess.run(ProcessTests.binary, ["add", "Lena Carter", "--born", "2026-11-20", "--tree", tree]).status == 0)
        #expect(try sync(["push", tree]).status == 0)
        // The older backup comes back.
        let restore = try ChildProcess.run("python3", ["-c", "import sqlite3, sys; s = sqlite3.connect(sys.argv[1]); d = sqlite3.connect(sys.argv[2]); s.backup(d); d.close()", storePath + ".bak", storePath])
        try #require(restore.status == 0, "\(restore.stderr)")
        let before = try scratch.read("tree.json")
        let noticed = try sync(["push", tree])
        #expect(noticed.status == 1 && noticed.stderr.contains("no longer has change") && noticed.stderr.contains("--resend"), "\(noticed.stderr)")
        #expect(try scratch.read("tree.json") == before)
        let repaired = try sync(["push", tree, "--resend"])
        #expect(repaired.status == 0 && repaired.stderr.contains("1 written"), "\(repaired.stderr)")
        let pulled = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["FAMILYTREE_HOME=\(scratch.path("other").path)", ProcessTests.binary.path, "sync", "pull", "--user", "alice", "--store", store, "-o", scratch.path("other.json").path])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(try scratch.read("other.json").contains("Lena"))
    }

    @Test func anInvalidTreeIsNeverPushed() async throws {
        try scratch.write("bad.json", #"{"members": [{"id": "a", "firstName": "A"}], "unions": [{"id": "u", "partners": ["a", "ghost"]}]}"#)
        let store = "sqlite:" + scratch.path("store.sqlite").path
        let pushed = try sync(["push", scratch.path("bad.json").path, "--user", "alice", "--store", store])
        #expect(pushed.status == 1)
        #expect(pushed.stderr.contains("unknown member id \"ghost\""))
        #expect(!pushed.stderr.contains("store error"))
        let direct = try SQLiteDocumentStore(path: scratch.path("store.sqlite").path)
        #expect(try await direct.pull(user: "alice", after: 0, limit: 10).isEmpty)
    }

    @Test func storeURLsThatNameNoPlaceAreRefused() throws {
        let tree = scratch.path("tree.json").path
        let missing = try sync(["push", tree, "--user", "alice", "--store", "sqlite:" + scratch.path("missing/dir/x.sqlite").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("missing").path))
        let empty = try sync(["push", tree, "--user", "alice", "--store", "sqlite:"])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("needs a file path"))
        #expect(!empty.stderr.contains("WAL"))
    }
}

/// Commands editing one tree file at once, as real processes: each that says it succeeded has its
/// change in the file (the file's folder is locked from the read to the rename).
@Suite struct ConcurrentEditTests {
    @Test func twentyAddsAndMarriagesAndLinksAtOnceAreAllKept() throws {
        let scratch = try Scratch()
        let tree = scratch.path("t.json").path
        let binary = ProcessTests.binary.path
        let script = """
            for i in $(seq 1 20); do ("$1" add "Person $i" --born 1990 --tree "$2" >/dev/null || echo FAILED add $i >&2) & done; wait
            for i in $(seq 1 10); do
              ("$1" add "Kid $i" --born 2000 --child-of "Person 1" "Person 2" --tree "$2" >/dev/null || echo FAILED kid $i >&2) &
              ("$1" marry "Person $((i + 2))" "Person $((i + 10))" --tree "$2" >/dev/null || echo FAILED marry $i >&2) &
            done; wait
            for i in $(seq 1 10); do ("$1" link "Kid $i" "Person $((i + 10))" --tree "$2" >/dev/null || echo FAILED link $i >&2) & done; wait
            """
        let run = try ChildProcess.run("sh", ["-c", script, "sh", binary, tree])
        #expect(run.status == 0 && !run.stderr.contains("FAILED"), "\(run.stderr)")
        let file = try TreeFile(json: Array(try scratch.read("t.json").utf8))
        #expect(file.graph.members.count == 30)
        #expect(file.graph.unions.count == 11)
        #expect(file.graph.unions.first { Set($0.partners) == ["person-1", "person-2"] }?.children.count == 10)
        #expect(file.graph.crossBloodlineConnections.count == 10)
    }
}
