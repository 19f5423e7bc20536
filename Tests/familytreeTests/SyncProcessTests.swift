import FamilyTree
import FamilyTreeSync
import Foundation
import Testing
import TestSupport

/// `familytree sync` as a real process: killed mid-push, run twice at once, pulled on another device.
@Suite(.serialized, .threadsOfItsOwn) struct SyncProcessTests {
    let scratch: Scratch
    let home: String

    init() throws {
        scratch = try Scratch()
        home = scratch.path("home").path
    }

    /// Runs the binary with `FAMILYTREE_HOME` set, so the device's sync state lives in the scratch directory.
    func sync(_ arguments: [String], home: String? = nil) throws -> ChildProcess.Result {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary.path), "build the CLI first: swift build")
        return try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["FAMILYTREE_HOME=\(home ?? self.home)", ProcessTests.binary.path, "sync"] + arguments)
    }

    func startPush(tree: String, store: String) throws -> ChildProcess.Running {
        try ChildProcess.start(ProcessTests.binary, ["sync", "push", tree, "--user", "alice", "--store", store, "--new-tree"], environment: ["FAMILYTREE_HOME": home])
    }

    /// Two files of one tree on one device: a person added in one and pushed comes into the other
    /// with its pull, which then has nothing to push (each file's own state is its merge's base; a
    /// shared one took the person for deleted there, and its push deleted her from the tree).
    @Test func twoFilesOfOneTreeOnOneDeviceKeepEachOthersAdditions() throws {
        let store = "sqlite:\(scratch.path("store.sqlite").path)"
        let (tree, copy) = (scratch.path("family.json").path, scratch.path("copy.json").path)
        try FileManager.default.copyItem(atPath: Scratch.packageRoot.appendingPathComponent("examples/family.json").path, toPath: tree)
        #expect(try sync(["push", tree, "--user", "alice", "--store", store, "--new-tree"]).status == 0)
        #expect(try sync(["pull", "-o", copy, "--user", "alice", "--store", store]).status == 0)
        let add = try ChildProcess.run(ProcessTests.binary, ["add", "Lena Carter", "--born", "2026-11-20", "--tree", copy])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try sync(["push", copy]).status == 0)

        let pull = try sync(["pull", "-o", tree])
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try scratch.read("family.json").contains("\"Lena\""), "the addition came in")
        let status = try sync(["status", tree])
        #expect(status.stdout.contains("to push: 0 changed, 0 deleted"), "\(status.stdout)")
        #expect(try sync(["push", tree]).status == 0)
        #expect(try sync(["pull", "-o", copy]).status == 0)
        #expect(try scratch.read("copy.json").contains("\"Lena\""), "she is still in the tree")
        // Without a file, a command that needs one state asks which.
        let unnamed = try sync(["status", "--user", "alice", "--store", store])
        #expect(unnamed.status == 1 && unnamed.stderr.contains("synced into 2 files on this device"), "\(unnamed.stderr)")
    }

    @Test func aPushKilledMidwayResumesToExactlyTheLocalDocuments() async throws {
        let tree = scratch.path("big.json").path
        #expect(await scratch.run("generate", "--members", "100000", "--seed", "5", "-o", tree) == 0)
        let storePath = scratch.path("store.sqlite").path
        let store = "sqlite:\(storePath)"
        let local = try TreeMirror.documents(of: try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: tree)))).root)
        #expect(local.count > 100_000)

        let reader = try SQLiteDocumentStore(path: storePath)
        let push = try startPush(tree: tree, store: store)
        // Wait until some batches are in the store (its write-ahead log passes 2 MB), then kill -9 in
        // the middle of the push. The wait blocks a thread of the suite's own (`.threadsOfItsOwn`):
        // a task sleeping on the cooperative pool can wake too late while other tests keep it busy.
        let deadline = Date().addingTimeInterval(60)
        let log = storePath + "-wal"
        while push.isRunning, Date() < deadline, ((try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0) < 2_000_000 {
            usleep(20_000)
        }
        // Meanwhile a second sync of the same user on this device is refused by the lock.
        let second = try sync(["push", tree, "--user", "alice", "--store", store, "--new-tree"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another sync of this user is running"))
        try #require(push.isRunning, "the push finished before it could be killed")
        push.signal(SIGKILL)
        #expect(try push.wait() == 128 + SIGKILL)
        let partial = try await reader.pull(user: "alice", after: 0, limit: 1_000_000).count
        #expect(partial > 0 && partial < local.count, "killed midway: \(partial) of \(local.count)")

        let resumed = try sync(["push", tree, "--user", "alice", "--store", store])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let stored = try await reader.pull(user: "alice", after: 0, limit: 1_000_000)
        #expect(stored.count == local.count)
        #expect(Set(stored.map(\.key)).count == stored.count, "no duplicates")
        #expect(stored.allSatisfy { local[$0.key] == $0.body && $0.version == 1 && !$0.isDeleted }, "every body equal to the local one, written once")

        // Another device pulls the tree back, equal document for document.
        let pulled = scratch.path("pulled.json").path
        let pull = try sync(["pull", "--user", "alice", "--store", store, "-o", pulled], home: scratch.path("other-device").path)
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try TreeMirror.documents(of: try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: pulled)))).root) == local)
    }

    @Test func statusConflictsAndRestore() throws {
        let store = "sqlite:\(scratch.path("store.sqlite").path)"
        let tree = scratch.path("tree.json").path
        #expect(try sync(["push", tree, "--user", "alice", "--store", store, "--new-tree"]).status == 0)
        // A second device edits Karl's nickname and pushes first.
        let other = scratch.path("other").path
        let otherTree = scratch.path("other.json").path
        #expect(try sync(["pull", "--user", "alice", "--store", store, "-o", otherTree], home: other).status == 0)
        try scratch.write("other.json", try scratch.read("other.json").replacingOccurrences(of: "\"firstName\": \"Karl\"", with: "\"firstName\": \"Karl\", \"nickname\": \"Grandpa\""))
        #expect(try sync(["push", otherTree, "--user", "alice", "--store", store], home: other).status == 0)
        // This device edited the same field: its push merges, the store's value wins, ours is kept.
        try scratch.write("tree.json", try scratch.read("tree.json").replacingOccurrences(of: "\"firstName\": \"Karl\"", with: "\"firstName\": \"Karl\", \"nickname\": \"Papa\""))
        let status = try sync(["status", tree, "--user", "alice", "--store", store])
        #expect(status.stdout.contains("to push: 1 changed, 0 deleted"))
        let push = try sync(["push", tree, "--user", "alice", "--store", store])
        #expect(push.stderr.contains("1 conflict kept"))
        #expect(try scratch.read("tree.json").contains("\"nickname\": \"Grandpa\""))
        let conflicts = try sync(["conflicts", "--user", "alice", "--store", store])
        // In words: whose field, both values, and who wrote the kept one (alice's other device).
        #expect(conflicts.stdout.contains("#1 Karl Müller's nickname: kept \"Grandpa\" from alice ("), "\(conflicts.stdout)")
        #expect(conflicts.stdout.contains("), yours was \"Papa\""), "\(conflicts.stdout)")
        #expect(try sync(["conflicts", "--user", "alice", "--store", store, "--restore", "1", "--into", tree]).status == 0)
        #expect(try scratch.read("tree.json").contains("\"nickname\": \"Papa\""))
        #expect(try sync(["push", tree, "--user", "alice", "--store", store]).status == 0)
        #expect(try sync(["pull", "--user", "alice", "--store", store, "-o", otherTree], home: other).status == 0)
        #expect(try scratch.read("other.json").contains("\"nickname\": \"Papa\""))
        // No user: an error, never an empty result.
        let missing = try sync(["pull", "--store", store, "-o", scratch.path("none.json").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no user id"))
    }
}

#if PostgreSQL
import FamilyTreePostgres

/// The PostgreSQL store through the CLI, with the server stopped abruptly mid-push.
@Suite(.serialized, .threadsOfItsOwn, .requiresPostgreSQLControl)
struct PostgresSyncProcessTests {
    @Test func aServerStoppedMidPushIsResumedToExactlyTheLocalDocuments() async throws {
        // A server of its own: stopping the shared one would cut every other test's connection.
        // Its port is below Linux's ephemeral range (32768 and up): a port there can be free of
        // listeners and still taken by some connection's own end (CI, 2026-11-26).
        let started = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["FAMILYTREE_PG_PORT=25100", "bash", Scratch.packageRoot.appendingPathComponent("scripts/postgres-start").path])
        try #require(started.status == 0, "\(started.stderr)")
        var exported: [String: String] = [:]
        for line in started.stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let parts = line.dropFirst(7).split(separator: "=", maxSplits: 1)
            if parts.count == 2 { exported[String(parts[0])] = String(parts[1].dropFirst().dropLast()) }
        }
        let admin = try #require(exported["FAMILYTREE_PG_URL"])
        let control = try #require(exported["FAMILYTREE_PG_CTL"])
        defer { _ = try? ChildProcess.run("sh", ["-c", "\(control) stop -m immediate"]) }
        let scratch = try Scratch()
        let home = scratch.path("home").path
        let uid = "crash" + String(UInt32.random(in: .min ... .max), radix: 36)
        let host = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
        let store = "postgres://\(uid):pw-\(uid)@\(host)"
        // The administrator's command creates the user's role.
        #expect(await scratch.run("sync", "admin", "create-user", uid, "--password", "pw-\(uid)", "--store", admin) == 0)

        let tree = scratch.path("big.json").path
        #expect(await scratch.run("generate", "--members", "100000", "--seed", "9", "-o", tree) == 0)
        let local = try TreeMirror.documents(of: try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: tree)))).root)

        let errors = scratch.path("push-errors.txt")
        let push = try ChildProcess.start(
            ProcessTests.binary, ["sync", "push", tree, "--user", uid, "--store", store, "--new-tree"], environment: ["FAMILYTREE_HOME": home],
            standardError: errors)
        let reader = try await PostgresDocumentStore(url: store)
        let deadline = Date().addingTimeInterval(120)
        while push.isRunning, Date() < deadline, try await reader.pull(user: uid, after: 2_000, limit: 1).isEmpty {
            try await Task.sleep(for: .milliseconds(50))
        }
        try #require(push.isRunning, "the push finished before the server could be stopped")
        // The server dies mid-push.
        #expect(try ChildProcess.run("sh", ["-c", "\(control) stop -m immediate"]).status == 0)
        let status = try push.wait(timeLimit: 120)
        #expect(status == 1, "the push fails cleanly: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        // The server started here must not hold this test's output pipes open.
        #expect(try ChildProcess.run("sh", ["-c", "\(control) start >/dev/null 2>&1 </dev/null"]).status == 0)

        let resumed = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["FAMILYTREE_HOME=\(home)", ProcessTests.binary.path, "sync", "push", tree, "--user", uid, "--store", store])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let check = try await PostgresDocumentStore(url: store)
        let stored = try await check.pull(user: uid, after: 0, limit: 1_000_000)
        #expect(stored.count == local.count)
        #expect(Set(stored.map(\.key)).count == stored.count, "no duplicates")
        #expect(stored.allSatisfy { local[$0.key] == $0.body && $0.version == 1 }, "every body equal to the local one, written once")
    }
}
#endif

