import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// `familytree contacts pull|push` against a real CardDAV server: Debian's Radicale, which
/// `scripts/test` starts on 127.0.0.1 (`scripts/carddav-start`). Each test works in an address
/// book of its own. The server's side is set up and checked with plain HTTP requests, not the
/// client under test. The suite runs on threads of its own: its two-minute limit per test counts
/// wall time, which a cooperative pool held by the rest of the run must not use up.
@Suite(.serialized, .threadsOfItsOwn, .timeLimit(.minutes(2)), .requiresCardDAV)
struct CardDAVTests {
    /// One address book on the server, and a scratch folder for the tree.
    struct Book {
        let server: String
        let password: String
        let url: String
        let scratch: Scratch

        init() async throws {
            let environment = ProcessInfo.processInfo.environment
            server = try #require(environment["FAMILYTREE_CARDDAV_URL"], "CI runs scripts/carddav-start")
            password = try #require(environment["FAMILYTREE_CARDDAV_PASSWORD"])
            url = "\(server)/alice/book-\(UUID().uuidString.prefix(8).lowercased())/"
            scratch = try Scratch()
            let made = try await request("MKCOL", url, body: """
                <?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><set><prop>\
                <resourcetype><collection/><CR:addressbook/></resourcetype></prop></set></mkcol>
                """)
            #expect(made.status == 201)
        }

        var tree: String { scratch.path("family.json").path }

        /// A plain HTTP request as alice; the status, the body and the ETag.
        func request(_ method: String, _ url: String, body: String? = nil, headers: [String: String] = [:]) async throws -> (status: Int, body: String, etag: String?) {
            var request = URLRequest(url: URL(string: url)!)
            request.httpMethod = method
            request.timeoutInterval = 30
            request.httpBody = body.map { Data($0.utf8) }
            request.setValue("Basic " + Data("alice:\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, String(decoding: data, as: UTF8.self), http.value(forHTTPHeaderField: "ETag"))
        }

        func put(_ card: String, as name: String) async throws {
            let answer = try await request("PUT", url + name, body: card, headers: ["Content-Type": "text/vcard"])
            #expect((200...299).contains(answer.status), "PUT \(name): \(answer.status) \(answer.body)")
        }

        func get(_ name: String) async throws -> String {
            let answer = try await request("GET", url + name)
            #expect(answer.status == 200)
            return answer.body
        }

        /// The example's nine cards, each at `UID.vcf`.
        func uploadExample() async throws -> [String: String] {
            let text = try String(contentsOf: Scratch.packageRoot.appendingPathComponent("examples/contacts.vcf"), encoding: .utf8)
            var cards: [String: String] = [:]
            for block in text.components(separatedBy: "END:VCARD").dropLast() {
                let card = block.trimmingCharacters(in: .whitespacesAndNewlines) + "\r\nEND:VCARD\r\n"
                let uid = try #require(card.components(separatedBy: .newlines).first { $0.hasPrefix("UID:") }).dropFirst(4)
                cards[String(uid)] = card
                try await put(card, as: "\(uid).vcf")
            }
            return cards
        }

        func familytree(_ arguments: [String], password: String? = nil) throws -> ChildProcess.Result {
            try ChildProcess.run(ProcessTests.binary, arguments, environment: ["FAMILYTREE_CARDDAV_PASSWORD": password ?? self.password])
        }

        func pull(_ extra: [String] = []) throws -> ChildProcess.Result {
            try familytree(["contacts", "pull", url, "--user", "alice", "--into", tree] + extra)
        }

        func push(_ extra: [String] = []) throws -> ChildProcess.Result {
            try familytree(["contacts", "push", url, "--user", "alice", "--tree", tree] + extra)
        }
    }

    /// Amara's card (UID 9E1C1A52-0004) has a birthday without a year.
    static let amara = "9E1C1A52-0004"

    @Test func pullCompleteAYearPushAndReadTheCardBack() async throws {
        let book = try await Book()
        let cards = try await book.uploadExample()
        let first = try book.pull()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("pulled 9 cards (first pull: read 9, gone 0): added 9"))
        let missing = try book.familytree(["birthdays", book.tree, "--missing-year"])
        #expect(missing.stdout.contains("Amara Okafor"))

        #expect(try book.familytree(["edit", "Amara Okafor", "--born", "1990-12-02", "--tree", book.tree]).status == 0)
        let dryRun = try book.push(["--dry-run"])
        #expect(dryRun.status == 0 && dryRun.stderr.contains("would write Amara Okafor: birthday"))
        #expect(try await book.get("\(Self.amara).vcf").contains("X-APPLE-OMIT-YEAR"), "a dry run writes nothing")

        let push = try book.push()
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stderr.contains("wrote 1 card, 0 conflicts, 8 unchanged"))
        let stored = try await book.get("\(Self.amara).vcf")
        #expect(stored.contains("BDAY:1990-12-02"))
        #expect(!stored.contains("X-APPLE-OMIT-YEAR") && !stored.contains("1604"))
        // Every other property of the card is as it was (Radicale may reorder lines).
        let original = try #require(cards[Self.amara])
        for line in original.components(separatedBy: "\r\n") where !line.isEmpty && !line.hasPrefix("BDAY") && !line.hasPrefix("REV") {
            #expect(stored.contains(line), "kept: \(line)")
        }

