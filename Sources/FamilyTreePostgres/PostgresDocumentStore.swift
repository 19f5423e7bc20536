#if PostgreSQL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FamilyTree
import FamilyTreeSync
import Logging
import NIOConcurrencyHelpers
import NIOSSL
import PostgresNIO

/// The document store in PostgreSQL: JSONB bodies, each user a database login role that sees and
/// writes only the trees it has a role on, as far as its role allows.
///
/// Isolation is the database's, not ours: row-level security, forced for the table owner too,
/// with policies on the caller's role on each row's tree (`familytree_role`), so a user holding
/// their own credentials reaches no tree not shared with them and does no more than their role
/// allows. The application role has no DELETE grant: deletes are tombstones. The store checks the
/// role first too, only to say in words which role an operation needs.
public final class PostgresDocumentStore: SharedTreeStore {
    private let connection: PostgresConnection
    private let logger = Logger(label: "familytree.postgres")
    /// One transaction at a time on the one connection: calls from several tasks wait their turn.
    private let turn = AsyncTurn()
    /// The login role this store is connected as: the only user whose documents it can reach,
    /// unless it is a server login.
    public let role: String
    /// Whether this is a server login (`familytree serve`), acting for whichever user a call names:
    /// each call first tells the database whom it acts for, and the database's own role checks and
    /// row-level security apply to that user, as to their own login.
    public let actsForUsers: Bool

    /// Connects with the credentials in `url` (`postgres://user:password@host:port/database`, with
    /// `?sslmode=disable|prefer|require|verify-ca|verify-full&sslrootcert=ca.pem`; TLS is required
    /// for any host but this machine unless `sslmode` says otherwise). A password the URL does not
    /// give comes from `PGPASSWORD`, then `~/.pgpass` (or `PGPASSFILE`), then `password`.
    public init(url: String, password: String? = nil, actingForUsers: Bool = false) async throws(SyncError) {
        var address = try PostgresURL(url, environment: getenv("PGPASSWORD").map { String(cString: $0) })
        if address.password == nil { address.password = password }
        do {
            connection = try await PostgresConnection.connect(configuration: try address.configuration(), id: 1, logger: logger)
        } catch let error as SyncError {
            throw error
        } catch {
            throw .store("cannot connect to \(address.redacted): \(Self.message(error))")
        }
        do {
            role = try await connection.rows("SELECT current_user::text", logger: logger).first?.decode(String.self) ?? ""
        } catch {
            try? await connection.close()
            throw .store("cannot connect to \(address.redacted): \(Self.message(error))")
        }
        actsForUsers = actingForUsers
        if actingForUsers {
            let isServer = try? await connection.rows("""
                SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
                    JOIN pg_catalog.pg_roles u ON u.oid = m.member WHERE g.rolname = 'familytree_server' AND u.rolname = current_user)
                """, logger: logger).first?.decode(Bool.self)
            guard isServer == true else {
                try? await connection.close()
                throw .accessDenied("\(role) is not a server login: make one with familytree sync admin create-server-login")
            }
        }
    }

    /// Tells the database whom the calls of this turn act for (a server login only).
    private static func act(as user: String, _ actsForUsers: Bool, _ connection: PostgresConnection, _ logger: Logger) async throws {
        guard actsForUsers else { return }
        _ = try await connection.rows("SELECT set_config('familytree.acting_user', \(user), false)", logger: logger)
    }

    /// Whether `url`, `PGPASSWORD` and the password file leave the password unknown (a terminal may ask for it).
    public static func needsPassword(url: String) -> Bool {
        (try? PostgresURL(url, environment: getenv("PGPASSWORD").map { String(cString: $0) }))?.password == nil
    }

    /// Closes the connection; the store answers nothing after this.
    public func close() async {
        try? await connection.close()
    }

