import FamilyTree
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeSync

/// The kinds of store the suite runs against: SQLite always; PostgreSQL in a build with the
/// `PostgreSQL` trait, against the server `FAMILYTREE_PG_URL` names (skipped when it is unset
/// outside CI; under CI an unset variable fails the run).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite
    #if PostgreSQL
    case postgres
    #endif

    static var allCases: [StoreKind] {
        #if PostgreSQL
        let environment = ProcessInfo.processInfo.environment
        if environment["FAMILYTREE_PG_URL"] != nil || environment["CI"] != nil { return [.sqlite, .postgres] }
        #endif
        return [.sqlite]
    }

    var testDescription: String { rawValue }
}

/// Stores for the users of one test. SQLite: one file that every user shares. PostgreSQL: a login
/// role per user (named uniquely for the test), each with its own connection and credentials.
final class StoreFixture: @unchecked Sendable {
    let kind: StoreKind
    private let prefix = "ft" + String(UInt32.random(in: .min ... .max), radix: 36)
    private var stores: [String: any DocumentStore] = [:]
    private var sqlitePath: String?

    init(_ kind: StoreKind) { self.kind = kind }

    /// The user id `name` has in this test's store.
    func uid(_ name: String) -> String {
        switch kind {
        case .sqlite: name
        #if PostgreSQL
        case .postgres: "\(prefix)_\(name)"
        #endif
        }
    }

    /// A store connected as `name` (a new connection each call for PostgreSQL when `fresh`).
    func store(_ name: String, fresh: Bool = false) async throws -> any DocumentStore {
        if !fresh, let store = stores[name] { return store }
        let store: any DocumentStore
        switch kind {
        case .sqlite:
            if sqlitePath == nil { sqlitePath = Scratch.temporaryPath("store.sqlite") }
            store = try SQLiteDocumentStore(path: sqlitePath!)
        #if PostgreSQL
        case .postgres:
            store = try await PostgresDocumentStore(url: try await PostgresTestServer.createUser(uid(name)))
        #endif
        }
        if !fresh { stores[name] = store }
        return store
    }
}

#if PostgreSQL
import FamilyTreePostgres

/// The test server: the administrator's URL from `FAMILYTREE_PG_URL`, and one role per test user.
enum PostgresTestServer {
    static func adminURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["FAMILYTREE_PG_URL"], !url.isEmpty else {
            throw SyncError.store("FAMILYTREE_PG_URL is not set: start a server with scripts/postgres-start (CI must set it)")
        }
        return url
    }

    /// Creates the role `uid` with its own password and returns the URL it logs in with.
    static func createUser(_ uid: String) async throws -> String {
        let admin = try adminURL()
        let password = "pw-\(uid)"
        try await PostgresAdmin.createUser(uid, password: password, adminURL: admin)
        let hostAndDatabase = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
        return "postgres://\(uid):\(password)@\(hostAndDatabase)"
    }
}
#endif

enum Scratch {
    static func temporaryPath(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-sync-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }
}

func member(_ id: String, _ fields: [String: String] = [:]) -> (DocumentKey, String) {
    var object: [String: JSONValue] = ["id": .string(id), "firstName": .string(id.capitalized)]
    for (key, value) in fields { object[key] = .string(value) }
    return (DocumentKey(.familyTree, id), JSONWriter.compactString(from: .object(object)))
}

@Suite(.threadsOfItsOwn) struct DocumentStoreTests {
    @Test(arguments: StoreKind.allCases)
    func compareAndSetIdempotenceAndSequence(kind: StoreKind) async throws {
        let fixture = StoreFixture(kind)
        let store = try await fixture.store("alice")
        let alice = fixture.uid("alice")
        let (key, body) = member("ada")
        #expect(try await store.push(user: alice, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
        // The same batch again (a lost acknowledgement): unchanged, nothing written.
        #expect(try await store.push(user: alice, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.unchanged(version: 1)])
        let (_, edited) = member("ada", ["nickname": "Countess"])
        #expect(try await store.push(user: alice, [DocumentWrite(key: key, body: edited, baseVersion: 1)]) == [.applied(version: 2, sequence: 2)])
        // A write from the stale version 1 is refused, and the store says what it holds.
        let (_, stale) = member("ada", ["nickname": "Ada"])
        let outcome = try await store.push(user: alice, [DocumentWrite(key: key, body: stale, baseVersion: 1)])
        #expect(outcome == [.conflict(current: StoredDocument(key: key, body: edited, version: 2, isDeleted: false, sequence: 2))])
        let pulled = try await store.pull(user: alice, after: 0, limit: 10)
        #expect(pulled.map(\.version) == [2])
        #expect(pulled.map(\.sequence) == [2])
    }

    @Test(arguments: StoreKind.allCases)
    func pagesFollowTheChangeSequence(kind: StoreKind) async throws {
        let fixture = StoreFixture(kind)
        let store = try await fixture.store("alice")
        let alice = fixture.uid("alice")
        let writes = (0..<25).map { index in member("m\(index)") }.map { DocumentWrite(key: $0.0, body: $0.1, baseVersion: 0) }
        _ = try await store.push(user: alice, Array(writes[..<10]))
        _ = try await store.push(user: alice, Array(writes[10...]))
        var sequence: Int64 = 0
        var seen: [String] = []
        while true {
            let page = try await store.pull(user: alice, after: sequence, limit: 7)
            seen += page.map(\.key.id)
            guard let last = page.last else { break }
            #expect(page.map(\.sequence) == Array((sequence + 1)...last.sequence))
            sequence = last.sequence
        }
        #expect(seen == writes.map(\.key.id))
    }

    @Test(arguments: StoreKind.allCases)
    func usersAreApartAndAMissingUserIsAnError(kind: StoreKind) async throws {
        let fixture = StoreFixture(kind)
        let store = try await fixture.store("alice")
        let bobStore = try await fixture.store("bob")
        let (alice, bob) = (fixture.uid("alice"), fixture.uid("bob"))
        let (key, body) = member("ada")
        _ = try await store.push(user: alice, [DocumentWrite(key: key, body: body, baseVersion: 0)])
        #expect(try await bobStore.pull(user: bob, after: 0, limit: 100).isEmpty)
        // Bob writing the same member id writes his own document; Alice's is untouched.
        let (_, bobs) = member("ada", ["lastName": "Bob's"])
        #expect(try await bobStore.push(user: bob, [DocumentWrite(key: key, body: bobs, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
        #expect(try await store.pull(user: alice, after: 0, limit: 100).map(\.body) == [body])
        await #expect(throws: SyncError.missingUser) { try await store.pull(user: "", after: 0, limit: 100) }
        await #expect(throws: SyncError.missingUser) { try await store.push(user: "", [DocumentWrite(key: key, body: body, baseVersion: 0)]) }
    }

    @Test(arguments: StoreKind.allCases)
    func aDocumentOverOneMebibyteIsRefusedBeforeSending(kind: StoreKind) async throws {
        let fixture = StoreFixture(kind)
        let store = try await fixture.store("alice")
        let alice = fixture.uid("alice")
        let key = DocumentKey(.familyTree, "huge")
        let body = JSONWriter.compactString(from: .object(["id": .string("huge"), "notes": .string(String(repeating: "x", count: SyncLimits.maximumDocumentBytes))]))
        await #expect(throws: SyncError.documentTooLarge(key, bytes: body.utf8.count)) {
            try await store.push(user: alice, [DocumentWrite(key: key, body: body, baseVersion: 0)])
        }
        #expect(try await store.pull(user: alice, after: 0, limit: 10).isEmpty)
    }
}