        // The next pull reads nothing: the push recorded the card's new ETag.
        let again = try book.pull()
        #expect(again.status == 0)
        #expect(again.stderr.contains("read 0, gone 0): added 0, updated 0, removed 0, unchanged 9"), "\(again.stderr)")
        #expect(try book.push().stderr.contains("wrote 0 cards, 0 conflicts, 9 unchanged"))
    }

    @Test func aCardChangedOnTheServerIsNeverOverwrittenAndMergesOnTheNextPull() async throws {
        let book = try await Book()
        let cards = try await book.uploadExample()
        #expect(try book.pull().status == 0)
        #expect(try book.familytree(["edit", "Amara Okafor", "--born", "1990-12-02", "--tree", book.tree]).status == 0)

        // Meanwhile, on the phone: a nickname for Amara.
        let phone = try #require(cards[Self.amara]).replacingOccurrences(of: "END:VCARD", with: "NICKNAME:Mara\r\nEND:VCARD")
        try await book.put(phone, as: "\(Self.amara).vcf")
        let treeBefore = try book.scratch.read("family.json")

        let refused = try book.push()
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("conflict: Amara Okafor: the card changed on the server since the last pull"))
        let onServer = try await book.get("\(Self.amara).vcf")
        #expect(onServer.contains("NICKNAME:Mara") && onServer.contains("X-APPLE-OMIT-YEAR"), "the phone's card is untouched")
        #expect(try book.scratch.read("family.json") == treeBefore, "nothing lost in the tree")

