import Foundation
import GRDB

// What `familytree serve` keeps besides the trees, in the same database as the documents: here
// (not in FamilyTreeServer) so each store's module can keep it in its own database.

/// A server account: a user id of the document store, with a password.
package struct AccountRecord: Sendable, Hashable {
    package var user: String
    /// The bcrypt hash of the password's SHA-256 (so a passphrase longer than bcrypt's 72 bytes counts whole).
    package var passwordHash: String
    package var isAdministrator: Bool
    package var createdAt: Int64

    package init(user: String, passwordHash: String, isAdministrator: Bool, createdAt: Int64) {
        self.user = user
        self.passwordHash = passwordHash
        self.isAdministrator = isAdministrator
        self.createdAt = createdAt
    }
}

/// A browser session or a personal access token: a secret the server keeps only as its SHA-256.
package struct CredentialRecord: Sendable, Hashable {
    package enum Kind: String, Sendable { case session, token }

    package var id: String
    package var user: String
    package var kind: Kind
    package var label: String
    package var secretHash: String
    /// A session's CSRF token (sent back by the page on every state-changing request); empty for a token.
    package var csrfToken: String
    package var createdAt: Int64
    package var lastUsedAt: Int64?
    /// Sessions expire; tokens live until revoked (`nil`).
    package var expiresAt: Int64?

    /// For a calendar address (a token that reads one tree's birthday calendar and nothing else),
    /// that tree. A calendar address is kept with the tokens, listed and revoked like them; its
    /// mark is in the CSRF column, which tokens do not use and no client can set.
    package var calendarTree: String? {
        kind == .token && csrfToken.hasPrefix(Self.calendarMark) ? String(csrfToken.dropFirst(Self.calendarMark.count)) : nil
    }
    package static let calendarMark = "calendar:"

    package init(
        id: String, user: String, kind: Kind, label: String, secretHash: String, csrfToken: String, createdAt: Int64, lastUsedAt: Int64?,
        expiresAt: Int64?
    ) {
        self.id = id
        self.user = user
        self.kind = kind
        self.label = label
        self.secretHash = secretHash
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
    }
}

/// An invite into a role on a tree; its code is kept only as its SHA-256 and works once.
package struct InviteRecord: Sendable, Hashable {
    package var id: String
    package var codeHash: String
    package var tree: String
    package var role: TreeRole
    package var invitee: String
    package var invitedBy: String
    package var createdAt: Int64
    package var expiresAt: Int64
    package var acceptedBy: String?
    /// Whether the share it makes hides living people's details (a viewer's only).
    package var hidesLiving: Bool

    package init(
        id: String, codeHash: String, tree: String, role: TreeRole, invitee: String, invitedBy: String, createdAt: Int64, expiresAt: Int64,
        acceptedBy: String?, hidesLiving: Bool = false
    ) {
        self.id = id
        self.codeHash = codeHash
        self.tree = tree
        self.role = role
        self.invitee = invitee
        self.invitedBy = invitedBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.acceptedBy = acceptedBy
        self.hidesLiving = hidesLiving
    }
}

/// Where the server keeps what is not a tree's document: accounts, sessions, tokens, invites and
/// failed sign-ins. Everything lives in the store, none of it in one process's memory, so two
/// server processes over one database serve the same users.
package protocol AccountStore: Sendable {
    /// Adds an account; the first account of the server is always its administrator. `false` when the id is taken.
    func insertAccount(_ account: AccountRecord) async throws -> Bool
    func account(_ user: String) async throws -> AccountRecord?
    func accountCount() async throws -> Int

    func insertCredential(_ credential: CredentialRecord) async throws
    /// The unexpired credential with this secret hash, its last use noted (at most once a minute).
    func credential(secretHash: String, now: Int64) async throws -> CredentialRecord?
    func tokens(of user: String) async throws -> [CredentialRecord]
    /// Deletes one credential of `user`; `false` when they have none with that id.
    func deleteCredential(id: String, of user: String) async throws -> Bool
    /// Deletes every session and token of `user`.
    func deleteCredentials(of user: String) async throws

    func insertInvite(_ invite: InviteRecord) async throws
    func invite(codeHash: String) async throws -> InviteRecord?
    /// Marks the invite used by `user` if nobody used it and it has not expired; `false` otherwise.
    /// Atomic: of two acceptances at once, one wins.
    func claimInvite(codeHash: String, by user: String, now: Int64) async throws -> Bool
    /// Gives a claimed invite back (the role could not be granted).
    func releaseInvite(codeHash: String) async throws

    /// Notes a failed sign-in under each key (an account, an address); returns each key's failures
    /// within the window ending `now`.
    func recordFailure(keys: [String], now: Int64, window: Int64) async throws
    func failures(key: String, now: Int64, window: Int64) async throws -> Int
    func clearFailures(key: String) async throws

    /// Whether `user`'s share of `tree` hides living people's details from them (the server
    /// applies it to a viewer; a role that edits sees what it edits).
    func hidesLiving(tree: String, user: String) async throws -> Bool
    func setHidesLiving(_ hides: Bool, tree: String, user: String) async throws
    /// The users whose share of `tree` hides living people.
    func usersHidingLiving(in tree: String) async throws -> Set<String>

    /// The member of `tree` that `user` said is them ("this is me"), kept with the account so
    /// every device they sign in on knows it; `nil` when they said none.
    func ownPerson(tree: String, user: String) async throws -> String?
    /// Says which member of `tree` is `user` (`nil`: none).
    func setOwnPerson(_ member: String?, tree: String, user: String) async throws
}

