import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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
    init(data: Data, from url: URL) throws(CardDAVError) {
        let reader = MultistatusReader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse(), reader.sawMultistatus else {
            let reason = parser.parserError.map { "not XML (\($0.localizedDescription))" } ?? "no DAV:multistatus element"
            throw .malformedResponse(url: url.absoluteString, reason: reason)
        }
        responses = reader.responses
        syncToken = reader.syncToken
    }
}

/// The streaming reader behind `Multistatus` (`XMLParser` calls back into a class).
private final class MultistatusReader: NSObject, XMLParserDelegate {
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

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let namespace = namespaceURI ?? ""
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

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let namespace = namespaceURI ?? ""
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