        // The pull merges field by field: the phone's nickname and the tree's birth year.
        let pull = try book.pull()
        #expect(pull.status == 0 && pull.stderr.contains("read 1, gone 0): added 0, updated 1"), "\(pull.stderr)")
        let tree = try book.scratch.read("family.json")
        #expect(tree.contains("\"nickname\": \"Mara\""))
        #expect(tree.contains("\"birthday\": \"1990-12-02\""))
        let push = try book.push()
        #expect(push.status == 0 && push.stderr.contains("wrote Amara Okafor: birthday"), "\(push.stderr)")
        let merged = try await book.get("\(Self.amara).vcf")
        #expect(merged.contains("NICKNAME:Mara") && merged.contains("BDAY:1990-12-02"))
    }

    @Test func aCardDeletedOnTheServerIsSoftDeletedAndPullsTransferOnlyChanges() async throws {
        let book = try await Book()
        let cards = try await book.uploadExample()
        #expect(try book.pull().status == 0)

        let deleted = try await book.request("DELETE", book.url + "\(Self.amara).vcf")
        #expect(deleted.status == 200 || deleted.status == 204)
        let tobi = "9E1C1A52-0005"
        try await book.put(try #require(cards[tobi]).replacingOccurrences(of: "N:Okafor;Tobi;;;", with: "N:Okafor;Tobias;;;"), as: "\(tobi).vcf")
        let pull = try book.pull()
        #expect(pull.status == 0)
        // Of nine cards, one was read again (the sync token named it) and one is gone.
        #expect(pull.stderr.contains("pulled 8 cards (sync token: read 1, gone 1): added 0, updated 1, removed 1, unchanged 7"), "\(pull.stderr)")
        let tree = try book.scratch.read("family.json")
        let amaraRecord = try #require(tree.components(separatedBy: "\"id\": \"").first { $0.hasPrefix(Self.amara) })
        #expect(amaraRecord.contains("\"removed\": true"), "kept in the file, marked removed")
        #expect(tree.contains("\"firstName\": \"Tobias\""))

        // Without a sync token the pull compares ETags, and still reads only the changed card.
        let statePath = book.scratch.path("family.carddav.json")
        var state = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: statePath)) as? [String: Any])
        state["syncToken"] = nil
        try JSONSerialization.data(withJSONObject: state).write(to: statePath)
        try await book.put(try #require(cards[tobi]), as: "\(tobi).vcf")
        let byETag = try book.pull()
        #expect(byETag.stderr.contains("pulled 8 cards (ETags: read 1, gone 0): added 0, updated 1, removed 0, unchanged 7"), "\(byETag.stderr)")
        // A card that comes back restores its member.
        try await book.put(try #require(cards[Self.amara]), as: "\(Self.amara).vcf")
        #expect(try book.pull().stderr.contains("added 0, updated 1 (1 restored)"))
    }

    @Test func aRefusedPasswordIsExitOneAndWritesNothing() async throws {
        let book = try await Book()
        _ = try await book.uploadExample()
        let refused = try book.familytree(["contacts", "pull", book.url, "--user", "alice", "--into", book.tree], password: "wrong")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused the credentials of alice (401)"), "\(refused.stderr)")
        #expect(try book.scratch.files() == ["tree.json"], "no tree and no state written")
    }

    @Test(arguments: [("500", "the server answered 500"), ("hang", "no answer within 1 s"), ("garbage", "the server's answer cannot be read")])
    func aFailingServerIsExitOneAndNothingIsLost(mode: String, message: String) async throws {
        let book = try await Book()
        _ = try await book.uploadExample()
        #expect(try book.pull().status == 0)
        #expect(try book.familytree(["edit", "Amara Okafor", "--born", "1990-12-02", "--tree", book.tree]).status == 0)
        let tree = try book.scratch.read("family.json")
        let state = try book.scratch.read("family.carddav.json")

        let server = try MisbehavingServer(mode: mode)
        defer { server.stop() }
        // The state as if the pull had been from the failing server, so push talks to it.
        let failingURL = "http://127.0.0.1:\(server.port)/alice/book/"
        try book.scratch.write("family.carddav.json", state.replacingOccurrences(of: book.url, with: failingURL))
        let push = try book.familytree(["contacts", "push", failingURL, "--user", "alice", "--tree", book.tree, "--timeout", "1"])
        #expect(push.status == 1)
        #expect(push.stderr.contains(message), "\(push.stderr)")
        #expect(try book.scratch.read("family.json") == tree)

        let pull = try book.familytree(["contacts", "pull", failingURL, "--user", "alice", "--into", book.tree, "--timeout", "1"])
        #expect(pull.status == 1)
        #expect(pull.stderr.contains(message) && pull.stderr.contains("nothing was written"), "\(pull.stderr)")
        #expect(try book.scratch.read("family.json") == tree)
        // The real server's card was never touched.
        #expect(try await book.get("\(Self.amara).vcf").contains("X-APPLE-OMIT-YEAR"))
    }

    /// A server without sync tokens: the first pull is one `addressbook-query`, the next sees the
    /// ctag unchanged and reads nothing.
    @Test func aServerWithoutSyncTokensIsReadByQueryAndCtag() throws {
        let scratch = try Scratch()
        let log = scratch.path("requests.log").path
        let server = try MisbehavingServer(mode: "no-sync-token", requestLog: log)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/alice/book/"
        let tree = scratch.path("family.json").path
        let first = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", url, "--user", "alice", "--into", tree], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("pulled 3 cards (first pull: read 3, gone 0): added 3"))
        let requests = try String(contentsOfFile: log, encoding: .utf8)
        #expect(requests.contains("addressbook-query") && !requests.contains("addressbook-multiget") && !requests.contains("sync-collection"))
        let second = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", url, "--user", "alice", "--into", tree], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(second.stderr.contains("nothing changed on the server: read 0"), "\(second.stderr)")
    }

    /// An answer naming a card on another server is not followed there (the password goes with
    /// every request): that card is left out, the others come in.
    @Test func aCardAddressOnAnotherServerIsIgnored() throws {
        let scratch = try Scratch()
        let server = try MisbehavingServer(mode: "foreign-href")
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/alice/book/"
        let result = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", url, "--user", "alice", "--into", scratch.path("family.json").path], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("pulled 2 cards (first pull: read 2, gone 0): added 2"), "\(result.stderr)")
        #expect(try !scratch.read("family.carddav.json").contains("127.0.0.2"))
    }

    /// A server that pages a long sync report (507 on the collection) is asked again from its token.
    @Test func aTruncatedSyncReportIsFollowedToTheEnd() throws {
        let scratch = try Scratch()
        let log = scratch.path("requests.log").path
        let server = try MisbehavingServer(mode: "truncating", requestLog: log)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/alice/book/"
        let result = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", url, "--user", "alice", "--into", scratch.path("family.json").path], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("pulled 3 cards (first pull: read 3, gone 0): added 3"))
        let reports = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("REPORT") && $0.contains("sync-collection") }
        #expect(reports.count == 2, "one request per page")
        #expect(try scratch.read("family.carddav.json").contains("\"syncToken\" : \"token-1\""))
    }

    /// A listing cut off in the middle of its XML (the HTTP answer whole) is an error that changes
    /// nothing: the cards after the cut are not taken for removed.
    @Test func aListingCutOffMidXMLChangesNothing() throws {
        let scratch = try Scratch()
        let tree = scratch.path("family.json").path
        let whole = try MisbehavingServer(mode: "no-sync-token")
        defer { whole.stop() }
        let first = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", "http://127.0.0.1:\(whole.port)/alice/book/", "--user", "alice", "--into", tree], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(first.status == 0, "\(first.stderr)")
        let cut = try MisbehavingServer(mode: "cut-off")
        defer { cut.stop() }
        let cutURL = "http://127.0.0.1:\(cut.port)/alice/book/"
        try scratch.write("family.carddav.json", try scratch.read("family.carddav.json").replacingOccurrences(of: "http://127.0.0.1:\(whole.port)/alice/book/", with: cutURL))
        let (treeBefore, stateBefore) = (try scratch.read("family.json"), try scratch.read("family.carddav.json"))
        let second = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", cutURL, "--user", "alice", "--into", tree], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("the document ends inside <d:multistatus> (it was cut off)") || second.stderr.contains("(it was cut off)"), "\(second.stderr)")
        #expect(try scratch.read("family.json") == treeBefore)
        #expect(try scratch.read("family.carddav.json") == stateBefore)
    }

    /// An answer of 10.6 MB (160 cards with photos), which Foundation's parser refused, is read.
    @Test func aLargeAnswerIsRead() throws {
        let scratch = try Scratch()
        let server = try MisbehavingServer(mode: "large")
        defer { server.stop() }
        let result = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", "http://127.0.0.1:\(server.port)/alice/book/", "--user", "alice", "--into", scratch.path("family.json").path], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("pulled 160 cards (first pull: read 160, gone 0): added 160"), "\(result.stderr)")
    }

    /// An answer that never ends is refused once it passes the limit, as it arrives: never held whole.
    @Test func anEndlessAnswerIsRefusedAtItsLimit() throws {
        let scratch = try Scratch()
        let server = try MisbehavingServer(mode: "endless")
        defer { server.stop() }
        let started = ContinuousClock.now
        let result = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", "http://127.0.0.1:\(server.port)/alice/book/", "--user", "alice", "--into", scratch.path("family.json").path, "--max-answer-mib", "2"], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the server's answer is over 2 MiB, more than allowed; nothing was changed here (--max-answer-mib raises the limit)"), "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(60))
        let left = try scratch.files()
        #expect(left == ["tree.json"], "no tree and no state written: \(left)")
    }

    /// The byte that crashed Foundation's parser (an element name that is not UTF-8) is exit 1.
    @Test func anElementNameThatIsNotUTF8IsAnErrorNotACrash() throws {
        let scratch = try Scratch()
        let server = try MisbehavingServer(mode: "bad-utf8")
        defer { server.stop() }
        let result = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", "http://127.0.0.1:\(server.port)/alice/book/", "--user", "alice", "--into", scratch.path("family.json").path], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the server's answer cannot be read: not XML (line 1: a name that is not UTF-8)"), "\(result.stderr)")
    }

    @Test func plainHTTPToAnotherMachineIsRefused() throws {
        let scratch = try Scratch()
        let result = try ChildProcess.run(ProcessTests.binary, ["contacts", "pull", "http://dav.example.org/alice/", "--user", "alice", "--into", scratch.path("t.json").path], environment: ["FAMILYTREE_CARDDAV_PASSWORD": "x"])
        #expect(result.status == 1 && result.stderr.contains("refusing to send a password over plain http"))
    }
}

/// `Tests/CardDAV/misbehaving_server.py`, on a port of its own.
struct MisbehavingServer {
    let child: ChildProcess.Running
    let port: Int
    private let folder: ScratchFolder

    /// `requestLog`: a file the server appends each request line (and body) to.
    init(mode: String, requestLog: String? = nil) throws {
        folder = try ScratchFolder("misbehaving")
        (child, port) = try ChildProcess.startServer(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-u", Scratch.packageRoot.appendingPathComponent("Tests/CardDAV/misbehaving_server.py").path, mode],
            environment: requestLog.map { ["REQUEST_LOG": $0] } ?? [:], output: folder.path("port.txt"))
    }

    func stop() {
        child.signal(SIGKILL)
        _ = try? child.wait(timeLimit: 30)
    }
}
