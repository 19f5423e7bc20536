import ArgumentParser
import FamilyTree
import FamilyTreeSync
import Foundation
#if PostgreSQL
import FamilyTreePostgres
#endif

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Mirror a tree to a JSON document store, one document per member.",
        discussion: """
        Documents: users/UID/familyTree/MEMBER, users/UID/unions/UNION and \
        users/UID/crossBloodlineConnections/ID, each the record's JSON with sorted keys. \
        The store is sqlite:PATH (the default, ~/.familytree/store.sqlite) or, in a build with the \
        PostgreSQL trait, postgres://UID:PASSWORD@HOST:PORT/DB, connecting as the user's own role \
        (create it with `familytree sync admin create-user`). What this device last saw \
        of each document, the pull checkpoint and the conflicts live in ~/.familytree/sync \
        (FAMILYTREE_HOME moves ~/.familytree).

        Examples:
          familytree sync push tree.json --user alice
          familytree sync pull --user alice -o tree.json      # cloud to local: local edits are merged, never wiped
          familytree sync status tree.json --user alice
          familytree sync conflicts --user alice
          familytree sync conflicts --user alice --restore 3 --into tree.json
          familytree sync share --user alice --with bob --role helper     # bob may now edit alice's tree
          familytree sync pull --user bob --tree alice -o alice.json      # bob works on it
          familytree sync push alice.json --user bob --tree alice
          familytree sync members --user alice
          familytree sync log --user alice --member ada

        Roles: viewer (pull), helper (also create and edit; no deletes, no sharing), admin (also \
        delete and share), owner (also hand the tree on with transfer, and delete it).
        """,
        subcommands: [
            SyncPushCommand.self, SyncPullCommand.self, SyncStatusCommand.self, SyncConflictsCommand.self,
            SyncShareCommand.self, SyncUnshareCommand.self, SyncMembersCommand.self, SyncTreesCommand.self,
            SyncLogCommand.self, SyncTransferCommand.self, SyncDeleteTreeCommand.self, SyncAdminCommand.self,
        ]
    )
}

/// The options every sync command shares, and what they open.
struct SyncOptions: ParsableArguments {
    @Option(help: "The user syncing (with PostgreSQL, the role the store URL logs in as).")
    var user: String = ""

    @Option(name: .customLong("tree"), help: ArgumentHelp("Whose tree: a tree shared with --user (by default their own).", valueName: "OWNER"))
    var owner: String?

    /// The tree worked on: `--tree`, or the user's own.
    var tree: String { owner ?? user }

    @Option(help: "The document store: sqlite:PATH or postgres://UID:PASSWORD@HOST:PORT/DB.")
    var store: String?

    static var home: URL {
        if let home = ProcessInfo.processInfo.environment["FAMILYTREE_HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".familytree")
    }

    var storeURL: String { store ?? "sqlite:" + Self.home.appendingPathComponent("store.sqlite").path }

    /// The store the URL names; only the default store's folder is created.
    func openStore() async throws -> any DocumentStore {
        switch try StoreLocation(storeURL) {
        case .sqlite(let path):
            return try SQLiteDocumentStore.open(path: path, creatingFolder: store == nil)
        case .postgres(let url):
            #if PostgreSQL
            // Not on the command line (process lists show it): PGPASSWORD, ~/.pgpass, or asked here.
            var password: String?
            if PostgresDocumentStore.needsPassword(url: url), isatty(STDIN_FILENO) != 0 {
                password = Prompt.secret("Password for \(url.prefix { $0 != "@" }.split(separator: "/").last ?? ""): ")
            }
            return try await PostgresDocumentStore(url: url, password: password)
            #else
            throw SyncError.unsupportedStore("\(url.prefix { $0 != "@" })...: this build has no PostgreSQL store; build with --traits PostgreSQL")
            #endif
        }
    }

    /// The user id as a file name, one to one: letters, digits and `-` as they are, every other
    /// character as `%XX` bytes, so `a.b`, `a_b` and `a/b` never share a device state.
    static func fileName(forUser user: String) throws(SyncError) -> String {
        var name = ""
        for scalar in user.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" {
                name.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { name += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
            }
        }
        // File names stop at 255 bytes; the state's name adds the store's hash.
        guard name.utf8.count <= 200 else { throw .accessDenied("the user id is too long (at most 200 bytes as a file name)") }
        return name
    }

