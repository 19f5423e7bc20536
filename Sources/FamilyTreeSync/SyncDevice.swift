import FamilyTree
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// This device's sync folder: what it knows of each user's tree in each store (a state and a lock
/// each), and which tree each tree file belongs to. The folder is made 0700 and every file in it
/// 0600, whatever the umask: the states hold a copy of every document.
public struct SyncDevice: Sendable {
    /// The folder (by default `~/.familytree/sync`).
    public let directory: String

    /// The device whose sync folder is `directory`; it is made on first use.
    public init(directory: String) {
        self.directory = directory
    }

    /// The tree a file was pulled from or pushed to, in which store, by whom.
    public struct FileLink: Sendable, Hashable {
        /// The store's URL, without any password.
        public var store: String
        /// The tree (its owner's user id).
        public var tree: String
        /// The user who synced the file.
        public var user: String

        /// A file's link to `tree` in `store`, synced by `user`.
        public init(store: String, tree: String, user: String) {
            self.store = store
            self.tree = tree
            self.user = user
        }
    }

    /// The tree `file` belongs to, if it was synced on this device.
    public func link(of file: String) throws(SyncError) -> FileLink? {
        let path = Self.canonicalPath(file)
        return try withLinks { db in
            try Row.fetchOne(db, sql: "SELECT store, tree, user FROM file_links WHERE path = ?", arguments: [path]).map { row in
                FileLink(store: try Self.text(row, 0), tree: try Self.text(row, 1), user: try Self.text(row, 2))
            }
        }
    }

    /// Records that `file` belongs to `link`'s tree.
    public func setLink(_ link: FileLink, for file: String) throws(SyncError) {
        let path = Self.canonicalPath(file)
        try withLinks { db in
            try db.execute(sql: """
                INSERT INTO file_links (path, store, tree, user) VALUES (?, ?, ?, ?)
                ON CONFLICT (path) DO UPDATE SET store = excluded.store, tree = excluded.tree, user = excluded.user
                """, arguments: [path, link.store, link.tree, link.user])
        }
    }

    /// This device's state for `user` on `tree` in the store at `storeURL` as `file` last saw it,
    /// with the lock that keeps syncs of that user and tree one at a time (held until the lock is
    /// released or the process ends). Without a file, one state for the tree (an app that keeps
    /// the tree in one place).
    ///
    /// Each file has a state of its own: what the device last saw is the base of the next merge,
    /// and two files of one tree sharing one would take each other's additions for deletions. A
    /// state kept for the tree before states were kept per file becomes the file's (once, and is
    /// then removed), when no other file on this device belongs to the tree; otherwise the file
    /// starts afresh (its next pull takes in everything and deletes nothing).
    public func openState(user: String, tree: String, storeURL: String, file: String? = nil) throws(SyncError) -> (LocalSyncState, SyncLock) {
        guard !user.isEmpty, !tree.isEmpty else { throw .missingUser }
        try makeFolder()
        // One state per user, tree and store: `@` never appears in a name, which spells it %40.
        let treePart = tree == user ? "" : "@" + (try Self.fileName(forUser: tree))
        let base = "\(directory)/\(try Self.fileName(forUser: user))\(treePart)-\(StableHash.fnv1a64(Self.withoutPassword(storeURL)))"
        try Self.createPrivateFile(base + ".lock")
        let lock = try SyncLock(path: base + ".lock")
        guard let file else {
            try Self.createPrivateFile(base + ".sqlite")
            return (try LocalSyncState(path: base + ".sqlite"), lock)
        }
        let path = Self.canonicalPath(file)
        let statePath = "\(base)-file-\(StableHash.fnv1a64(path)).sqlite"
        if !FileManager.default.fileExists(atPath: statePath) {
            let treeState = base + ".sqlite"
            let target = FileLink(store: Self.withoutPassword(storeURL), tree: tree, user: user)
            if FileManager.default.fileExists(atPath: treeState), try link(of: file) == target,
               try files(linkedTo: target).allSatisfy({ $0 == path || !FileManager.default.fileExists(atPath: $0) }) {
                try Self.copyDatabase(treeState, to: statePath)
                // Given once: nothing keeps the tree's state up to date any more, so a file linked
                // later (this one gone) would take an old base, and a deletion or a person added
                // since would read as a change made in that file.
                for suffix in ["", "-wal", "-shm"] { unlink(treeState + suffix) }
            }
            try Self.createPrivateFile(statePath)
        }
        return (try LocalSyncState(path: statePath), lock)
    }

    /// The files on this device that belong to `link`'s tree (absolute paths; some may be gone).
    public func files(linkedTo link: FileLink) throws(SyncError) -> [String] {
        try withLinks { db in
            try String.fetchAll(db, sql: "SELECT path FROM file_links WHERE store = ? AND tree = ? AND user = ? ORDER BY path", arguments: [link.store, link.tree, link.user])
        }
    }

