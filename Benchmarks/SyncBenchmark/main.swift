// The sync benchmark: push, first pull and incremental pull of generated member documents against
// each store in one run. Run it in release mode:
//
//   swift run -c release familytree-sync-benchmark [--members 100000]
//   FAMILYTREE_PG_URL=postgres://ADMIN:PW@127.0.0.1:5432/postgres \
//     swift run -c release --traits PostgreSQL familytree-sync-benchmark
import FamilyTree
import FamilyTreeSync
import Foundation
#if PostgreSQL
import FamilyTreePostgres
#endif

struct Measurement {
    var store: String
    var push: Duration
    var firstBatch: Duration
    var lastBatch: Duration
    var batches: Int
    var firstPull: Duration
    var incrementalPull: Duration
    var pulledIncrementally: Int
}

func seconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return value < 1 ? String(format: "%.0f ms", value * 1000) : String(format: "%.2f s", value)
}

/// Timestamps of the progress callbacks, one per pushed batch.
final class BatchClock: @unchecked Sendable {
    private let lock = NSLock()
    private var marks: [ContinuousClock.Instant] = []
    func mark() { lock.lock(); marks.append(.now); lock.unlock() }
    func durations(from start: ContinuousClock.Instant) -> [Duration] {
        lock.lock(); defer { lock.unlock() }
        return zip([start] + marks, marks).map { $1 - $0 }
    }
}

func measure(name: String, user: String, store: any DocumentStore, documents: [DocumentKey: String]) async throws -> Measurement {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-sync-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    var writer = try SyncSession(store: store, state: try LocalSyncState(path: directory.appendingPathComponent("a.sqlite").path), user: user)
    let clock = BatchClock()
    writer.progress = { _, _ in clock.mark() }
    let pushStart = ContinuousClock.now
    let pushed = try await writer.push(documents)
    let push = ContinuousClock.now - pushStart
    let batches = clock.durations(from: pushStart)
    precondition(pushed.applied == documents.count, "pushed \(pushed.applied) of \(documents.count)")

    let reader = try SyncSession(store: store, state: try LocalSyncState(path: directory.appendingPathComponent("b.sqlite").path), user: user)
    let pullStart = ContinuousClock.now
    let first = try await reader.pull(merging: nil)
    let firstPull = ContinuousClock.now - pullStart
    precondition(first.documents.count == documents.count)

    // 1,000 members edited on the first device, then pulled by the second.
    var edited = documents
    for key in documents.keys.sorted().prefix(1_000) {
        guard case .object(var fields) = try JSONParser.parse(documents[key]!).root else { continue }
        fields["notes"] = .string("edited")
        edited[key] = JSONWriter.compactString(from: .object(fields))
    }
    writer.progress = nil
    _ = try await writer.push(edited)
    let incrementalStart = ContinuousClock.now
    let incremental = try await reader.pull(merging: first.documents)
    let incrementalPull = ContinuousClock.now - incrementalStart
    if incremental.documents != edited {
        let differing = edited.keys.filter { incremental.documents[$0] != edited[$0] }.sorted().prefix(3)
        for key in differing { print("\(key): pulled \(incremental.documents[key] ?? "nil") expected \(edited[key]!)") }
        print("\(incremental.documents.count) pulled vs \(edited.count), \(incremental.pulled) changes")
        fatalError("the second device does not hold what the first pushed")
    }
    return Measurement(
        store: name, push: push, firstBatch: batches.first ?? .zero, lastBatch: batches.last ?? .zero, batches: batches.count,
        firstPull: firstPull, incrementalPull: incrementalPull, pulledIncrementally: incremental.pulled
    )
}

/// A helper's push to a shared tree against the owner's own, side by side: 10,000 member edits a
/// push, owner and helper taking turns (each pulls the other's edits first, untimed), three rounds.
func sharedRounds(name: String, owner: String, ownerStore: any DocumentStore, helper: String, helperStore: any SharedTreeStore, documents: [DocumentKey: String]) async throws -> (owner: [Duration], helper: [Duration]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-sync-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ownerSession = try SyncSession(store: ownerStore, state: try LocalSyncState(path: directory.appendingPathComponent("o.sqlite").path), user: owner)
    let helperSession = try SyncSession(store: helperStore, state: try LocalSyncState(path: directory.appendingPathComponent("h.sqlite").path), user: helper, tree: owner)
    _ = try await ownerSession.push(documents)
    try await (ownerStore as! any SharedTreeStore).share(tree: owner, as: owner, with: helper, role: .helper)
    var ownerCopy = try await ownerSession.pull(merging: documents).documents
    var helperCopy = try await helperSession.pull(merging: nil).documents
    func edited(_ copy: [DocumentKey: String], _ note: String) throws -> [DocumentKey: String] {
        var result = copy
        for (key, body) in copy where key.collection == .familyTree {
            guard case .object(var fields) = try JSONParser.parse(body).root else { continue }
            fields["notes"] = .string(note)
            result[key] = JSONWriter.compactString(from: .object(fields))
        }
        return result
    }
    var times: (owner: [Duration], helper: [Duration]) = ([], [])
    for round in 1...3 {
        ownerCopy = try await ownerSession.pull(merging: ownerCopy).documents
        let ownerEdits = try edited(ownerCopy, "owner \(round)")
        var start = ContinuousClock.now
        let ownerPush = try await ownerSession.push(ownerEdits)
        times.owner.append(ContinuousClock.now - start)
        precondition(ownerPush.applied == documents.count, "\(name): the owner applied \(ownerPush.applied)")
        ownerCopy = ownerPush.documents

        helperCopy = try await helperSession.pull(merging: helperCopy).documents
        let helperEdits = try edited(helperCopy, "helper \(round)")
        start = ContinuousClock.now
        let helperPush = try await helperSession.push(helperEdits)
        times.helper.append(ContinuousClock.now - start)
        precondition(helperPush.applied == documents.count, "\(name): the helper applied \(helperPush.applied)")
        helperCopy = helperPush.documents
    }
    return times
}

