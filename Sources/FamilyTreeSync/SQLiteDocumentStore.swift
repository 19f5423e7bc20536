import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The embedded document store: one SQLite file (WAL mode) holding every tree's documents, keyed
/// by the tree first. Reads and writes go through GRDB's async API, which runs them on the pool's
/// own queues, so a caller's task waits without blocking a thread of the cooperative pool.
///
/// Trees are shared in roles as in PostgreSQL, and the store checks every call against them in
/// the call's own transaction; but a local file is only as private as its permissions: anyone who
/// can read the file reads every tree in it. It is created readable and writable by its owner only.
public final class SQLiteDocumentStore: SharedTreeStore {
    private let pool: DatabasePool

    /// Opens (creating if needed, mode 0600) the store at `path`.
    public init(path: String) throws(SyncError) {
        do {
            // SQLite makes its -wal and -shm files with the database file's mode.
            let descriptor = Glibc.open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            if descriptor >= 0 { Glibc.close(descriptor) }
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS owners (
                        owner_uid TEXT PRIMARY KEY NOT NULL,
                        last_seq INTEGER NOT NULL
                    );
                    CREATE TABLE IF NOT EXISTS documents (
                        owner_uid TEXT NOT NULL,
                        collection TEXT NOT NULL,
                        doc_id TEXT NOT NULL,
                        body TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        deleted INTEGER NOT NULL,
                        seq INTEGER NOT NULL,
                        PRIMARY KEY (owner_uid, collection, doc_id)
                    ) WITHOUT ROWID;
                    CREATE UNIQUE INDEX IF NOT EXISTS documents_by_sequence ON documents (owner_uid, seq);
                    CREATE TABLE IF NOT EXISTS memberships (
                        tree_uid TEXT NOT NULL,
                        member_uid TEXT NOT NULL,
                        role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'helper', 'viewer')),
                        granted_by TEXT NOT NULL,
                        granted_at TEXT NOT NULL,
                        PRIMARY KEY (tree_uid, member_uid)
                    ) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS memberships_by_member ON memberships (member_uid, tree_uid);
                    CREATE TABLE IF NOT EXISTS audit (
                        id INTEGER PRIMARY KEY,
                        tree_uid TEXT NOT NULL,
                        collection TEXT NOT NULL,
                        doc_id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        deleted INTEGER NOT NULL,
                        seq INTEGER NOT NULL,
                        changed_by TEXT NOT NULL,
                        changed_at TEXT NOT NULL
                    );
                    CREATE INDEX IF NOT EXISTS audit_by_tree ON audit (tree_uid, id);
                    """)
            }
        } catch {
            throw .store("cannot open the SQLite store \(path): \(error)")
        }
    }

    // MARK: Documents

    public func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        try Self.check(user, tree)
        try SyncLimits.check(writes)
        return try await write { db in
            let role = try Self.role(of: user, in: tree, db)
            try Self.require(.write, user: user, tree: tree, role: role)
            if writes.contains(where: \.isDeleted) { try Self.require(.delete, user: user, tree: tree, role: role) }
            let now = Self.now()
            try db.execute(sql: "INSERT INTO owners (owner_uid, last_seq) VALUES (?, 0) ON CONFLICT DO NOTHING", arguments: [tree])
            // Prepared once per batch, not per document.
            let probe = try db.cachedStatement(sql: "SELECT body, version, deleted, seq FROM documents WHERE owner_uid = ? AND collection = ? AND doc_id = ?")
            let nextSequence = try db.cachedStatement(sql: "UPDATE owners SET last_seq = last_seq + 1 WHERE owner_uid = ? RETURNING last_seq")
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO documents (owner_uid, collection, doc_id, body, version, deleted, seq) VALUES (?, ?, ?, ?, 1, ?, ?)
                ON CONFLICT (owner_uid, collection, doc_id) DO UPDATE
                SET body = excluded.body, version = documents.version + 1, deleted = excluded.deleted, seq = excluded.seq
                RETURNING version
                """)
            let audit = try db.cachedStatement(sql: """
                INSERT INTO audit (tree_uid, collection, doc_id, version, deleted, seq, changed_by, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var outcomes: [WriteOutcome] = []
            outcomes.reserveCapacity(writes.count)
            for write in writes {
                let arguments: StatementArguments = [tree, write.key.collection.rawValue, write.key.id]
                // A probe of the primary key for each document of the batch.
                if let row = try Row.fetchOne(probe, arguments: arguments) {
                    let current = StoredDocument(key: write.key, body: try row.strict(0), version: try row.strict(1), isDeleted: try row.strict(2), sequence: try row.strict(3))
                    if current.body == write.body, current.isDeleted == write.isDeleted {
                        outcomes.append(.unchanged(version: current.version))
                        continue
                    }
                    guard current.version == write.baseVersion else {
                        outcomes.append(.conflict(current: current))
                        continue
                    }
                }
                // SQLite's single writer serialises batches, so sequence numbers follow commit order.
                let sequence = try Int64.fetchOne(nextSequence, arguments: [tree])!
                let version = try Int64.fetchOne(upsert, arguments: [tree, write.key.collection.rawValue, write.key.id, write.body, write.isDeleted, sequence])!
                try audit.execute(arguments: [tree, write.key.collection.rawValue, write.key.id, version, write.isDeleted, sequence, user, now])
                outcomes.append(.applied(version: version, sequence: sequence))
            }
            return outcomes
        }
    }

    public func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        try Self.check(user, tree)
        return try await read { db in
            try Self.require(.read, user: user, tree: tree, role: try Self.role(of: user, in: tree, db))
            return try Row.fetchAll(db, sql: """
                SELECT collection, doc_id, body, version, deleted, seq FROM documents
                WHERE owner_uid = ? AND seq > ? ORDER BY seq LIMIT ?
                """, arguments: [tree, sequence, limit]).compactMap { row in
                guard let collection = SyncCollection(rawValue: try row.strict(0)) else { return nil }
                return StoredDocument(key: DocumentKey(collection, try row.strict(1)), body: try row.strict(2), version: try row.strict(3), isDeleted: try row.strict(4), sequence: try row.strict(5))
            }
        }
    }

    // MARK: Sharing

    public func role(of user: String, in tree: String) async throws(SyncError) -> TreeRole? {
        try Self.check(user, tree)
        return try await read { db in try Self.role(of: user, in: tree, db) }
    }

    public func share(tree: String, as user: String, with member: String, role: TreeRole) async throws(SyncError) {
        try Self.check(user, tree)
        guard !member.isEmpty else { throw .missingUser }
        guard TreeRole.shareable.contains(role) else {
            throw .accessDenied("a tree has one owner; hand it on with transfer")
        }
        try await write { db in
            try Self.require(.share, user: user, tree: tree, role: try Self.role(of: user, in: tree, db))
            if try Self.role(of: member, in: tree, db) == .owner { throw SyncError.accessDenied("\(member) owns \(tree)'s tree; the owner's role cannot be changed") }
            try Self.claimOwnership(of: tree, db)
            try db.execute(sql: """
                INSERT INTO memberships (tree_uid, member_uid, role, granted_by, granted_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (tree_uid, member_uid) DO UPDATE SET role = excluded.role, granted_by = excluded.granted_by, granted_at = excluded.granted_at
                """, arguments: [tree, member, role.rawValue, user, Self.now()])
        }
    }

    public func unshare(tree: String, as user: String, member: String) async throws(SyncError) {
        try Self.check(user, tree)
        try await write { db in
            let role = try Self.role(of: user, in: tree, db)
            // Anyone may leave; taking another's role away is an admin's.
            if member != user || role == nil { try Self.require(.unshare, user: user, tree: tree, role: role) }
            if try Self.role(of: member, in: tree, db) == .owner { throw SyncError.accessDenied("\(member) owns \(tree)'s tree; hand it on first (transfer)") }
            try Self.claimOwnership(of: tree, db)
            try db.execute(sql: "DELETE FROM memberships WHERE tree_uid = ? AND member_uid = ?", arguments: [tree, member])
        }
    }

    public func transfer(tree: String, as user: String, to newOwner: String) async throws(SyncError) {
        try Self.check(user, tree)
        guard !newOwner.isEmpty else { throw .missingUser }
        try await write { db in
            try Self.require(.transfer, user: user, tree: tree, role: try Self.role(of: user, in: tree, db))
            guard newOwner != user else { return }
            try Self.claimOwnership(of: tree, db)
            let now = Self.now()
            try db.execute(sql: "UPDATE memberships SET role = 'admin', granted_by = ?, granted_at = ? WHERE tree_uid = ? AND member_uid = ?", arguments: [newOwner, now, tree, user])
            try db.execute(sql: """
                INSERT INTO memberships (tree_uid, member_uid, role, granted_by, granted_at) VALUES (?, ?, 'owner', ?, ?)
                ON CONFLICT (tree_uid, member_uid) DO UPDATE SET role = 'owner', granted_by = excluded.granted_by, granted_at = excluded.granted_at
                """, arguments: [tree, newOwner, user, now])
        }
    }

    public func members(of tree: String, as user: String) async throws(SyncError) -> [TreeMembership] {
        try Self.check(user, tree)
        return try await read { db in
            try Self.require(.read, user: user, tree: tree, role: try Self.role(of: user, in: tree, db))
            let members = try Row.fetchAll(db, sql: "SELECT member_uid, role, granted_by, granted_at FROM memberships WHERE tree_uid = ?", arguments: [tree])
                .compactMap { row -> TreeMembership? in
                    guard let role = TreeRole(rawValue: try row.strict(1)) else { return nil }
                    return TreeMembership(tree: tree, user: try row.strict(0), role: role, grantedBy: try row.strict(2), grantedAt: try row.strict(3))
                }
            return TreeMembership.listing(members, of: tree)
        }
    }

    public func trees(of user: String) async throws(SyncError) -> [TreeMembership] {
        try Self.check(user, user)
        return try await read { db in
            let trees = try Row.fetchAll(db, sql: "SELECT tree_uid, role, granted_by, granted_at FROM memberships WHERE member_uid = ?", arguments: [user])
                .compactMap { row -> TreeMembership? in
                    guard let role = TreeRole(rawValue: try row.strict(1)) else { return nil }
                    return TreeMembership(tree: try row.strict(0), user: user, role: role, grantedBy: try row.strict(2), grantedAt: try row.strict(3))
                }
            return TreeMembership.listing(trees: trees, of: user, ownsOwnTree: try Self.role(of: user, in: user, db) == .owner)
        }
    }

    public func log(of tree: String, as user: String, key: DocumentKey?, limit: Int) async throws(SyncError) -> [AuditEntry] {
        try Self.check(user, tree)
        return try await read { db in
            try Self.require(.readLog, user: user, tree: tree, role: try Self.role(of: user, in: tree, db))
            var sql = "SELECT collection, doc_id, version, deleted, seq, changed_by, changed_at FROM audit WHERE tree_uid = ?"
            var arguments: StatementArguments = [tree]
            if let key {
                sql += " AND collection = ? AND doc_id = ?"
                arguments += [key.collection.rawValue, key.id]
            }
            sql += " ORDER BY id DESC LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
                guard let collection = SyncCollection(rawValue: try row.strict(0)) else { return nil }
                return AuditEntry(tree: tree, key: DocumentKey(collection, try row.strict(1)), version: try row.strict(2), isDeleted: try row.strict(3), sequence: try row.strict(4), user: try row.strict(5), time: try row.strict(6))
            }
        }
    }

    public func deleteTree(_ tree: String, as user: String) async throws(SyncError) {
        try Self.check(user, tree)
        try await write { db in
            try Self.require(.deleteTree, user: user, tree: tree, role: try Self.role(of: user, in: tree, db))
            for table in ["documents", "owners"] { try db.execute(sql: "DELETE FROM \(table) WHERE owner_uid = ?", arguments: [tree]) }
            for table in ["memberships", "audit"] { try db.execute(sql: "DELETE FROM \(table) WHERE tree_uid = ?", arguments: [tree]) }
        }
    }

    // MARK: Rules

    /// The role of `user` on `tree`: their membership, or owner of their own namespace while no
    /// one else has been made its owner.
    static func role(of user: String, in tree: String, _ db: Database) throws -> TreeRole? {
        if let role = try String.fetchOne(db, sql: "SELECT role FROM memberships WHERE tree_uid = ? AND member_uid = ?", arguments: [tree, user]) {
            return TreeRole(rawValue: role)
        }
        guard user == tree else { return nil }
        let hasOwner = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM memberships WHERE tree_uid = ? AND role = 'owner')", arguments: [tree]) ?? false
        return hasOwner ? nil : .owner
    }

    /// Writes the namespace user's implicit ownership down before the first membership changes,
    /// so the owner stays the owner whoever else gets a role.
    private static func claimOwnership(of tree: String, _ db: Database) throws {
        let hasOwner = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM memberships WHERE tree_uid = ? AND role = 'owner')", arguments: [tree]) ?? false
        guard !hasOwner else { return }
        try db.execute(sql: "INSERT INTO memberships (tree_uid, member_uid, role, granted_by, granted_at) VALUES (?, ?, 'owner', ?, ?) ON CONFLICT DO NOTHING", arguments: [tree, tree, tree, now()])
    }

    static func require(_ operation: TreeOperation, user: String, tree: String, role: TreeRole?) throws(SyncError) {
        guard let role, role.allows(operation) else { throw .notAllowed(user: user, tree: tree, role: role, operation: operation) }
    }

    private static func check(_ user: String, _ tree: String) throws(SyncError) {
        guard !user.isEmpty, !tree.isEmpty else { throw .missingUser }
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(SyncError) -> T {
        do {
            return try await pool.read(body)
        } catch let error as SyncError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(SyncError) -> T {
        do {
            return try await pool.write(body)
        } catch let error as SyncError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }
}

extension Row {
    /// The value at `index` as exactly `Value`. The store is a file anyone with write access can
    /// edit: text where a number belongs, or bytes that are no UTF-8 text, is a store error, not a
    /// trap (GRDB's subscripts) nor SQLite's silent conversion to 0 (its fast decoders).
    func strict<Value: DatabaseValueConvertible>(_ index: Int) throws -> Value {
        let value: DatabaseValue = self[index]
        guard let decoded = Value.fromDatabaseValue(value) else {
            throw SyncError.store("a stored row holds \(value.storage.kindDescription) where \(Value.self) belongs; the store file was changed by something other than familytree")
        }
        return decoded
    }
}

extension DatabaseValue.Storage {
    /// What kind of value this is, for a message (never the value: it may be anything).
    var kindDescription: String {
        switch self {
        case .null: "NULL"
        case .int64: "an integer"
        case .double: "a real number"
        case .string: "text"
        case .blob: "bytes"
        }
    }
}
