#if Server
package import FamilyTreeAPI
import FamilyTreeSync
#if PostgreSQL
import FamilyTreePostgres
#endif
package import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import OpenAPIHummingbird
package import OpenAPIRuntime

/// `familytree serve`: a family's trees behind accounts, over HTTP(S).
///
/// The server keeps no state of its own between requests: documents, roles and the log are the
/// document store's; accounts, sessions, tokens, invites and failed sign-ins are the account
/// store's. Two processes over one database serve the same users.
public struct SyncServer: Sendable {
    let store: any SharedTreeStore
    let accountStore: any AccountStore
    public let settings: ServerSettings

    /// A server on the embedded store: the documents and the accounts in one SQLite file. Its
    /// folder must exist unless `creatingFolder` (as for the sync commands' default store).
    public init(sqlitePath path: String, creatingFolder: Bool = false, settings: ServerSettings) throws {
        store = try SQLiteDocumentStore.open(path: path, creatingFolder: creatingFolder)
        accountStore = try SQLiteAccountStore(path: path)
        self.settings = settings
    }

    #if PostgreSQL
    /// A server on PostgreSQL, connected as a server login (`sync admin create-server-login`) with
    /// `connections` connections for the documents and as many for the accounts. The database
    /// enforces each user's roles: every call acts for the signed-in user.
    public init(postgresURL url: String, password: String? = nil, connections: Int = 8, settings: ServerSettings) async throws {
        store = try await PostgresServerStore(url: url, password: password, connections: connections)
        accountStore = try await PostgresAccountStore(url: url, password: password, connections: max(2, connections / 2))
        self.settings = settings
    }
    #endif

    init(store: any SharedTreeStore, accountStore: any AccountStore, settings: ServerSettings) {
        self.store = store
        self.accountStore = accountStore
        self.settings = settings
    }

    /// Adds an account with a password (at least 8 characters); the server's first account is its
    /// administrator. Returns whether this one is.
    @discardableResult
    public func addAccount(user: String, password: String) async throws -> Bool {
        try await Accounts(store: accountStore, settings: settings).createAccount(user: user, password: password).isAdministrator
    }

    /// Whether the server has any account yet (the first is made on the command line).
    public func hasAccounts() async throws -> Bool { try await accountStore.accountCount() > 0 }

    /// Serves until the task is cancelled or, when `handlingSignals`, the process is told to stop
    /// (SIGTERM, SIGINT: requests under way are finished first). `onListening` gets the address
    /// the server answers at (with the port it picked, for port 0).
    public func run(handlingSignals: Bool = true, onListening: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        let boundBase = BoundAddress()
        let settings = settings
        let accounts = Accounts(store: accountStore, settings: settings)
        let fairShare = FairShare(perUser: settings.requestsPerUser, queue: settings.waitingRequestsPerUser)
        let live = LiveTrees()
        let api = SyncAPI(store: store, accounts: accounts, fairShare: fairShare, live: live, baseURL: { boundBase.value })
        let router = Router(context: ServerRequestContext.self)
        router.middlewares.add(APIMiddleware(maximumBodyBytes: settings.maximumBodyBytes, behindProxy: settings.behindProxy))
        router.get("/healthz") { _, _ in "ok\n" }
        let web = WebApp(store: store, accounts: accounts, fairShare: fairShare, live: live)
        web.register(on: router)
        if let quiet = settings.prepareChartsAfterQuiet {
            await live.prepareCharts(after: quiet) { tree, user in try? await web.prepareChart(of: tree, as: user) }
        }
        // Compact JSON, keys in the order of the document's schema (not sorted: sorting a page of
        // 5,000 documents' keys costs more than reading them from the database).
        try api.registerHandlers(on: router, serverURL: URL(string: "/api/v1")!, configuration: .init(jsonEncodingOptions: []))

        var logger = Logger(label: "familytree.server")
        logger.logLevel = .notice
        let http1 = HTTPServerBuilder.http1(configuration: .init(idleTimeout: .seconds(settings.idleTimeoutSeconds)))
        let server: HTTPServerBuilder
        if let certificate = settings.tlsCertificatePath, let key = settings.tlsKeyPath {
            let chain: [NIOSSLCertificateSource], privateKey: NIOSSLPrivateKey
            do {
                chain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
            } catch {
                throw ServerSetupError("cannot read the certificate chain \(certificate) as PEM: \(error)")
            }
            do {
                privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
            } catch {
                throw ServerSetupError("cannot read the private key \(key) as PEM: \(error)")
            }
            let tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
            server = try .tls(http1, tlsConfiguration: tls)
        } else {
            server = http1
        }
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "familytree"),
            onServerRunning: { channel in
                boundBase.value = settings.baseURL(boundPort: channel.localAddress?.port ?? settings.port)
                await onListening(boundBase.value)
            },
            logger: logger)
        if handlingSignals { try await app.runService() } else { try await app.run() }
    }
}

