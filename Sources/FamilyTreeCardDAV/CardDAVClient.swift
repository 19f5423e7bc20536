import FamilyTree
import Foundation
import FamilyTreeHTTP

/// A user name and password for a CardDAV server (sent as HTTP Basic authentication).
public struct CardDAVCredentials: Sendable {
    /// The user name.
    public var user: String
    /// The password (an app password for iCloud, Google or Fastmail).
    public var password: String

    /// Credentials for `user`.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// The requests familytree makes of a CardDAV server (RFC 6352 over WebDAV, RFC 4918, and
/// collection synchronisation, RFC 6578), each one call with values in and out.
struct CardDAVClient: Sendable {
    /// What an address book says about itself: a token that changes whenever a card does.
    struct CollectionState: Sendable {
        var syncToken: String?
        var ctag: String?
        var displayName: String?
    }

    /// A card's address and version tag.
    struct Entry: Sendable, Hashable {
        var href: String
        var etag: String
    }

    /// A card that is new or changed, with its text when the answer carried it.
    struct Change: Sendable {
        var entry: Entry
        var vcard: String?
    }

    /// What changed since a sync token.
    struct Changes: Sendable {
        var changed: [Change]
        var removed: [String]
        var syncToken: String?
    }

    /// The result of writing a card.
    enum PutResult: Sendable, Equatable {
        /// Written; the server's new ETag, when it sent one.
        case stored(etag: String?)
        /// 412: the card changed on the server since `If-Match`'s ETag.
        case changedOnServer
    }

    let credentials: CardDAVCredentials
    let timeout: Double
    /// The most bytes one answer may have; a larger one is refused as it arrives.
    let maximumAnswerBytes: Int
    private let client: HTTPClient

    /// A client; `url` must be `https:`, or `http:` to this machine unless `allowHTTP`.
    init(credentials: CardDAVCredentials, timeout: Double, maximumAnswerBytes: Int = 512 << 20) {
        self.credentials = credentials
        self.timeout = timeout
        self.maximumAnswerBytes = maximumAnswerBytes
        // An overall limit besides the idle one: a server that trickles bytes ends in a timeout.
        client = HTTPClient(timeouts: .init(connect: timeout, idle: timeout, total: timeout * 2 + 5))
    }

    /// `text` as an http(s) URL, refusing plain http to anything but this machine unless allowed.
    static func checkedURL(_ text: String, allowHTTP: Bool) throws(CardDAVError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = url.host, !host.isEmpty else { throw .badURL(text) }
        if scheme == "http", !allowHTTP, !["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased()) {
            throw .insecureURL(text)
        }
        // A collection's address ends in a slash; some servers answer the other form with a redirect.
        return url.path.hasSuffix("/") ? url : url.appendingPathComponent("")
    }

    // MARK: Requests

    /// The address book at `url`, or, when `url` is the server or the user's home, the user's only
    /// address book (found through `current-user-principal` and `addressbook-home-set`).
    func resolveAddressBook(_ url: URL) async throws(CardDAVError) -> (url: URL, state: CollectionState) {
        let body = """
            <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:cs="http://calendarserver.org/ns/">\
            <d:prop><d:resourcetype/><d:displayname/><d:sync-token/><cs:getctag/><d:current-user-principal/>\
            <card:addressbook-home-set/></d:prop></d:propfind>
            """
        let answer = try await multistatus("PROPFIND", url, depth: "0", body: body)
        guard let own = answer.responses.first else { throw .malformedResponse(url: url.absoluteString, reason: "an empty multistatus") }
        if own.resourceTypes.contains("addressbook") { return (url, Self.state(of: own)) }

        var homes = own.hrefProperties["addressbook-home-set"] ?? []
        if homes.isEmpty, let principal = own.hrefProperties["current-user-principal"]?.first, let principalURL = resolve(principal, against: url) {
            let answer = try await multistatus("PROPFIND", principalURL, depth: "0", body: body)
            homes = answer.responses.first?.hrefProperties["addressbook-home-set"] ?? []
        }
        var books: [(URL, CollectionState)] = []
        for home in homes {
            guard let homeURL = resolve(home, against: url) else { continue }
            let answer = try await multistatus("PROPFIND", homeURL, depth: "1", body: body)
            for response in answer.responses where response.resourceTypes.contains("addressbook") {
                if let bookURL = resolve(response.href, against: url) { books.append((bookURL, Self.state(of: response))) }
            }
        }
        guard books.count == 1, let book = books.first else {
            throw .notAnAddressBook(url: url.absoluteString, found: books.map { $0.0.absoluteString })
        }
        return book
    }