var members = 100_000
if let index = CommandLine.arguments.firstIndex(of: "--members"), index + 1 < CommandLine.arguments.count, let value = Int(CommandLine.arguments[index + 1]) {
    members = value
}
let generated = TreeGenerator(memberCount: members, seed: 1).generate()
let documents = try TreeMirror.documents(of: generated.jsonValue).filter { $0.key.collection == .familyTree }
print("\(documents.count) member documents, \(documents.values.reduce(0) { $0 + $1.utf8.count } / documents.count) bytes each on average\n")

var results: [Measurement] = []
let sqlitePath = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-sync-bench-\(UUID().uuidString).sqlite").path
results.append(try await measure(name: "SQLite", user: "bench", store: try SQLiteDocumentStore(path: sqlitePath), documents: documents))
for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sqlitePath + suffix) }

#if PostgreSQL
if let admin = ProcessInfo.processInfo.environment["FAMILYTREE_PG_URL"] {
    let uid = "bench_" + String(UInt32.random(in: .min ... .max), radix: 36)
    try await PostgresAdmin.createUser(uid, password: "pw-\(uid)", adminURL: admin)
    let host = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
    results.append(try await measure(name: "PostgreSQL", user: uid, store: try await PostgresDocumentStore(url: "postgres://\(uid):pw-\(uid)@\(host)"), documents: documents))
} else {
    print("PostgreSQL: FAMILYTREE_PG_URL is not set (scripts/postgres-start starts a server)\n")
}
#else
print("PostgreSQL: not in this build (--traits PostgreSQL)\n")
#endif

print("| store | push \(documents.count) | batches | batch 1 | batch \(results.first?.batches ?? 0) | first pull | incremental pull (1,000 changes) |")
print("|---|---:|---:|---:|---:|---:|---:|")
for result in results {
    print("| \(result.store) | \(seconds(result.push)) | \(result.batches) | \(seconds(result.firstBatch)) | \(seconds(result.lastBatch)) | \(seconds(result.firstPull)) | \(seconds(result.incrementalPull)) (\(result.pulledIncrementally) documents) |")
}

// Shared trees: a helper's push against the owner's, same store, same run.
let sharedDocuments = Dictionary(uniqueKeysWithValues: documents.sorted { $0.key < $1.key }.prefix(10_000).map { ($0.key, $0.value) })
print("")
print("Shared tree: \(sharedDocuments.count) member edits a push, owner and helper in turns, three rounds")
print("")
print("| store | owner's pushes | helper's pushes | helper / owner (medians) |")
print("|---|---|---|---:|")
func shared(_ name: String, _ times: (owner: [Duration], helper: [Duration])) {
    let ownerMedian = times.owner.sorted()[times.owner.count / 2], helperMedian = times.helper.sorted()[times.helper.count / 2]
    let ratio = (Double(helperMedian.components.seconds) + Double(helperMedian.components.attoseconds) / 1e18)
        / (Double(ownerMedian.components.seconds) + Double(ownerMedian.components.attoseconds) / 1e18)
    print("| \(name) | \(times.owner.map(seconds).joined(separator: ", ")) | \(times.helper.map(seconds).joined(separator: ", ")) | \(String(format: "%.2f", ratio)) |")
}
let sharedPath = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-sync-bench-\(UUID().uuidString).sqlite").path
let sharedSQLite = try SQLiteDocumentStore(path: sharedPath)
shared("SQLite", try await sharedRounds(name: "SQLite", owner: "owner", ownerStore: sharedSQLite, helper: "helper", helperStore: sharedSQLite, documents: sharedDocuments))
for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sharedPath + suffix) }
#if PostgreSQL
if let admin = ProcessInfo.processInfo.environment["FAMILYTREE_PG_URL"] {
    let tag = String(UInt32.random(in: .min ... .max), radix: 36)
    let (owner, helper) = ("owner_" + tag, "helper_" + tag)
    let host = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
    for uid in [owner, helper] { try await PostgresAdmin.createUser(uid, password: "pw-\(uid)", adminURL: admin) }
    let ownerStore = try await PostgresDocumentStore(url: "postgres://\(owner):pw-\(owner)@\(host)")
    let helperStore = try await PostgresDocumentStore(url: "postgres://\(helper):pw-\(helper)@\(host)")
    shared("PostgreSQL", try await sharedRounds(name: "PostgreSQL", owner: owner, ownerStore: ownerStore, helper: helper, helperStore: helperStore, documents: sharedDocuments))
}
#endif