    /// This device's state for this user in this store, and the lock that keeps syncs of the user one at a time.
    func openSession() async throws -> (SyncSession, SyncLock) {
        guard !user.isEmpty else { throw SyncError.missingUser }
        let directory = Self.home.appendingPathComponent("sync")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // One state per user, tree and store: `@` never appears in a name, which spells it %40.
        let treePart = tree == user ? "" : "@" + (try Self.fileName(forUser: tree))
        let base = directory.appendingPathComponent("\(try Self.fileName(forUser: user))\(treePart)-\(StableHash.fnv1a64(storeURL))")
        let lock = try SyncLock(path: base.path + ".lock")
        let state = try LocalSyncState(path: base.path + ".sqlite")
        var session = try SyncSession(store: try await openStore(), state: state, user: user, tree: tree)
        session.progress = ProgressLine.callback()
        return (session, lock)
    }
}

/// A progress line on standard error when it is a terminal; nothing otherwise.
enum ProgressLine {
    static func callback() -> (@Sendable (Int, Int?) -> Void)? {
        guard isatty(STDERR_FILENO) != 0 else { return nil }
        return { done, total in
            if let total, total > 0 {
                let filled = done * 30 / total
                FileHandle.standardError.write(Data("\r[\(String(repeating: "#", count: filled))\(String(repeating: ".", count: 30 - filled))] \(done)/\(total)".utf8))
                if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
            } else {
                FileHandle.standardError.write(Data("\r\(done) documents".utf8))
            }
        }
    }
}

enum SyncTree {
    /// The documents of a tree file, which must be a valid tree: an invalid one is never sent.
    static func documents(of path: String) throws -> [DocumentKey: String] {
        // Parsed once and validated: an invalid tree is never sent.
        let file = try TreeFile(json: try TreeFiles.read(path), file: path)
        return try TreeMirror.documents(of: file.root)
    }

    /// Writes the tree the documents make, without references a merge left pointing at nobody
    /// (each repair reported). Documents that make no valid tree are an error and nothing is written.
    static func write(_ documents: [DocumentKey: String], to path: String) throws {
        let (tree, repairs) = TreeFile.droppingDanglingReferences(try TreeMirror.tree(from: documents))
        for repair in repairs { Console.error("familytree: sync: \(repair)") }
        let file: TreeFile
        do {
            file = try TreeFile(root: tree, file: "the store's documents")
        } catch {
            throw SyncError.invalidDocument(nil, "\(error)")
        }
        try TreeFiles.write(file.text, to: path)
    }
}

struct SyncPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "push", abstract: "Send the tree's changes to the store.")

    @Argument(help: "The tree.json to push.")
    var tree: String

    @OptionGroup var options: SyncOptions

    func run() async throws {
        let (session, lock) = try await options.openSession()
        defer { withExtendedLifetime(lock) {} }
        let local = try SyncTree.documents(of: tree)
        let report = try await session.push(local)
        if report.documents != local { try SyncTree.write(report.documents, to: tree) }
        let conflicts = report.conflicts.isEmpty ? "" : "; \(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s") kept (familytree sync conflicts lists them)"
        let whose = options.tree == options.user ? "" : " to \(options.tree)'s tree"
        Console.error("pushed \(tree) as \(options.user)\(whose): \(report.applied) written, \(report.unchanged) unchanged, \(report.merged) merged, in \(report.batches) batch\(report.batches == 1 ? "" : "es")\(conflicts)")
    }
}

