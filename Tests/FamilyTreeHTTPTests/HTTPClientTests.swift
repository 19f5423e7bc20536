import FamilyTreeHTTP
import Foundation
import Testing
import TestSupport

/// The client against a real HTTP server (`Tests/HTTP/test_server.py`) on this machine. Threads
/// of its own: some tests time how soon a request ends, which a cooperative pool held by other
/// tests' child processes would stretch.
@Suite(.serialized, .threadsOfItsOwn) struct HTTPClientTests {
    let server: TestServer
    let client = HTTPClient(timeouts: .init(connect: 5, idle: 5, total: 20))

    init() throws {
        server = try TestServer()
    }

    private func echo(_ request: HTTPClient.Request) async throws -> (HTTPClient.Head, [String: Any]) {
        let (head, data) = try await client.data(for: request)
        return (head, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    private func header(_ seen: [String: Any], _ name: String) -> String? {
        (seen["headers"] as? [[String]])?.last { $0[0].lowercased() == name.lowercased() }?[1]
    }

    @Test func theMethodHeadersAndBodyArriveAsSent() async throws {
        let body = Data("{\"name\": \"Zoë <script>\"}".utf8)
        let (head, seen) = try await echo(.init(
            method: "PROPFIND", url: server.url("/echo?x=1"), headerFields: [("Depth", "1"), ("Content-Type", "application/xml")], body: body))
        #expect(head.status == 200)
        #expect(head["x-echo"] == "yes" && head["Content-Type"] == "application/json")
        #expect(seen["method"] as? String == "PROPFIND")
        #expect(seen["path"] as? String == "/echo?x=1")
        #expect(seen["body"] as? String == "{\"name\": \"Zoë <script>\"}")
        #expect(header(seen, "Depth") == "1" && header(seen, "Content-Type") == "application/xml")
        // libcurl's own additions are not made: no form type, no wait for "100 Continue".
        #expect(header(seen, "Expect") == nil)
    }

    @Test func aBodyWithoutATypeGoesWithoutOne() async throws {
        let (_, seen) = try await echo(.init(method: "PUT", url: server.url("/echo"), body: Data("text".utf8)))
        #expect(header(seen, "Content-Type") == nil)
        #expect(seen["body"] as? String == "text")
        let (_, empty) = try await echo(.init(method: "POST", url: server.url("/echo"), body: Data()))
        #expect(header(empty, "Content-Length") == "0" && empty["body"] as? String == "")
    }

    @Test func requestsOfOneClientShareAConnection() async throws {
        let (_, first) = try await echo(.init(method: "GET", url: server.url("/echo")))
        let (_, second) = try await echo(.init(method: "GET", url: server.url("/echo")))
        #expect(first["port"] as? Int == second["port"] as? Int, "the second request came from a new connection")
    }

    @Test func aRedirectOnTheSameServerIsFollowed() async throws {
        let target = server.url("/echo").absoluteString
        let (kept, seen) = try await echo(.init(method: "PUT", url: server.url("/redirect/307?to=\(target)"), body: Data("card".utf8)))
        #expect(kept.status == 200 && seen["method"] as? String == "PUT" && seen["body"] as? String == "card")
        let (_, seeOther) = try await echo(.init(method: "POST", url: server.url("/redirect/303?to=/echo"), body: Data("form".utf8)))
        #expect(seeOther["method"] as? String == "GET" && seeOther["body"] as? String == "")
    }

    /// The length the caller gave goes with the body it described: a POST sent on as a GET after
    /// "303 See Other" has neither (the server would wait for bytes that never come).
    @Test func aRedirectThatDropsTheBodyDropsItsLengthToo() async throws {
        let started = ContinuousClock.now
        let (head, seen) = try await echo(.init(
            method: "POST", url: server.url("/redirect/303?to=/echo"),
            headerFields: [("Content-Type", "application/json"), ("Content-Length", "4")], body: Data("{\"a\"".utf8)))
        #expect(head.status == 200 && seen["method"] as? String == "GET")
        #expect(header(seen, "Content-Length") == nil && header(seen, "Content-Type") == nil, "\(seen)")
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aRedirectWhoseBodyNeverEndsIsFollowedAnyway() async throws {
        let (head, seen) = try await echo(.init(method: "GET", url: server.url("/redirect-endless")))
        #expect(head.status == 200 && seen["path"] as? String == "/echo")
    }

    @Test func headAndNoContentAnswersHaveNoBody() async throws {
        let (head, data) = try await client.data(for: .init(method: "HEAD", url: server.url("/echo")), limit: 10)
        #expect(head.status == 200 && data.isEmpty && head["Content-Length"] != nil)
        let (empty, nothing) = try await client.data(for: .init(method: "DELETE", url: server.url("/status/204")))
        #expect(empty.status == 204 && nothing.isEmpty)
        // The connection is still in step: the next answer is the next request's.
        let (_, seen) = try await echo(.init(method: "GET", url: server.url("/echo?after=204")))
        #expect(seen["path"] as? String == "/echo?after=204")
    }

    @Test func aStatusLineThatIsNotHTTPIsAnError() async throws {
        do {
            _ = try await client.data(for: .init(method: "GET", url: server.url("/bad-status")))
            Issue.record("a two-digit status was taken for an answer")
        } catch {
            guard case .transport = error else { Issue.record("\(error)"); return }
        }
    }

    /// A request whose task was cancelled before it started never reaches the server.
    @Test func aRequestCancelledBeforeItStartsIsNotSent() async throws {
        func count() async throws -> Int {
            Int(String(decoding: try await client.data(for: .init(method: "GET", url: server.url("/count"))).1, as: UTF8.self)) ?? -1
        }
        let before = try await count()
        let (sender, url) = (client, server.url("/echo"))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await sender.data(for: .init(method: "POST", url: url, body: Data("not to be sent".utf8)))
        }
        await #expect(throws: HTTPClient.Failure.cancelled) { try await task.value }
        #expect(try await count() == before + 1, "only the second count reached the server")
    }

    @Test func anEmptyValueIsSentEmpty() async throws {
        let (_, seen) = try await echo(.init(method: "GET", url: server.url("/echo"), headerFields: [("X-Empty", "")]))
        #expect(header(seen, "X-Empty") == "")
    }

    @Test func aRedirectToAnotherServerIsNotFollowed() async throws {
        // Another port is another server: the credentials in the request must not go there.
        let (head, data) = try await client.data(for: .init(
            method: "GET", url: server.url("/redirect/302?to=http://127.0.0.1:9/echo"), headerFields: [("Authorization", "Basic c2VjcmV0")]))
        #expect(head.status == 302 && head["Location"] == "http://127.0.0.1:9/echo")
        #expect(String(decoding: data, as: UTF8.self) == "moved")
    }

    @Test func aRedirectLoopEnds() async throws {
        await #expect(throws: HTTPClient.Failure.tooManyRedirects(server.url("/loop").absoluteString)) {
            try await client.data(for: .init(method: "GET", url: server.url("/loop")))
        }
    }

    @Test func anEndlessAnswerIsRefusedAtTheLimit() async throws {
        let started = ContinuousClock.now
        await #expect(throws: HTTPClient.Failure.transport("the answer is longer than 1048576 bytes")) {
            try await client.data(for: .init(method: "GET", url: server.url("/endless")), limit: 1 << 20)
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func aServerThatStopsAnsweringTimesOut() async throws {
        let impatient = HTTPClient(timeouts: .init(connect: 5, idle: 1, total: 3))
        let started = ContinuousClock.now
        do {
            _ = try await impatient.data(for: .init(method: "GET", url: server.url("/hang")))
            Issue.record("an answer that never came was returned")
        } catch {
            guard case .timedOut = error else { Issue.record("not a timeout: \(error)"); return }
        }
        #expect(ContinuousClock.now - started < .seconds(8))
    }

    @Test func aCancelledRequestStopsAtOnce() async throws {
        let url = server.url("/hang")
        let client = client
        let task = Task { try await client.data(for: .init(method: "GET", url: url)) }
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        task.cancel()
        await #expect(throws: HTTPClient.Failure.cancelled) { try await task.value }
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test func nothingListeningIsCannotConnect() async throws {
        do {
            _ = try await client.data(for: .init(method: "GET", url: URL(string: "http://127.0.0.1:9/")!))
            Issue.record("port 9 answered")
        } catch {
            guard case .cannotConnect = error else { Issue.record("\(error)"); return }
        }
    }

    @Test(arguments: ["a\r\nX-Injected: 1", "a\nb", "a\0b"])
    func aFieldWithALineBreakIsNeverSent(value: String) async throws {
        await #expect(throws: HTTPClient.Failure.self) {
            try await client.data(for: .init(method: "GET", url: server.url("/echo"), headerFields: [("X-Name", value)]))
        }
        await #expect(throws: HTTPClient.Failure.self) {
            try await client.data(for: .init(method: "GET", url: server.url("/echo"), headerFields: [("X-Name: \(value)", "v")]))
        }
        await #expect(throws: HTTPClient.Failure.self) {
            try await client.data(for: .init(method: "GET\r\nX: 1", url: server.url("/echo")))
        }
    }

