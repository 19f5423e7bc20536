import FamilyTreeAPI
import FamilyTreeSync
import Foundation
import HTTPTypes
import FamilyTreeHTTP
import OpenAPIRuntime

/// The trees on a familytree server (`familytree serve`), reached with a personal access token:
/// a `SharedTreeStore` like the embedded and PostgreSQL ones, so every sync command works on it.
///
/// The server decides who the caller is from the token; a call naming another user than the
/// token's is refused here, before anything is sent, rather than quietly acting as the token's.
public struct ServerDocumentStore: SharedTreeStore {
    /// The server's address (`https://family.example.org`).
    public let address: ServerAddress
    /// The user the token belongs to.
    public let user: String
    private let client: Client

    /// A store reached at `address` with `token` (which belongs to `user`).
    public init(address: ServerAddress, user: String, token: String) {
        self.address = address
        self.user = user
        client = Self.client(address, token: token)
    }

    /// The typed client of the API at `address`, sending `token` (if any) with every request.
    public static func client(_ address: ServerAddress, token: String?) -> Client {
        // No cookies are kept: the token is the only credential.
        let transport = HTTPClientTransport(client: HTTPClient(timeouts: .init(connect: 30, idle: 120)), limit: 1 << 30)
        return Client(
            serverURL: address.apiURL, configuration: .init(jsonEncodingOptions: []), transport: transport,
            middlewares: token.map { [BearerToken(token: $0)] } ?? [])
    }