    deinit {
        // Nothing to wait for: the event loop closes the socket. The connection must outlive its
        // close (postgres-nio asserts that a connection is closed before it goes).
        guard !connection.isClosed else { return }
        let connection = connection
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    public func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        try checkUser(user, tree)
        try SyncLimits.check(writes)
        do {
            return try await turn.run { [connection, logger, actsForUsers] in
                try await Self.act(as: user, actsForUsers, connection, logger)
                return try await connection.inTransaction(logger: logger) {
                    let role = try await Self.role(in: tree, connection: connection, logger: logger)
                    try Self.require(.write, user: user, tree: tree, role: role)
                    if writes.contains(where: \.isDeleted) { try Self.require(.delete, user: user, tree: tree, role: role) }
                    return try await Self.apply(writes, user: tree, connection: connection, logger: logger)
                }
            }
        } catch {
            throw Self.syncError(error)
        }
    }

    private static func apply(_ writes: [DocumentWrite], user: String, connection: PostgresConnection, logger: Logger) async throws -> [WriteOutcome] {
        // The owner's counter row, locked first: batches of one user commit one after another, so
        // each compare-and-set sees the rows as they are and sequence numbers follow commit order.
        _ = try await connection.rows("INSERT INTO familytree_owners (owner_uid, last_seq) VALUES (\(user), 0) ON CONFLICT DO NOTHING", logger: logger)
        let locked = try await connection.rows("SELECT last_seq FROM familytree_owners WHERE owner_uid = \(user) FOR UPDATE", logger: logger)
        let lastSequence = try locked.first?.decode(Int64.self) ?? 0
        // The batch's documents by primary key: one `= ANY` probe per collection.
        var current: [DocumentKey: StoredDocument] = [:]
        for collection in SyncCollection.allCases {
            let ids = writes.filter { $0.key.collection == collection }.map(\.key.id)
            guard !ids.isEmpty else { continue }
            let result = try await connection.rows("""
                SELECT doc_id, body::text, version, deleted, seq FROM familytree_documents
                WHERE owner_uid = \(user) AND collection = \(collection.rawValue) AND doc_id = ANY(\(ids))
                """, logger: logger)
            for row in result {
                let (id, body, version, deleted, sequence) = try row.decode((String, String, Int64, Bool, Int64).self)
                let key = DocumentKey(collection, id)
                current[key] = StoredDocument(key: key, body: canonical(body), version: version, isDeleted: deleted, sequence: sequence)
            }
        }
        var outcomes: [WriteOutcome?] = Array(repeating: nil, count: writes.count)
        var applied: [Int] = []
        for (index, write) in writes.enumerated() {
            if let stored = current[write.key] {
                if stored.body == canonical(write.body), stored.isDeleted == write.isDeleted {
                    outcomes[index] = .unchanged(version: stored.version)
                    continue
                }
                if stored.version != write.baseVersion {
                    outcomes[index] = .conflict(current: stored)
                    continue
                }
            }
            applied.append(index)
        }
        if !applied.isEmpty {
            _ = try await connection.rows("UPDATE familytree_owners SET last_seq = last_seq + \(Int64(applied.count)) WHERE owner_uid = \(user)", logger: logger)
            let collections = applied.map { writes[$0].key.collection.rawValue }
            let ids = applied.map { writes[$0].key.id }
            let bodies = applied.map { writes[$0].body }
            let deleted = applied.map { writes[$0].isDeleted }
            let sequences = applied.indices.map { lastSequence + Int64($0) + 1 }
            let result = try await connection.rows("""
                INSERT INTO familytree_documents AS d (owner_uid, collection, doc_id, body, version, deleted, seq)
                SELECT \(user), c, i, b::jsonb, 1, x, s FROM unnest(\(collections)::text[], \(ids)::text[], \(bodies)::text[], \(deleted)::bool[], \(sequences)::int8[]) AS t(c, i, b, x, s)
                ON CONFLICT (owner_uid, collection, doc_id) DO UPDATE
                SET body = excluded.body, version = d.version + 1, deleted = excluded.deleted, seq = excluded.seq
                RETURNING collection, doc_id, version, seq
                """, logger: logger)
            var versions: [DocumentKey: (Int64, Int64)] = [:]
            for row in result {
                let (collection, id, version, sequence) = try row.decode((String, String, Int64, Int64).self)
                if let collection = SyncCollection(rawValue: collection) { versions[DocumentKey(collection, id)] = (version, sequence) }
            }
            for index in applied {
                let (version, sequence) = versions[writes[index].key] ?? (0, 0)
                outcomes[index] = .applied(version: version, sequence: sequence)
            }
        }
        return outcomes.map { $0! }
    }

