/// What went wrong talking to a CardDAV server, in words a user can act on.
public enum CardDAVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An `http:` address to a host other than this machine: credentials would cross the network in the clear.
    case insecureURL(String)
    /// The address is not an `http:` or `https:` URL.
    case badURL(String)
    /// 401: the server refused the user name or password.
    case unauthorized(user: String, url: String)
    /// 403: the user may not do this.
    case forbidden(user: String, url: String)
    /// 404 on the address book itself.
    case notFound(url: String)
    /// The address is reachable but holds no address book (the address books found are listed).
    case notAnAddressBook(url: String, found: [String])
    /// Any other answer the client cannot go on from (5xx among them).
    case status(Int, method: String, url: String)
    /// No answer within the time allowed.
    case timeout(url: String, seconds: Double)
    /// The connection failed (refused, DNS, TLS).
    case transport(url: String, reason: String)
    /// The server's answer is not what the protocol says.
    case malformedResponse(url: String, reason: String)
    /// The server's answer ran past the most bytes one answer may have (refused as it arrived).
    case answerTooLarge(url: String, limit: Int)
    /// The saved state of the last pull cannot be read.
    case badState(path: String, reason: String)

    public var description: String {
        switch self {
        case .insecureURL(let url):
            "\(url): refusing to send a password over plain http to another machine; use https://"
        case .badURL(let url):
            "\(url) is not an http:// or https:// address"
        case .unauthorized(let user, let url):
            "\(url): the server refused the credentials of \(user) (401); check the user name and FAMILYTREE_CARDDAV_PASSWORD"
        case .forbidden(let user, let url):
            "\(url): \(user) may not do this (403)"
        case .notFound(let url):
            "\(url): no such address book (404)"
        case .notAnAddressBook(let url, let found):
            found.isEmpty
                ? "\(url) is not an address book, and none was found for this user"
                : "\(url) is not one address book; the user has \(found.count): \(found.joined(separator: ", ")); give one of them"
        case .status(let code, let method, let url):
            "\(url): the server answered \(code) to \(method)\(code >= 500 ? " (a server error; nothing was changed here, try again later)" : "")"
        case .timeout(let url, let seconds):
            "\(url): no answer within \(Self.seconds(seconds)) s; nothing was changed here"
        case .transport(let url, let reason):
            "\(url): \(reason)"
        case .malformedResponse(let url, let reason):
            "\(url): the server's answer cannot be read: \(reason)"
        case .answerTooLarge(let url, let limit):
            "\(url): the server's answer is over \(limit >> 20) MiB, more than allowed; nothing was changed here"
        case .badState(let path, let reason):
            "\(path): \(reason); delete it to pull everything again"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
