#if PostgreSQL
import FamilyTree
@testable import FamilyTreePostgres
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeSync

/// Isolation as the database enforces it, against a user who holds their own credentials and
/// talks SQL directly (psql), not only through familytree.
@Suite(.threadsOfItsOwn, .requiresPostgreSQL)
struct PostgresIsolationTests {
    let fixture = StoreFixture(.postgres)

    /// Runs SQL as `name` with psql, logging in with that user's own password over TCP.
    func psql(as name: String, _ sql: String) throws -> ChildProcess.Result {
        let admin = try PostgresTestServer.adminURL()
        let host = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
        let uid = fixture.uid(name)
        return try ChildProcess.run("psql", ["postgres://\(uid):pw-\(uid)@\(host)", "-v", "ON_ERROR_STOP=1", "-Atc", sql])
    }

    @Test func anotherUsersDocumentsAreInvisibleAndUnwritable() async throws {
        let alice = try await fixture.store("alice")
        let bob = try await fixture.store("bob")
        let (aliceID, bobID) = (fixture.uid("alice"), fixture.uid("bob"))
        let (key, body) = member("ada")
        _ = try await alice.push(user: aliceID, [DocumentWrite(key: key, body: body, baseVersion: 0)])

        // Through the store: bob's connection refuses alice's documents outright.
        await #expect(throws: SyncError.self) { try await bob.pull(user: aliceID, after: 0, limit: 10) }
        await #expect(throws: SyncError.self) { try await bob.push(user: aliceID, [DocumentWrite(key: key, body: body, baseVersion: 1)]) }
        do {
            _ = try await bob.pull(user: aliceID, after: 0, limit: 10)
        } catch let error {
            #expect(error.description.contains("access denied"))
        }

        // In SQL with bob's own credentials: alice's rows are not there, cannot be written, and nobody deletes.
        #expect(try psql(as: "bob", "SELECT count(*) FROM familytree_documents").stdout == "0\n")
        let insert = try psql(as: "bob", "INSERT INTO familytree_documents VALUES ('\(aliceID)', 'familyTree', 'x', '{}', 1, false, 99)")
        #expect(insert.status != 0)
        #expect(insert.stderr.contains("row-level security"))
        let update = try psql(as: "bob", "UPDATE familytree_documents SET body = '{}' WHERE owner_uid = '\(aliceID)'")
        #expect(update.stdout == "UPDATE 0\n", "invisible rows are not updated")
        let delete = try psql(as: "alice", "DELETE FROM familytree_documents WHERE owner_uid = '\(aliceID)'")
        #expect(delete.status != 0)
        #expect(delete.stderr.contains("permission denied"))
        #expect(try psql(as: "alice", "SELECT count(*) FROM familytree_documents").stdout == "1\n")
        #expect(try await alice.pull(user: aliceID, after: 0, limit: 10).map(\.body) == [body])
        // Bob's writes are his own.
        #expect(try await bob.push(user: bobID, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
    }

    /// The roles of a shared tree in SQL, with each user's own credentials: the database, not
    /// familytree, refuses what a role may not do.
    @Test func rolesHoldInSQL() async throws {
        let (fixture, alice, _, _) = try await SharedTreeTests.tree(.postgres, bobAs: .helper)
        func psql(as name: String, _ sql: String) throws -> ChildProcess.Result {
            let admin = try PostgresTestServer.adminURL()
            let host = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
            let uid = fixture.uid(name)
            return try ChildProcess.run("psql", ["postgres://\(uid):pw-\(uid)@\(host)", "-v", "ON_ERROR_STOP=1", "-Atc", sql])
        }
        _ = try await fixture.shared("dan") // a login role with no role on the tree
        // Carol is a viewer: she reads, and her UPDATE changes nothing.
        #expect(try psql(as: "carol", "SELECT count(*) FROM familytree_documents WHERE owner_uid = '\(alice)'").stdout == "1\n")
        #expect(try psql(as: "carol", "UPDATE familytree_documents SET body = '{}' WHERE owner_uid = '\(alice)'").stdout == "UPDATE 0\n")
        let carolInsert = try psql(as: "carol", "INSERT INTO familytree_documents VALUES ('\(alice)', 'familyTree', 'x', '{}', 1, false, 99)")
        #expect(carolInsert.status != 0 && carolInsert.stderr.contains("row-level security"))
        // Bob is a helper: he edits, but a tombstone and a DELETE are refused.
        #expect(try psql(as: "bob", "UPDATE familytree_documents SET body = '{\"id\": \"ada\", \"firstName\": \"Ada\", \"nickname\": \"A\"}' WHERE owner_uid = '\(alice)'").stdout == "UPDATE 1\n")
        let tombstone = try psql(as: "bob", "UPDATE familytree_documents SET deleted = true WHERE owner_uid = '\(alice)'")
        #expect(tombstone.status != 0 && tombstone.stderr.contains("row-level security"))
        let delete = try psql(as: "bob", "DELETE FROM familytree_documents WHERE owner_uid = '\(alice)'")
        #expect(delete.status != 0 && delete.stderr.contains("permission denied"))
        // Nobody shares with himself, nor writes a membership or the log by hand.
        let share = try psql(as: "bob", "SELECT familytree_share('\(alice)', '\(fixture.uid("dan"))', 'admin')")
        #expect(share.status != 0 && share.stderr.contains("sharing needs admin or above"))
        let membership = try psql(as: "bob", "INSERT INTO familytree_members VALUES ('\(alice)', '\(fixture.uid("bob"))', 'owner', 'x')")
        #expect(membership.status != 0 && membership.stderr.contains("permission denied"))
        let forged = try psql(as: "alice", "INSERT INTO familytree_audit (tree_uid, collection, doc_id, version, deleted, seq, changed_by) VALUES ('\(alice)', 'familyTree', 'ada', 9, false, 9, 'someone')")
        #expect(forged.status != 0 && forged.stderr.contains("permission denied"))
        // The log: the owner reads it, with bob's edit under his name; the helper reads none of it.
        #expect(try psql(as: "alice", "SELECT changed_by FROM familytree_audit WHERE tree_uid = '\(alice)' ORDER BY id DESC LIMIT 1").stdout == fixture.uid("bob") + "\n")
        #expect(try psql(as: "bob", "SELECT count(*) FROM familytree_audit").stdout == "0\n")
        // Dan has no role: he sees no row of alice's tree, nor who is in it.
        #expect(try psql(as: "dan", "SELECT count(*) FROM familytree_documents").stdout == "0\n")
        #expect(try psql(as: "dan", "SELECT count(*) FROM familytree_members WHERE tree_uid = '\(alice)'").stdout == "0\n")
    }

