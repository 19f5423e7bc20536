#if PostgreSQL
import FamilyTreeSync
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// The document store for `familytree serve` on PostgreSQL: several connections of a server login,
/// each call on the next one, each acting for the user the call names (see `actsForUsers`).
///
/// Every call still goes through the database's own role checks and row-level security for that
/// user, in its own transaction: the server decides who is signed in, the database what they may do.
public final class PostgresServerStore: SharedTreeStore {
    private let stores: [PostgresDocumentStore]
    private let next = NIOLockedValueBox(0)

    /// Opens `connections` connections with the server login in `url`.
    public init(url: String, password: String? = nil, connections: Int) async throws(SyncError) {
        var stores: [PostgresDocumentStore] = []
        for _ in 0..<max(1, connections) {
            stores.append(try await PostgresDocumentStore(url: url, password: password, actingForUsers: true))
        }
        self.stores = stores
    }

    /// Closes every connection.
    public func close() async {
        for store in stores { await store.close() }
    }

    private var store: PostgresDocumentStore {
        stores[next.withLockedValue { index in
            defer { index = (index + 1) % stores.count }
            return index
        }]
    }

    public func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        try await store.push(user: user, tree: tree, writes)
    }
    public func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        try await store.pull(user: user, tree: tree, after: sequence, limit: limit)
    }
    public func role(of user: String, in tree: String) async throws(SyncError) -> TreeRole? { try await store.role(of: user, in: tree) }
    public func share(tree: String, as user: String, with member: String, role: TreeRole) async throws(SyncError) {
        try await store.share(tree: tree, as: user, with: member, role: role)
    }
    public func unshare(tree: String, as user: String, member: String) async throws(SyncError) {
        try await store.unshare(tree: tree, as: user, member: member)
    }
    public func transfer(tree: String, as user: String, to newOwner: String) async throws(SyncError) {
        try await store.transfer(tree: tree, as: user, to: newOwner)
    }
    public func members(of tree: String, as user: String) async throws(SyncError) -> [TreeMembership] {
        try await store.members(of: tree, as: user)
    }
    public func trees(of user: String) async throws(SyncError) -> [TreeMembership] { try await store.trees(of: user) }
    public func log(of tree: String, as user: String, key: DocumentKey?, limit: Int) async throws(SyncError) -> [AuditEntry] {
        try await store.log(of: tree, as: user, key: key, limit: limit)
    }
    public func deleteTree(_ tree: String, as user: String) async throws(SyncError) { try await store.deleteTree(tree, as: user) }
}