    public func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        try check(user)
        try SyncLimits.check(writes)
        let output = try await call { try await client.pushDocuments(path: .init(tree: tree), body: .json(.init(writes: writes.map(Components.Schemas.Write.init)))) }
        let outcomes: [Components.Schemas.Outcome]
        switch output {
        case .ok(let ok): outcomes = try decoded { try ok.body.json.outcomes }
        case .default(let status, let failure): throw Self.error(status, failure)
        }
        let mapped = outcomes.compactMap(\.writeOutcome)
        guard mapped.count == writes.count else { throw .store("the server answered \(outcomes.count) outcomes to \(writes.count) writes") }
        return mapped
    }

    public func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        try check(user)
        // The server answers at most 5,000 at a time; a bigger page is several requests.
        var documents: [StoredDocument] = []
        var after = sequence
        while documents.count < limit {
            let page = min(5000, limit - documents.count)
            let output = try await call { try await client.pullDocuments(path: .init(tree: tree), query: .init(after: after, limit: page)) }
            let received: [StoredDocument]
            switch output {
            case .ok(let ok): received = try decoded { try ok.body.json.documents.map(\.stored) }
            case .default(let status, let failure): throw Self.error(status, failure)
            }
            documents += received
            guard received.count == page, let last = received.last else { break }
            after = last.sequence
        }
        return documents
    }

    public func role(of user: String, in tree: String) async throws(SyncError) -> TreeRole? {
        try check(user)
        switch try await call({ try await client.getRole(path: .init(tree: tree)) }) {
        case .ok(let ok): return try decoded { try ok.body.json.role?.treeRole }
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    public func share(tree: String, as user: String, with member: String, role: TreeRole) async throws(SyncError) {
        try await share(tree: tree, as: user, with: member, role: role, hidingLiving: false)
    }

    /// Gives `member` `role` on `tree`, as `user`; with `hidingLiving`, a viewer sees living people
    /// as "Living" (no dates, photo, notes or contact details) and cannot pull the documents.
    public func share(tree: String, as user: String, with member: String, role: TreeRole, hidingLiving: Bool) async throws(SyncError) {
        try check(user)
        let grant = Components.Schemas.RoleGrant(role: .init(role), hidesLiving: hidingLiving)
        switch try await call({ try await client.shareTree(path: .init(tree: tree, user: member), body: .json(grant)) }) {
        case .noContent: return
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    public func unshare(tree: String, as user: String, member: String) async throws(SyncError) {
        try check(user)
        switch try await call({ try await client.unshareTree(path: .init(tree: tree, user: member)) }) {
        case .noContent: return
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    public func transfer(tree: String, as user: String, to newOwner: String) async throws(SyncError) {
        try check(user)
        switch try await call({ try await client.transferTree(path: .init(tree: tree), body: .json(.init(user: newOwner))) }) {
        case .noContent: return
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    public func members(of tree: String, as user: String) async throws(SyncError) -> [TreeMembership] {
        try check(user)
        switch try await call({ try await client.listMembers(path: .init(tree: tree)) }) {
        case .ok(let ok): return try decoded { try ok.body.json.map(\.treeMembership) }
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    public func trees(of user: String) async throws(SyncError) -> [TreeMembership] {
        try check(user)
        switch try await call({ try await client.listTrees() }) {
        case .ok(let ok): return try decoded { try ok.body.json.map(\.treeMembership) }
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    public func log(of tree: String, as user: String, key: DocumentKey?, limit: Int) async throws(SyncError) -> [AuditEntry] {
        try check(user)
        let query = Operations.ReadLog.Input.Query(collection: key.map { .init($0.collection) }, id: key?.id, limit: min(max(limit, 1), 1000))
        switch try await call({ try await client.readLog(path: .init(tree: tree), query: query) }) {
        case .ok(let ok): return try decoded { try ok.body.json.map(\.auditEntry) }
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    public func deleteTree(_ tree: String, as user: String) async throws(SyncError) {
        try check(user)
        switch try await call({ try await client.deleteTree(path: .init(tree: tree)) }) {
        case .noContent: return
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    /// Makes an invite into `role` on `tree` (with `hidingLiving`, a viewer's share that hides
    /// living people); returns its link.
    public func invite(
        tree: String, role: TreeRole, invitee: String?, expiresInHours: Int, hidingLiving: Bool = false
    ) async throws(SyncError) -> (link: String, expiresAt: String) {
        let body = Components.Schemas.InviteRequest(role: .init(role), invitee: invitee, expiresInHours: expiresInHours, hidesLiving: hidingLiving)
        switch try await call({ try await client.createInvite(path: .init(tree: tree), body: .json(body)) }) {
        case .created(let created):
            let invite = try decoded { try created.body.json }
            return (invite.link, invite.expiresAt)
        case .default(let status, let failure): throw Self.error(status, failure)
        }
    }

    // MARK: Errors

    private func check(_ user: String) throws(SyncError) {
        guard !user.isEmpty else { throw .missingUser }
        guard user == self.user else {
            throw .accessDenied("this device is signed in to \(address) as \(self.user), not \(user): sync as \(self.user), or sign in as \(user) (familytree login)")
        }
    }

    private func call<Output>(_ body: () async throws -> Output) async throws(SyncError) -> Output {
        try await Self.request(address, body)
    }

    /// Runs one request of the typed client to `address`; a failure to reach the server (or to
    /// read its answer) is a `SyncError` in words.
    public static func request<Output>(_ address: ServerAddress, _ body: () async throws -> Output) async throws(SyncError) -> Output {
        do {
            return try await body()
        } catch let error as SyncError {
            throw error
        } catch let error as ClientError {
            throw .store("cannot reach \(address): \(Self.words(error.underlyingError))")
        } catch {
            throw .store("cannot reach \(address): \(error)")
        }
    }

    private func decoded<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do { return try body() } catch { throw .store("\(address) answered what this client cannot read: \(error)") }
    }

    /// A refusal from the server (its status and `Error`) as the stores say it.
    public static func error(_ status: Int, _ failure: Components.Responses.Failure) -> SyncError {
        let message = (try? failure.body.json.message) ?? "HTTP \(status)"
        switch status {
        case 401: return .accessDenied("\(message)")
        case 403: return .accessDenied(message.hasPrefix("access denied: ") ? String(message.dropFirst("access denied: ".count)) : message)
        case 413: return .store("too large: \(message)")
        case 400, 404, 409, 429: return .store(message)
        default: return .store("the server failed (HTTP \(status)): \(message)")
        }
    }

    private static func words(_ error: any Error) -> String {
        if let failure = error as? HTTPClient.Failure { return failure.description }
        return "\(error)"
    }
}

/// Sends a personal access token with every request.
struct BearerToken: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
