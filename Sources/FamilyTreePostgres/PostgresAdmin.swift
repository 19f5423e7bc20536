#if PostgreSQL
import FamilyTreeSync
import Logging
import PostgresNIO

/// Setting up the PostgreSQL store, as a database administrator: the tables, their row-level
/// security, the application role, and one login role per user.
public enum PostgresAdmin {
    /// The statements that create the store; each is safe to run again.
    static let schema: [String] = [
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'familytree_app') THEN CREATE ROLE familytree_app NOLOGIN; END IF; END $$",
        "CREATE TABLE IF NOT EXISTS familytree_owners (owner_uid text PRIMARY KEY, last_seq bigint NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS familytree_documents (
            owner_uid text NOT NULL, collection text NOT NULL, doc_id text NOT NULL, body jsonb NOT NULL,
            version bigint NOT NULL, deleted boolean NOT NULL, seq bigint NOT NULL,
            PRIMARY KEY (owner_uid, collection, doc_id))
        """,
        "CREATE UNIQUE INDEX IF NOT EXISTS familytree_documents_by_seq ON familytree_documents (owner_uid, seq)",
        "ALTER TABLE familytree_owners ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE familytree_owners FORCE ROW LEVEL SECURITY",
        "ALTER TABLE familytree_documents ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE familytree_documents FORCE ROW LEVEL SECURITY",
        "DROP POLICY IF EXISTS own_rows ON familytree_owners",
        "CREATE POLICY own_rows ON familytree_owners USING (owner_uid = current_user) WITH CHECK (owner_uid = current_user)",
        "DROP POLICY IF EXISTS own_rows ON familytree_documents",
        "CREATE POLICY own_rows ON familytree_documents USING (owner_uid = current_user) WITH CHECK (owner_uid = current_user)",
        "REVOKE ALL ON familytree_owners, familytree_documents FROM PUBLIC",
        // No DELETE: a user's deletes are tombstones.
        "GRANT SELECT, INSERT, UPDATE ON familytree_owners, familytree_documents TO familytree_app",
    ]

    /// Creates the tables, policies and the application role, unless they are all in place
    /// (DDL on tables in use would wait on, and could deadlock with, users' transactions).
    public static func install(adminURL: String) async throws(SyncError) {
        try await withConnection(adminURL) { connection, logger in try await install(connection: connection, logger: logger) }
    }

    private static func install(connection: PostgresConnection, logger: Logger) async throws {
        let check = try await connection.rows("""
            SELECT (SELECT count(*) FROM pg_class
                    WHERE relname IN ('familytree_owners', 'familytree_documents') AND relrowsecurity AND relforcerowsecurity)
                 + (SELECT count(*) FROM pg_policies WHERE policyname = 'own_rows'
                    AND tablename IN ('familytree_owners', 'familytree_documents'))
                 + (SELECT count(*) FROM pg_roles WHERE rolname = 'familytree_app')
            """, logger: logger)
        guard try check.first?.decode(Int64.self) != 5 else { return }
        for statement in schema { _ = try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger) }
    }

    /// Creates (or updates the password of) the login role of user `uid`, a member of the
    /// application role: it reaches its own documents and no one else's.
    public static func createUser(_ uid: String, password: String, adminURL: String) async throws(SyncError) {
        guard !uid.isEmpty else { throw .missingUser }
        guard !uid.hasPrefix("pg_"), uid != "familytree_app", uid != "postgres" else { throw .accessDenied("\"\(uid)\" is reserved") }
        let role = "\"" + uid.replacingAll("\"", with: "\"\"") + "\""
        let secret = "'" + password.replacingAll("'", with: "''") + "'"
        try await withConnection(adminURL) { connection, logger in
            try await install(connection: connection, logger: logger)
            let exists = try await !connection.rows("SELECT 1 FROM pg_roles WHERE rolname = \(uid)", logger: logger).isEmpty
            let statement = exists ? "ALTER ROLE \(role) WITH LOGIN PASSWORD \(secret)" : "CREATE ROLE \(role) LOGIN PASSWORD \(secret)"
            _ = try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
            _ = try await connection.rows(PostgresQuery(unsafeSQL: "GRANT familytree_app TO \(role)"), logger: logger)
        }
    }

    private static func withConnection(_ url: String, _ body: (PostgresConnection, Logger) async throws -> Void) async throws(SyncError) {
        let address = try PostgresURL(url)
        let logger = Logger(label: "familytree.postgres.admin")
        do {
            let connection = try await PostgresConnection.connect(configuration: address.configuration, id: 2, logger: logger)
            do {
                // One administrator at a time: setting up policies and roles concurrently races.
                try await connection.inTransaction(logger: logger) {
                    _ = try await connection.rows("SELECT pg_advisory_xact_lock(7246001)", logger: logger)
                    try await body(connection, logger)
                }
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            throw PostgresDocumentStore.syncError(error)
        }
    }
}

extension String {
    /// Every `target` replaced, scalar by scalar: a quote followed by a combining mark is one
    /// `Character` but still a quote to PostgreSQL, so characters must not be compared here.
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var result = ""
        for scalar in unicodeScalars { if scalar == target { result += replacement } else { result.unicodeScalars.append(scalar) } }
        return result
    }
}
#endif
