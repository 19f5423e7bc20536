#if Server
import FamilyTreeAPI
import FamilyTreeRemote
import FamilyTreeSync
import Foundation
import GRDB
import Testing
import TestSupport
@testable import FamilyTreeServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server in this process on a free port, over its embedded store in a scratch folder.
final class RunningServer: @unchecked Sendable {
    let folder: ScratchFolder
    let storePath: String
    let address: String
    let server: SyncServer
    private let task: Task<Void, any Error>
    /// One session for the test's raw requests, let go with the server.
    private let session: URLSession

    convenience init(settings: ServerSettings = RunningServer.quickSettings) async throws {
        let folder = try ScratchFolder("server")
        let storePath = folder.path("store.sqlite").path
        var settings = settings
        settings.port = 0
        try await self.init(server: try SyncServer(sqlitePath: storePath, settings: settings), folder: folder, storePath: storePath)
    }

    #if PostgreSQL
    /// A server on PostgreSQL, connected with the server login in `postgresURL`.
    convenience init(postgresURL: String) async throws {
        var settings = RunningServer.quickSettings
        settings.port = 0
        let server = try await SyncServer(postgresURL: postgresURL, connections: 4, settings: settings)
        try await self.init(server: server, folder: try ScratchFolder("server"), storePath: "")
    }
    #endif

    init(server: SyncServer, folder: ScratchFolder, storePath: String) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = 60
        // Redirects are answers to look at, not to follow.
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        self.folder = folder
        self.storePath = storePath
        self.server = server
        let (addresses, continuation) = AsyncStream<String>.makeStream()
        task = Task { try await server.run(handlingSignals: false) { continuation.yield($0) } }
        var iterator = addresses.makeAsyncIterator()
        address = await iterator.next() ?? ""
    }

    deinit {
        session.invalidateAndCancel()
        task.cancel()
    }

    /// Cheap hashes and the usual limits: tests make many accounts.
    static var quickSettings: ServerSettings {
        var settings = ServerSettings()
        settings.bcryptCost = 4
        return settings
    }

    /// An account and a token for it.
    func user(_ name: String, password: String = "correct horse") async throws -> (store: ServerDocumentStore, token: String) {
        try await server.addAccount(user: name, password: password)
        let client = ServerDocumentStore.client(try ServerAddress(address), token: nil)
        let token = try await client.createToken(body: .json(.init(user: name, password: password, label: "test"))).created.body.json
        return (ServerDocumentStore(address: try ServerAddress(address), user: name, token: token.token), token.token)
    }

    /// One request, as a browser or a script would send it.
    func send(
        _ method: String, _ path: String, body: String? = nil, token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: address + path)!)
        request.httpMethod = method
        request.httpShouldHandleCookies = false
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return Answer(status: http.statusCode, headers: fields, body: String(decoding: data, as: UTF8.self))
    }

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
        /// The JSON body's field.
        func field(_ name: String) -> String? {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return nil }
            return object[name].map { "\($0)" }
        }
    }
}

