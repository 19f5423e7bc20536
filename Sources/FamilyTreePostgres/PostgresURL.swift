#if PostgreSQL
import FamilyTreeSync

/// `postgres://user:password@host:port/database`, read without Foundation.
struct PostgresURL {
    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String

    init(_ url: String, environment password: String? = nil) throws(SyncError) {
        let schemes = ["postgres://", "postgresql://"]
        guard let scheme = schemes.first(where: { url.hasPrefix($0) }) else { throw .unsupportedStore(url) }
        var rest = Substring(url.dropFirst(scheme.count))
        var userInfo: Substring = ""
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        let hostPort = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let database = hostPort.count > 1 ? String(hostPort[1].split(separator: "?").first ?? "") : ""
        let hostParts = hostPort[0].split(separator: ":", maxSplits: 1)
        let userParts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let host = hostParts.first, !host.isEmpty, let user = userParts.first, !user.isEmpty else {
            throw .unsupportedStore(url)
        }
        self.host = String(host)
        self.port = hostParts.count > 1 ? Int(hostParts[1]) ?? 5432 : 5432
        self.user = Self.percentDecoded(user)
        self.password = userParts.count > 1 ? Self.percentDecoded(userParts[1]) : password
        self.database = database.isEmpty ? self.user : Self.percentDecoded(Substring(database))
    }

    /// The address without the password, for messages.
    var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
#endif
