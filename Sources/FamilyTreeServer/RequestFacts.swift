#if Server
package import Foundation
import HTTPTypes

/// What the HTTP layer knows of the request being answered that the generated API handlers do not
/// get: its headers (for the credentials), the client's address (for the sign-in throttle), and
/// the cookies the answer sets. Bound for the request's task by `RequestFactsMiddleware`.
final class RequestFacts: @unchecked Sendable {
    @TaskLocal static var current: RequestFacts?

    let method: HTTPRequest.Method
    let headers: HTTPFields
    /// The host and port the request was sent to (HTTP/1's `Host`).
    let authority: String?
    /// The client's IP address, or "" when the socket has none (a Unix socket).
    let address: String
    private let lock = NSLock()
    private var _cookies: [String] = []

    init(method: HTTPRequest.Method, headers: HTTPFields, authority: String?, address: String) {
        self.method = method
        self.headers = headers
        self.authority = authority
        self.address = address
    }

    /// `Set-Cookie` values the response carries.
    var cookies: [String] { lock.withLock { _cookies } }
    func setCookie(_ value: String) { lock.withLock { _cookies.append(value) } }

    /// A cookie the request sent.
    func cookie(_ name: String) -> String? {
        for field in headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return String(parts[1]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// Whether the request changes something (anything but GET, HEAD and OPTIONS).
    var isStateChanging: Bool { ![.get, .head, .options].contains(method) }
}

#endif