/// The server's accounts, sessions, tokens, invites and failed sign-ins in PostgreSQL (tables
/// `familytree_server_*`, which only server logins reach), so every server process over the
/// database sees the same ones.
package final class PostgresAccountStore: AccountStore {
    private let connections: [(PostgresConnection, AsyncTurn)]
    private let next = NIOLockedValueBox(0)
    private let logger = Logger(label: "familytree.postgres.accounts")

    package init(url: String, password: String? = nil, connections count: Int) async throws(SyncError) {
        var address = try PostgresURL(url)
        if address.password == nil { address.password = password }
        var connections: [(PostgresConnection, AsyncTurn)] = []
        do {
            for index in 0..<max(1, count) {
                let connection = try await PostgresConnection.connect(configuration: try address.configuration(), id: 100 + index, logger: logger)
                connections.append((connection, AsyncTurn()))
            }
        } catch {
            for (connection, _) in connections { try? await connection.close() }
            throw PostgresDocumentStore.syncError(error)
        }
        self.connections = connections
    }

    package func close() async {
        for (connection, _) in connections { try? await connection.close() }
    }

    deinit {
        // As PostgresDocumentStore's: postgres-nio asserts that a connection is closed before it goes.
        for (connection, _) in connections where !connection.isClosed {
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        }
    }

    /// Runs `body` on the next connection, in its turn.
    private func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let (connection, turn) = connections[next.withLockedValue { index in
            defer { index = (index + 1) % connections.count }
            return index
        }]
        do {
            return try await turn.run { [logger] in try await body(connection, logger) }
        } catch {
            throw PostgresDocumentStore.syncError(error)
        }
    }

    package func insertAccount(_ account: AccountRecord) async throws -> Bool {
        try await run { connection, logger in
            // The first account is the administrator: decided in the statement that inserts it.
            let rows = try await connection.rows("""
                INSERT INTO familytree_server_accounts (user_id, password_hash, is_administrator, created_at)
                SELECT \(account.user), \(account.passwordHash), \(account.isAdministrator) OR NOT EXISTS (SELECT 1 FROM familytree_server_accounts), \(account.createdAt)
                ON CONFLICT (user_id) DO NOTHING RETURNING user_id
                """, logger: logger)
            return !rows.isEmpty
        }
    }

    package func account(_ user: String) async throws -> AccountRecord? {
        try await run { connection, logger in
            try await connection.rows("""
                SELECT user_id, password_hash, is_administrator, created_at FROM familytree_server_accounts WHERE user_id = \(user)
                """, logger: logger).first.map {
                let (user, hash, isAdministrator, createdAt) = try $0.decode((String, String, Bool, Int64).self)
                return AccountRecord(user: user, passwordHash: hash, isAdministrator: isAdministrator, createdAt: createdAt)
            }
        }
    }

    package func accountCount() async throws -> Int {
        try await run { connection, logger in
            Int(try await connection.rows("SELECT count(*) FROM familytree_server_accounts", logger: logger).first?.decode(Int64.self) ?? 0)
        }
    }

    package func insertCredential(_ credential: CredentialRecord) async throws {
        try await run { connection, logger in
            _ = try await connection.rows("""
                INSERT INTO familytree_server_credentials (id, user_id, kind, label, secret_hash, csrf_token, created_at, last_used_at, expires_at)
                VALUES (\(credential.id), \(credential.user), \(credential.kind.rawValue), \(credential.label), \(credential.secretHash),
                    \(credential.csrfToken), \(credential.createdAt), \(credential.lastUsedAt), \(credential.expiresAt))
                """, logger: logger)
        }
    }

    private static let credentialColumns = "id, user_id, kind, label, secret_hash, csrf_token, created_at, last_used_at, expires_at"

    private static func credential(_ row: PostgresRow) throws -> CredentialRecord {
        let (id, user, kind, label, hash, csrf, createdAt, lastUsedAt, expiresAt) = try row.decode(
            (String, String, String, String, String, String, Int64, Int64?, Int64?).self)
        return CredentialRecord(
            id: id, user: user, kind: CredentialRecord.Kind(rawValue: kind) ?? .token, label: label, secretHash: hash, csrfToken: csrf,
            createdAt: createdAt, lastUsedAt: lastUsedAt, expiresAt: expiresAt)
    }

    package func credential(secretHash: String, now: Int64) async throws -> CredentialRecord? {
        try await run { connection, logger in
            let found = try await connection.rows(
                "SELECT \(unescaped: Self.credentialColumns) FROM familytree_server_credentials WHERE secret_hash = \(secretHash) AND (expires_at IS NULL OR expires_at > \(now))",
                logger: logger
            ).first.map(Self.credential)
            if let found, (found.lastUsedAt ?? 0) < now - 60 {
                _ = try await connection.rows("UPDATE familytree_server_credentials SET last_used_at = \(now) WHERE id = \(found.id)", logger: logger)
            }
            return found
        }
    }

    package func tokens(of user: String) async throws -> [CredentialRecord] {
        try await run { connection, logger in
            try await connection.rows(
                "SELECT \(unescaped: Self.credentialColumns) FROM familytree_server_credentials WHERE user_id = \(user) AND kind = 'token' ORDER BY created_at DESC, id",
                logger: logger
            ).map(Self.credential)
        }
    }

    package func deleteCredential(id: String, of user: String) async throws -> Bool {
        try await run { connection, logger in
            !(try await connection.rows("DELETE FROM familytree_server_credentials WHERE id = \(id) AND user_id = \(user) RETURNING id", logger: logger)).isEmpty
        }
    }

    package func deleteCredentials(of user: String) async throws {
        try await run { connection, logger in
            _ = try await connection.rows("DELETE FROM familytree_server_credentials WHERE user_id = \(user)", logger: logger)
        }
    }

    package func insertInvite(_ invite: InviteRecord) async throws {
        try await run { connection, logger in
            _ = try await connection.rows("""
                INSERT INTO familytree_server_invites (id, code_hash, tree, role, invitee, invited_by, created_at, expires_at, hides_living)
                VALUES (\(invite.id), \(invite.codeHash), \(invite.tree), \(invite.role.rawValue), \(invite.invitee), \(invite.invitedBy),
                    \(invite.createdAt), \(invite.expiresAt), \(invite.hidesLiving))
                """, logger: logger)
        }
    }

    package func invite(codeHash: String) async throws -> InviteRecord? {
        try await run { connection, logger in
            try await connection.rows("""
                SELECT id, code_hash, tree, role, invitee, invited_by, created_at, expires_at, accepted_by, hides_living
                FROM familytree_server_invites WHERE code_hash = \(codeHash)
                """, logger: logger).first.flatMap { row in
                let (id, hash, tree, role, invitee, invitedBy, createdAt, expiresAt, acceptedBy, hidesLiving) = try row.decode(
                    (String, String, String, String, String, String, Int64, Int64, String?, Bool).self)
                return TreeRole(rawValue: role).map {
                    InviteRecord(
                        id: id, codeHash: hash, tree: tree, role: $0, invitee: invitee, invitedBy: invitedBy, createdAt: createdAt,
                        expiresAt: expiresAt, acceptedBy: acceptedBy, hidesLiving: hidesLiving)
                }
            }
        }
    }

    package func claimInvite(codeHash: String, by user: String, now: Int64) async throws -> Bool {
        try await run { connection, logger in
            !(try await connection.rows("""
                UPDATE familytree_server_invites SET accepted_by = \(user), accepted_at = \(now)
                WHERE code_hash = \(codeHash) AND accepted_by IS NULL AND expires_at > \(now) RETURNING id
                """, logger: logger)).isEmpty
        }
    }

    package func releaseInvite(codeHash: String) async throws {
        try await run { connection, logger in
            _ = try await connection.rows(
                "UPDATE familytree_server_invites SET accepted_by = NULL, accepted_at = NULL WHERE code_hash = \(codeHash)", logger: logger)
        }
    }

    package func recordFailure(keys: [String], now: Int64, window: Int64) async throws {
        try await run { connection, logger in
            _ = try await connection.rows(
                "INSERT INTO familytree_server_sign_in_failures (key, at) SELECT k, \(now) FROM unnest(\(keys)::text[]) AS k", logger: logger)
            _ = try await connection.rows("DELETE FROM familytree_server_sign_in_failures WHERE at <= \(now - window)", logger: logger)
        }
    }

    package func failures(key: String, now: Int64, window: Int64) async throws -> Int {
        try await run { connection, logger in
            Int(try await connection.rows(
                "SELECT count(*) FROM familytree_server_sign_in_failures WHERE key = \(key) AND at > \(now - window)", logger: logger
            ).first?.decode(Int64.self) ?? 0)
        }
    }

    package func clearFailures(key: String) async throws {
        try await run { connection, logger in
            _ = try await connection.rows("DELETE FROM familytree_server_sign_in_failures WHERE key = \(key)", logger: logger)
        }
    }

    package func hidesLiving(tree: String, user: String) async throws -> Bool {
        try await run { connection, logger in
            !(try await connection.rows(
                "SELECT 1 FROM familytree_server_private_shares WHERE tree = \(tree) AND user_id = \(user)", logger: logger)).isEmpty
        }
    }

    package func setHidesLiving(_ hides: Bool, tree: String, user: String) async throws {
        try await run { connection, logger in
            if hides {
                _ = try await connection.rows(
                    "INSERT INTO familytree_server_private_shares (tree, user_id) VALUES (\(tree), \(user)) ON CONFLICT DO NOTHING", logger: logger)
            } else {
                _ = try await connection.rows("DELETE FROM familytree_server_private_shares WHERE tree = \(tree) AND user_id = \(user)", logger: logger)
            }
        }
    }

    package func usersHidingLiving(in tree: String) async throws -> Set<String> {
        try await run { connection, logger in
            Set(try await connection.rows("SELECT user_id FROM familytree_server_private_shares WHERE tree = \(tree)", logger: logger)
                .map { try $0.decode(String.self) })
        }
    }

    package func ownPerson(tree: String, user: String) async throws -> String? {
        try await run { connection, logger in
            try await connection.rows("SELECT member FROM familytree_server_own_people WHERE tree = \(tree) AND user_id = \(user)", logger: logger)
                .first.map { try $0.decode(String.self) }
        }
    }

    package func setOwnPerson(_ member: String?, tree: String, user: String) async throws {
        try await run { connection, logger in
            if let member {
                _ = try await connection.rows("""
                    INSERT INTO familytree_server_own_people (tree, user_id, member) VALUES (\(tree), \(user), \(member))
                    ON CONFLICT (tree, user_id) DO UPDATE SET member = excluded.member
                    """, logger: logger)
            } else {
                _ = try await connection.rows("DELETE FROM familytree_server_own_people WHERE tree = \(tree) AND user_id = \(user)", logger: logger)
            }
        }
    }
}
#endif