    /// TLS as `sslmode` asks: the test server's certificate is signed by a throwaway authority
    /// (`scripts/postgres-start`); trusting it, verify-full connects to localhost; trusting another
    /// authority, the connection fails and says why; require encrypts without checking.
    @Test func tlsVerifiesTheServerAgainstTheRootItIsGiven() async throws {
        let environment = ProcessInfo.processInfo.environment
        let authority = try #require(environment["FAMILYTREE_PG_CA"], "scripts/postgres-start exports FAMILYTREE_PG_CA")
        let other = try #require(environment["FAMILYTREE_PG_OTHER_CA"])
        let uid = fixture.uid("tls")
        let url = try await PostgresTestServer.createUser(uid)
        // The same server by name, so the certificate's name can be checked.
        let byName = url.replacingOccurrences(of: "@127.0.0.1:", with: "@localhost:")
        let verified = try await PostgresDocumentStore(url: byName + "?sslmode=verify-full&sslrootcert=" + authority)
        #expect(verified.role == uid)
        let (key, body) = member("ada")
        #expect(try await verified.push(user: uid, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
        await verified.close()

        do {
            _ = try await PostgresDocumentStore(url: byName + "?sslmode=verify-full&sslrootcert=" + other)
            Issue.record("a server whose certificate no trusted authority signed was accepted")
        } catch {
            #expect(error.description.contains("cannot connect to postgres://\(uid)@localhost"), "\(error)")
            #expect(error.description.lowercased().contains("certificate"), "the message says it is the certificate: \(error)")
        }
        await #expect(throws: SyncError.self) { try await PostgresDocumentStore(url: url + "?sslmode=sometimes") }

        let encrypted = try await PostgresDocumentStore(url: url + "?sslmode=require")
        #expect(try await encrypted.pull(user: uid, after: 0, limit: 10).count == 1)
        await encrypted.close()
    }

    /// Passwords need not be on the command line: the URL's, else PGPASSWORD, else libpq's password
    /// file, which is not read when others may read it; TLS is required off this machine by default.
    @Test func passwordsComeFromThePasswordFileAndTLSIsTheDefaultAway() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("pgpass").path
        try "# comment\ndb.example.org:5432:family:bob:b\\:pw\n*:*:*:alice:alice-pw\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        #expect(try PostgresURL("postgres://bob@db.example.org/family", passwordFile: file).password == "b:pw")
        #expect(try PostgresURL("postgres://alice@127.0.0.1:5433/x", passwordFile: file).password == "alice-pw")
        #expect(try PostgresURL("postgres://carol@db.example.org/family", passwordFile: file).password == nil)
        #expect(try PostgresURL("postgres://alice@127.0.0.1/x", environment: "from-env", passwordFile: file).password == "from-env")
        #expect(try PostgresURL("postgres://alice:given@127.0.0.1/x", environment: "from-env", passwordFile: file).password == "given")
        chmod(file, 0o644)
        #expect(try PostgresURL("postgres://alice@127.0.0.1/x", passwordFile: file).password == nil, "a file others can read is ignored")

        #expect(try PostgresURL("postgres://alice@db.example.org/x").tlsMode == .require)
        #expect(try PostgresURL("postgres://alice@127.0.0.1/x").tlsMode == .disable)
        #expect(try PostgresURL("postgres://alice@db.example.org/x?sslmode=verify-full").tlsMode == .verifyFull)
        #expect(try PostgresURL("postgres://alice@localhost/fam?sslmode=disable").database == "fam")
    }

    @Test func aMissingUserFailsAndJSONBBodiesComeBackCanonical() async throws {
        let alice = try await fixture.store("alice")
        await #expect(throws: SyncError.missingUser) { try await alice.pull(user: "", after: 0, limit: 10) }
        // JSONB reorders keys and spacing; the store hands back our sorted compact body, so an
        // unchanged re-push is recognised.
        let key = DocumentKey(.familyTree, "n")
        let body = #"{"a":[1,2.50,{"b":true,"z":null}],"firstName":"Nöel \"N\"","id":"n"}"#
        let aliceID = fixture.uid("alice")
        _ = try await alice.push(user: aliceID, [DocumentWrite(key: key, body: body, baseVersion: 0)])
        #expect(try await alice.pull(user: aliceID, after: 0, limit: 10).map(\.body) == [body])
        #expect(try await alice.push(user: aliceID, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.unchanged(version: 1)])
    }
}
#endif