    /// A copy of the SQLite database at `source` (its write-ahead log included) at `destination`,
    /// made beside it and renamed into place: never a half-copied state.
    private static func copyDatabase(_ source: String, to destination: String) throws(SyncError) {
        let partial = destination + ".partial"
        unlink(partial)
        do {
            try createPrivateFile(partial)
            let from = try DatabaseQueue(path: source)
            let to = try DatabaseQueue(path: partial)
            try from.backup(to: to)
            try to.close()
            try from.close()
        } catch let error as SyncError {
            throw error
        } catch {
            unlink(partial)
            throw .store("cannot copy the sync state \(source): \(error)")
        }
        guard rename(partial, destination) == 0 else {
            throw .store("cannot put the sync state in place at \(destination): \(String(cString: strerror(errno)))")
        }
    }

    /// Runs `body` with a session of `user` on `tree` in `store` (whose address is `storeURL`), this
    /// device's state for them held under its lock for exactly as long: released however `body`
    /// ends. A second sync of the same user and tree on this device fails at once with `.busy`.
    /// `file`: the tree file the sync is of, whose own state it uses (see `openState`).
    ///
    /// ```swift
    /// let report = try await SyncDevice(directory: folder).withSession(user: "alice", tree: "alice", store: store, storeURL: url) { session in
    ///     try await session.pull(merging: local)
    /// }
    /// ```
    public func withSession<Result>(
        user: String, tree: String, store: any DocumentStore, storeURL: String, file: String? = nil,
        configure: (inout SyncSession) -> Void = { _ in },
        _ body: (SyncSession) async throws -> Result
    ) async throws -> Result {
        let (state, lock) = try openState(user: user, tree: tree, storeURL: storeURL, file: file)
        defer { withExtendedLifetime(lock) {} }
        var session = try SyncSession(store: store, state: state, user: user, tree: tree)
        configure(&session)
        return try await body(session)
    }

    /// The user id as a file name, one to one: letters, digits and `-` as they are, every other
    /// character as `%XX` bytes, so `a.b`, `a_b` and `a/b` never share a device state.
    public static func fileName(forUser user: String) throws(SyncError) -> String {
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

    /// A store URL without the password a `postgres://user:password@host` URL may carry: what a
    /// link keeps and a state is named by, so no password is written to disk.
    public static func withoutPassword(_ storeURL: String) -> String {
        guard let scheme = storeURL.range(of: "://"), !storeURL.hasPrefix("sqlite:") else { return storeURL }
        let rest = storeURL[scheme.upperBound...]
        guard let at = rest.firstIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return storeURL }
        return String(storeURL[..<scheme.upperBound]) + rest[..<colon] + rest[at...]
    }

    // MARK: Files

    private func makeFolder() throws(SyncError) {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .store("cannot create the sync folder \(directory): \(error.localizedDescription)")
            }
        }
        // A folder made by an older version (or under a lax umask) is closed too.
        _ = chmod(directory, 0o700)
    }

    /// Creates `path` readable and writable by its owner only, or closes an existing one.
    static func createPrivateFile(_ path: String) throws(SyncError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .store("cannot create \(path): \(String(cString: strerror(errno)))") }
        _ = fchmod(descriptor, 0o600)
        close(descriptor)
        // SQLite makes its -wal and -shm files with the database's mode; older ones are closed here.
        for suffix in ["-wal", "-shm"] { _ = chmod(path + suffix, 0o600) }
    }

    private func withLinks<T>(_ body: (Database) throws -> T) throws(SyncError) -> T {
        try makeFolder()
        let path = directory + "/files.sqlite"
        try Self.createPrivateFile(path)
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS file_links (
                        path TEXT PRIMARY KEY NOT NULL, store TEXT NOT NULL, tree TEXT NOT NULL, user TEXT NOT NULL
                    ) WITHOUT ROWID
                    """)
                return try body(db)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw .store("the file links \(path): \(error)")
        }
    }

    private static func text(_ row: Row, _ column: Int) throws -> String {
        guard let value = String.fromDatabaseValue(row[column] as DatabaseValue) else {
            throw SyncError.store("a file link holds something other than text")
        }
        return value
    }

    /// The file's absolute path with links resolved (its folder's, for a file not made yet).
    static func canonicalPath(_ file: String) -> String {
        let url = URL(fileURLWithPath: file).standardizedFileURL
        if let resolved = realpath(url.path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let folder = url.deletingLastPathComponent().path
        if let resolved = realpath(folder, nil) {
            defer { free(resolved) }
            return String(cString: resolved) + "/" + url.lastPathComponent
        }
        return url.path
    }
}
