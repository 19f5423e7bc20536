import Foundation

/// A WebDAV `multistatus` answer (RFC 4918 §13), as a CardDAV client needs it: each response's
/// `href`, its status, and the properties a `propstat` with status 200 returned.
struct Multistatus: Sendable {
    /// One `response` element.
    struct Response: Sendable {
        /// The resource's `href`, as the server wrote it (percent-encoded).
        var href: String
        /// The response's own `status` (a sync report's removed member is `404`), if it has one.
        var status: Int?
        /// Text properties returned with status 200, by local name: `getetag`, `address-data`,
        /// `sync-token`, `getctag`, `displayname`.
        var properties: [String: String] = [:]
        /// Properties that hold `href` elements (`current-user-principal`, `addressbook-home-set`).
        var hrefProperties: [String: [String]] = [:]
        /// The local names in `resourcetype`: `collection`, `addressbook`.
        var resourceTypes: Set<String> = []
    }

    /// The responses in document order.
    var responses: [Response]
    /// The collection's new token in a `sync-collection` report.
    var syncToken: String?

    /// Parses `data`; throws `CardDAVError.malformedResponse` when it is not a multistatus document.
    init(data: some Sequence<UInt8>, from url: URL) throws(CardDAVError) {
        var reading = Reading(from: url)
        try reading.feed(data)
        self = try reading.finish()
    }

    /// A multistatus answer read as its bytes arrive, so an answer is never held whole.
    struct Reading {
        private var parser = XMLPushParser(handler: MultistatusHandler())
        private let url: URL

        init(from url: URL) { self.url = url }

        /// Reads the next bytes of the answer.
        mutating func feed(_ bytes: some Sequence<UInt8>) throws(CardDAVError) {
            do { try parser.feed(bytes) } catch { throw .malformedResponse(url: url.absoluteString, reason: "not XML (\(error))") }
        }

        /// The answer, once its last byte has been read.
        mutating func finish() throws(CardDAVError) -> Multistatus {
            do { try parser.finish() } catch { throw .malformedResponse(url: url.absoluteString, reason: "not XML (\(error))") }
            guard parser.handler.sawMultistatus else { throw .malformedResponse(url: url.absoluteString, reason: "no DAV:multistatus element") }
            return Multistatus(responses: parser.handler.responses, syncToken: parser.handler.syncToken)
        }
    }

    private init(responses: [Response], syncToken: String?) {
        self.responses = responses
        self.syncToken = syncToken
    }
}

/// What a multistatus document says, gathered as the parser reads it.
private struct MultistatusHandler: XMLContentHandler {
    private static let dav = "DAV:"
    var responses: [Multistatus.Response] = []
    var syncToken: String?
    var sawMultistatus = false

    /// Open elements as (namespace, local name).
    private var path: [(namespace: String, name: String)] = []
    private var text = ""
    private var current: Multistatus.Response?
    private var propstatProperties: [String: String] = [:]
    private var propstatHrefs: [String: [String]] = [:]
    private var propstatTypes: Set<String> = []
    private var propstatStatus: Int?

    mutating func startElement(namespace: String, name: String) {
        path.append((namespace, name))
        text = ""
        switch (namespace, name) {
        case (Self.dav, "multistatus"): sawMultistatus = true
        case (Self.dav, "response") where path.count == 2: current = Multistatus.Response(href: "")
        case (Self.dav, "propstat"):
            propstatProperties = [:]
            propstatHrefs = [:]
            propstatTypes = []
            propstatStatus = nil
        default:
            // An element inside `resourcetype` names a type (`collection`, CardDAV's `addressbook`).
            if path.count >= 2, path[path.count - 2] == (Self.dav, "resourcetype") { propstatTypes.insert(name) }
        }
    }

    mutating func characters(_ string: String) { text += string }

    mutating func endElement(namespace: String, name: String) {
        defer { path.removeLast() }
        let depth = path.count
        // Inside a response: multistatus(1) response(2) href|status|propstat(3) prop(4) property(5) ...
        switch (namespace, name) {
        case (Self.dav, "href") where depth == 3:
            current?.href = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case (Self.dav, "href") where depth == 6:
            let property = path[4].name
            propstatHrefs[property, default: []].append(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case (Self.dav, "status") where depth == 3:
            current?.status = Self.statusCode(text)
        case (Self.dav, "status") where depth == 4:
            propstatStatus = Self.statusCode(text)
        case (Self.dav, "sync-token") where depth == 2:
            syncToken = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case (Self.dav, "propstat"):
            // Only what the server found: a 404 propstat lists the properties it does not have.
            if propstatStatus == 200 || propstatStatus == nil {
                current?.properties.merge(propstatProperties) { first, _ in first }
                current?.hrefProperties.merge(propstatHrefs) { first, _ in first }
                current?.resourceTypes.formUnion(propstatTypes)
            }
        case (Self.dav, "response") where depth == 2:
            if let current { responses.append(current) }
            current = nil
        default:
            if depth == 5, path[3] == (Self.dav, "prop") {
                // The card itself keeps its spaces and line ends; other values are trimmed.
                propstatProperties[name] = name == "address-data" ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        text = ""
    }

    /// `HTTP/1.1 404 Not Found` is 404.
    private static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

/// The multistatus reader, for the fuzz target (`Fuzz/Sources/FuzzCardDAV`).
@_spi(Fuzzing) public enum MultistatusProbe {
    /// What `bytes` read as, fed `chunk` bytes at a time: each response on a line of its own (href,
    /// status, types, properties, href properties, sorted), or the error.
    public static func read(_ bytes: [UInt8], chunk: Int) -> String {
        var reading = Multistatus.Reading(from: URL(string: "https://dav.example/book/")!)
        do {
            var start = 0
            repeat {
                let end = min(start + max(chunk, 1), bytes.count)
                try reading.feed(bytes[start..<end])
                start = end
            } while start < bytes.count
            let answer = try reading.finish()
            var lines = ["token \(answer.syncToken ?? "-")"]
            for response in answer.responses {
                let properties = response.properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let hrefs = response.hrefProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                lines.append("\(response.href) \(response.status.map(String.init) ?? "-") \(response.resourceTypes.sorted()) \(properties) \(hrefs)")
            }
            return lines.joined(separator: "\n")
        } catch {
            return "error: \(error)"
        }
    }
}
