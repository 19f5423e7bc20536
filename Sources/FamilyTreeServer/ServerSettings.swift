#if Server
package import Foundation

/// How a server runs: where it listens, what it calls itself, and its limits.
public struct ServerSettings: Sendable {
    /// The address to listen on; `127.0.0.1` by default (behind a reverse proxy, or with TLS, `0.0.0.0`).
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (the server says which when it starts).
    public var port = 8080
    /// The address relatives use (`https://family.example.org`): invite links start with it, and a
    /// session's requests must come from its origin. By default the address the server listens on.
    public var publicURL: String?
    /// A PEM certificate chain and private key: the server speaks HTTPS itself.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?

    /// Behind a reverse proxy on this machine: a request's client is the last address its
    /// `X-Forwarded-For` names (the one the proxy saw), not the proxy's, for the sign-in throttle.
    /// Honoured only for requests from a loopback address.
    public var behindProxy = false

    /// bcrypt's cost (2^cost rounds): 12 takes about a quarter of a second here.
    public var bcryptCost: UInt8 = 12
    /// How long a browser session lasts.
    public var sessionSeconds: Int64 = 14 * 24 * 3600
    /// Failed sign-ins counted over this window.
    public var throttleWindowSeconds: Int64 = 15 * 60
    /// After this many failures in the window, an account is refused sign-ins until they age out.
    public var failuresPerAccount = 5
    /// After this many failures in the window from one address, it is refused sign-ins.
    public var failuresPerAddress = 30
    /// The largest request body: a full batch of 500 documents with JSON's escaping.
    public var maximumBodyBytes = 12 * 1_048_576
    /// A connection that sends nothing for this long is closed (a slow or stuck client).
    public var idleTimeoutSeconds: Int64 = 30
    /// A user's requests answered at once by one process, and how many more may wait their turn.
    public var requestsPerUser = 8
    public var waitingRequestsPerUser = 256
    /// How long a page opened on a changed tree waits for its new chart before it opens on the
    /// chart of the version before (and draws the change when it is laid out).
    public var earlierChartAfter = Duration.milliseconds(400)
    /// How long a tree goes without a change before its chart is laid out in the background, for
    /// the next page opened on it (a push of a large tree comes as many batches: laid out once,
    /// after the last). `nil`: only when a page asks.
    public var prepareChartsAfterQuiet: Duration? = .milliseconds(500)
    /// A page opened on a tree with more people than this, whose chart is not laid out yet (and
    /// not within `earlierChartAfter`), first draws about this many of the people nearest the
    /// one it opens on, and the whole tree once it is laid out (a 100,000-person tree takes
    /// seconds). `nil`: the page waits for the whole tree.
    public var previewPeople: Int? = 600

    public init() {}

    /// Whether cookies are marked `Secure`: always, unless the server is reached over plain HTTP.
    var isSecure: Bool {
        if let publicURL { return publicURL.lowercased().hasPrefix("https://") }
        return tlsCertificatePath != nil
    }

    /// The origin of `publicURL`, or `nil` when none is set.
    var publicOrigin: String? {
        guard let publicURL, let url = URL(string: publicURL), let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Whether a request's `Origin` is this server: its public origin, or else the `Host` it was sent to.
    func isOwnOrigin(_ origin: String, host: String?) -> Bool {
        if let publicOrigin { return origin.lowercased() == publicOrigin.lowercased() }
        guard let host else { return false }
        return origin.lowercased() == "http://\(host.lowercased())" || origin.lowercased() == "https://\(host.lowercased())"
    }

    /// The base of invite links: the public URL, or the address the server listens on.
    func baseURL(boundPort: Int) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let scheme = tlsCertificatePath == nil ? "http" : "https"
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "\(scheme)://\(shown.contains(":") ? "[\(shown)]" : shown):\(boundPort)"
    }
}
#endif