    /// The address book's sync token and ctag.
    func collectionState(_ book: URL) async throws(CardDAVError) -> CollectionState {
        let body = """
            <d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/">\
            <d:prop><d:resourcetype/><d:displayname/><d:sync-token/><cs:getctag/></d:prop></d:propfind>
            """
        let answer = try await multistatus("PROPFIND", book, depth: "0", body: body)
        guard let own = answer.responses.first else { throw .malformedResponse(url: book.absoluteString, reason: "an empty multistatus") }
        guard own.resourceTypes.contains("addressbook") else { throw .notAnAddressBook(url: book.absoluteString, found: []) }
        return Self.state(of: own)
    }

    /// Every card in the address book with its ETag (`PROPFIND`, depth 1).
    func listCards(_ book: URL) async throws(CardDAVError) -> [Entry] {
        let body = #"<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getetag/></d:prop></d:propfind>"#
        let answer = try await multistatus("PROPFIND", book, depth: "1", body: body)
        return answer.responses.compactMap { response in
            guard !response.resourceTypes.contains("collection"), let etag = response.properties["getetag"] else { return nil }
            return Entry(href: response.href, etag: etag)
        }
    }

    /// What changed since `token` (`sync-collection`; an empty token asks for every card), with
    /// the cards' text where the server sends it, or `nil` when the server no longer knows the
    /// token (it may forget old ones; the caller then lists every card). A server that truncates
    /// a long answer (507 on the collection, RFC 6578 §3.6) is asked again from its new token.
    func changes(_ book: URL, since token: String) async throws(CardDAVError) -> Changes? {
        var changes = Changes(changed: [], removed: [], syncToken: nil)
        var cursor = token
        for _ in 0..<10_000 {
            let body = """
                <d:sync-collection xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\
                <d:sync-token>\(SafeText.xmlEscaped(cursor))</d:sync-token><d:sync-level>1</d:sync-level>\
                <d:prop><d:getetag/><card:address-data/></d:prop></d:sync-collection>
                """
            let answer: Multistatus
            do {
                answer = try await multistatus("REPORT", book, depth: "1", body: body)
            } catch .status(let code, _, _) where code == 403 || code == 409 || code == 412 || code == 400 {
                return nil // DAV:valid-sync-token failed
            }
            var truncated = false
            for response in answer.responses {
                if response.status == 507 {
                    truncated = true
                } else if response.status == 404 {
                    changes.removed.append(response.href)
                } else if let etag = response.properties["getetag"], !response.resourceTypes.contains("collection") {
                    changes.changed.append(Change(entry: Entry(href: response.href, etag: etag), vcard: response.properties["address-data"]))
                }
            }
            changes.syncToken = answer.syncToken
            guard truncated, let next = answer.syncToken, next != cursor else { return changes }
            cursor = next
        }
        throw .malformedResponse(url: book.absoluteString, reason: "the server kept truncating its list of changes")
    }

    /// Every card with its ETag and text in one `addressbook-query` (RFC 6352 §8.6), for a first
    /// read from a server without sync tokens.
    func allCards(_ book: URL) async throws(CardDAVError) -> [Change] {
        let body = """
            <card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\
            <d:prop><d:getetag/><card:address-data/></d:prop></card:addressbook-query>
            """
        let answer = try await multistatus("REPORT", book, depth: "1", body: body)
        return answer.responses.compactMap { response in
            guard response.status != 404, let etag = response.properties["getetag"], !response.resourceTypes.contains("collection") else { return nil }
            return Change(entry: Entry(href: response.href, etag: etag), vcard: response.properties["address-data"])
        }
    }

    /// The cards at `hrefs` with their ETags (`addressbook-multiget`, in batches).
    func cards(_ book: URL, hrefs: [String], batch: Int = 250) async throws(CardDAVError) -> [(entry: Entry, vcard: String)] {
        var result: [(entry: Entry, vcard: String)] = []
        var start = 0
        while start < hrefs.count {
            let slice = hrefs[start..<min(start + batch, hrefs.count)]
            start += batch
            let body = """
                <card:addressbook-multiget xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\
                <d:prop><d:getetag/><card:address-data/></d:prop>\
                \(slice.map { "<d:href>\(SafeText.xmlEscaped($0))</d:href>" }.joined())</card:addressbook-multiget>
                """
            let answer = try await multistatus("REPORT", book, depth: "1", body: body)
            for response in answer.responses {
                guard let etag = response.properties["getetag"], let vcard = response.properties["address-data"] else { continue }
                result.append((Entry(href: response.href, etag: etag), vcard))
            }
        }
        return result
    }