    public func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        try checkUser(user, tree)
        do {
            let result = try await turn.run { [connection, logger, actsForUsers] in
                try await Self.act(as: user, actsForUsers, connection, logger)
                try Self.require(.read, user: user, tree: tree, role: try await Self.role(in: tree, connection: connection, logger: logger))
                return try await connection.rows("""
                    SELECT collection, doc_id, body::text, version, deleted, seq FROM familytree_documents
                    WHERE owner_uid = \(tree) AND seq > \(sequence) ORDER BY seq LIMIT \(Int64(limit))
                    """, logger: logger)
            }
            var page: [StoredDocument] = []
            for row in result {
                let (collection, id, body, version, deleted, sequence) = try row.decode((String, String, String, Int64, Bool, Int64).self)
                guard let collection = SyncCollection(rawValue: collection) else { continue }
                page.append(StoredDocument(key: DocumentKey(collection, id), body: Self.canonical(body), version: version, isDeleted: deleted, sequence: sequence))
            }
            return page
        } catch {
            throw Self.syncError(error)
        }
    }

    /// A user id is required, and it must be the role this store is connected as.
    private func checkUser(_ user: String, _ tree: String) throws(SyncError) {
        guard !user.isEmpty, !tree.isEmpty else { throw .missingUser }
        guard user == role || actsForUsers else { throw .accessDenied("connected as \"\(role)\", which may not act as \"\(user)\"") }
    }

    // MARK: Sharing

    /// The connected user's role on `tree`.
    private static func role(in tree: String, connection: PostgresConnection, logger: Logger) async throws -> TreeRole? {
        let rows = try await connection.rows("SELECT public.familytree_role(\(tree))", logger: logger)
        return try rows.first?.decode(String?.self).flatMap(TreeRole.init(rawValue:))
    }

    private static func require(_ operation: TreeOperation, user: String, tree: String, role: TreeRole?) throws(SyncError) {
        guard let role, role.allows(operation) else { throw .notAllowed(user: user, tree: tree, role: role, operation: operation) }
    }

    /// Runs `body` in the connection's turn, in a transaction, mapping errors.
    private func transaction<Result: Sendable>(as user: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Result) async throws(SyncError) -> Result {
        do {
            return try await turn.run { [connection, logger, actsForUsers] in
                try await Self.act(as: user, actsForUsers, connection, logger)
                return try await connection.inTransaction(logger: logger) { try await body(connection, logger) }
            }
        } catch {
            throw Self.syncError(error)
        }
    }

    public func role(of user: String, in tree: String) async throws(SyncError) -> TreeRole? {
        try checkUser(user, tree)
        return try await transaction(as: user) { connection, logger in try await Self.role(in: tree, connection: connection, logger: logger) }
    }

    public func share(tree: String, as user: String, with member: String, role: TreeRole) async throws(SyncError) {
        try checkUser(user, tree)
        guard !member.isEmpty else { throw .missingUser }
        guard TreeRole.shareable.contains(role) else { throw .accessDenied("a tree has one owner; hand it on with transfer") }
        try await transaction(as: user) { connection, logger in
            try Self.require(.share, user: user, tree: tree, role: try await Self.role(in: tree, connection: connection, logger: logger))
            _ = try await connection.rows("SELECT public.familytree_share(\(tree), \(member), \(role.rawValue))", logger: logger)
        }
    }

    public func unshare(tree: String, as user: String, member: String) async throws(SyncError) {
        try checkUser(user, tree)
        try await transaction(as: user) { connection, logger in
            let held = try await Self.role(in: tree, connection: connection, logger: logger)
            if member != user || held == nil { try Self.require(.unshare, user: user, tree: tree, role: held) }
            _ = try await connection.rows("SELECT public.familytree_unshare(\(tree), \(member))", logger: logger)
        }
    }

    public func transfer(tree: String, as user: String, to newOwner: String) async throws(SyncError) {
        try checkUser(user, tree)
        guard !newOwner.isEmpty else { throw .missingUser }
        try await transaction(as: user) { connection, logger in
            try Self.require(.transfer, user: user, tree: tree, role: try await Self.role(in: tree, connection: connection, logger: logger))
            _ = try await connection.rows("SELECT public.familytree_transfer(\(tree), \(newOwner))", logger: logger)
        }
    }

    public func members(of tree: String, as user: String) async throws(SyncError) -> [TreeMembership] {
        try checkUser(user, tree)
        return try await transaction(as: user) { connection, logger in
            try Self.require(.read, user: user, tree: tree, role: try await Self.role(in: tree, connection: connection, logger: logger))
            let rows = try await connection.rows("""
                SELECT tree_uid, member_uid, role, granted_by, to_char(granted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                FROM public.familytree_members WHERE tree_uid = \(tree)
                """, logger: logger)
            return TreeMembership.listing(try Self.memberships(rows), of: tree)
        }
    }

    public func trees(of user: String) async throws(SyncError) -> [TreeMembership] {
        try checkUser(user, user)
        return try await transaction(as: user) { connection, logger in
            let rows = try await connection.rows("""
                SELECT tree_uid, member_uid, role, granted_by, to_char(granted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                FROM public.familytree_members WHERE member_uid = \(user)
                """, logger: logger)
            let ownsOwnTree = try await Self.role(in: user, connection: connection, logger: logger) == .owner
            return TreeMembership.listing(trees: try Self.memberships(rows), of: user, ownsOwnTree: ownsOwnTree)
        }
    }

    /// Rows of (tree, member, role, granted by, granted at) as memberships.
    private static func memberships(_ rows: [PostgresRow]) throws -> [TreeMembership] {
        try rows.compactMap { row in
            let (tree, member, role, grantedBy, grantedAt) = try row.decode((String, String, String, String, String).self)
            return TreeRole(rawValue: role).map { TreeMembership(tree: tree, user: member, role: $0, grantedBy: grantedBy, grantedAt: grantedAt) }
        }
    }

    public func log(of tree: String, as user: String, key: DocumentKey?, limit: Int) async throws(SyncError) -> [AuditEntry] {
        try checkUser(user, tree)
        return try await transaction(as: user) { connection, logger in
            try Self.require(.readLog, user: user, tree: tree, role: try await Self.role(in: tree, connection: connection, logger: logger))
            let collection = key?.collection.rawValue, id = key?.id
            let rows = try await connection.rows("""
                SELECT collection, doc_id, version, deleted, seq, changed_by,
                    to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                FROM public.familytree_audit WHERE tree_uid = \(tree)
                AND (\(collection)::text IS NULL OR (collection = \(collection) AND doc_id = \(id)))
                ORDER BY id DESC LIMIT \(Int64(limit))
                """, logger: logger)
            var entries: [AuditEntry] = []
            for row in rows {
                let (collection, id, version, deleted, sequence, changedBy, changedAt) = try row.decode((String, String, Int64, Bool, Int64, String, String).self)
                guard let collection = SyncCollection(rawValue: collection) else { continue }
                entries.append(AuditEntry(tree: tree, key: DocumentKey(collection, id), version: version, isDeleted: deleted, sequence: sequence, user: changedBy, time: changedAt))
            }
            return entries
        }
    }

    public func deleteTree(_ tree: String, as user: String) async throws(SyncError) {
        try checkUser(user, tree)
        try await transaction(as: user) { connection, logger in
            try Self.require(.deleteTree, user: user, tree: tree, role: try await Self.role(in: tree, connection: connection, logger: logger))
            _ = try await connection.rows("SELECT public.familytree_delete_tree(\(tree))", logger: logger)
        }
    }

    /// JSONB prints its own key order and spacing: bodies come back in our canonical form.
    static func canonical(_ body: String) -> String {
        guard let parsed = try? JSONParser.parse(body) else { return body }
        return JSONWriter.compactString(from: parsed.root)
    }

    static func message(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }

    static func syncError(_ error: any Error) -> SyncError {
        if let error = error as? SyncError { return error }
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState], state == "42501" {
            return .accessDenied(message(error))
        }
        return .store(message(error))
    }
}

