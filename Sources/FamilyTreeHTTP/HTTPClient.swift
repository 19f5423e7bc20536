import CLibcurl
import Foundation

/// HTTP requests made through libcurl, which is loaded when the first request is made.
///
/// Foundation's URLSession on Linux is libcurl too, but linked: every run of the program then
/// maps and relocates libcurl and some thirty libraries it needs (TLS, Kerberos, LDAP), half the
/// time a small chart takes. Here only a command that talks to a server pays for them.
///
/// Each transfer runs on a thread of its own; its connection is kept for the next request. A
/// redirect is followed only on the same server (scheme, host and port), because requests carry
/// credentials.
package final class HTTPClient: Sendable {
    /// A request: a method, an address, header fields and a body.
    package struct Request: Sendable {
        package var method: String
        package var url: URL
        /// Name and value pairs, sent in this order.
        package var headerFields: [(name: String, value: String)]
        package var body: Data?

        package init(method: String, url: URL, headerFields: [(name: String, value: String)] = [], body: Data? = nil) {
            self.method = method
            self.url = url
            self.headerFields = headerFields
            self.body = body
        }
    }

    /// An answer's status and header fields.
    package struct Head: Sendable {
        package var status: Int
        /// Name and value pairs as the server sent them.
        package var headerFields: [(name: String, value: String)]

        package init(status: Int, headerFields: [(name: String, value: String)]) {
            self.status = status
            self.headerFields = headerFields
        }

        /// The last value of the field `name` (any case).
        package subscript(name: String) -> String? {
            headerFields.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// How long a request may take, in seconds.
    package struct Timeouts: Sendable {
        /// To connect (and finish the TLS handshake).
        package var connect: Double
        /// With not one byte sent or received.
        package var idle: Double
        /// The whole request, answer included; nil for no limit.
        package var total: Double?

        package init(connect: Double = 30, idle: Double = 60, total: Double? = nil) {
            self.connect = connect
            self.idle = idle
            self.total = total
        }
    }

    /// Why a request got no answer.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// libcurl is missing on this machine.
        case unavailable(String)
        /// The server's name did not resolve, or nothing answered on its port.
        case cannotConnect(String)
        /// A limit of `Timeouts` passed.
        case timedOut(String)
        /// The TLS handshake failed or the certificate was refused.
        case insecure(String)
        /// More than five redirects.
        case tooManyRedirects(String)
        /// The request was cancelled, or its receiver stopped it.
        case cancelled
        /// Anything else in the transfer (a connection reset, an answer that is not HTTP).
        case transport(String)

        package var description: String {
            switch self {
            case .unavailable(let reason): reason
            case .cannotConnect(let reason): "cannot connect (\(reason))"
            case .timedOut(let reason): "timed out (\(reason))"
            case .insecure(let reason): "the TLS connection failed (\(reason))"
            case .tooManyRedirects(let url): "too many redirects (the last to \(url))"
            case .cancelled: "cancelled"
            case .transport(let reason): reason
            }
        }
    }

    /// Receives an answer as it arrives, on the transfer's thread.
    package protocol Receiver: AnyObject, Sendable {
        /// The status and header fields: false stops the transfer.
        func received(_ head: Head) -> Bool
        /// The next bytes of the body: false stops the transfer.
        func received(_ bytes: UnsafeRawBufferPointer) -> Bool
    }

    package let timeouts: Timeouts
    private let idleHandles = HandlePool()

    /// A client whose requests keep to `timeouts`.
    package init(timeouts: Timeouts = Timeouts()) {
        self.timeouts = timeouts
    }

    /// Sends `request` and hands the answer to `receiver` as it arrives; returns its head.
    /// Stopped by `receiver`, it throws `Failure.cancelled`.
    package func send(_ request: Request, to receiver: some Receiver) async throws(Failure) -> Head {
        // A line break in a field would end it and start another the caller never wrote.
        for field in request.headerFields {
            guard !field.name.isEmpty, field.name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
                throw .transport("\(field.name.debugDescription) is not a header field's name")
            }
            guard !field.value.unicodeScalars.contains(where: { "\r\n\0".unicodeScalars.contains($0) }) else {
                throw .transport("the header field \(field.name.debugDescription) holds a line break")
            }
        }
        guard !request.method.isEmpty, request.method.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || $0 == "-" || $0 == "_" }) else {
            throw .transport("\(request.method.debugDescription) is not an HTTP method")
        }
        var request = request
        for _ in 0...5 {
            let transfer = Transfer(receiver: receiver, following: request.url)
            try await perform(request, transfer)
            guard let location = transfer.redirect else {
                guard let head = transfer.head else { throw .transport("the server closed the connection without an answer") }
                return head
            }
            request.url = location.url
            // "See other" is a GET (a HEAD stays one), and so, as browsers have it, is a moved POST.
            if location.status == 303 && request.method != "HEAD" || (location.status == 301 || location.status == 302) && request.method == "POST" {
                request.method = "GET"
                request.body = nil
                request.headerFields.removeAll { $0.name.lowercased().hasPrefix("content-") }
            }
        }
        throw .tooManyRedirects(request.url.absoluteString)
    }

    /// Sends `request` and returns its answer whole; an answer longer than `limit` bytes is
    /// refused as it arrives (`Failure.transport`).
    package func data(for request: Request, limit: Int = 512 << 20) async throws(Failure) -> (Head, Data) {
        let collector = Collector(limit: limit, expectsBody: request.method != "HEAD")
        do {
            let head = try await send(request, to: collector)
            return (head, collector.body)
        } catch .cancelled where collector.tooLarge {
            throw .transport("the answer is longer than \(limit) bytes")
        }
    }

    /// Whether two addresses are on one server: the same scheme, host and port.
    package static func sameOrigin(_ one: URL, _ other: URL) -> Bool {
        func port(_ url: URL) -> Int? {
            url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
        }
        return one.scheme?.lowercased() == other.scheme?.lowercased() && one.host?.lowercased() == other.host?.lowercased()
            && port(one) == port(other)
    }

    /// A character of an HTTP token (RFC 9110): a header field's name.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
    }

    // MARK: The transfer

    private func perform(_ request: Request, _ transfer: Transfer) async throws(Failure) {
        let handle = try idleHandles.take()
        let timeouts = timeouts
        let outcome: Result<Void, Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    let result = transfer.run(request, on: handle.pointer, timeouts: timeouts)
                    self.idleHandles.give(back: handle)
                    continuation.resume(returning: result)
                }
                thread.name = "familytree HTTP"
                thread.start()
            }
        } onCancel: {
            transfer.stop()
        }
        try outcome.get()
    }

    deinit {
        idleHandles.freeAll()
    }
}

