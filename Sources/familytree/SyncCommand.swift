import ArgumentParser
import FamilyTree
import FamilyTreeRemote
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
            SyncLogCommand.self, SyncTransferCommand.self, SyncDeleteTreeCommand.self, SyncInviteCommand.self, SyncAdminCommand.self,
        ]
    )
}

/// The options every sync command shares, and what they open.
struct SyncOptions: ParsableArguments {
    @Option(help: "The user syncing (with PostgreSQL, the role the store URL logs in as); for push and pull, by default the one who last synced the file.")
    var user: String = ""

    @Option(name: .customLong("tree"), help: ArgumentHelp("Whose tree: a tree shared with --user (by default their own, or for push and pull the tree the file belongs to).", valueName: "OWNER"))
    var owner: String?

    /// The tree worked on: `--tree`, or the user's own.
    var tree: String { owner ?? user }

    @Option(help: "The document store: sqlite:PATH, postgres://UID:PASSWORD@HOST:PORT/DB, or a server, https://HOST (after familytree login); for push and pull, by default the file's.")
    var store: String?

    /// On a server, the user is the one this device is signed in as.
    mutating func validate() throws {
        if user.isEmpty, let store, ServerAddress.isServer(store) { user = try Self.signIn(at: store).1.user }
    }

    static var home: URL {
        if let home = ProcessInfo.processInfo.environment["FAMILYTREE_HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".familytree")
    }

    /// This device's sync folder.
    static var device: SyncDevice { SyncDevice(directory: home.appendingPathComponent("sync").path) }

    var storeURL: String { store ?? Self.defaultStoreURL }

    static var defaultStoreURL: String { "sqlite:" + home.appendingPathComponent("store.sqlite").path }

    /// The store the URL names; only the default store's folder is created.
    func openStore() async throws -> any DocumentStore { try await Self.openStore(storeURL, isDefault: store == nil) }

    static func openStore(_ storeURL: String, isDefault: Bool) async throws -> any DocumentStore {
        if ServerAddress.isServer(storeURL) { return try openServer(storeURL) }
        switch try StoreLocation(storeURL) {
        case .sqlite(let path):
            return try SQLiteDocumentStore.open(path: path, creatingFolder: isDefault)
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


    /// Where a push or pull of `file` goes: the tree, store and user the file was last synced
    /// with, unless the options name them; an option that names another tree or store than the
    /// file's is refused unless `newTree` (the file starts a tree of the user's own).
    func target(for file: String, newTree: Bool = false) throws -> SyncTarget {
        let link = try Self.device.link(of: file)
        let user = self.user.isEmpty ? link?.user ?? "" : self.user
        guard !user.isEmpty else { throw SyncError.missingUser }
        var tree = owner ?? user
        var storeURL = storeURL
        var isDefault = store == nil
        if let link, user != link.user, !newTree {
            // What the device last saw of the file is in its user's state; another's would take
            // the file's older values for edits and undo them.
            throw CLIError.refused("\(file) is synced by \(link.user) on this device: sync it as \(link.user), or pull \(user)'s copy into another file")
        }
        if let link, !newTree {
            if let owner, owner != link.tree {
                throw CLIError.refused("\(file) belongs to \(link.tree)'s tree, not \(owner)'s: sync it without --tree, or use another file for \(owner)'s tree")
            }
            if let store, SyncDevice.withoutPassword(store) != link.store {
                throw CLIError.refused("\(file) belongs to \(link.tree)'s tree in \(link.store), not in \(SyncDevice.withoutPassword(store)): sync it without --store, or use another file")
            }
            tree = link.tree
            if store == nil {
                storeURL = link.store
                isDefault = link.store == Self.defaultStoreURL
            }
        } else if newTree {
            if let owner, owner != user { throw ValidationError("--new-tree makes a tree of --user's own; it cannot go with --tree \(owner)") }
            tree = user
        }
        return SyncTarget(user: user, tree: tree, storeURL: storeURL, isDefaultStore: isDefault, link: link, file: file)
    }
}

/// One user's tree in one store, as a push or pull of a file reaches it.
struct SyncTarget {
    var user: String
    var tree: String
    var storeURL: String
    var isDefaultStore: Bool
    /// What the file was linked to before, if anything.
    var link: SyncDevice.FileLink?
    /// The tree file synced: its own state is the base of the merge (nil: the only file of the
    /// tree on this device, or the tree's state when there is none).
    var file: String?

    /// The link a sync through this target leaves on the file.
    var fileLink: SyncDevice.FileLink { SyncDevice.FileLink(store: SyncDevice.withoutPassword(storeURL), tree: tree, user: user) }

    /// Runs `body` with a session of this target, syncs of its user and tree on this device held
    /// one at a time for exactly as long (a second fails at once rather than wait).
    func withSession<Result>(_ body: (SyncSession) async throws -> Result) async throws -> Result {
        let file = try self.file ?? onlyFile()
        let store = try await SyncOptions.openStore(storeURL, isDefault: isDefaultStore)
        return try await SyncOptions.device.withSession(
            user: user, tree: tree, store: store, storeURL: storeURL, file: file, configure: { $0.progress = ProgressLine.callback() }, body)
    }

    /// The one file on this device that belongs to this tree, for a command that names none
    /// (`sync status`, `sync conflicts`); several are refused, since each has its own state.
    private func onlyFile() throws -> String? {
        let files = try SyncOptions.device.files(linkedTo: fileLink).filter { FileManager.default.fileExists(atPath: $0) }
        guard files.count <= 1 else {
            throw CLIError.refused("\(tree)'s tree is synced into \(files.count) files on this device (\(files.joined(separator: ", "))): name the one you mean")
        }
        return files.first
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
    /// (each repair reported). What the file at `path` holds besides its members, unions and
    /// connections (a GEDCOM import's sources and kept records, fields familytree does not know)
    /// is kept: the store has no documents for it. Documents that make no valid tree are an error
    /// and nothing is written.
    static func write(_ documents: [DocumentKey: String], to path: String) throws {
        var root = try TreeMirror.tree(from: documents)
        if !TreeFiles.isStream(path), FileManager.default.fileExists(atPath: path),
           case .object(let existing)? = try? JSONParser.parse(try TreeFiles.read(path)).root, case .object(var fields) = root {
            for (key, value) in existing where fields[key] == nil { fields[key] = value }
            root = .object(fields)
        }
        let (tree, repairs) = TreeFile.droppingDanglingReferences(root)
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
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Bring the store's changes in, merge, and send the tree's changes.",
        discussion: """
        A file pulled from a tree, or pushed to one, belongs to it: later pushes and pulls of the \
        file go to that tree without --tree. A file that belongs to no tree yet starts the user's own \
        with --new-tree, or joins a tree shared with them with --tree OWNER.
        """
    )

    @Argument(help: "The tree.json to push.")
    var tree: String

    @OptionGroup var options: SyncOptions

    @Flag(help: "Make this file the start of a tree of --user's own (refused when that tree already holds documents).")
    var newTree = false

    @Flag(help: "Send the whole file again to a store that lost what it had acknowledged (restored from an older backup); the file wins over the store's copy.")
    var resend = false

    func run() async throws {
        let target = try options.target(for: tree, newTree: newTree)
        // The sync lock first: a second sync of this user fails at once rather than wait. Then the
        // file's, from the read to the last write: an edit made meanwhile waits, and is never lost.
        try await target.withSession { session in
            try await TreeFileLock.holding(tree) { try await push(target: target, session: session) }
        }
    }

    private func push(target: SyncTarget, session: SyncSession) async throws {
        let local = try SyncTree.documents(of: tree)
        if target.link == nil || newTree, target.tree == target.user {
            // A file of no tree, pushed to the user's own: only as a new tree when asked, and only
            // onto an empty one; into an existing one it merges like any push.
            let isEmpty = try await session.store.pull(user: target.user, tree: target.tree, after: 0, limit: 1).isEmpty
            if newTree, !isEmpty {
                throw CLIError.refused("\(target.user)'s own tree in \(target.fileLink.store) already holds documents, so \(tree) cannot start it anew; push without --new-tree to merge into it")
            }
            if !newTree, isEmpty {
                throw CLIError.refused("\(tree) belongs to no tree yet: --new-tree makes it the start of \(target.user)'s own tree; --tree OWNER sends it to a tree shared with \(target.user)")
            }
        }
        var saved = local
        let report = resend ? try await session.resend(local) : try await session.push(local) { pulled in
            try SyncTree.write(pulled, to: tree)
            saved = pulled
        }
        if report.documents != saved { try SyncTree.write(report.documents, to: tree) }
        try SyncOptions.device.setLink(target.fileLink, for: tree)
        for id in report.revived { Console.error("familytree: sync: \(id) came back: deleted elsewhere, but an edit still names them") }
        let conflicts = report.conflicts.isEmpty ? "" : "; \(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s") kept (familytree sync conflicts lists them)"
        let whose = target.tree == target.user ? "" : " to \(target.tree)'s tree"
        let pulled = report.pulled == 0 ? "" : "\(report.pulled) pulled first, "
        Console.error("pushed \(tree) as \(target.user)\(whose): \(pulled)\(report.applied) written, \(report.unchanged) unchanged, \(report.merged) merged, in \(report.batches) batch\(report.batches == 1 ? "" : "es")\(conflicts)")
    }
}

struct SyncPullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pull", abstract: "Bring the store's changes into a tree file (local edits are merged, never wiped).")

    @OptionGroup var options: SyncOptions

    @Option(name: .shortAndLong, help: "The tree.json to update (created if missing).")
    var output: String

    func run() async throws {
        let target = try options.target(for: output)
        try await target.withSession { session in
            try await TreeFileLock.holding(output) { try await pull(target: target, session: session) }
        }
    }

    private func pull(target: SyncTarget, session: SyncSession) async throws {
        let local = FileManager.default.fileExists(atPath: output) ? try SyncTree.documents(of: output) : nil
        let report = try await session.pull(merging: local)
        try SyncTree.write(report.documents, to: output)
        try SyncOptions.device.setLink(target.fileLink, for: output)
        for id in report.revived { Console.error("familytree: sync: \(id) came back: deleted elsewhere, but an edit still names them") }
        let conflicts = report.conflicts.isEmpty ? "" : "; \(report.conflicts.count) conflict\(report.conflicts.count == 1 ? "" : "s") kept (familytree sync conflicts lists them)"
        let whose = target.tree == target.user ? "" : " from \(target.tree)'s tree"
        Console.error("pulled \(report.pulled) change\(report.pulled == 1 ? "" : "s") for \(target.user)\(whose) in \(report.pages) page\(report.pages == 1 ? "" : "s") into \(output)\(conflicts)")
    }
}

struct SyncStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "What a push would send, and the conflicts kept.")