extension PostgresConnection {
    /// Runs a query and collects its rows on the connection's event loop, awaiting them without
    /// holding a thread. A server that says nothing for `timeout` has the connection closed under
    /// it, which fails the query (a query on a closed connection would never be answered).
    func rows(_ query: PostgresQuery, logger: Logger, timeout: TimeAmount = .seconds(30)) async throws -> [PostgresRow] {
        guard !isClosed else { throw SyncError.store("the connection to the server is closed") }
        let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
        let timedOut = NIOLockedValueBox(false)
        let watchdog = result.eventLoop.scheduleTask(in: timeout) { [self] in
            timedOut.withLockedValue { $0 = true }
            close().whenComplete { _ in }
        }
        // Cancelled on the event loop as the answer arrives, not when this task resumes: a task
        // that waits for a busy thread past the limit must not find its answered connection closed.
        result.whenComplete { _ in watchdog.cancel() }
        do {
            return try await result.get().rows
        } catch where timedOut.withLockedValue({ $0 }) {
            throw SyncError.store("no answer from the server in \(timeout.nanoseconds / 1_000_000_000) s")
        }
    }

    /// Runs `body` between BEGIN and COMMIT, rolling back when it throws (its error is rethrown as it is).
    func inTransaction<Result: Sendable>(logger: Logger, _ body: () async throws -> Result) async throws -> Result {
        _ = try await rows("BEGIN", logger: logger)
        do {
            let result = try await body()
            _ = try await rows("COMMIT", logger: logger)
            return result
        } catch {
            _ = try? await rows("ROLLBACK", logger: logger)
            throw error
        }
    }
}

