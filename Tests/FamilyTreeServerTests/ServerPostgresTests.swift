#if Server && PostgreSQL
import FamilyTreeAPI
import FamilyTreePostgres
import FamilyTreeRemote
import FamilyTreeSync
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeServer

/// The server on PostgreSQL: the database, not the server, decides what the signed-in user may
/// reach; two servers over one database serve the same users.
@Suite(.serialized, .threadsOfItsOwn, .timeLimit(.minutes(2)), .requiresPostgreSQL)
struct ServerPostgresTests {
    /// This test's suffix: the database outlives a test, and its users and accounts with it.
    let suffix = String(UUID().uuidString.prefix(8)).lowercased()
    func name(_ base: String) -> String { "\(base)_\(suffix)" }

    static var adminURL: String { ProcessInfo.processInfo.environment["FAMILYTREE_PG_URL"] ?? "" }
    static var hostAndDatabase: Substring { adminURL[adminURL.index(after: adminURL.lastIndex(of: "@")!)...] }

    /// A server login of this test's own, and its URL.
    func serverLogin() async throws -> String {
        let login = name("server")
        try await PostgresAdmin.createServerLogin(login, password: "pw-\(login)", adminURL: Self.adminURL)
        return "postgres://\(login):pw-\(login)@\(Self.hostAndDatabase)"
    }

    /// Runs SQL with psql as `url`'s login.
    func psql(_ url: String, _ sql: String) throws -> ChildProcess.Result {
        try ChildProcess.run("psql", [url, "-v", "ON_ERROR_STOP=1", "-Atc", sql])
    }

    @Test func theDatabaseHoldsTheSignedInUserToTheirRoles() async throws {
        let url = try await serverLogin()
        let server = try await RunningServer(postgresURL: url)
        let (alice, vera, dave) = (name("alice"), name("vera"), name("dave"))
        let (aliceStore, _) = try await server.user(alice)
        let (veraStore, _) = try await server.user(vera)
        let (_, daveToken) = try await server.user(dave)
        _ = try await aliceStore.push(user: alice, tree: alice, [memberWrite("m1", name: "Ann")])
        try await aliceStore.share(tree: alice, as: alice, with: vera, role: .viewer)

        #expect(try await veraStore.pull(user: vera, tree: alice, after: 0, limit: 10).count == 1)
        do {
            _ = try await veraStore.push(user: vera, tree: alice, [memberWrite("m2", name: "Bo")])
            Issue.record("a viewer pushed")
        } catch {
            #expect("\(error)".contains("\(vera) is a viewer of \(alice)'s tree"))
        }
        let daves = try await server.send("GET", "/api/v1/trees/\(alice)/documents", token: daveToken)
        #expect(daves.status == 403 && !daves.body.contains("Ann"))
        // The log names the user, not the server's login.
        let log = try await aliceStore.log(of: alice, as: alice, key: nil, limit: 10)
        #expect(log.map(\.user) == [alice])

        // In SQL, as the server's login: acting for dave, alice's rows are not there and cannot
        // be written; acting for nobody, nothing is.
        let documents = "SELECT count(*) FROM familytree_documents WHERE owner_uid = '\(alice)'"
        #expect(try psql(url, "SELECT set_config('familytree.acting_user', '\(dave)', false); \(documents)").stdout.hasSuffix("\n0\n"))
        #expect(try psql(url, "SELECT set_config('familytree.acting_user', '\(alice)', false); \(documents)").stdout.hasSuffix("\n1\n"))
        #expect(try psql(url, documents).stdout == "0\n")
        let forged = try psql(url, """
            SELECT set_config('familytree.acting_user', '\(dave)', false);
            INSERT INTO familytree_documents VALUES ('\(alice)', 'familyTree', 'x', '{}', 1, false, 99)
            """)
        #expect(forged.status != 0 && forged.stderr.contains("row-level security"))
        // A user's own login cannot claim to be someone else: the setting counts for server logins only.
        let mallory = name("mallory")
        try await PostgresAdmin.createUser(mallory, password: "pw-\(mallory)", adminURL: Self.adminURL)
        let malloryURL = "postgres://\(mallory):pw-\(mallory)@\(Self.hostAndDatabase)"
        #expect(try psql(malloryURL, "SELECT set_config('familytree.acting_user', '\(alice)', false); \(documents)").stdout.hasSuffix("\n0\n"))
        // And the server's tables are the server's: a user's login reads no account, token or invite.
        let accounts = try psql(malloryURL, "SELECT count(*) FROM familytree_server_accounts")
        #expect(accounts.status != 0 && accounts.stderr.contains("permission denied"))
    }

