#if PostgreSQL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FamilyTreeSync

/// `postgres://user:password@host:port/database?sslmode=verify-full&sslrootcert=ca.pem`, read
/// without Foundation.
struct PostgresURL {
    /// How the connection is encrypted, libpq's `sslmode` words.
    enum TLSMode: String {
        /// No TLS.
        case disable
        /// TLS when the server has it, without checking its certificate (`allow` reads the same).
        case prefer
        /// TLS or no connection, without checking the certificate.
        case require
        /// TLS, the certificate signed by a trusted root (`sslrootcert`, else the system's).
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate names the host.
        case verifyFull = "verify-full"
    }

    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    var tlsMode: TLSMode
    /// A PEM file of the roots to trust (`sslrootcert`).
    var rootCertificate: String?

    /// Reads `url`; the password, when the URL has none, comes from `environment` (`PGPASSWORD`),
    /// then the password file (`PGPASSFILE`, else `~/.pgpass`). Without `sslmode`, a host other
    /// than this machine requires TLS.
    init(_ url: String, environment password: String? = nil, passwordFile: String? = PostgresURL.defaultPasswordFile()) throws(SyncError) {
        let schemes = ["postgres://", "postgresql://"]
        guard let scheme = schemes.first(where: { url.hasPrefix($0) }) else { throw .unsupportedStore(url) }
        var rest = Substring(url.dropFirst(scheme.count))
        var query: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[Self.percentDecoded(parts[0])] = parts.count > 1 ? Self.percentDecoded(parts[1]) : ""
            }
            rest = rest[..<mark]
        }
        var userInfo: Substring = ""
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        let hostPort = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let database = hostPort.count > 1 ? String(hostPort[1]) : ""
        let hostParts = hostPort[0].split(separator: ":", maxSplits: 1)
        let userParts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let host = hostParts.first, !host.isEmpty, let user = userParts.first, !user.isEmpty else {
            throw .unsupportedStore(url)
        }
        self.host = String(host)
        self.port = hostParts.count > 1 ? Int(hostParts[1]) ?? 5432 : 5432
        self.user = Self.percentDecoded(user)
        self.database = database.isEmpty ? self.user : Self.percentDecoded(Substring(database))
        if let mode = query["sslmode"] {
            guard let parsed = TLSMode(rawValue: mode == "allow" ? "prefer" : mode) else {
                throw .unsupportedStore("sslmode=\(mode): use disable, prefer, require, verify-ca or verify-full")
            }
            tlsMode = parsed
        } else {
            tlsMode = Self.isLoopback(self.host) ? .disable : .require
        }
        rootCertificate = query["sslrootcert"]
        if tlsMode == .verifyCA || tlsMode == .verifyFull, let root = rootCertificate, access(root, R_OK) != 0 {
            throw .store("sslrootcert=\(root): cannot read that file")
        }
        self.password = userParts.count > 1 ? Self.percentDecoded(userParts[1])
            : password ?? passwordFile.flatMap { Self.password(inFile: $0, host: self.host, port: self.port, database: self.database, user: self.user) }
    }

    /// The address without the password, for messages.
    var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    static func isLoopback(_ host: String) -> Bool {
        ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
    }

    static func defaultPasswordFile() -> String? {
        if let file = getenv("PGPASSFILE") { return String(cString: file) }
        return getenv("HOME").map { String(cString: $0) + "/.pgpass" }
    }

    /// The password libpq's password file gives for this connection: the first line
    /// `host:port:database:user:password` whose fields match (`*` matches anything; `\:` and `\\`
    /// are a colon and a backslash). Like libpq, a file that others may read is not used.
    static func password(inFile path: String, host: String, port: Int, database: String, user: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 == 0, let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let text = line.map({ String(cString: $0) }) {
            let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
            guard !trimmed.hasPrefix("#") else { continue }
            var fields: [String] = [""]
            var escaped = false
            for character in trimmed {
                if escaped { fields[fields.count - 1].append(character); escaped = false } else if character == "\\" { escaped = true } else if character == ":", fields.count < 5 { fields.append("") } else { fields[fields.count - 1].append(character) }
            }
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

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
