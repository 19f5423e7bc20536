#if Server
import Crypto
import FamilyTreeSync
package import Foundation
import HTTPTypes
import HummingbirdBcrypt
import NIOPosix

/// Who a request comes from, as its credential proves.
struct Caller: Sendable {
    var user: String
    var credential: CredentialRecord
    /// Signed in with a browser session (a cookie), not a personal access token.
    var isSession: Bool { credential.kind == .session }
}

/// Accounts, passwords, sessions, tokens and the sign-in throttle: everything the API asks before
/// it lets a request near a tree.
struct Accounts: Sendable {
    let store: any AccountStore
    let settings: ServerSettings

    static let sessionCookie = "familytree_session"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    /// The caller of the current request, or 401. A session's state-changing request must also
    /// carry the session's CSRF token and come from the server's own origin (or name none).
    func caller() async throws -> Caller {
        guard let request = RequestFacts.current else { throw APIFailure.unauthorized() }
        let now = Self.now()
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                throw APIFailure.unauthorized("the Authorization header must be \"Bearer\" and a personal access token")
            }
            guard let credential = try await store.credential(secretHash: Secrets.hash(String(parts[1])), now: now), credential.kind == .token else {
                throw APIFailure.unauthorized("the personal access token is unknown or revoked: sign in again (familytree login)")
            }
            guard credential.calendarTree == nil else {
                throw APIFailure.unauthorized("a calendar address reads its calendar and nothing else; sign in for the rest (familytree login)")
            }
            return Caller(user: credential.user, credential: credential)
        }
        guard let secret = request.cookie(Self.sessionCookie),
              let credential = try await store.credential(secretHash: Secrets.hash(secret), now: now), credential.kind == .session
        else {
            throw APIFailure.unauthorized()
        }
        if request.isStateChanging {
            if let origin = request.headers[.origin], !settings.isOwnOrigin(origin, host: request.authority) {
                throw APIFailure.forbidden("a request from \(origin) may not use this server's session")
            }
            guard let token = request.headers[Self.csrfHeader], Secrets.constantTimeEqual(token, credential.csrfToken) else {
                throw APIFailure.forbidden("a session's changes must carry its X-CSRF-Token header")
            }
        }
        return Caller(user: credential.user, credential: credential)
    }

    // MARK: Shares that hide the living

    /// Whether `user`, with `role` on `tree`, sees living people hidden: a viewer whose share says
    /// so (a role that edits sees what it edits).
    func hidesLiving(from user: String, in tree: String, role: TreeRole?) async throws -> Bool {
        guard role == .viewer else { return false }
        return try await store.hidesLiving(tree: tree, user: user)
    }

    /// Refuses a share that would hide living people from a role that edits.
    static func checkHidingLiving(_ hides: Bool, role: TreeRole) throws {
        if hides, role != .viewer {
            throw APIFailure.invalid("living people are hidden from viewers only: \(role.withArticle) edits what they see")
        }
    }

    // MARK: Passwords

    /// The account whose password this is, or an error; refused without a look at the password
    /// while the account or the client's address has failed too often lately.
    func verify(user: String, password: String) async throws -> AccountRecord {
        let address = RequestFacts.current?.address ?? ""
        let now = Self.now()
        let window = settings.throttleWindowSeconds
        let accountKey = "user:" + user.lowercased(), addressKey = "address:" + address
        let accountFailures = try await store.failures(key: accountKey, now: now, window: window)
        let addressFailures = try await store.failures(key: addressKey, now: now, window: window)
        if accountFailures >= settings.failuresPerAccount || addressFailures >= settings.failuresPerAddress {
            throw APIFailure.throttled("too many failed sign-ins for \(user) or from this address; try again in \(window / 60) minutes")
        }
        let account = try await store.account(user)
        // An unknown user costs the same hash as a known one, so timing tells nobody who exists.
        let decoy = account == nil ? try await Self.decoyHash(cost: settings.bcryptCost) : ""
        let matches = try await Self.check(password, against: account?.passwordHash ?? decoy)
        guard let account, matches else {
            try await store.recordFailure(keys: [accountKey, addressKey], now: now, window: window)
            // Each failure costs the guesser a second more.
            try? await Task.sleep(for: .seconds(1))
            throw APIFailure.unauthorized("wrong user or password")
        }
        try await store.clearFailures(key: accountKey)
        return account
    }

    /// Refuses a new account's user id or password that the server does not take.
    static func checkNewAccount(user: String, password: String) throws {
        guard UserID.isValid(user) else { throw APIFailure.invalid(UserID.rule(user)) }
        guard password.count >= 8 else { throw APIFailure.invalid("a password must have at least 8 characters") }
    }

    /// Makes an account; the server's first is its administrator.
    func createAccount(user: String, password: String) async throws -> AccountRecord {
        try Self.checkNewAccount(user: user, password: password)
        let hash = try await Self.hash(password, cost: settings.bcryptCost)
        let account = AccountRecord(user: user, passwordHash: hash, isAdministrator: false, createdAt: Self.now())
        guard try await store.insertAccount(account) else { throw APIFailure(.conflict, "conflict", "the user id \(user) is taken") }
        return try await store.account(user) ?? account
    }

    /// A new personal access token of `user`; its secret is returned this once.
    func makeToken(for user: String, label: String) async throws -> (CredentialRecord, secret: String) {
        let secret = "ft_" + Secrets.random()
        let record = CredentialRecord(
            id: Secrets.random(bytes: 12), user: user, kind: .token, label: label, secretHash: Secrets.hash(secret), csrfToken: "",
            createdAt: Self.now(), lastUsedAt: nil, expiresAt: nil)
        try await store.insertCredential(record)
        return (record, secret)
    }

    /// A new calendar address of `user` for `tree`'s birthdays, replacing the ones they had for it;
    /// its secret is returned this once.
    func makeCalendarFeed(for user: String, tree: String) async throws -> String {
        try await stopCalendarFeeds(of: user, tree: tree)
        let secret = Secrets.random()
        let record = CredentialRecord(
            id: Secrets.random(bytes: 12), user: user, kind: .token, label: "calendar address for \(tree)'s tree",
            secretHash: Secrets.hash(secret), csrfToken: CredentialRecord.calendarMark + tree, createdAt: Self.now(), lastUsedAt: nil, expiresAt: nil)
        try await store.insertCredential(record)
        return secret
    }

    /// Ends `user`'s calendar addresses for `tree`; returns how many there were.
    @discardableResult
    func stopCalendarFeeds(of user: String, tree: String) async throws -> Int {
        var stopped = 0
        for feed in try await store.tokens(of: user) where feed.calendarTree == tree {
            if try await store.deleteCredential(id: feed.id, of: user) { stopped += 1 }
        }
        return stopped
    }

    /// Whose calendar of which tree a calendar address's secret reads, if it is one still.
    func calendarFeed(secret: String) async throws -> (user: String, tree: String)? {
        guard let feed = try await store.credential(secretHash: Secrets.hash(secret), now: Self.now()), let tree = feed.calendarTree else { return nil }
        return (feed.user, tree)
    }

    /// A new browser session of `user`, and the `Set-Cookie` value that starts it.
    func startSession(for user: String) async throws -> (CredentialRecord, cookie: String) {
        let secret = Secrets.random()
        let now = Self.now()
        let record = CredentialRecord(
            id: Secrets.random(bytes: 12), user: user, kind: .session, label: "browser", secretHash: Secrets.hash(secret),
            csrfToken: Secrets.random(), createdAt: now, lastUsedAt: now, expiresAt: now + settings.sessionSeconds)
        try await store.insertCredential(record)
        return (record, sessionCookie(secret, maxAge: settings.sessionSeconds))
    }

    /// The session cookie: never readable by a page's script, never sent by another site's request.
    func sessionCookie(_ value: String, maxAge: Int64) -> String {
        "\(Self.sessionCookie)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (settings.isSecure ? "; Secure" : "")
    }

    // MARK: Hashing

    /// bcrypt of the password's SHA-256 (base64): the whole of a long passphrase counts, not its first 72 bytes.
    static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(prehash(password), cost: cost) }
    }

    static func check(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(prehash(password), hash: hash) }
    }

    private static func prehash(_ password: String) -> String { Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString() }

    /// A hash of no password anybody has, at the cost new passwords get, for unknown users:
    /// made once a process and cost.
    static func decoyHash(cost: UInt8) async throws -> String {
        if let made = decoys.withLock({ $0[cost] }) { return made }
        let made = try await hash(Secrets.random(), cost: cost)
        decoys.withLock { $0[cost] = made }
        return made
    }

    private static let decoys = DecoyHashes()

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }
}

/// Decoy hashes by cost, shared by every request of the process.
final class DecoyHashes: @unchecked Sendable {
    private let lock = NSLock()
    private var hashes: [UInt8: String] = [:]
    func withLock<T>(_ body: (inout [UInt8: String]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&hashes)
    }
}

/// The user ids the server accepts: lowercase letters, digits, `_` and `-`, starting with a letter,
/// at most 63 characters (a PostgreSQL role name).
enum UserID {
    static func isValid(_ id: String) -> Bool {
        guard let first = id.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), id.utf8.count <= 63 else { return false }
        return id.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    static func rule(_ id: String) -> String {
        "the user id \"\(id.prefix(80))\" is not one the server accepts: lowercase letters, digits, _ and -, starting with a letter, at most 63 characters"
    }
}
#endif