    /// Writes `vcard` to `href` if the card's ETag is still `etag`.
    func put(_ vcard: String, at href: String, ifMatch etag: String, in book: URL) async throws(CardDAVError) -> PutResult {
        guard let url = resolve(href, against: book) else { throw .malformedResponse(url: book.absoluteString, reason: "a card address on another server: \(href)") }
        let answer = try await send("PUT", url, body: Data(vcard.utf8), headers: [
            "Content-Type": "text/vcard; charset=utf-8", "If-Match": etag,
        ])
        let status = answer.status
        switch status {
        case 200, 201, 204: return .stored(etag: answer.headers["etag"])
        // A multi-status or partial answer to PUT says nothing of whether the card was stored.
        case 202...299: throw .malformedResponse(url: url.absoluteString, reason: "PUT was answered \(status), not 200, 201 or 204")
        case 412: return .changedOnServer
        default: throw Self.failure(status, "PUT", url, user: credentials.user)
        }
    }

    /// A card's body by plain GET.
    func get(_ href: String, in book: URL) async throws(CardDAVError) -> (vcard: String, etag: String?) {
        guard let url = resolve(href, against: book) else { throw .malformedResponse(url: book.absoluteString, reason: "a card address on another server: \(href)") }
        let answer = try await send("GET", url, body: nil, headers: [:])
        guard answer.status == 200 else {
            if (201...299).contains(answer.status) { throw .malformedResponse(url: url.absoluteString, reason: "GET was answered \(answer.status), not 200") }
            throw Self.failure(answer.status, "GET", url, user: credentials.user)
        }
        return (String(decoding: answer.data, as: UTF8.self), answer.headers["etag"])
    }

    // MARK: Plumbing

    /// `href` as a URL on `base`'s server; `nil` for an address on any other scheme, host or port:
    /// the password goes with every request, so a server's answer must not send it elsewhere.
    func resolve(_ href: String, against base: URL) -> URL? {
        guard let url = URL(string: href, relativeTo: base)?.absoluteURL, HTTPClient.sameOrigin(url, base) else { return nil }
        return url
    }

    private func multistatus(_ method: String, _ url: URL, depth: String, body: String) async throws(CardDAVError) -> Multistatus {
        let reply = try await send(method, url, body: Data(("<?xml version=\"1.0\" encoding=\"utf-8\"?>" + body).utf8), headers: [
            "Depth": depth, "Content-Type": "application/xml; charset=utf-8",
        ], answer: .multistatus(url))
        guard reply.status == 207, var answer = reply.multistatus else { throw Self.failure(reply.status, method, url, user: credentials.user) }
        // A response about a resource on another server is none of this server's business.
        answer.responses.removeAll { resolve($0.href, against: url) == nil }
        return answer
    }

    /// One request and its answer, its body kept or read as `answer` says.
    private func send(_ method: String, _ url: URL, body: Data?, headers: [String: String], answer: AnswerBody = .kept) async throws(CardDAVError) -> Answer {
        let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
        let request = HTTPClient.Request(
            method: method, url: url, headerFields: [("Authorization", "Basic \(token)")] + headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            body: body)
        do {
            return try await HTTPExchange(url: url, body: answer, limit: maximumAnswerBytes).run(request, with: client)
        } catch let error as CardDAVError {
            throw error
        } catch let error as HTTPClient.Failure {
            switch error {
            case .timedOut: throw .timeout(url: url.absoluteString, seconds: timeout)
            case .cannotConnect(let reason): throw .transport(url: url.absoluteString, reason: "cannot connect to \(url.host ?? "the server") (\(reason))")
            case .insecure(let reason): throw .transport(url: url.absoluteString, reason: "the TLS connection failed: \(reason)")
            default: throw .transport(url: url.absoluteString, reason: error.description)
            }
        } catch {
            throw .transport(url: url.absoluteString, reason: "\(error)")
        }
    }

    static func failure(_ status: Int, _ method: String, _ url: URL, user: String) -> CardDAVError {
        switch status {
        case 401: .unauthorized(user: user, url: url.absoluteString)
        case 403: .forbidden(user: user, url: url.absoluteString)
        case 404: .notFound(url: url.absoluteString)
        default: .status(status, method: method, url: url.absoluteString)
        }
    }

    private static func state(of response: Multistatus.Response) -> CollectionState {
        CollectionState(syncToken: response.properties["sync-token"], ctag: response.properties["getctag"], displayName: response.properties["displayname"])
    }
}
