import Dispatch
import FamilyTreeSync
import Foundation
import FuzzSupport
import GRDB

/// The embedded store's file, edited by anyone with write access: the input sets columns of a
/// small store to values of any SQLite type (integer, real, text, blob, null), and every reader
/// (pull, log, role, members, trees, a push over the edited rows) answers or throws `SyncError`,
/// never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = fuzzInput(start, count)[...]
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-store-\(getpid()).sqlite").path
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    runBlocking {
        // A store as the app leaves it: alice's tree, shared with bob, with its log.
        guard let store = try? SQLiteDocumentStore(path: path) else { fatalError("invariant broken: a new store did not open") }
        let members = ["ada", "karl", "mei"].map { DocumentWrite(key: DocumentKey(.familyTree, $0), body: #"{"id":"\#($0)","firstName":"\#($0)"}"#, baseVersion: 0) }
        _ = try? await store.push(user: "alice", tree: "alice", members)
        try? await store.share(tree: "alice", as: "alice", with: "bob", role: .helper)
    }
    // The edits the input asks for, each: a table and column, a value type, a length, the value.
    let columns = [
        ("documents", "body"), ("documents", "version"), ("documents", "deleted"), ("documents", "seq"), ("documents", "doc_id"), ("documents", "collection"),
        ("owners", "last_seq"), ("memberships", "role"), ("memberships", "granted_at"), ("memberships", "member_uid"),
        ("audit", "version"), ("audit", "seq"), ("audit", "changed_at"), ("audit", "changed_by"), ("audit", "deleted"),
    ]
    if let database = try? DatabaseQueue(path: path) {
        while input.count >= 3 {
            let (table, column) = columns[Int(input.removeFirst()) % columns.count]
            let kind = input.removeFirst() % 5
            let length = Int(input.removeFirst()) % 24
            let raw = Array(input.prefix(length))
            input = input.dropFirst(length)
            let value: DatabaseValue = switch kind {
            case 0: Int64(truncatingIfNeeded: raw.reduce(0) { $0 << 8 | UInt64($1) }).databaseValue
            case 1: Double(bitPattern: raw.reduce(0) { $0 << 8 | UInt64($1) }).databaseValue
            case 2: String(decoding: raw, as: UTF8.self).databaseValue
            case 3: Data(raw).databaseValue
            default: .null
            }
            // Constraints may refuse an edit (NOT NULL, CHECK); the store then stays as it was.
            try? database.write { try $0.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE rowid IN (SELECT rowid FROM \(table) LIMIT 1)", arguments: [value]) }
        }
        try? database.close()
    }
    runBlocking {
        guard let edited = try? SQLiteDocumentStore(path: path) else { return }
        // Every reader answers or throws SyncError (the typed throws say so); none may trap.
        _ = try? await edited.pull(user: "alice", tree: "alice", after: 0, limit: 100)
        _ = try? await edited.pull(user: "bob", tree: "alice", after: 1, limit: 100)
        _ = try? await edited.log(of: "alice", as: "alice", key: nil, limit: 100)
        _ = try? await edited.role(of: "bob", in: "alice")
        _ = try? await edited.members(of: "alice", as: "alice")
        _ = try? await edited.trees(of: "bob")
        _ = try? await edited.push(user: "bob", tree: "alice", [DocumentWrite(key: DocumentKey(.familyTree, "ada"), body: #"{"id":"ada"}"#, baseVersion: 1)])
    }
    return 0
}

/// Runs async work to its end on a thread of its own (libFuzzer calls in synchronously).
func runBlocking(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await work()
        done.signal()
    }
    done.wait()
}
