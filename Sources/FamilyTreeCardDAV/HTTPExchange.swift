import Foundation
import FamilyTreeHTTP

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

/// One answer as it arrives from `HTTPClient`. The body is checked against the size limit on the
/// way in, so a hostile server cannot fill the memory, and a multistatus is parsed on the way in,
/// so a large one is never held twice.
final class HTTPExchange: HTTPClient.Receiver, @unchecked Sendable {
    private let lock = NSLock()
    private let body: AnswerBody
    private let limit: Int
    private let url: URL
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

    /// Sends `request` with `client` and returns the answer.
    func run(_ request: HTTPClient.Request, with client: HTTPClient) async throws -> Answer {
        do {
            _ = try await client.send(request, to: self)
        } catch {
            if let failure = lock.withLock({ failure }) { throw failure }
            throw error
        }
        return try lock.withLock {
            if let failure { throw failure }
            var multistatus: Multistatus?
            if reading != nil { multistatus = try reading!.finish() }
            return Answer(status: status, headers: headers, data: data, multistatus: multistatus)
        }
    }

    /// The status line and headers have come: false stops the transfer.
    func received(_ head: HTTPClient.Head) -> Bool {
        lock.withLock {
            status = head.status
            for (name, value) in head.headerFields { headers[name.lowercased()] = value }
            if let length = headers["content-length"].flatMap(Int.init), length > limit {
                failure = tooLarge()
                return false
            }
            if status == 207, case .multistatus(let url) = body { reading = Multistatus.Reading(from: url) }
            return true
        }
    }

    /// The next bytes of the body: false stops the transfer.
    func received(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lock.withLock {
            guard failure == nil else { return false }
            received += bytes.count
            guard received <= limit else {
                failure = tooLarge()
                return false
            }
            guard reading != nil else {
                // An answer that is not the multistatus asked for is kept only to be quoted.
                if case .multistatus = body {
                    data.append(contentsOf: bytes.prefix(max(0, 65_536 - data.count)))
                } else {
                    data.append(contentsOf: bytes)
                }
                return true
            }
            do throws(CardDAVError) {
                try reading!.feed(bytes)
                return true
            } catch {
                failure = error
                return false
            }
        }
    }

    private func tooLarge() -> CardDAVError {
        .answerTooLarge(url: url.absoluteString, limit: limit)
    }
}