/// A libcurl handle: one thread uses it at a time.
private struct Handle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// Handles not in use, kept with their open connections.
private final class HandlePool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Handle] = []

    func take() throws(HTTPClient.Failure) -> Handle {
        if let handle = lock.withLock({ idle.popLast() }) { return handle }
        if let failure = clibcurl_load() { throw .unavailable(String(cString: failure)) }
        guard let pointer = clibcurl_handle_new() else { throw .unavailable("libcurl could not make a transfer handle") }
        return Handle(pointer: pointer)
    }

    func give(back handle: Handle) {
        lock.withLock { idle.append(handle) }
    }

    func freeAll() {
        for handle in lock.withLock({ idle }) { clibcurl_handle_free(handle.pointer) }
    }
}

/// One request's state while libcurl runs it: reads the header lines into a `Head`, takes a
/// redirect it may follow, hands the rest to the receiver.
private final class Transfer: @unchecked Sendable {
    struct Redirect {
        var status: Int
        var url: URL
    }

    private let receiver: any HTTPClient.Receiver
    private let origin: URL
    private let lock = NSLock()
    private var stopRequested = false
    private var stoppedByReceiver = false
    /// A redirect's body, nobody's, stopped once it passed `redirectBodyLimit`: the redirect is followed.
    private var redirectBodyCut = false
    private var redirectBodyBytes = 0
    private let redirectBodyLimit = 65_536
    /// Why the answer is not HTTP, when it is not.
    private var malformed: String?
    private var status = 0
    private var fields: [(name: String, value: String)] = []
    private(set) var head: HTTPClient.Head?
    private(set) var redirect: Redirect?

    init(receiver: any HTTPClient.Receiver, following origin: URL) {
        self.receiver = receiver
        self.origin = origin
    }

    func stop() {
        lock.withLock { stopRequested = true }
    }