/// The accounts in the embedded store's SQLite file, beside its documents (tables `server_*`).
package final class SQLiteAccountStore: AccountStore {
    private let pool: DatabasePool

    package init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS server_accounts (
                    user TEXT PRIMARY KEY NOT NULL,
                    password_hash TEXT NOT NULL,
                    is_administrator INTEGER NOT NULL,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS server_credentials (
                    id TEXT PRIMARY KEY NOT NULL,
                    user TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('session', 'token')),
                    label TEXT NOT NULL,
                    secret_hash TEXT NOT NULL UNIQUE,
                    csrf_token TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    last_used_at INTEGER,
                    expires_at INTEGER
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS server_credentials_by_user ON server_credentials (user, kind);
                CREATE TABLE IF NOT EXISTS server_invites (
                    id TEXT PRIMARY KEY NOT NULL,
                    code_hash TEXT NOT NULL UNIQUE,
                    tree TEXT NOT NULL,
                    role TEXT NOT NULL,
                    invitee TEXT NOT NULL,
                    invited_by TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    accepted_by TEXT,
                    accepted_at INTEGER
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS server_private_shares (
                    tree TEXT NOT NULL,
                    user TEXT NOT NULL,
                    PRIMARY KEY (tree, user)
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS server_own_people (
                    tree TEXT NOT NULL,
                    user TEXT NOT NULL,
                    member TEXT NOT NULL,
                    PRIMARY KEY (tree, user)
                ) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS server_sign_in_failures (
                    key TEXT NOT NULL,
                    at INTEGER NOT NULL
                );
                CREATE INDEX IF NOT EXISTS server_sign_in_failures_by_key ON server_sign_in_failures (key, at);
                """)
            // Added after the table was first made: a store made before has no such column.
            if try !db.columns(in: "server_invites").contains(where: { $0.name == "hides_living" }) {
                try db.execute(sql: "ALTER TABLE server_invites ADD COLUMN hides_living INTEGER NOT NULL DEFAULT 0")
            }
        }
    }

    package func insertAccount(_ account: AccountRecord) async throws -> Bool {
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM server_accounts WHERE user = ?", arguments: [account.user]) == nil else { return false }
            let isFirst = try Int.fetchOne(db, sql: "SELECT count(*) FROM server_accounts") == 0
            try db.execute(
                sql: "INSERT INTO server_accounts (user, password_hash, is_administrator, created_at) VALUES (?, ?, ?, ?)",
                arguments: [account.user, account.passwordHash, account.isAdministrator || isFirst, account.createdAt])
            return true
        }
    }

    package func account(_ user: String) async throws -> AccountRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM server_accounts WHERE user = ?", arguments: [user]).map {
                AccountRecord(user: $0["user"], passwordHash: $0["password_hash"], isAdministrator: $0["is_administrator"], createdAt: $0["created_at"])
            }
        }
    }

    package func accountCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM server_accounts") ?? 0 }
    }

    package func insertCredential(_ credential: CredentialRecord) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO server_credentials (id, user, kind, label, secret_hash, csrf_token, created_at, last_used_at, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    credential.id, credential.user, credential.kind.rawValue, credential.label, credential.secretHash,
                    credential.csrfToken, credential.createdAt, credential.lastUsedAt, credential.expiresAt,
                ])
        }
    }

    package func credential(secretHash: String, now: Int64) async throws -> CredentialRecord? {
        let found = try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM server_credentials WHERE secret_hash = ? AND (expires_at IS NULL OR expires_at > ?)",
                arguments: [secretHash, now]
            ).map(Self.credential)
        }
        if let found, (found.lastUsedAt ?? 0) < now - 60 {
            try await pool.write { db in
                try db.execute(sql: "UPDATE server_credentials SET last_used_at = ? WHERE id = ?", arguments: [now, found.id])
            }
        }
        return found
    }

    package func tokens(of user: String) async throws -> [CredentialRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM server_credentials WHERE user = ? AND kind = 'token' ORDER BY created_at DESC, id",
                arguments: [user]
            ).map(Self.credential)
        }
    }

    package func deleteCredential(id: String, of user: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM server_credentials WHERE id = ? AND user = ?", arguments: [id, user])
            return db.changesCount > 0
        }
    }

    package func deleteCredentials(of user: String) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM server_credentials WHERE user = ?", arguments: [user]) }
    }

    package func insertInvite(_ invite: InviteRecord) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO server_invites (id, code_hash, tree, role, invitee, invited_by, created_at, expires_at, hides_living)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    invite.id, invite.codeHash, invite.tree, invite.role.rawValue, invite.invitee, invite.invitedBy, invite.createdAt,
                    invite.expiresAt, invite.hidesLiving,
                ])
        }
    }

    package func invite(codeHash: String) async throws -> InviteRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM server_invites WHERE code_hash = ?", arguments: [codeHash]).flatMap { row in
                TreeRole(rawValue: row["role"]).map { role in
                    InviteRecord(
                        id: row["id"], codeHash: row["code_hash"], tree: row["tree"], role: role, invitee: row["invitee"],
                        invitedBy: row["invited_by"], createdAt: row["created_at"], expiresAt: row["expires_at"], acceptedBy: row["accepted_by"],
                        hidesLiving: row["hides_living"])
                }
            }
        }
    }

    package func claimInvite(codeHash: String, by user: String, now: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE server_invites SET accepted_by = ?, accepted_at = ? WHERE code_hash = ? AND accepted_by IS NULL AND expires_at > ?",
                arguments: [user, now, codeHash, now])
            return db.changesCount == 1
        }
    }

    package func releaseInvite(codeHash: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE server_invites SET accepted_by = NULL, accepted_at = NULL WHERE code_hash = ?", arguments: [codeHash])
        }
    }

    package func recordFailure(keys: [String], now: Int64, window: Int64) async throws {
        try await pool.write { db in
            for key in keys {
                try db.execute(sql: "INSERT INTO server_sign_in_failures (key, at) VALUES (?, ?)", arguments: [key, now])
            }
            try db.execute(sql: "DELETE FROM server_sign_in_failures WHERE at <= ?", arguments: [now - window])
        }
    }

    package func failures(key: String, now: Int64, window: Int64) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM server_sign_in_failures WHERE key = ? AND at > ?", arguments: [key, now - window]) ?? 0
        }
    }

    package func clearFailures(key: String) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM server_sign_in_failures WHERE key = ?", arguments: [key]) }
    }

    package func hidesLiving(tree: String, user: String) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM server_private_shares WHERE tree = ? AND user = ?", arguments: [tree, user]) ?? false
        }
    }

    package func setHidesLiving(_ hides: Bool, tree: String, user: String) async throws {
        try await pool.write { db in
            if hides {
                try db.execute(sql: "INSERT INTO server_private_shares (tree, user) VALUES (?, ?) ON CONFLICT DO NOTHING", arguments: [tree, user])
            } else {
                try db.execute(sql: "DELETE FROM server_private_shares WHERE tree = ? AND user = ?", arguments: [tree, user])
            }
        }
    }

    package func usersHidingLiving(in tree: String) async throws -> Set<String> {
        try await pool.read { db in Set(try String.fetchAll(db, sql: "SELECT user FROM server_private_shares WHERE tree = ?", arguments: [tree])) }
    }

    package func ownPerson(tree: String, user: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT member FROM server_own_people WHERE tree = ? AND user = ?", arguments: [tree, user])
        }
    }

    package func setOwnPerson(_ member: String?, tree: String, user: String) async throws {
        try await pool.write { db in
            if let member {
                try db.execute(
                    sql: "INSERT INTO server_own_people (tree, user, member) VALUES (?, ?, ?) ON CONFLICT (tree, user) DO UPDATE SET member = excluded.member",
                    arguments: [tree, user, member])
            } else {
                try db.execute(sql: "DELETE FROM server_own_people WHERE tree = ? AND user = ?", arguments: [tree, user])
            }
        }
    }

    private static func credential(_ row: Row) -> CredentialRecord {
        CredentialRecord(
            id: row["id"], user: row["user"], kind: CredentialRecord.Kind(rawValue: row["kind"]) ?? .token, label: row["label"],
            secretHash: row["secret_hash"], csrfToken: row["csrf_token"], createdAt: row["created_at"], lastUsedAt: row["last_used_at"],
            expiresAt: row["expires_at"])
    }
}