/// Hands every redirect back as the answer.
final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A member document as the sync writes it.
func memberWrite(_ id: String, name: String, base: Int64 = 0, deleted: Bool = false) -> DocumentWrite {
    DocumentWrite(key: DocumentKey(.familyTree, id), body: #"{"id":"\#(id)","name":"\#(name)"}"#, isDeleted: deleted, baseVersion: base)
}

/// A test still awaiting an answer after two minutes fails by name instead of holding up the run.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ServerAPITests {
    @Test func refusalsAreJSONWithAMessage() async throws {
        let server = try await RunningServer()
        let (_, token) = try await server.user("alice")

        let anonymous = try await server.send("GET", "/api/v1/trees")
        #expect(anonymous.status == 401)
        #expect(anonymous.field("error") == "unauthorized")
        #expect(anonymous.headers["content-type"]?.hasPrefix("application/json") == true)

        let unknownRoute = try await server.send("GET", "/api/v1/nowhere", token: token)
        #expect(unknownRoute.status == 404)
        #expect(unknownRoute.field("error") == "notFound")

        let malformed = try await server.send("POST", "/api/v1/trees/alice/documents", body: #"{"writes": [{"collection": "familyTree"}"#, token: token)
        #expect(malformed.status == 400)
        #expect(malformed.field("error") == "invalid")

        let missingField = try await server.send("POST", "/api/v1/trees/alice/documents", body: #"{"writes": [{"collection": "familyTree", "id": "a"}]}"#, token: token)
        #expect(missingField.status == 400)
        #expect(missingField.field("message")?.contains("body") == true)

        let badCollection = try await server.send(
            "POST", "/api/v1/trees/alice/documents", body: #"{"writes": [{"collection": "secrets", "id": "a", "body": "{}", "baseVersion": 0}]}"#, token: token)
        #expect(badCollection.status == 400)

        let tooBig = try await server.send("POST", "/api/v1/trees/alice/documents", body: String(repeating: " ", count: 13 * 1_048_576), token: token)
        #expect(tooBig.status == 413)
        #expect(tooBig.field("error") == "tooLarge")

        // Documents a client could not read back are refused: no id, an id over 1,500 bytes, a
        // body that is not a record, or a record of another id.
        for (id, body) in [("", #"{\"id\":\"\"}"#), (String(repeating: "0", count: 1501), "{}"), ("m1", "0"), ("m1", "not json"), ("m1", #"{\"id\":\"m2\"}"#)] {
            let write = #"{"writes":[{"collection":"familyTree","id":"\#(id)","body":"\#(body)","baseVersion":0}]}"#
            let refused = try await server.send("POST", "/api/v1/trees/alice/documents", body: write, token: token)
            #expect(refused.status == 400, "\(id.prefix(10)) \(body): \(refused.body)")
            #expect(refused.field("error") == "invalid")
        }
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: token).body == #"{"documents":[]}"#)

        let pageTooLong = try await server.send("GET", "/api/v1/trees/alice/documents?limit=5001", token: token)
        #expect(pageTooLong.status == 400)

        // A tree or user in a path is a user id, whatever the generated code lets through.
        for path in ["/api/v1/trees/..%2Fbob/documents", "/api/v1/trees/Alice/documents", "/api/v1/trees/alice%0A/members",
                     "/api/v1/trees/alice/members/%3Cscript%3E"] {
            let hostile = try await server.send(path.hasSuffix("E") ? "DELETE" : "GET", path, token: token)
            #expect(hostile.status == 400, "\(path): \(hostile.status) \(hostile.body)")
            #expect(hostile.field("error") == "invalid")
        }
        // Text fields within the document's lengths.
        let longLabel = try await server.send(
            "POST", "/api/v1/tokens", body: #"{"user":"alice","password":"correct horse","label":"\#(String(repeating: "x", count: 201))"}"#)
        #expect(longLabel.status == 400 && longLabel.field("message")?.contains("label") == true)
        let longInvitee = try await server.send(
            "POST", "/api/v1/trees/alice/invites", body: #"{"role":"viewer","invitee":"\#(String(repeating: "x", count: 321))"}"#, token: token)
        #expect(longInvitee.status == 400 && longInvitee.field("message")?.contains("invitee") == true)

        let bigBatch = "{\"writes\":[" + (0..<501).map { #"{"collection":"familyTree","id":"m\#($0)","body":"{}","baseVersion":0}"# }.joined(separator: ",") + "]}"
        let tooMany = try await server.send("POST", "/api/v1/trees/alice/documents", body: bigBatch, token: token)
        #expect(tooMany.status == 413 || tooMany.status == 400)
        #expect(tooMany.field("error") != nil)
    }

    @Test func failedSignInsAreThrottledPerAccount() async throws {
        let server = try await RunningServer()
        _ = try await server.user("alice")
        _ = try await server.user("bob")
        for _ in 0..<5 {
            let wrong = try await server.send("POST", "/api/v1/session", body: #"{"user":"alice","password":"guess"}"#)
            #expect(wrong.status == 401)
            #expect(wrong.field("message") == "wrong user or password")
        }
        // The right password is refused now too, without a look at it.
        let right = try await server.send("POST", "/api/v1/session", body: #"{"user":"alice","password":"correct horse"}"#)
        #expect(right.status == 429)
        #expect(right.headers["retry-after"] != nil)
        let token = try await server.send("POST", "/api/v1/tokens", body: #"{"user":"alice","password":"correct horse","label":"x"}"#)
        #expect(token.status == 429)
        // Another account from the same address is not locked out by alice's.
        let bob = try await server.send("POST", "/api/v1/session", body: #"{"user":"bob","password":"correct horse"}"#)
        #expect(bob.status == 200)
        // An unknown user fails the same way as a wrong password.
        let nobody = try await server.send("POST", "/api/v1/session", body: #"{"user":"nobody","password":"guess"}"#)
        #expect(nobody.status == 401)
        #expect(nobody.field("message") == "wrong user or password")
    }

    @Test func sessionsAreHttpOnlyStrictCookiesAndChangesNeedTheCSRFTokenAndOrigin() async throws {
        let server = try await RunningServer()
        _ = try await server.user("alice")
        let signIn = try await server.send("POST", "/api/v1/session", body: #"{"user":"alice","password":"correct horse"}"#)
        #expect(signIn.status == 200)
        let cookie = try #require(signIn.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
        let session = String(cookie.split(separator: ";")[0])
        let csrf = try #require(signIn.field("csrfToken"))

        let me = try await server.send("GET", "/api/v1/me", headers: ["Cookie": session])
        #expect(me.status == 200 && me.field("user") == "alice")

        let write = #"{"writes":[{"collection":"familyTree","id":"m1","body":"{\"id\":\"m1\",\"name\":\"Ann\"}","baseVersion":0}]}"#
        let noToken = try await server.send("POST", "/api/v1/trees/alice/documents", body: write, headers: ["Cookie": session])
        #expect(noToken.status == 403)
        let otherOrigin = try await server.send(
            "POST", "/api/v1/trees/alice/documents", body: write, headers: ["Cookie": session, "X-CSRF-Token": csrf, "Origin": "https://evil.example"])
        #expect(otherOrigin.status == 403)
        #expect(otherOrigin.field("message")?.contains("evil.example") == true)
        let wrongToken = try await server.send("POST", "/api/v1/trees/alice/documents", body: write, headers: ["Cookie": session, "X-CSRF-Token": "x" + csrf])
        #expect(wrongToken.status == 403)
        let sameOrigin = try await server.send(
            "POST", "/api/v1/trees/alice/documents", body: write, headers: ["Cookie": session, "X-CSRF-Token": csrf, "Origin": server.address])
        #expect(sameOrigin.status == 200, "\(sameOrigin.body)")

        let signOut = try await server.send("DELETE", "/api/v1/session", headers: ["Cookie": session, "X-CSRF-Token": csrf])
        #expect(signOut.status == 204)
        #expect(signOut.headers["set-cookie"]?.contains("Max-Age=0") == true)
        let after = try await server.send("GET", "/api/v1/me", headers: ["Cookie": session])
        #expect(after.status == 401)
    }

    @Test func anInviteWorksOnceAndNotAfterItExpires() async throws {
        let server = try await RunningServer()
        let (alice, aliceToken) = try await server.user("alice")
        _ = try await alice.push(user: "alice", tree: "alice", [memberWrite("m1", name: "Ann")])
        let (link, _) = try await alice.invite(tree: "alice", role: .helper, invitee: "bob@example.org", expiresInHours: 72)
        #expect(link.hasPrefix(server.address + "/invite/"))
        let code = String(link.split(separator: "/").last!)

        let shown = try await server.send("GET", "/api/v1/invites/\(code)")
        #expect(shown.status == 200 && shown.field("role") == "helper" && shown.field("invitedBy") == "alice")

        // Five relatives open the link at once: exactly one joins.
        let answers = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<5 {
                group.addTask {
                    try await server.send("POST", "/api/v1/invites/\(code)/accept", body: #"{"user":"bob\#(index)","password":"bobs password"}"#).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(answers.filter { $0 == 201 }.count == 1, "\(answers)")
        #expect(answers.filter { $0 == 404 }.count == 4, "\(answers)")
        let reused = try await server.send("POST", "/api/v1/invites/\(code)/accept", body: #"{"user":"mallory","password":"mallorys password"}"#)
        #expect(reused.status == 404)
        #expect(reused.field("message")?.contains("used") == true)
        let members = try await alice.members(of: "alice", as: "alice")
        #expect(members.filter { $0.user.hasPrefix("bob") }.map(\.role) == [.helper])
        // The four who came second made no account.
        let database0 = try DatabaseQueue(path: server.storePath)
        #expect(try await database0.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM server_accounts WHERE user LIKE 'bob%'") } == 1)

        // An expired invite is refused, when shown and when accepted.
        let (late, _) = try await alice.invite(tree: "alice", role: .viewer, invitee: nil, expiresInHours: 1)
        let lateCode = String(late.split(separator: "/").last!)
        let database = try DatabaseQueue(path: server.storePath)
        try await database.write { try $0.execute(sql: "UPDATE server_invites SET expires_at = 1 WHERE code_hash = ?", arguments: [Secrets.hash(lateCode)]) }
        let expired = try await server.send("GET", "/api/v1/invites/\(lateCode)")
        #expect(expired.status == 404 && expired.field("message")?.contains("expired") == true)
        let acceptedLate = try await server.send("POST", "/api/v1/invites/\(lateCode)/accept", body: #"{"user":"carol","password":"carols password"}"#)
        #expect(acceptedLate.status == 404)
        #expect(try await alice.members(of: "alice", as: "alice").contains { $0.user == "carol" } == false)

        // Only an admin or the owner invites, and never into a role above their own.
        let helperCode = try await server.send("POST", "/api/v1/trees/alice/invites", body: #"{"role":"owner"}"#, token: aliceToken)
        #expect(helperCode.status == 400)
        // The code is kept only as a hash: the database holds no working invite.
        let codes = try await database.read { try String.fetchAll($0, sql: "SELECT code_hash FROM server_invites") }
        #expect(!codes.contains(code) && codes.contains(Secrets.hash(code)))
    }

    @Test func eachRoleDoesWhatItMayAndNoMoreOverHTTP() async throws {
        let server = try await RunningServer()
        let (alice, _) = try await server.user("alice")
        let (viewer, _) = try await server.user("vera")
        let (helper, _) = try await server.user("hal")
        let (admin, _) = try await server.user("ada")
        _ = try await alice.push(user: "alice", tree: "alice", [memberWrite("m1", name: "Ann"), memberWrite("m2", name: "Ben")])
        try await alice.share(tree: "alice", as: "alice", with: "vera", role: .viewer)
        try await alice.share(tree: "alice", as: "alice", with: "hal", role: .helper)
        try await alice.share(tree: "alice", as: "alice", with: "ada", role: .admin)

        #expect(try await viewer.pull(user: "vera", tree: "alice", after: 0, limit: 100).count == 2)
        await #expect(throws: SyncError.self) { try await viewer.push(user: "vera", tree: "alice", [memberWrite("m3", name: "Cy")]) }
        do {
            _ = try await viewer.push(user: "vera", tree: "alice", [memberWrite("m3", name: "Cy")])
        } catch {
            #expect("\(error)".contains("vera is a viewer of alice's tree"))
        }
        let pushed = try await helper.push(user: "hal", tree: "alice", [memberWrite("m3", name: "Cy")])
        #expect(pushed.count == 1)
        await #expect(throws: SyncError.self) { try await helper.push(user: "hal", tree: "alice", [memberWrite("m3", name: "Cy", base: 1, deleted: true)]) }
        await #expect(throws: SyncError.self) { try await helper.log(of: "alice", as: "hal", key: nil, limit: 10) }
        _ = try await admin.push(user: "ada", tree: "alice", [memberWrite("m3", name: "Cy", base: 1, deleted: true)])
        await #expect(throws: SyncError.self) { try await admin.transfer(tree: "alice", as: "ada", to: "hal") }
        await #expect(throws: SyncError.self) { try await admin.deleteTree("alice", as: "ada") }

        // The log names who really made each change.
        let log = try await alice.log(of: "alice", as: "alice", key: nil, limit: 10)
        #expect(Set(log.map(\.user)) == ["alice", "hal", "ada"])
        #expect(log.first?.user == "ada" && log.first?.isDeleted == true)
        // A compare-and-set conflict comes back with the store's document.
        let conflict = try await helper.push(user: "hal", tree: "alice", [memberWrite("m1", name: "Anne", base: 0)])
        guard case .conflict(let current)? = conflict.first else { Issue.record("expected a conflict: \(conflict)"); return }
        #expect(current.body.contains("Ann"))
        // A client asking as someone else than its token is refused before sending anything.
        await #expect(throws: SyncError.self) { try await helper.pull(user: "alice", tree: "alice", after: 0, limit: 10) }
    }

    @Test func anotherFamilysTreeIsUnreachableOnEveryRoute() async throws {
        let server = try await RunningServer()
        let (alice, aliceToken) = try await server.user("alice")
        let (_, dave) = try await server.user("dave")
        _ = try await alice.push(user: "alice", tree: "alice", [memberWrite("m1", name: "Ann")])
        let tokens = try await server.send("GET", "/api/v1/tokens", token: aliceToken)
        let aliceTokenID = try #require((try JSONSerialization.jsonObject(with: Data(tokens.body.utf8)) as? [[String: Any]])?.first?["id"] as? String)

        let attempts: [(String, String, String?)] = [
            ("GET", "/api/v1/trees/alice/documents", nil),
            ("POST", "/api/v1/trees/alice/documents", #"{"writes":[{"collection":"familyTree","id":"m9","body":"{\"id\":\"m9\"}","baseVersion":0}]}"#),
            ("GET", "/api/v1/trees/alice/members", nil),
            ("PUT", "/api/v1/trees/alice/members/dave", #"{"role":"admin"}"#),
            ("DELETE", "/api/v1/trees/alice/members/alice", nil),
            ("PUT", "/api/v1/trees/alice/owner", #"{"user":"dave"}"#),
            ("GET", "/api/v1/trees/alice/log", nil),
            ("GET", "/api/v1/trees/alice/log?collection=familyTree&id=m1", nil),
            ("POST", "/api/v1/trees/alice/invites", #"{"role":"viewer"}"#),
            ("DELETE", "/api/v1/trees/alice", nil),
        ]
        for (method, path, body) in attempts {
            let answer = try await server.send(method, path, body: body, token: dave)
            #expect(answer.status == 403, "\(method) \(path): \(answer.status) \(answer.body)")
            #expect(answer.field("error") == "forbidden")
            #expect(!answer.body.contains("Ann"))
        }
        let role = try await server.send("GET", "/api/v1/trees/alice/role", token: dave)
        #expect(role.status == 200 && role.field("role") == nil)
        let trees = try await server.send("GET", "/api/v1/trees", token: dave)
        #expect(!trees.body.contains("\"alice\""))
        let revoke = try await server.send("DELETE", "/api/v1/tokens/\(aliceTokenID)", token: dave)
        #expect(revoke.status == 404)
        // alice's tree is whole after all that.
        #expect(try await alice.pull(user: "alice", tree: "alice", after: 0, limit: 10).map(\.key.id) == ["m1"])
        #expect(try await alice.members(of: "alice", as: "alice").map(\.user) == ["alice"])
        #expect(try await server.send("GET", "/api/v1/me", token: aliceToken).status == 200)
    }

    @Test func tokensAreListedWithoutSecretsAndRevokedOneByOneOrEverywhere() async throws {
        let server = try await RunningServer()
        let (_, first) = try await server.user("alice")
        let second = try await server.send("POST", "/api/v1/tokens", body: #"{"user":"alice","password":"correct horse","label":"phone"}"#)
        #expect(second.status == 201)
        let secondToken = try #require(second.field("token"))
        let secondID = try #require(second.field("id"))
        #expect(secondToken.hasPrefix("ft_"))

        let list = try await server.send("GET", "/api/v1/tokens", token: first)
        #expect(list.status == 200 && list.body.contains("phone") && list.body.contains("test"))
        #expect(!list.body.contains(secondToken) && !list.body.contains(first))
        // The store keeps hashes only.
        let database = try DatabaseQueue(path: server.storePath)
        let hashes = try await database.read { try String.fetchAll($0, sql: "SELECT secret_hash FROM server_credentials") }
        #expect(!hashes.contains(first) && hashes.contains(Secrets.hash(first)))

        #expect(try await server.send("DELETE", "/api/v1/tokens/\(secondID)", token: first).status == 204)
        #expect(try await server.send("GET", "/api/v1/me", token: secondToken).status == 401)
        #expect(try await server.send("GET", "/api/v1/me", token: first).status == 200)

        let session = try await server.send("POST", "/api/v1/session", body: #"{"user":"alice","password":"correct horse"}"#)
        let cookie = String(try #require(session.headers["set-cookie"]).split(separator: ";")[0])
        #expect(try await server.send("DELETE", "/api/v1/session/everywhere", token: first).status == 204)
        #expect(try await server.send("GET", "/api/v1/me", token: first).status == 401)
        #expect(try await server.send("GET", "/api/v1/me", headers: ["Cookie": cookie]).status == 401)
    }

    @Test(.requires("openssl and curl are not installed") { ["openssl", "curl"].allSatisfy { tool in
        ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) } } })
    func servesHTTPSWithItsCertificateAndMarksCookiesSecure() async throws {
        let folder = try ScratchFolder("tls")
        let (certificate, key) = try folder.selfSignedCertificate()
        var settings = RunningServer.quickSettings
        settings.tlsCertificatePath = certificate
        settings.tlsKeyPath = key
        let server = try await RunningServer(settings: settings)
        #expect(server.address.hasPrefix("https://127.0.0.1:"))
        try await server.server.addAccount(user: "alice", password: "correct horse")
        let signIn = try ChildProcess.run("curl", [
            "-s", "-i", "--cacert", certificate, "-H", "Content-Type: application/json",
            "-d", #"{"user":"alice","password":"correct horse"}"#, server.address + "/api/v1/session",
        ])
        #expect(signIn.stdout.hasPrefix("HTTP/1.1 200"), "\(signIn.stdout) \(signIn.stderr)")
        let cookie = signIn.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") } ?? ""
        #expect(cookie.contains("; Secure") && cookie.contains("HttpOnly"))
        // Plain HTTP on the same port gets no answer, and a client that does not trust the certificate refuses it.
        let plain = try ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", server.address.replacingOccurrences(of: "https:", with: "http:") + "/healthz"])
        #expect(plain.stdout != "200")
        let untrusted = try ChildProcess.run("curl", ["-s", "-o", "/dev/null", server.address + "/healthz"])
        #expect(untrusted.status != 0)
    }

    @Test func behindAProxyFailedSignInsCountByTheForwardedAddress() async throws {
        var settings = RunningServer.quickSettings
        settings.behindProxy = true
        settings.failuresPerAddress = 3
        let server = try await RunningServer(settings: settings)
        _ = try await server.user("alice")
        for guess in 0..<3 {
            let wrong = try await server.send(
                "POST", "/api/v1/session", body: #"{"user":"nobody\#(guess)","password":"guess"}"#, headers: ["X-Forwarded-For": "203.0.113.9"])
            #expect(wrong.status == 401)
        }
        // That address is held back now, even with alice's right password; another is not.
        let fromThere = try await server.send(
            "POST", "/api/v1/session", body: #"{"user":"alice","password":"correct horse"}"#, headers: ["X-Forwarded-For": "203.0.113.9"])
        #expect(fromThere.status == 429)
        let fromElsewhere = try await server.send(
            "POST", "/api/v1/session", body: #"{"user":"alice","password":"correct horse"}"#, headers: ["X-Forwarded-For": "203.0.113.10"])
        #expect(fromElsewhere.status == 200)
        // A client cannot dodge the count by naming addresses of its own first: the proxy's entry is the last.
        let dodging = try await server.send(
            "POST", "/api/v1/session", body: #"{"user":"alice","password":"correct horse"}"#, headers: ["X-Forwarded-For": "198.51.100.1, 203.0.113.9"])
        #expect(dodging.status == 429)
    }

    @Test func anUnknownUserCostsTheSameHashAsAKnownOne() async throws {
        // The decoy is hashed at the cost new passwords get, so a sign-in as nobody takes as long.
        // "$2b$05$…": the second field is the cost.
        #expect(try await Accounts.decoyHash(cost: 5).split(separator: "$").dropFirst().first == "05")
        #expect(try await Accounts.decoyHash(cost: 6).split(separator: "$").dropFirst().first == "06")
        #expect(try await Accounts.decoyHash(cost: 5) == Accounts.decoyHash(cost: 5), "made once a process and cost")
    }

    @Test func aCertificateTheServerCannotReadIsSaidInWords() async throws {
        let folder = try ScratchFolder("bad-tls")
        try "not a certificate".write(to: folder.path("cert.pem"), atomically: true, encoding: .utf8)
        try "not a key".write(to: folder.path("key.pem"), atomically: true, encoding: .utf8)
        var settings = RunningServer.quickSettings
        settings.port = 0
        settings.tlsCertificatePath = folder.path("cert.pem").path
        settings.tlsKeyPath = folder.path("key.pem").path
        let server = try SyncServer(sqlitePath: folder.path("store.sqlite").path, settings: settings)
        do {
            try await server.run(handlingSignals: false)
            Issue.record("the server started with a certificate that is not one")
        } catch let error as ServerSetupError {
            #expect(error.description.contains("cert.pem"))
        }
    }

    @Test func theFirstAccountIsTheAdministratorAndUserIDsAreChecked() async throws {
        let server = try await RunningServer()
        #expect(try await server.server.addAccount(user: "alice", password: "long enough") == true)
        #expect(try await server.server.addAccount(user: "bob", password: "long enough") == false)
        for bad in ["Alice", "1abc", "a b", "../x", "", String(repeating: "a", count: 64), "ali<script>"] {
            await #expect(throws: APIFailure.self, "\(bad)") { try await server.server.addAccount(user: bad, password: "long enough") }
        }
        await #expect(throws: APIFailure.self) { try await server.server.addAccount(user: "carol", password: "short") }
        await #expect(throws: APIFailure.self) { try await server.server.addAccount(user: "bob", password: "long enough") }
    }
}

#endif