    @Test func twoServersOverOneDatabaseServeTheSameUsers() async throws {
        let url = try await serverLogin()
        let first = try await RunningServer(postgresURL: url)
        let second = try await RunningServer(postgresURL: url)
        let (alice, bob) = (name("alice"), name("bob"))
        let (aliceOnFirst, aliceToken) = try await first.user(alice)
        _ = try await aliceOnFirst.push(user: alice, tree: alice, [memberWrite("m1", name: "Ann"), memberWrite("m2", name: "Ben")])

        // A token made by one server works on the other; so does an invite.
        let aliceOnSecond = ServerDocumentStore(address: try ServerAddress(second.address), user: alice, token: aliceToken)
        #expect(try await aliceOnSecond.pull(user: alice, tree: alice, after: 0, limit: 10).map(\.key.id) == ["m1", "m2"])
        let (link, _) = try await aliceOnFirst.invite(tree: alice, role: .helper, invitee: nil, expiresInHours: 1)
        let code = String(link.split(separator: "/").last!)
        let joined = try await second.send(
            "POST", "/api/v1/invites/\(code)/accept", body: #"{"user":"\#(bob)","password":"bobs password","tokenLabel":"laptop"}"#)
        #expect(joined.status == 201, "\(joined.body)")
        let bobToken = try #require((try JSONSerialization.jsonObject(with: Data(joined.body.utf8)) as? [String: Any]).flatMap { ($0["token"] as? [String: Any])?["token"] as? String })
        // Bob pushes through the first, alice pulls it through the second.
        let bobOnFirst = ServerDocumentStore(address: try ServerAddress(first.address), user: bob, token: bobToken)
        _ = try await bobOnFirst.push(user: bob, tree: alice, [memberWrite("m3", name: "Cy")])
        let pulled = try await aliceOnSecond.pull(user: alice, tree: alice, after: 0, limit: 10)
        #expect(pulled.map(\.key.id) == ["m1", "m2", "m3"])
        // A session started on one server is known to the other, and so are failed sign-ins.
        let session = try await first.send("POST", "/api/v1/session", body: #"{"user":"\#(alice)","password":"correct horse"}"#)
        let cookie = String(try #require(session.headers["set-cookie"]).split(separator: ";")[0])
        #expect(try await second.send("GET", "/api/v1/me", headers: ["Cookie": cookie]).field("user") == alice)
        for _ in 0..<5 {
            #expect(try await first.send("POST", "/api/v1/session", body: #"{"user":"\#(bob)","password":"guess"}"#).status == 401)
        }
        #expect(try await second.send("POST", "/api/v1/session", body: #"{"user":"\#(bob)","password":"bobs password"}"#).status == 429)
        // Revoked on one, refused by the other.
        #expect(try await first.send("DELETE", "/api/v1/session/everywhere", token: aliceToken).status == 204)
        #expect(try await second.send("GET", "/api/v1/me", token: aliceToken).status == 401)
    }

    @Test func aShareThatHidesTheLivingHoldsOnEveryServerOverTheDatabase() async throws {
        let url = try await serverLogin()
        let first = try await RunningServer(postgresURL: url)
        let second = try await RunningServer(postgresURL: url)
        let (alice, vera, ivy) = (name("alice"), name("vera"), name("ivy"))
        let (aliceStore, aliceToken) = try await first.user(alice)
        let (_, veraToken) = try await first.user(vera)
        _ = try await aliceStore.push(user: alice, tree: alice, [
            DocumentWrite(key: DocumentKey(.familyTree, "m1"), body: #"{"firstName":"Annabel","id":"m1"}"#, baseVersion: 0),
        ])
        try await aliceStore.share(tree: alice, as: alice, with: vera, role: .viewer, hidingLiving: true)

        // Set through one server, kept by the database: the other hides Annabel (no dates: living) too.
        let chart = try await second.send("GET", "/trees/\(alice)/chart.json", token: veraToken)
        #expect(chart.status == 200 && chart.body.contains("Living") && !chart.body.contains("Annabel"), "\(chart.body)")
        #expect(try await second.send("GET", "/api/v1/trees/\(alice)/documents", token: veraToken).status == 403)
        #expect(try await aliceStore.members(of: alice, as: alice).first { $0.user == vera }?.hidesLiving == true)
        // An invite's rule is the database's too.
        let (link, _) = try await aliceStore.invite(tree: alice, role: .viewer, invitee: nil, expiresInHours: 1, hidingLiving: true)
        let code = String(link.split(separator: "/").last!)
        let joined = try await second.send("POST", "/api/v1/invites/\(code)/accept", body: #"{"user":"\#(ivy)","password":"ivys password","tokenLabel":"laptop"}"#)
        let ivyToken = try #require((try JSONSerialization.jsonObject(with: Data(joined.body.utf8)) as? [String: Any]).flatMap { ($0["token"] as? [String: Any])?["token"] as? String })
        #expect(!(try await first.send("GET", "/trees/\(alice)/chart.json", token: ivyToken).body.contains("Annabel")))
        // Lifted through the second, gone on the first.
        try await ServerDocumentStore(address: try ServerAddress(second.address), user: alice, token: aliceToken)
            .share(tree: alice, as: alice, with: vera, role: .viewer)
        #expect(try await aliceStore.members(of: alice, as: alice).first { $0.user == vera }?.hidesLiving == false)
        let lifted = try await first.send("GET", "/trees/\(alice)/chart.json", token: veraToken)
        #expect(lifted.body.contains("Annabel"), "\(lifted.body)")
        // The rules are the server's table: a user's own login cannot read them.
        let mallory = name("mallory")
        try await PostgresAdmin.createUser(mallory, password: "pw-\(mallory)", adminURL: Self.adminURL)
        let read = try psql("postgres://\(mallory):pw-\(mallory)@\(Self.hostAndDatabase)", "SELECT count(*) FROM familytree_server_private_shares")
        #expect(read.status != 0 && read.stderr.contains("permission denied"))
    }

    @Test func thePersonEachUserSaysIsThemIsTheDatabasesOnEveryServer() async throws {
        let url = try await serverLogin()
        let first = try await RunningServer(postgresURL: url)
        let second = try await RunningServer(postgresURL: url)
        let alice = name("alice")
        let (aliceStore, aliceToken) = try await first.user(alice)
        _ = try await aliceStore.push(user: alice, tree: alice, [
            DocumentWrite(key: DocumentKey(.familyTree, "m1"), body: #"{"firstName":"Annabel","id":"m1"}"#, baseVersion: 0),
        ])
        #expect(try await first.send("PUT", "/trees/\(alice)/myself", body: #"{"member":"m1"}"#, token: aliceToken).status == 200)
        #expect(try await second.send("GET", "/trees/\(alice)", token: aliceToken).body.contains(#"data-myself="m1""#))
        #expect(try await second.send("PUT", "/trees/\(alice)/myself", body: #"{"member":null}"#, token: aliceToken).status == 200)
        #expect(!(try await first.send("GET", "/trees/\(alice)", token: aliceToken).body.contains("data-myself")))
        // The server's table: a user's own login cannot read it.
        let mallory = name("mallory")
        try await PostgresAdmin.createUser(mallory, password: "pw-\(mallory)", adminURL: Self.adminURL)
        let read = try psql("postgres://\(mallory):pw-\(mallory)@\(Self.hostAndDatabase)", "SELECT count(*) FROM familytree_server_own_people")
        #expect(read.status != 0 && read.stderr.contains("permission denied"))
    }
}
#endif