    @Argument(help: "The tree.json to compare with what this device last synced.")
    var tree: String?

    @OptionGroup var options: SyncOptions

    func run() async throws {
        let target = try tree.map { try options.target(for: $0) }
            ?? SyncTarget(user: options.user, tree: options.tree, storeURL: options.storeURL, isDefaultStore: options.store == nil)
        try await target.withSession { session in try await status(of: target, session: session) }
    }

    private func status(of target: SyncTarget, session: SyncSession) async throws {
        var lines = ["store: \(SyncDevice.withoutPassword(target.storeURL))", "user: \(target.user)", "tree: \(target.tree)", "pulled up to change \(try await session.state.checkpoint())"]
        if let tree {
            let pending = try await session.pendingChanges(try SyncTree.documents(of: tree))
            lines.append("to push: \(pending.changed) changed, \(pending.deleted) deleted")
        }
        let open = try await session.state.conflicts().filter { !$0.isRestored }.count
        lines.append("conflicts: \(open)")
        Console.say(lines.joined(separator: "\n") + "\n")
    }
}

struct SyncConflictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List the values merges set aside, and restore one.",
        discussion: """
        Only a value both sides changed is a conflict (lists such as children, partners and phone \
        numbers merge item by item). Each is named in words, with who wrote the kept value when \
        the role may read the tree's log. --restore puts your value back into the file as a new \
        edit; the next push merges it like any other.
        """
    )

    @OptionGroup var options: SyncOptions

    @Option(help: "Put the local value of this conflict back into --into (push it afterwards).")
    var restore: Int64?

    @Option(help: "The tree.json to restore into (and whose names the list uses).")
    var into: String?

    func run() async throws {
        let target = try into.map { try options.target(for: $0) }
            ?? SyncTarget(user: options.user, tree: options.tree, storeURL: options.storeURL, isDefaultStore: options.store == nil)
        try await target.withSession { session in try await conflicts(of: target, session: session) }
    }

    private func conflicts(of target: SyncTarget, session: SyncSession) async throws {
        let conflicts = try await session.state.conflicts()
        guard let restore else {
            try await list(conflicts, session: session, target: target)
            return
        }
        guard let tree = into else { throw ValidationError("--restore needs --into, the tree file to put the value back into") }
        guard let stored = conflicts.first(where: { $0.id == restore }) else { throw CLIError.fileAccess(path: "conflict #\(restore)", reason: "no such conflict") }
        try TreeFileLock.holding(tree) {
            let documents = try stored.conflict.restoring(into: try SyncTree.documents(of: tree))
            try SyncTree.write(documents, to: tree)
        }
        try await session.state.markRestored(restore)
        Console.error("restored #\(restore) into \(tree); push to send it")
    }

    private func list(_ conflicts: [LocalSyncState.StoredConflict], session: SyncSession, target: SyncTarget) async throws {
        guard !conflicts.isEmpty else {
            Console.output("no conflicts\n")
            return
        }
        // Names from the file when given, else from what this device last saw.
        var documents = try await session.state.bases().compactMapValues { $0.isDeleted ? nil : $0.body }
        if let into { documents.merge(try SyncTree.documents(of: into)) { _, file in file } }
        // Who wrote the kept value: the tree's log, when this role may read it.
        let store = session.store as? any SharedTreeStore
        for stored in conflicts {
            let conflict = stored.conflict
            var author: String?
            var time = stored.time
            if let store, let version = conflict.storeVersion,
               let entry = try? await store.log(of: target.tree, as: target.user, key: conflict.key, limit: 1_000).first(where: { $0.version == version }) {
                author = entry.user
                time = entry.time
            }
            let text = conflict.described(documents: documents, author: author, time: time)
            Console.say("#\(stored.id) \(text)\(stored.isRestored ? " [restored]" : "")\n  (\(conflict.key), \(conflict.path))\n")
        }
    }
}