/// A server that cannot start as configured (a certificate it cannot read), in words.
public struct ServerSetupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The address the server answers at, learnt once it listens.
private final class BoundAddress: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = ""
    var value: String {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
}

/// Each request's context: Hummingbird's, with the client's address (for the sign-in throttle).
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Around every request: the body read whole up to the limit (413 beyond it), the request's facts
/// bound for the handlers, every error answered as a JSON `Error`, and headers that keep a browser
/// from doing anything with an answer but read it.
struct APIMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let maximumBodyBytes: Int
    let behindProxy: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let facts = RequestFacts(method: request.method, headers: request.headers, authority: request.head.authority, address: clientAddress(request, context))
        var response: Response
        do {
            var request = request
            if facts.isStateChanging { _ = try await request.collectBody(upTo: maximumBodyBytes) }
            response = try await RequestFacts.$current.withValue(facts) { try await next(request, context) }
        } catch {
            response = Self.response(for: failure(error, logger: context.logger))
        }
        for cookie in facts.cookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        response.headers[.cacheControl] = "no-store"
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        }
        return response
    }

    /// The client's address: the socket's peer, or behind a proxy on this machine, the address the
    /// proxy added last to `X-Forwarded-For` (earlier entries are the client's own say).
    func clientAddress(_ request: Request, _ context: Context) -> String {
        let peer = context.remoteAddress?.ipAddress ?? ""
        guard behindProxy, peer == "127.0.0.1" || peer == "::1",
              let forwarded = request.headers[HTTPField.Name("X-Forwarded-For")!]?.split(separator: ",").last
        else { return peer }
        return forwarded.trimmingCharacters(in: .whitespaces)
    }

    /// What an error says to the client. A request that does not match the API (a missing field,
    /// a wrong type) is 400 with the decoder's words; anything unexpected is 500, logged here and
    /// not described to the client.
    func failure(_ error: any Error, logger: Logger) -> APIFailure {
        var error = error
        if let serverError = error as? ServerError {
            error = serverError.underlyingError
            if !(error is APIFailure || error is SyncError) {
                return .invalid("the request does not match the API (\(serverError.operationID)): \(Self.words(serverError.underlyingError))")
            }
        }
        switch error {
        case let failure as APIFailure: return failure
        case let syncError as SyncError:
            if case .store = syncError { logger.error("store: \(syncError)") }
            return APIFailure(syncError)
        case is NIOTooManyBytesError:
            return .tooLarge("the request body is over the server's limit of \(maximumBodyBytes) bytes")
        case let httpError as HTTPError:
            switch httpError.status {
            case .notFound: return .notFound("no such address on this server")
            case .contentTooLarge: return .tooLarge("the request body is over the server's limit")
            default: return APIFailure(httpError.status, httpError.status.code < 500 ? "invalid" : "failed", httpError.body ?? httpError.status.reasonPhrase)
            }
        default:
            logger.error("unexpected: \(String(reflecting: error))")
            return APIFailure(.internalServerError, "failed", "the server failed; try again later")
        }
    }

    /// A decoding error in a line (no type names beyond the field's path).
    static func words(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "missing \(Self.path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            "\(Self.path(context.codingPath)): \(context.debugDescription)"
        default: String(describing: error).prefix(300).description
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the body" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    static func response(for failure: APIFailure) -> Response {
        let body = Components.Schemas._Error(error: failure.code, message: failure.message)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data(#"{"error":"failed","message":"the server failed"}"#.utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if failure.status == .tooManyRequests { headers[.retryAfter] = "60" }
        return Response(status: failure.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIFailure: CustomStringConvertible {
    package var description: String { message }
}
#endif
