import FamilyTreeSync
import Foundation

/// A familytree server's address: `https://family.example.org`, or plain `http://` on this
/// machine only (a token must never cross a network in clear text).
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The server's root, without a trailing slash.
    public let root: String

    /// Reads an address; an invite link (`…/invite/CODE`) gives its server's.
    public init(_ text: String) throws(SyncError) {
        var text = text.trimmingCharacters(in: .whitespaces)
        if let range = text.range(of: "/invite/") { text = String(text[..<range.lowerBound]) }
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw .unsupportedStore("\(text.prefix(200)) is not a server address: use https://HOST[:PORT]")
        }
        if scheme == "http", !Self.isLoopback(host) {
            throw .unsupportedStore("\(text.prefix(200)): a server on another machine must be reached over https://, or the token crosses the network in clear text")
        }
        root = text
    }

    /// The API's base: `ROOT/api/v1`.
    public var apiURL: URL { URL(string: root + "/api/v1")! }

    public var description: String { root }

    /// Whether `url` names a server rather than a store (`http://` or `https://`).
    public static func isServer(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// `localhost`, `::1` or an IPv4 address 127.x.y.z; a name that merely starts with `127.`
    /// (`127.example.org`) is another machine.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// This device's sign-ins to servers: a personal access token per server address, in one JSON
/// file readable by its owner only (mode 0600), never on a command line.
public struct ServerCredentials: Sendable {
    /// One sign-in.
    public struct Login: Codable, Sendable, Hashable {
        public var user: String
        public var token: String
        public var tokenID: String

        public init(user: String, token: String, tokenID: String) {
            self.user = user
            self.token = token
            self.tokenID = tokenID
        }
    }

    /// The file (`~/.familytree/credentials.json`).
    public let path: String

    public init(path: String) { self.path = path }

    /// Every sign-in, by server address.
    public func logins() throws(SyncError) -> [String: Login] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        do {
            return try JSONDecoder().decode([String: Login].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .store("cannot read the sign-ins in \(path): \(error.localizedDescription)")
        }
    }

    /// The sign-in to `address`, if any.
    public func login(for address: ServerAddress) throws(SyncError) -> Login? { try logins()[address.root] }

    /// Keeps `login` for `address`, replacing an earlier one.
    public func save(_ login: Login, for address: ServerAddress) throws(SyncError) {
        try changingAlone { () throws(SyncError) in
            var all = try logins()
            all[address.root] = login
            try write(all)
        }
    }

    /// Forgets the sign-in to `address`; returns what was kept.
    @discardableResult
    public func remove(for address: ServerAddress) throws(SyncError) -> Login? {
        try changingAlone { () throws(SyncError) -> Login? in
            var all = try logins()
            let removed = all.removeValue(forKey: address.root)
            if removed != nil { try write(all) }
            return removed
        }
    }

    /// Runs a read-change-write of the file while holding an exclusive lock on `path.lock`: two
    /// sign-ins at once (to two servers, from two terminals) both end up in the file.
    private func changingAlone<T>(_ change: () throws(SyncError) -> T) throws(SyncError) -> T {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .store("cannot make the folder for the sign-ins, \(folder.path): \(error.localizedDescription)")
        }
        let descriptor = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .store("cannot lock the sign-ins in \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .store("cannot lock the sign-ins in \(path): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try change()
    }

    /// Written whole to a new file of mode 0600 and renamed over the old one: never half-written,
    /// never readable by others even for a moment.
    private func write(_ logins: [String: Login]) throws(SyncError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(logins)
            let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        } catch {
            throw .store("cannot write the sign-ins to \(path): \(error.localizedDescription)")
        }
    }
}