struct SyncAdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Set up the PostgreSQL store (an administrator's task).",
        subcommands: [SyncCreateUserCommand.self, SyncCreateServerLoginCommand.self]
    )
}

struct SyncCreateServerLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-server-login",
        abstract: "Create the store's tables if needed, and the login role familytree serve connects as.",
        discussion: """
        The role acts for each signed-in user in turn, within that user's roles (the database's \
        row-level security applies to the user, not to the server), and keeps the server's accounts.

        Example:
          familytree sync admin create-server-login familytree_web --password s3cret --store postgres://admin:pw@127.0.0.1:5432/familytree
          familytree serve --store postgres://familytree_web@127.0.0.1:5432/familytree
        """
    )

    @Argument(help: "The login role's name.")
    var name: String

    @Option(help: "Its password.")
    var password: String

    @Option(help: "The administrator's URL: postgres://ADMIN:PASSWORD@HOST:PORT/DB.")
    var store: String

    func run() async throws {
        #if PostgreSQL
        try await PostgresAdmin.createServerLogin(name, password: password, adminURL: store)
        Console.error("created the server login \(name); serve with --store postgres://\(name):PASSWORD@\(store.split(separator: "@").last ?? "")")
        #else
        throw SyncError.unsupportedStore("this build has no PostgreSQL store; build with --traits PostgreSQL")
        #endif
    }
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