struct SyncPullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pull", abstract: "Bring the store's changes into a tree file (local edits are merged, never wiped).")

    @OptionGroup var options: SyncOptions

    @Option(name: .shortAndLong, help: "The tree.json to update (created if missing).")
    var output: String

    func run() async throws {
        let (session, lock) = try await options.openSession()
        defer { withExtendedLifetime(lock) {} }
        let local = FileManager.default.fileExists(atPath: output) ? try SyncTree.documents(of: output) : nil
        let report = try await session.pull(merging: local)
        try SyncTree.write(report.documents, to: output)
        let conflicts = report.conflicts.isEmpty ? "" : "; \(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s") kept (familytree sync conflicts lists them)"
        let whose = options.tree == options.user ? "" : " from \(options.tree)'s tree"
        Console.error("pulled \(report.pulled) change\(report.pulled == 1 ? "" : "s") for \(options.user)\(whose) in \(report.pages) page\(report.pages == 1 ? "" : "s") into \(output)\(conflicts)")
    }
}

struct SyncStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "What a push would send, and the conflicts kept.")

    @Argument(help: "The tree.json to compare with what this device last synced.")
    var tree: String?

    @OptionGroup var options: SyncOptions

    func run() async throws {
        let (session, lock) = try await options.openSession()
        defer { withExtendedLifetime(lock) {} }
        var lines = ["store: \(options.storeURL)", "user: \(options.user)", "tree: \(options.tree)", "pulled up to change \(try session.state.checkpoint())"]
        if let tree {
            let pending = try session.pendingChanges(try SyncTree.documents(of: tree))
            lines.append("to push: \(pending.changed) changed, \(pending.deleted) deleted")
        }
        let open = try session.state.conflicts().filter { !$0.isRestored }.count
        lines.append("conflicts: \(open)")
        Console.say(lines.joined(separator: "\n") + "\n")
    }
}

struct SyncConflictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "conflicts", abstract: "List the values merges set aside, and restore one.")

    @OptionGroup var options: SyncOptions

    @Option(help: "Put the local value of this conflict back into --tree (push it afterwards).")
    var restore: Int64?

    @Option(help: "The tree.json to restore into.")
    var into: String?

    func run() async throws {
        let (session, lock) = try await options.openSession()
        defer { withExtendedLifetime(lock) {} }
        let conflicts = try session.state.conflicts()
        guard let restore else {
            for stored in conflicts {
                let conflict = stored.conflict
                let field = conflict.field.map { ".\($0)" } ?? ""
                Console.say("#\(stored.id) \(conflict.key)\(field): kept \(conflict.storeValue ?? "(none)"), yours was \(conflict.localValue ?? "(none)")\(stored.isRestored ? " [restored]" : "")\n")
            }
            if conflicts.isEmpty { Console.output("no conflicts\n") }
            return
        }
        guard let tree = into else { throw ValidationError("--restore needs --into, the tree file to put the value back into") }
        guard let stored = conflicts.first(where: { $0.id == restore }) else { throw CLIError.fileAccess(path: "conflict #\(restore)", reason: "no such conflict") }
        let documents = try stored.conflict.restoring(into: try SyncTree.documents(of: tree))
        try SyncTree.write(documents, to: tree)
        try session.state.markRestored(restore)
        Console.error("restored #\(restore) into \(tree); push to send it")
    }
}

struct SyncAdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Set up the PostgreSQL store (an administrator's task).",
        subcommands: [SyncCreateUserCommand.self]
    )
}

struct SyncCreateUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-user",
        abstract: "Create the store's tables and policies if needed, and a login role for one user.",
        discussion: """
        The role is a member of familytree_app: it reads and writes its own documents (row-level \
        security on owner_uid = current_user) and no one else's, and cannot delete rows.

        Example:
          familytree sync admin create-user alice --password s3cret --store postgres://admin:pw@127.0.0.1:5432/familytree
        """
    )

    @Argument(help: "The user id, which becomes the database role's name.")
    var uid: String

    @Option(help: "The new role's password.")
    var password: String

    @Option(help: "The administrator's URL: postgres://ADMIN:PASSWORD@HOST:PORT/DB.")
    var store: String

    func run() async throws {
        #if PostgreSQL
        try await PostgresAdmin.createUser(uid, password: password, adminURL: store)
        Console.error("created role \(uid); it connects with postgres://\(uid):PASSWORD@\(store.split(separator: "@").last ?? "")")
        #else
        throw SyncError.unsupportedStore("this build has no PostgreSQL store; build with --traits PostgreSQL")
        #endif
    }
}
