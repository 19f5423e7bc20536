import FamilyTree
import GRDB

/// What one device knows of one user's documents in one store: the last version of each document
/// it saw (the base of the next merge), the pull checkpoint, and the conflicts the user can review.
///
/// Opening is synchronous; every read and write after it is `async`, run on the state's own queue,
/// so a sync awaiting SQLite holds no thread of the cooperative pool.
public final class LocalSyncState: Sendable {
    private let queue: DatabaseQueue

    /// What the store held of a document when this device last saw it.
    public struct Base: Sendable, Hashable {
        /// The document's body then.
        public var body: String
        /// The store's version then.
        public var version: Int64
        /// Whether it was a tombstone.
        public var isDeleted: Bool
    }

    /// A conflict kept for the user (`familytree sync conflicts`).
    public struct StoredConflict: Sendable, Hashable {
        /// The conflict's number, for `--restore`.
        public var id: Int64
        /// The values the merge set against each other.
        public var conflict: MergeConflict
        /// Whether the user put the local value back.
        public var isRestored: Bool
        /// When the merge set it aside (ISO 8601, UTC); `nil` in a state from before times were kept.
        public var time: String?
    }

    /// Opens (creating if needed) the state file at `path`.
    public init(path: String) throws(SyncError) {
        do {
            queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS base (
                        collection TEXT NOT NULL, doc_id TEXT NOT NULL, body TEXT NOT NULL,
                        version INTEGER NOT NULL, deleted INTEGER NOT NULL,
                        PRIMARY KEY (collection, doc_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS acknowledged (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS pending_batches (id INTEGER PRIMARY KEY AUTOINCREMENT, writes TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS conflicts (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, doc_id TEXT NOT NULL,
                        field TEXT, local_value TEXT, store_value TEXT, restored INTEGER NOT NULL DEFAULT 0
                    );
                    """)
                // Added with merging by path (older states have only the top-level field).
                let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(conflicts)").map { row -> String in try row.decode(forColumn: "name") })
                for (column, type) in [("path", "TEXT"), ("store_version", "INTEGER"), ("noted_at", "TEXT")] where !columns.contains(column) {
                    try db.execute(sql: "ALTER TABLE conflicts ADD COLUMN \(column) \(type)")
                }
            }
        } catch {
            throw .store("cannot open the sync state \(path): \(error)")
        }
    }

    /// What this device last saw of every document.
    public func bases() async throws(SyncError) -> [DocumentKey: Base] {
        try await run { db in
            var result: [DocumentKey: Base] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT collection, doc_id, body, version, deleted FROM base") {
                guard let collection = SyncCollection(rawValue: try row.decode(atIndex: 0)) else { continue }
                result[DocumentKey(collection, try row.decode(atIndex: 1))] = Base(body: try row.decode(atIndex: 2), version: try row.decode(atIndex: 3), isDeleted: try row.decode(atIndex: 4))
            }
            return result
        }
    }

    /// What this device last saw of `keys` (a primary-key probe each); keys it never saw are absent.
    public func bases(for keys: [DocumentKey]) async throws(SyncError) -> [DocumentKey: Base] {
        try await run { db in
            var result: [DocumentKey: Base] = [:]
            let statement = try db.cachedStatement(sql: "SELECT body, version, deleted FROM base WHERE collection = ? AND doc_id = ?")
            for key in keys {
                if let row = try Row.fetchOne(statement, arguments: [key.collection.rawValue, key.id]) {
                    result[key] = Base(body: try row.decode(atIndex: 0), version: try row.decode(atIndex: 1), isDeleted: try row.decode(atIndex: 2))
                }
            }
            return result
        }
    }

    /// The change sequence the last pull reached.
    public func checkpoint() async throws(SyncError) -> Int64 {
        try await run { db in try Int64.fetchOne(db, sql: "SELECT seq FROM checkpoint WHERE id = 1") ?? 0 }
    }

    /// Records what the store now holds for these documents, in one local transaction; the
    /// batch noted as pending (if given) is settled, and the highest change sequence the store
    /// acknowledged (if given) noted, in the same transaction.
    public func record(_ documents: [(DocumentKey, Base)], settling batch: PendingBatch? = nil, acknowledging sequence: Int64? = nil) async throws(SyncError) {
        try await run { db in
            try Self.upsert(documents, in: db)
            if let batch { try db.execute(sql: "DELETE FROM pending_batches WHERE id = ?", arguments: [batch.id]) }
            if let sequence {
                try db.execute(sql: "INSERT INTO acknowledged (id, seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET seq = MAX(seq, excluded.seq)", arguments: [sequence])
            }
        }
    }

    /// The highest change sequence the store acknowledged to this device, by a push or a pull:
    /// a store that no longer reaches it lost changes (restored from an older backup).
    public func acknowledged() async throws(SyncError) -> Int64 {
        try await run { db in
            max(try Int64.fetchOne(db, sql: "SELECT seq FROM acknowledged WHERE id = 1") ?? 0, try Int64.fetchOne(db, sql: "SELECT seq FROM checkpoint WHERE id = 1") ?? 0)
        }
    }

    /// Records a pulled page and moves the checkpoint past it, in one local transaction: a pull
    /// killed between pages resumes from the last page it recorded.
    public func recordPage(_ page: [StoredDocument]) async throws(SyncError) {
        guard let last = page.last else { return }
        try await run { db in
            try Self.upsert(page.map { ($0.key, Base(body: $0.body, version: $0.version, isDeleted: $0.isDeleted)) }, in: db)
            try db.execute(sql: "INSERT INTO checkpoint (id, seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET seq = MAX(seq, excluded.seq)", arguments: [last.sequence])
        }
    }

    /// A batch noted as sent and not yet acknowledged.
    public struct PendingBatch: Sendable, Hashable {
        /// The note's row, settled when the batch's outcome is recorded.
        public var id: Int64
    }

    /// Notes, before a batch is sent, what this device is about to write (one row a batch, a hash
    /// a document): should the store commit it and the reply be lost (a kill, a dropped
    /// connection), the next sync recognises the store's version as this device's own write
    /// rather than someone else's edit.
    public func notePending(_ writes: [DocumentWrite]) async throws(SyncError) -> PendingBatch {
        let entries = writes.map { UnacknowledgedWrites.entry($0.key, body: $0.body, isDeleted: $0.isDeleted) }.joined(separator: "\n")
        return try await run { db in
            try db.execute(sql: "INSERT INTO pending_batches (writes) VALUES (?)", arguments: [entries])
            return PendingBatch(id: db.lastInsertedRowID)
        }
    }

    /// The writes of batches sent and never acknowledged (normally none).
    public func unacknowledgedWrites() async throws(SyncError) -> UnacknowledgedWrites {
        try await run { db in
            UnacknowledgedWrites(entries: Set(try String.fetchAll(db, sql: "SELECT writes FROM pending_batches").flatMap { $0.split(separator: "\n").map(String.init) }))
        }
    }

    /// Forgets every unacknowledged batch: after a push or pull that completed, the store's
    /// versions of those documents are this device's bases.
    public func settleAllPending() async throws(SyncError) {
        try await run { db in try db.execute(sql: "DELETE FROM pending_batches") }
    }

    /// Forgets what this device saw of the store (bases, checkpoint, unacknowledged batches); the
    /// conflicts kept for the user stay.
    public func reset() async throws(SyncError) {
        try await run { db in
            try db.execute(sql: "DELETE FROM base; DELETE FROM checkpoint; DELETE FROM acknowledged; DELETE FROM pending_batches")
        }
    }

    /// Keeps `conflicts` for the user to review, noted at `time` (ISO 8601; by default now).
    public func addConflicts(_ conflicts: [MergeConflict], at time: String? = nil) async throws(SyncError) {
        guard !conflicts.isEmpty else { return }
        let time = time ?? SQLiteDocumentStore.now()
        try await run { db in
            let insert = try db.cachedStatement(sql: """
                INSERT INTO conflicts (collection, doc_id, field, local_value, store_value, path, store_version, noted_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for conflict in conflicts {
                try insert.execute(arguments: [
                    conflict.key.collection.rawValue, conflict.key.id, conflict.field, conflict.localValue, conflict.storeValue,
                    JSONWriter.compactString(from: conflict.path.jsonValue), conflict.storeVersion, time,
                ])
            }
        }
    }

    /// Every conflict kept, oldest first.
    public func conflicts() async throws(SyncError) -> [StoredConflict] {
        try await run { db in
            try Row.fetchAll(db, sql: """
                SELECT id, collection, doc_id, field, local_value, store_value, restored, path, store_version, noted_at FROM conflicts ORDER BY id
                """).compactMap { row in
                guard let collection = SyncCollection(rawValue: try row.decode(atIndex: 1)) else { return nil }
                // A state from before paths holds the top-level field alone.
                let stored: String? = try row.decode(atIndex: 7)
                let field: String? = try row.decode(atIndex: 3)
                let path = stored.flatMap { try? JSONParser.parse($0).root }.flatMap(FieldPath.init(jsonValue:))
                    ?? FieldPath(field.map { [.field($0)] } ?? [])
                let conflict = MergeConflict(key: DocumentKey(collection, try row.decode(atIndex: 2)), path: path, localValue: try row.decode(atIndex: 4), storeValue: try row.decode(atIndex: 5), storeVersion: try row.decode(atIndex: 8))
                return StoredConflict(id: try row.decode(atIndex: 0), conflict: conflict, isRestored: try row.decode(atIndex: 6), time: try row.decode(atIndex: 9))
            }
        }
    }

    /// Marks conflict `id` as restored.
    public func markRestored(_ id: Int64) async throws(SyncError) {
        try await run { db in try db.execute(sql: "UPDATE conflicts SET restored = 1 WHERE id = ?", arguments: [id]) }
    }

    private static func upsert(_ documents: [(DocumentKey, Base)], in db: Database) throws {
        // One prepared statement for the whole page.
        let statement = try db.cachedStatement(sql: """
            INSERT INTO base (collection, doc_id, body, version, deleted) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (collection, doc_id) DO UPDATE SET body = excluded.body, version = excluded.version, deleted = excluded.deleted
            WHERE excluded.version >= base.version
            """)
        for (key, base) in documents {
            try statement.execute(arguments: [key.collection.rawValue, key.id, base.body, base.version, base.isDeleted])
        }
    }

    /// Runs `body` in a write transaction on the state's own queue: the awaiting task gives up its
    /// thread meanwhile, so a sync never holds a thread of the cooperative pool on SQLite.
    private func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(SyncError) -> T {
        do {
            return try await queue.write(body)
        } catch {
            throw .store("sync state: \(error)")
        }
    }
}

/// Writes this device sent whose reply never came: a store version equal to one of them is the
/// device's own write.
public struct UnacknowledgedWrites: Sendable, Hashable {
    var entries: Set<String>

    /// Whether no write is waiting for its acknowledgement.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether this device sent `body` (or, `isDeleted`, its tombstone) for `key` and never heard back.
    public func contains(_ key: DocumentKey, body: String, isDeleted: Bool) -> Bool {
        !entries.isEmpty && entries.contains(Self.entry(key, body: body, isDeleted: isDeleted))
    }

    /// One write as a line: the key, and a hash and length of the body (not the body: a batch's
    /// note stays small).
    static func entry(_ key: DocumentKey, body: String, isDeleted: Bool) -> String {
        "\(key.collection.rawValue)\t\(key.id)\t\(isDeleted ? "d" : "b")\(StableHash.fnv1a64(body))\(String(body.utf8.count, radix: 16))"
    }
}
