import FamilyTreeRemote
import FamilyTreeSync
import Foundation
import Testing
import TestSupport

/// Where the CLI may send a token, and how it keeps it: in the default build too.
@Suite struct ServerAddressTests {
    @Test func plainHTTPOnlyToThisMachine() throws {
        for address in ["http://127.0.0.1:8080", "http://localhost:8080/", "http://[::1]:8080", "https://family.example.org"] {
            #expect(throws: Never.self, "\(address)") { try ServerAddress(address) }
        }
        // A name that starts like a loopback address is another machine.
        for address in ["http://127.example.org", "http://127.0.0.1.nip.io:8080", "http://family.example.org", "ftp://127.0.0.1",
                        "https://bob:pw@family.example.org", "https://family.example.org?x=1", "not an address"] {
            #expect(throws: SyncError.self, "\(address)") { try ServerAddress(address) }
        }
        #expect(try ServerAddress("https://family.example.org/invite/CODE").root == "https://family.example.org")
        #expect(try ServerAddress("http://127.0.0.1:8080///").apiURL.absoluteString == "http://127.0.0.1:8080/api/v1")
    }

    @Test func signInsAreKeptForTheOwnerOnlyAndSurviveALeftoverTemporaryFile() throws {
        let folder = try ScratchFolder("credentials")
        let path = folder.path("home/credentials.json").path
        let credentials = ServerCredentials(path: path)
        let address = try ServerAddress("https://family.example.org")
        #expect(try credentials.login(for: address) == nil)
        try credentials.save(.init(user: "alice", token: "ft_secret", tokenID: "t1"), for: address)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A temporary file left by a killed run with this process's id does not block the next write.
        try "half".write(toFile: path + ".\(ProcessInfo.processInfo.processIdentifier).tmp", atomically: false, encoding: .utf8)
        let other = try ServerAddress("http://127.0.0.1:8080")
        try credentials.save(.init(user: "bob", token: "ft_other", tokenID: "t2"), for: other)
        #expect(try credentials.login(for: address)?.token == "ft_secret")
        #expect(try credentials.login(for: other)?.user == "bob")
        #expect(try credentials.remove(for: address)?.user == "alice")
        #expect(try credentials.logins().keys.sorted() == ["http://127.0.0.1:8080"])
        // A file that is not sign-ins is an error in words, not an empty list.
        try "{".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: SyncError.self) { try credentials.logins() }
    }

    @Test func signInsToManyServersAtOnceAreAllKept() throws {
        let folder = try ScratchFolder("credentials")
        let path = folder.path("home/credentials.json").path
        // Twenty sign-ins at once, each through its own value (as from twenty terminals).
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            do {
                try ServerCredentials(path: path).save(.init(user: "u\(index)", token: "ft_\(index)", tokenID: "t\(index)"), for: ServerAddress("https://s\(index).example.org"))
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let logins = try ServerCredentials(path: path).logins()
        #expect(logins.count == 20)
        #expect(logins["https://s7.example.org"]?.token == "ft_7")
        // And twenty sign-outs at once leave none.
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            _ = try? ServerCredentials(path: path).remove(for: ServerAddress("https://s\(index).example.org"))
        }
        #expect(try ServerCredentials(path: path).logins().isEmpty)
    }
}

/// Errors collected from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func add(_ failure: String) { lock.withLock { collected.append(failure) } }
    var all: [String] { lock.withLock { collected } }
}