    /// A certificate no authority this machine trusts signed is refused: nothing is sent.
    @Test func aServerWhoseCertificateIsNotTrustedIsRefused() async throws {
        let folder = try ScratchFolder("tls")
        let (certificate, key) = try folder.selfSignedCertificate()
        let server = try TestServer(tls: (certificate, key))
        do {
            _ = try await client.data(for: .init(method: "GET", url: URL(string: "https://127.0.0.1:\(server.port)/echo")!))
            Issue.record("a self-signed certificate was accepted")
        } catch {
            guard case .insecure = error else { Issue.record("not refused for its certificate: \(error)"); return }
        }
    }

    @Test func onlyHTTPIsSpoken() async throws {
        do {
            _ = try await client.data(for: .init(method: "GET", url: URL(string: "file:///etc/passwd")!))
            Issue.record("a file was read")
        } catch {
            guard case .transport = error else { Issue.record("\(error)"); return }
        }
    }
}

/// `Tests/HTTP/test_server.py` on a port of its own, stopped with the test.
final class TestServer: Sendable {
    let port: Int
    private let child: ChildProcess.Running
    private let folder: ScratchFolder

    /// Over TLS with `tls`'s certificate and key (PEM files).
    init(tls: (certificate: String, key: String)? = nil) throws {
        folder = try ScratchFolder("http-server")
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/HTTP/test_server.py").path
        let arguments = ["python3", "-u", script] + (tls.map { [$0.certificate, $0.key] } ?? [])
        (child, port) = try ChildProcess.startServer(URL(fileURLWithPath: "/usr/bin/env"), arguments, output: folder.path("port.txt"))
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    deinit {
        child.signal(SIGKILL)
        _ = try? child.wait(timeLimit: 30)
    }
}
