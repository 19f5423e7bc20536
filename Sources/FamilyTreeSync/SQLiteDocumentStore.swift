import GRDB

/// The embedded document store: one SQLite file (WAL mode) holding every user's documents,
/// keyed by owner first. Reads and writes go through GRDB's async API, which runs them on the
/// pool's own queues, so a caller's task waits without blocking a thread of the cooperative pool.
public final class SQLiteDocumentStore: DocumentStore {
    private let pool: DatabasePool

    /// Opens (creating if needed) the store at `path`.
    public init(path: String) throws(SyncError) {
        do {
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
                    """)
            }
        } catch {
            throw .store("cannot open the SQLite store \(path): \(error)")
        }
    }

    public func push(user: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        guard !user.isEmpty else { throw .missingUser }
        try SyncLimits.check(writes)
        do {
            // One transaction; SQLite's single writer serialises batches, so sequence numbers follow commit order.
            return try await pool.write { db in
                try db.execute(sql: "INSERT INTO owners (owner_uid, last_seq) VALUES (?, 0) ON CONFLICT DO NOTHING", arguments: [user])
                // Prepared once per batch, not per document.
                let probe = try db.cachedStatement(sql: "SELECT body, version, deleted, seq FROM documents WHERE owner_uid = ? AND collection = ? AND doc_id = ?")
                let nextSequence = try db.cachedStatement(sql: "UPDATE owners SET last_seq = last_seq + 1 WHERE owner_uid = ? RETURNING last_seq")
                let upsert = try db.cachedStatement(sql: """
                    INSERT INTO documents (owner_uid, collection, doc_id, body, version, deleted, seq) VALUES (?, ?, ?, ?, 1, ?, ?)
                    ON CONFLICT (owner_uid, collection, doc_id) DO UPDATE
                    SET body = excluded.body, version = documents.version + 1, deleted = excluded.deleted, seq = excluded.seq
                    RETURNING version
                    """)
                var outcomes: [WriteOutcome] = []
                outcomes.reserveCapacity(writes.count)
                for write in writes {
                    let arguments: StatementArguments = [user, write.key.collection.rawValue, write.key.id]
                    // A probe of the primary key for each document of the batch.
                    if let row = try Row.fetchOne(probe, arguments: arguments) {
                        let current = StoredDocument(key: write.key, body: row[0], version: row[1], isDeleted: row[2], sequence: row[3])
                        if current.body == write.body, current.isDeleted == write.isDeleted {
                            outcomes.append(.unchanged(version: current.version))
                            continue
                        }
                        guard current.version == write.baseVersion else {
                            outcomes.append(.conflict(current: current))
                            continue
                        }
                    }
                    let sequence = try Int64.fetchOne(nextSequence, arguments: [user])!
                    let version = try Int64.fetchOne(upsert, arguments: [user, write.key.collection.rawValue, write.key.id, write.body, write.isDeleted, sequence])!
                    outcomes.append(.applied(version: version, sequence: sequence))
                }
                return outcomes
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    public func pull(user: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        guard !user.isEmpty else { throw .missingUser }
        do {
            return try await pool.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT collection, doc_id, body, version, deleted, seq FROM documents
                    WHERE owner_uid = ? AND seq > ? ORDER BY seq LIMIT ?
                    """, arguments: [user, sequence, limit]).compactMap { row in
                    guard let collection = SyncCollection(rawValue: row[0]) else { return nil }
                    return StoredDocument(key: DocumentKey(collection, row[1]), body: row[2], version: row[3], isDeleted: row[4], sequence: row[5])
                }
            }
        } catch {
            throw .store("\(error)")
        }
    }
}