/// A family sharing one tree from the command line (the embedded store): the owner shares, a
/// helper pulls and pushes, a viewer and a helper are refused what their role does not allow, with
/// the role needed in the message, and a revoked user's next pull is refused.
@Suite struct SharingCommandTests {
    let scratch: Scratch

    init() throws { scratch = try Scratch() }

    func sync(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["FAMILYTREE_HOME=\(scratch.path("home").path)", ProcessTests.binary.path, "sync"] + arguments + ["--store", "sqlite:" + scratch.path("store.sqlite").path])
    }

    @Test func aFamilySharesOneTree() throws {
        let aliceTree = scratch.path("tree.json").path
        #expect(try sync(["push", aliceTree, "--user", "alice", "--new-tree"]).status == 0)
        let share = try sync(["share", "--user", "alice", "--with", "bob", "--role", "helper"])
        #expect(share.status == 0 && share.stderr.contains("bob is now helper of alice's tree"), "\(share.stderr)")
        #expect(try sync(["share", "--user", "alice", "--with", "carol", "--role", "viewer"]).status == 0)

        // Bob works on alice's tree: pull, edit, push.
        let bobTree = scratch.path("bob.json").path
        let pull = try sync(["pull", "--user", "bob", "--tree", "alice", "-o", bobTree])
        #expect(pull.status == 0 && pull.stderr.contains("from alice's tree"), "\(pull.stderr)")
        #expect(try scratch.read("bob.json").contains("Peter"))
        try scratch.write("bob.json", try scratch.read("bob.json").replacingOccurrences(of: "\"firstName\": \"Peter\"", with: "\"firstName\": \"Pete\""))
        let push = try sync(["push", bobTree, "--user", "bob", "--tree", "alice"])
        #expect(push.status == 0 && push.stderr.contains("1 written"), "\(push.stderr)")
        #expect(try sync(["pull", "--user", "alice", "-o", aliceTree]).status == 0)
        #expect(try scratch.read("tree.json").contains("\"firstName\": \"Pete\""))

        // A helper deletes nothing; a viewer pushes nothing; the messages name the role needed.
        let removed = try ChildProcess.run(ProcessTests.binary, ["remove", "Anna Müller", "--with-references", "--tree", bobTree])
        #expect(removed.status == 0, "\(removed.stderr)")
        let refused = try sync(["push", bobTree, "--user", "bob", "--tree", "alice"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bob is a helper of alice's tree; deleting needs admin or above"), "\(refused.stderr)")
        let carolTree = scratch.path("carol.json").path
        #expect(try sync(["pull", "--user", "carol", "--tree", "alice", "-o", carolTree]).status == 0)
        try scratch.write("carol.json", try scratch.read("carol.json").replacingOccurrences(of: "\"firstName\": \"Pete\"", with: "\"firstName\": \"P\""))
        let viewer = try sync(["push", carolTree, "--user", "carol", "--tree", "alice"])
        #expect(viewer.status == 1 && viewer.stderr.contains("carol is a viewer of alice's tree; pushing needs helper or above"), "\(viewer.stderr)")
        let notAdmin = try sync(["share", "--user", "bob", "--tree", "alice", "--with", "dan", "--role", "viewer"])
        #expect(notAdmin.status == 1 && notAdmin.stderr.contains("sharing needs admin or above"))
        // Hiding the living is a server's rule: a store reached directly would show the documents whole.
        let hiding = try sync(["share", "--user", "alice", "--with", "dan", "--role", "viewer", "--hide-living"])
        #expect(hiding.status != 0 && hiding.stderr.contains("a rule a server keeps"), "\(hiding.stderr)")

        // Who is in it, which trees bob reaches, and who changed Peter.
        let members = try sync(["members", "--user", "carol", "--tree", "alice"])
        #expect(members.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["USER ROLE", "alice owner", "bob helper", "carol viewer"])
        #expect(try sync(["trees", "--user", "bob"]).stdout.contains("alice  helper"))
        let log = try sync(["log", "--user", "alice", "--member", "peter"])
        #expect(log.status == 0 && log.stdout.split(separator: "\n").dropFirst().first?.contains("bob") == true, "\(log.stdout)")
        #expect(try sync(["log", "--user", "bob", "--tree", "alice"]).stderr.contains("reading its log needs admin or above"))

        // Revoked: bob's next pull is refused and writes nothing.
        #expect(try sync(["unshare", "--user", "alice", "--with", "bob"]).status == 0)
        let before = try scratch.read("bob.json")
        let revoked = try sync(["pull", "--user", "bob", "--tree", "alice", "-o", bobTree])
        #expect(revoked.status == 1 && revoked.stderr.contains("bob has no role on alice's tree"), "\(revoked.stderr)")
        #expect(try scratch.read("bob.json") == before)
        #expect(try sync(["delete-tree", "--user", "alice"]).status == 2)

        // Handing the tree to oneself is refused, not reported as done; to carol, it is done.
        let toSelf = try sync(["transfer", "--user", "alice", "--to", "alice"])
        #expect(toSelf.status == 1 && toSelf.stderr.contains("--to names alice, who is giving the tree away"), "\(toSelf.stderr)")
        #expect(try sync(["members", "--user", "alice"]).stdout.contains("alice  owner"))
        let handed = try sync(["transfer", "--user", "alice", "--to", "carol"])
        #expect(handed.status == 0 && handed.stderr.contains("carol now owns alice's tree; alice is admin"), "\(handed.stderr)")
        let after = try sync(["members", "--user", "alice", "--tree", "alice"]).stdout
        #expect(after.contains("alice  admin") && after.contains("carol  owner"), "\(after)")
    }

    /// A tree imported from GEDCOM carries sources and records kept as written at its top: a push
    /// and a pull write the merged tree back into the file and keep them.
    @Test func aPushAndAPullKeepTheFilesSourcesAndKeptRecords() throws {
        let tree = scratch.path("tree.json").path
        let gedcom = #"{"version": "5.5.1", "records": [{"tag": "NOTE", "xref": "N1", "value": "Shared note"}]}"#
        let sources = #"[{"id": "S1", "title": "Parish register"}]"#
        var text = try scratch.read("tree.json")
        text = String(text.dropLast(2)) + ",\n  \"gedcom\": \(gedcom),\n  \"sources\": \(sources),\n  \"_app\": {\"theme\": \"sepia\"}\n}\n"
        try scratch.write("tree.json", text)
        #expect(try sync(["push", tree, "--user", "alice", "--new-tree"]).status == 0)
        try scratch.write("tree.json", try scratch.read("tree.json").replacingOccurrences(of: "\"firstName\": \"Peter\"", with: "\"firstName\": \"Pete\""))
        let push = try sync(["push", tree, "--user", "alice"])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(try sync(["pull", "--user", "alice", "-o", tree]).status == 0)
        let root = try JSONParser.parse(Array(try scratch.read("tree.json").utf8)).root
        #expect(root["sources"]?.arrayValue?.first?["title"]?.stringValue == "Parish register")
        #expect(root["gedcom"]?["records"]?.arrayValue?.first?["value"]?.stringValue == "Shared note")
        #expect(root["_app"]?["theme"]?.stringValue == "sepia")
        #expect(try scratch.read("tree.json").contains("\"firstName\": \"Pete\""))
    }

    /// Alice and bob push to alice's tree at the same moment from two processes, each with an edit
    /// of their own and both with a new nickname for Peter: nothing is lost, and the one field both
    /// changed is kept as a conflict on the device whose push came second.
    @Test func twoUsersPushingAtOnceFromTwoProcesses() throws {
        let aliceTree = scratch.path("tree.json").path
        #expect(try sync(["push", aliceTree, "--user", "alice", "--new-tree"]).status == 0)
        #expect(try sync(["share", "--user", "alice", "--with", "bob", "--role", "helper"]).status == 0)
        let bobTree = scratch.path("bob.json").path
        #expect(try sync(["pull", "--user", "bob", "--tree", "alice", "-o", bobTree]).status == 0)
        #expect(try ChildProcess.run(ProcessTests.binary, ["edit", "Peter Müller", "--nickname", "Pit", "--tree", aliceTree]).status == 0)
        #expect(try ChildProcess.run(ProcessTests.binary, ["add", "Lena Carter", "--born", "2026-11-20", "--tree", aliceTree]).status == 0)
        #expect(try ChildProcess.run(ProcessTests.binary, ["edit", "Peter Müller", "--nickname", "Pete", "--tree", bobTree]).status == 0)
        #expect(try ChildProcess.run(ProcessTests.binary, ["edit", "Emily Carter", "--notes", "Bob's note", "--tree", bobTree]).status == 0)

        func start(_ arguments: [String], errors: URL) throws -> (ChildProcess.Running, URL) {
            let child = try ChildProcess.start(
                ProcessTests.binary, ["sync"] + arguments + ["--store", "sqlite:" + scratch.path("store.sqlite").path],
                environment: ["FAMILYTREE_HOME": scratch.path("home").path], standardError: errors)
            return (child, errors)
        }
        let pushes = [
            try start(["push", aliceTree, "--user", "alice"], errors: scratch.path("alice-push.txt")),
            try start(["push", bobTree, "--user", "bob", "--tree", "alice"], errors: scratch.path("bob-push.txt")),
        ]
        for (child, errors) in pushes {
            #expect(try child.wait() == 0, "\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        }
        #expect(try sync(["pull", "--user", "alice", "-o", aliceTree]).status == 0)
        #expect(try sync(["pull", "--user", "bob", "--tree", "alice", "-o", bobTree]).status == 0)
        for tree in ["tree.json", "bob.json"] {
            let text = try scratch.read(tree)
            #expect(text.contains("Lena") && text.contains("Bob's note"), "\(tree) has both users' edits")
            #expect(text.contains("\"nickname\": \"Pit\"") != text.contains("\"nickname\": \"Pete\""), "\(tree): one nickname won")
        }
        #expect(try scratch.read("tree.json") == (try scratch.read("bob.json")), "both devices hold the same tree")
        let conflicts = [try sync(["conflicts", "--user", "alice"]).stdout, try sync(["conflicts", "--user", "bob", "--tree", "alice"]).stdout]
        #expect(conflicts.filter { $0.contains("Peter Müller's nickname: kept") }.count == 1, "\(conflicts)")
    }

    /// The README's two cousins: bob and carol each add a child to the same couple in alice's tree
    /// and push one after the other. Both children end up under their parents everywhere, with no
    /// conflict and nothing dropped; pushes without --tree go to the tree each file came from.
    @Test func twoRelativesAddingChildrenToOneCoupleKeepBoth() throws {
        let aliceTree = scratch.path("tree.json").path
        #expect(try sync(["push", aliceTree, "--user", "alice", "--new-tree"]).status == 0)
        for helper in ["bob", "carol"] {
            #expect(try sync(["share", "--user", "alice", "--with", helper, "--role", "helper"]).status == 0)
            #expect(try sync(["pull", "--user", helper, "--tree", "alice", "-o", scratch.path("\(helper).json").path]).status == 0)
        }
        for (helper, child) in [("bob", "Bob Kid"), ("carol", "Carol Kid")] {
            let added = try ChildProcess.run(ProcessTests.binary, ["add", child, "--born", "2020-01-01", "--child-of-union", "heinrich+greta", "--tree", scratch.path("\(helper).json").path])
            #expect(added.status == 0, "\(added.stderr)")
        }
        // No --tree: each file goes to the tree it was pulled from.
        for helper in ["bob", "carol"] {
            let push = try sync(["push", scratch.path("\(helper).json").path])
            #expect(push.status == 0 && push.stderr.contains("as \(helper) to alice's tree"), "\(push.stderr)")
            #expect(!push.stderr.contains("conflict") && !push.stderr.contains("left out"), "\(push.stderr)")
        }
        for file in ["tree.json", "bob.json", "carol.json"] {
            let pull = try sync(["pull", "-o", scratch.path(file).path])
            #expect(pull.status == 0 && !pull.stderr.contains("left out"), "\(pull.stderr)")
        }
        for file in ["tree.json", "bob.json", "carol.json"] {
            let tree = try TreeFile(json: Array(try scratch.read(file).utf8))
            let union = try #require(tree.graph.unions.first { $0.id == "heinrich+greta" })
            #expect(union.children.map(\.member).sorted() == ["bob-kid", "carol-kid", "karl", "liesel"], "\(file)")
        }
        #expect(try scratch.read("bob.json") == (try scratch.read("carol.json")))
        #expect(try scratch.read("bob.json") == (try scratch.read("tree.json")))
        for user in ["bob", "carol"] {
            #expect(try sync(["conflicts", "--user", user, "--tree", "alice"]).stdout == "no conflicts\n")
        }
    }

    /// A file belongs to the tree it came from: a push or pull naming another tree, store or user
    /// is refused with what to do, and a file of no tree starts one only when asked.
    @Test func aFileKnowsItsTree() async throws {
        let aliceTree = scratch.path("tree.json").path
        // Under a umask that would leave every new file readable and writable by all.
        let lax = try ChildProcess.run("sh", ["-c", "umask 000 && exec env FAMILYTREE_HOME=\"$1\" \"$2\" sync pull --user alice -o \"$3\" --store \"$4\"", "sh", scratch.path("home").path, ProcessTests.binary.path, scratch.path("nothing.json").path, "sqlite:" + scratch.path("store.sqlite").path])
        #expect(lax.status == 0, "\(lax.stderr)")
        let first = try sync(["push", aliceTree, "--user", "alice"])
        #expect(first.status == 1 && first.stderr.contains("belongs to no tree yet: --new-tree"), "\(first.stderr)")
        #expect(try sync(["push", aliceTree, "--user", "alice", "--new-tree"]).status == 0)
        #expect(try sync(["share", "--user", "alice", "--with", "carol", "--role", "helper"]).status == 0)
        let carolTree = scratch.path("carol.json").path
        #expect(try sync(["pull", "--user", "carol", "--tree", "alice", "-o", carolTree]).status == 0)
        // Forgetting --tree: still alice's tree, not a copy as carol's own.
        let push = try sync(["push", carolTree, "--user", "carol"])
        #expect(push.status == 0 && push.stderr.contains("to alice's tree"), "\(push.stderr)")
        let direct = try SQLiteDocumentStore(path: scratch.path("store.sqlite").path)
        let carols = try await direct.pull(user: "carol", tree: "carol", after: 0, limit: 10)
        #expect(carols.isEmpty, "carol has no tree of her own")
        // Another tree into a file that belongs to one: refused, the file unchanged.
        let before = try scratch.read("carol.json")
        let other = try sync(["pull", "--user", "carol", "--tree", "carol", "-o", carolTree])
        #expect(other.status == 1 && other.stderr.contains("belongs to alice's tree, not carol's"), "\(other.stderr)")
        let otherUser = try sync(["pull", "--user", "alice", "-o", carolTree])
        #expect(otherUser.status == 1 && otherUser.stderr.contains("is synced by carol on this device"), "\(otherUser.stderr)")
        #expect(try scratch.read("carol.json") == before)
        // --new-tree on a tree that already holds documents is refused.
        let again = try sync(["push", aliceTree, "--user", "alice", "--new-tree"])
        #expect(again.status == 1 && again.stderr.contains("already holds documents"), "\(again.stderr)")
        // The device's folder and every state in it are the user's alone.
        let folder = scratch.path("home/sync").path
        #expect(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int == 0o700)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            #expect(try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int == 0o600, "\(file)")
        }
    }

    @Test func theStoreFileIsReadableByItsOwnerOnly() throws {
        #expect(try sync(["push", scratch.path("tree.json").path, "--user", "alice", "--new-tree"]).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: scratch.path("store.sqlite").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