    /// Runs the request on this thread, to the end.
    func run(_ request: HTTPClient.Request, on handle: UnsafeMutableRawPointer, timeouts: HTTPClient.Timeouts) -> Result<Void, HTTPClient.Failure> {
        // Asked to stop before it started (a cancelled task): nothing is sent.
        if stopRequestedNow { return .failure(.cancelled) }
        // libcurl counts the body itself; a length or coding the caller gave could disagree with it
        // (after a redirect that drops the body, say). "Name;" is libcurl's way to send an empty value.
        var lines = request.headerFields
            .filter { !["content-length", "transfer-encoding"].contains($0.name.lowercased()) }
            .map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        // libcurl's own additions, unless asked for: a form type for a body, and a wait for
        // "100 Continue" before a large one.
        if request.body != nil, !request.headerFields.contains(where: { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
            lines.append("Content-Type:")
        }
        lines.append("Expect:")
        let body = request.body ?? Data()
        var code: Int32 = 0
        var words = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        withCStrings(lines) { headers in
            request.method.withCString { method in
                request.url.absoluteString.withCString { url in
                    body.withUnsafeBytes { bytes in
                        var description = clibcurl_request(
                            method: method, url: url, headers: headers.baseAddress, header_count: headers.count,
                            // An empty body still needs an address: any valid one, none of it read.
                            body: request.body == nil ? nil : bytes.baseAddress ?? UnsafeRawPointer(method), body_length: bytes.count,
                            connect_timeout_ms: milliseconds(timeouts.connect), total_timeout_ms: timeouts.total.map(milliseconds) ?? 0,
                            idle_seconds: max(1, Int(timeouts.idle.rounded(.up))), context: context,
                            on_header: { context, line, length in
                                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().headerLine(line!, length) ? 0 : 1
                            },
                            on_body: { context, bytes, length in
                                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().bodyBytes(UnsafeRawBufferPointer(start: bytes, count: length)) ? 0 : 1
                            },
                            should_stop: { context in
                                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().stopRequestedNow ? 1 : 0
                            })
                        code = clibcurl_perform(handle, &description, &words)
                    }
                }
            }
        }
        if Int(code) == CLIBCURL_OK || lock.withLock({ redirectBodyCut }) { return .success(()) }
        if let malformed { return .failure(.transport(malformed)) }
        if lock.withLock({ stopRequested || stoppedByReceiver }) { return .failure(.cancelled) }
        let text = words.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let reason = text.isEmpty ? String(cString: clibcurl_strerror(code)) : text
        switch Int(code) {
        case CLIBCURL_NOT_LOADED: return .failure(.unavailable(reason))
        case CLIBCURL_COULDNT_RESOLVE_HOST, CLIBCURL_COULDNT_CONNECT: return .failure(.cannotConnect(reason))
        case CLIBCURL_OPERATION_TIMEDOUT: return .failure(.timedOut(reason))
        case CLIBCURL_SSL_CONNECT_ERROR, CLIBCURL_SSL_CERTPROBLEM, CLIBCURL_PEER_FAILED_VERIFICATION, CLIBCURL_SSL_CACERT_BADFILE:
            return .failure(.insecure(reason))
        default: return .failure(.transport(reason))
        }
    }

    private var stopRequestedNow: Bool {
        lock.withLock { stopRequested || stoppedByReceiver }
    }

    /// A header line: the status line, a field, or the blank line that ends the head.
    private func headerLine(_ line: UnsafePointer<CChar>, _ length: Int) -> Bool {
        let text = String(decoding: UnsafeRawBufferPointer(start: line, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            // A new status line (after "100 Continue") starts again. Its code is three digits.
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count > 1, parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(parts[1]), code >= 100 else {
                malformed = "the answer's status line is not HTTP: \(text.prefix(80).debugDescription)"
                return false
            }
            status = code
            fields = []
            return true
        }
        if !text.isEmpty {
            if let colon = text.firstIndex(of: ":") {
                fields.append((String(text[..<colon]).trimmingCharacters(in: .whitespaces), String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
            return true
        }
        guard status >= 200 else { return true }
        let head = HTTPClient.Head(status: status, headerFields: fields)
        self.head = head
        if [301, 302, 303, 307, 308].contains(status), let location = head["Location"],
           let url = URL(string: location, relativeTo: origin)?.absoluteURL, HTTPClient.sameOrigin(url, origin) {
            redirect = Redirect(status: status, url: url)
            return true
        }
        return keepGoing(receiver.received(head))
    }

    private func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // A redirect's own body is nobody's: read a little, then left for the address it gives.
        guard redirect == nil else {
            redirectBodyBytes += bytes.count
            guard redirectBodyBytes > redirectBodyLimit else { return true }
            lock.withLock { redirectBodyCut = true }
            return false
        }
        if head == nil {
            // A body with no blank line seen (HTTP/0.9 or a broken server): the head as it stands.
            let head = HTTPClient.Head(status: status, headerFields: fields)
            self.head = head
            guard keepGoing(receiver.received(head)) else { return false }
        }
        return keepGoing(receiver.received(bytes))
    }

    private func keepGoing(_ goOn: Bool) -> Bool {
        if !goOn { lock.withLock { stoppedByReceiver = true } }
        return goOn
    }
}

/// Keeps a whole answer up to a limit.
private final class Collector: HTTPClient.Receiver, @unchecked Sendable {
    let limit: Int
    /// False for a HEAD request, whose answer's length is that of a body never sent.
    let expectsBody: Bool
    var body = Data()
    var tooLarge = false

    init(limit: Int, expectsBody: Bool) {
        self.limit = limit
        self.expectsBody = expectsBody
    }

    func received(_ head: HTTPClient.Head) -> Bool {
        if expectsBody, let length = head["Content-Length"].flatMap(Int.init), length > limit {
            tooLarge = true
            return false
        }
        return true
    }

    func received(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limit else {
            tooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}

private func milliseconds(_ seconds: Double) -> Int {
    seconds.isFinite ? Int(min(max(seconds * 1000, 1), Double(Int32.max))) : Int(Int32.max)
}

/// `strings` as C strings for the length of `body`.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer(body)
}
