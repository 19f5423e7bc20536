#if Server
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A server-sent event stream read over a plain socket, as a page's `EventSource` would: every
/// read waits at most the time given, so a stream that goes quiet fails the test instead of
/// hanging it.
final class EventStreamReader {
    private let socket: Int32
    private var buffer: [UInt8] = []
    /// The response's status line and headers.
    private(set) var head = ""

    struct Event: Equatable {
        var id: String?
        var name: String
        var data: String
    }

    /// Opens `path` on the server at `address` (`http://127.0.0.1:PORT`) with `headers`.
    init(address: String, path: String, headers: [String: String]) throws {
        let url = URL(string: address)!
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_port = in_port_t(UInt16(url.port!).bigEndian)
        peer.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(socket); throw Failure("cannot connect to \(address)") }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(url.port!)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count - 1, 0) }
        guard let end = try readUntil([13, 10, 13, 10], seconds: 10) else { throw Failure("no response head") }
        head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeSubrange(..<(end + 4))
    }

    deinit { close(socket) }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The next event (comments skipped), or nil when none comes within `seconds`.
    func next(within seconds: Double) throws -> Event? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let end = try readUntil([10, 10], seconds: left) else { return nil }
            let block = String(decoding: Self.dechunked(buffer[..<end]), as: UTF8.self)
            buffer.removeSubrange(..<(end + 2))
            var event = Event(id: nil, name: "message", data: "")
            var hasData = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
                if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { event.data += String(line.dropFirst(6)); hasData = true }
            }
            if hasData { return event }
        }
    }

    /// The chunk-size lines of chunked transfer left out (they stand alone on their lines).
    private static func dechunked(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !(line.allSatisfy(\.isHexDigit) && !line.isEmpty)
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// Reads until `marker` is in the buffer (newlines compared without carriage returns for
    /// events); its offset, or nil at the deadline.
    private func readUntil(_ marker: [UInt8], seconds: Double) throws -> Int? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if marker == [10, 10] {
                buffer.removeAll { $0 == 13 }
            }
            if let found = Self.find(marker, in: buffer) { return found }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { throw Failure("the server closed the stream") }
            buffer += chunk[..<count]
        }
    }

    private static func find(_ marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) where bytes[start..<(start + marker.count)].elementsEqual(marker) { return start }
        return nil
    }
}
#endif
