import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What becomes of an answer's body as its bytes arrive.
enum AnswerBody {
    /// Kept whole (a card, an error page).
    case kept
    /// Read as a WebDAV multistatus document when the status is 207, never held whole; any other
    /// status keeps its body.
    case multistatus(URL)
}

/// An answer: its status, its headers (names lower case), and its body as `AnswerBody` asked.
struct Answer {
    var status: Int
    var headers: [String: String]
    var data: Data
    var multistatus: Multistatus?
}

/// One request and its answer, fed by the session's delegate as bytes arrive. The body is checked
/// against the size limit on the way in, so a hostile server cannot fill the memory, and a
/// multistatus is parsed on the way in, so a large one is never held twice.
final class HTTPExchange: @unchecked Sendable {
    private let lock = NSLock()
    private let body: AnswerBody
    private let limit: Int
    private let url: URL
    private var continuation: CheckedContinuation<Answer, any Error>?
    private var task: URLSessionDataTask?
    private var cancelled = false
    /// The first failure seen here (too large, unreadable); it wins over the transport's error.
    private var failure: CardDAVError?
    private var status = 0
    private var headers: [String: String] = [:]
    private var data = Data()
    private var reading: Multistatus.Reading?
    private var received = 0

    init(url: URL, body: AnswerBody, limit: Int) {
        self.url = url
        self.body = body
        self.limit = limit
    }

    /// Runs `request` on `session` (whose delegate is `delegate`) and returns the answer.
    func run(_ request: URLRequest, on session: URLSession, delegate: SessionDelegate) async throws -> Answer {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                let task = session.dataTask(with: request)
                let alreadyCancelled = lock.withLock {
                    self.continuation = continuation
                    self.task = task
                    return cancelled
                }
                delegate.register(self, for: task)
                alreadyCancelled ? task.cancel() : task.resume()
            }
        } onCancel: {
            let task = lock.withLock {
                cancelled = true
                return self.task
            }
            task?.cancel()
        }
    }

    /// The status line and headers have come: false stops the transfer.
    func received(_ response: URLResponse) -> Bool {
        let failed: CardDAVError? = lock.withLock {
            guard let http = response as? HTTPURLResponse else {
                return .malformedResponse(url: url.absoluteString, reason: "not an HTTP answer")
            }
            status = http.statusCode
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            if let length = headers["content-length"].flatMap(Int.init), length > limit { return tooLarge() }
            if status == 207, case .multistatus(let url) = body { reading = Multistatus.Reading(from: url) }
            return nil
        }
        guard let failed else { return true }
        fail(failed)
        return false
    }

    /// The next bytes of the body: false stops the transfer.
    func received(_ chunk: Data) -> Bool {
        let failed: CardDAVError? = lock.withLock {
            guard failure == nil else { return nil }
            received += chunk.count
            guard received <= limit else { return tooLarge() }
            guard reading != nil else {
                // An answer that is not the multistatus asked for is kept only to be quoted.
                if case .multistatus = body {
                    data.append(chunk.prefix(max(0, 65_536 - data.count)))
                } else {
                    data.append(chunk)
                }
                return nil
            }
            do throws(CardDAVError) {
                try reading!.feed(chunk)
                return nil
            } catch {
                return error
            }
        }
        guard let failed else { return lock.withLock { failure == nil } }
        fail(failed)
        return false
    }

    /// Ends the exchange with `error` now: the caller need not wait for the transfer to stop (on
    /// Linux a cancelled task may go on receiving until the server ends its answer).
    private func fail(_ error: CardDAVError) {
        let continuation = lock.withLock {
            failure = error
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(throwing: error)
    }

    /// The transfer is over, whole or not.
    func completed(with error: (any Error)?) {
        let (continuation, outcome): (CheckedContinuation<Answer, any Error>?, Result<Answer, any Error>) = lock.withLock {
            defer { self.continuation = nil }
            if let failure { return (self.continuation, .failure(failure)) }
            if let error { return (self.continuation, .failure(error)) }
            var multistatus: Multistatus?
            if reading != nil {
                do { multistatus = try reading!.finish() } catch { return (self.continuation, .failure(error)) }
            }
            return (self.continuation, .success(Answer(status: status, headers: headers, data: data, multistatus: multistatus)))
        }
        continuation?.resume(with: outcome)
    }

    private func tooLarge() -> CardDAVError {
        .answerTooLarge(url: url.absoluteString, limit: limit)
    }
}

/// The session's delegate: hands each task's answer to its `HTTPExchange` as it arrives, cancels
/// authentication challenges, and refuses redirects to another server.
///
/// The credentials go with each request (Basic authentication), so a challenge means they were
/// refused. Without a delegate, URLSession on Linux waits forever on a 401 that carries
/// `WWW-Authenticate` (swift-corelibs-foundation#5456); cancelled, the request fails at once and
/// `refused(_:)` turns that into the 401 it was.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var challenged: Set<String> = []
    private var exchanges: [Int: HTTPExchange] = [:]

    func register(_ exchange: HTTPExchange, for task: URLSessionTask) {
        lock.withLock { exchanges[task.taskIdentifier] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> HTTPExchange? {
        lock.withLock { exchanges[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        completionHandler(exchange(dataTask)?.received(response) == false ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if exchange(dataTask)?.received(data) == false { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }
        exchange?.completed(with: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        if let url = task.originalRequest?.url?.absoluteString {
            lock.withLock { _ = challenged.insert(url) }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// Follows a redirect only on the same server: the credentials are in the request's headers.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let from = task.originalRequest?.url, let to = request.url, CardDAVClient.sameOrigin(from, to) else {
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    /// Whether a request to `url` was cancelled here for its challenge (forgotten once asked).
    func refused(_ url: URL) -> Bool {
        lock.withLock { challenged.remove(url.absoluteString) != nil }
    }
}