extension PostgresURL {
    /// The connection settings for this address, with TLS as `sslmode` says.
    func configuration() throws(SyncError) -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        do {
            var settings = TLSConfiguration.makeClientConfiguration()
            switch tlsMode {
            case .disable: settings.certificateVerification = .none
            case .prefer, .require: settings.certificateVerification = .none
            case .verifyCA: settings.certificateVerification = .noHostnameVerification
            case .verifyFull: settings.certificateVerification = .fullVerification
            }
            if let rootCertificate, tlsMode == .verifyCA || tlsMode == .verifyFull {
                settings.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificate))
            }
            switch tlsMode {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: settings))
            default: tls = .require(try NIOSSLContext(configuration: settings))
            }
        } catch {
            throw .store("the TLS settings of \(redacted) cannot be used: \(error)")
        }
        return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }
}

/// Lets one operation at a time run, in the order they asked: an actor alone would interleave two
/// transactions on the same connection at their first `await`.
final class AsyncTurn: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = NIOLockedValueBox(State())

    func run<Result: Sendable>(_ operation: () async throws -> Result) async throws -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let mustWait = state.withLockedValue { state in
                if state.busy { state.waiting.append(continuation); return true }
                state.busy = true
                return false
            }
            if !mustWait { continuation.resume() }
        }
        defer {
            let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                if state.waiting.isEmpty { state.busy = false; return nil }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await operation()
    }
}
#endif
