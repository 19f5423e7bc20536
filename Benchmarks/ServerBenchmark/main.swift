// The server benchmark: `familytree serve` on PostgreSQL, as a process of its own, under load from
// this one over loopback. Run it in release mode with the traits and a PostgreSQL administrator:
//
//   swift build -c release --traits Server,PostgreSQL --scratch-path .build-release
//   FAMILYTREE_PG_URL=postgres://ADMIN:PW@127.0.0.1:5432/postgres \
//     .build-release/release/familytree-server-benchmark [--clients 200] [--seconds 60] [--documents 100000] [--idle 1000]
//
// 1. `--clients` clients (ten to a tree: an owner and nine helpers) each push a small edit and pull
//    what changed since, again and again for `--seconds`: throughput, latency, errors, the server's
//    memory, and afterwards every acknowledged edit looked up in the store (a lost edit is one the
//    store does not have at that version or later).
// 2. `--idle` connections opened and left idle: the server's memory per connection.
// 3. A first push and a first pull of a generated tree (`--documents` members) by the CLI, through
//    the server and straight to PostgreSQL, side by side (`--rounds`, alternating).
#if Server && PostgreSQL
import FamilyTree
import FamilyTreePostgres
import FamilyTreeRemote
import FamilyTreeSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: Options

/// Writes a line at once: a table must not be lost in a buffer if a later part fails.
func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

func option(_ name: String, _ fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let value = Int(arguments[index + 1]) else { return fallback }
    return value
}

let clientCount = option("--clients", 200)
let runSeconds = option("--seconds", 60)
let documentCount = option("--documents", 100_000)
let idleCount = option("--idle", 1000)
guard let adminURL = ProcessInfo.processInfo.environment["FAMILYTREE_PG_URL"], !adminURL.isEmpty else {
    fatalError("set FAMILYTREE_PG_URL to a PostgreSQL administrator's URL (scripts/postgres-start)")
}
let hostAndDatabase = adminURL[adminURL.index(after: adminURL.lastIndex(of: "@")!)...]
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("familytree").path
let run = String(UUID().uuidString.prefix(6)).lowercased()
let work = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-server-bench-\(run)")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

// MARK: Helpers

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Runs the CLI with `home` as its FAMILYTREE_HOME; standard input from `input`.
@discardableResult
func cli(_ arguments: [String], home: String, input: String = "") throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["FAMILYTREE_HOME": home]) { _, new in new }
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let error = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}

/// The server's resident memory (and its peak), in MB.
func memory(of pid: Int32) -> (resident: Double, peak: Double) {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Double {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
        return (Double(line.split(separator: " ").dropFirst().first.map(String.init) ?? "") ?? 0) / 1024
    }
    return (field("VmRSS:"), field("VmHWM:"))
}

/// Quantile of sorted values.
func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
}

// MARK: The server

let serverLogin = "bench_server_\(run)"
try await PostgresAdmin.createServerLogin(serverLogin, password: "pw-\(serverLogin)", adminURL: adminURL)
let serverStore = "postgres://\(serverLogin):pw-\(serverLogin)@\(hostAndDatabase)"
let serverLog = work.appendingPathComponent("server.log")
FileManager.default.createFile(atPath: serverLog.path, contents: nil)
let server = Process()
server.executableURL = URL(fileURLWithPath: binary)
// bcrypt at cost 10 (not 12): the setup signs 200 users in; the load itself signs nobody in.
server.arguments = ["serve", "--store", serverStore, "--port", "0", "--connections", "16", "--bcrypt-cost", "10"]
server.standardOutput = try FileHandle(forWritingTo: serverLog)
server.standardError = FileHandle.nullDevice
try server.run()
var address = ""
for _ in 0..<200 where address.isEmpty {
    try await Task.sleep(for: .milliseconds(50))
    address = ((try? String(contentsOf: serverLog, encoding: .utf8)) ?? "").split(separator: " ").last { $0.hasPrefix("http://") }?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
}
precondition(!address.isEmpty, "the server did not start")
defer { server.terminate() }
let serverAddress = try ServerAddress(address)
say("server: \(address) on PostgreSQL (\(serverLogin), 16 connections), pid \(server.processIdentifier)")

// MARK: 1. Load

/// An account with a token, made through an invite of `owner` (or added as an owner).
func account(_ user: String, password: String) async throws -> String {
    let client = ServerDocumentStore.client(serverAddress, token: nil)
    return try await client.createToken(body: .json(.init(user: user, password: password, label: "bench"))).created.body.json.token
}

struct Participant: Sendable {
    var user: String
    var tree: String
    var store: ServerDocumentStore
}

let trees = max(1, clientCount / 10)
var participants: [Participant] = []
let setupStart = ContinuousClock.now
for family in 0..<trees {
    let owner = "o\(family)_\(run)"
    _ = try cli(["serve", "add-user", owner, "--store", serverStore], home: work.path, input: "password-\(owner)\n")
    let ownerToken = try await account(owner, password: "password-\(owner)")
    let ownerStore = ServerDocumentStore(address: serverAddress, user: owner, token: ownerToken)
    participants.append(Participant(user: owner, tree: owner, store: ownerStore))
    for relative in 1..<10 where participants.count < clientCount {
        let user = "h\(family)x\(relative)_\(run)"
        let (link, _) = try await ownerStore.invite(tree: owner, role: .helper, invitee: nil, expiresInHours: 1)
        let code = String(link.split(separator: "/").last!)
        let client = ServerDocumentStore.client(serverAddress, token: nil)
        let joined = try await client.acceptInvite(path: .init(code: code), body: .json(.init(user: user, password: "password-\(user)", tokenLabel: "bench")))
        let token = try joined.created.body.json.token!.token
        participants.append(Participant(user: user, tree: owner, store: ServerDocumentStore(address: serverAddress, user: user, token: token)))
    }
}
say("setup: \(participants.count) accounts on \(trees) trees in \(String(format: "%.1f", seconds(ContinuousClock.now - setupStart))) s")

struct ClientResult: Sendable {
    var latencies: [Double] = []
    var pushes = 0
    var pulls = 0
    var errors: [String] = []
    /// The last acknowledged version and body of the client's document.
    var acknowledged: (key: DocumentKey, version: Int64, body: String)?
}

/// One run of the load: every client pushes an edit of its own document and pulls what changed
/// since, then waits `pause` (none: as fast as the server answers), until `runSeconds` are up.
func load(_ participants: [Participant], phase: String, pause: Duration) async throws -> String {
    let memoryBefore = memory(of: server.processIdentifier)
    let deadline = ContinuousClock.now + .seconds(runSeconds)
    let loadStart = ContinuousClock.now
    let results = await withTaskGroup(of: ClientResult.self) { group in
        for (index, participant) in participants.enumerated() {
            group.addTask {
                var result = ClientResult()
                let key = DocumentKey(.familyTree, "c\(index)-\(phase)")
                var version: Int64 = 0
                var cursor: Int64 = 0
                var edit = 0
                // Clients start spread over the first pause, as relatives would.
                if pause > .zero { try? await Task.sleep(for: pause * Double(index) / Double(participants.count)) }
                while ContinuousClock.now < deadline {
                    edit += 1
                    let body = #"{"firstName":"Client \#(index)","id":"c\#(index)-\#(phase)","lastName":"Bench","nickname":"edit \#(edit)"}"#
                    let pushStart = ContinuousClock.now
                    do {
                        let outcomes = try await participant.store.push(
                            user: participant.user, tree: participant.tree, [DocumentWrite(key: key, body: body, baseVersion: version)])
                        result.latencies.append(seconds(ContinuousClock.now - pushStart))
                        result.pushes += 1
                        switch outcomes.first {
                        case .applied(let newVersion, _)?:
                            version = newVersion
                            result.acknowledged = (key, newVersion, body)
                        case .unchanged(let held)?: version = held
                        case .conflict(let current)?:
                            version = current.version
                            result.errors.append("conflict on its own document")
                        case nil: result.errors.append("no outcome")
                        }
                    } catch {
                        result.errors.append("push: \(error)")
                    }
                    let pullStart = ContinuousClock.now
                    do {
                        let page = try await participant.store.pull(user: participant.user, tree: participant.tree, after: cursor, limit: 500)
                        result.latencies.append(seconds(ContinuousClock.now - pullStart))
                        result.pulls += 1
                        if let last = page.last { cursor = last.sequence }
                    } catch {
                        result.errors.append("pull: \(error)")
                    }
                    if pause > .zero { try? await Task.sleep(for: pause) }
                }
                return result
            }
        }
        var all: [ClientResult] = []
        for await result in group { all.append(result) }
        return all
    }
    let loadTime = seconds(ContinuousClock.now - loadStart)
    let memoryAfter = memory(of: server.processIdentifier)
    let latencies = results.flatMap(\.latencies).sorted()
    let requests = results.reduce(0) { $0 + $1.pushes + $1.pulls }
    let errors = results.flatMap(\.errors)
    if !errors.isEmpty { say("first errors: \(errors.prefix(5))") }

    // Every acknowledged edit is in the store: at a later version, or at its own with its body
    // (read as each tree's owner).
    var acknowledgedByKey: [DocumentKey: (version: Int64, body: String)] = [:]
    for result in results { if let acknowledged = result.acknowledged { acknowledgedByKey[acknowledged.key] = (acknowledged.version, acknowledged.body) } }
    var heldByKey: [DocumentKey: StoredDocument] = [:]
    for participant in participants where participant.user == participant.tree {
        for document in try await participant.store.pull(user: participant.user, tree: participant.tree, after: 0, limit: 100_000) {
            heldByKey[document.key] = document
        }
    }
    let lost = acknowledgedByKey.filter { key, acknowledged in
        guard let held = heldByKey[key] else { return true }
        return held.version < acknowledged.version || (held.version == acknowledged.version && held.body != acknowledged.body)
    }.count
    func ms(_ value: Double) -> String { String(format: "%.1f ms", value * 1000) }
    let pace = pause == .zero ? "none (as fast as answered)" : "\(Int(seconds(pause) * 1000)) ms"
    return "| \(pace) | \(requests) | \(String(format: "%.0f", Double(requests) / loadTime))/s | \(ms(quantile(latencies, 0.5))) | \(ms(quantile(latencies, 0.95))) | "
        + "\(ms(quantile(latencies, 0.99))) | \(String(format: "%.0f", (latencies.last ?? 0) * 1000)) ms | \(errors.count) | "
        + "\(lost) of \(acknowledgedByKey.count) (\(results.reduce(0) { $0 + $1.pushes }) pushes acknowledged) | "
        + "\(String(format: "%.0f", memoryBefore.resident)) → \(String(format: "%.0f", memoryAfter.resident)) MB (peak \(String(format: "%.0f", memoryAfter.peak))) |"
}

let paced = try await load(participants, phase: "paced", pause: .milliseconds(option("--pause-ms", 2000)))
let saturated = try await load(participants, phase: "saturated", pause: .zero)
say("""

## Load: \(participants.count) clients on \(trees) trees, \(runSeconds) s each, push an edit then pull what changed, PostgreSQL
| pause between a client's rounds | requests | throughput | p50 | p95 | p99 | max | errors | acknowledged edits lost | server memory |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---|
\(paced)
\(saturated)
""")

// MARK: 2. Idle connections

let idleBefore = memory(of: server.processIdentifier).resident
var sockets: [Int32] = []
let port = UInt16(URL(string: address)!.port!)
for _ in 0..<idleCount {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var socketAddress = sockaddr_in()
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = port.bigEndian
    socketAddress.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { close(descriptor); continue }
    // One request each, answered, then the connection is kept open and idle.
    let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    _ = request.withCString { write(descriptor, $0, strlen($0)) }
    var buffer = [UInt8](repeating: 0, count: 512)
    _ = read(descriptor, &buffer, buffer.count)
    sockets.append(descriptor)
}
try await Task.sleep(for: .seconds(2))
let idleAfter = memory(of: server.processIdentifier).resident
say("""

## \(sockets.count) idle connections
| server memory before | with them open | per connection |
|---:|---:|---:|
| \(String(format: "%.1f", idleBefore)) MB | \(String(format: "%.1f", idleAfter)) MB | \(String(format: "%.1f", (idleAfter - idleBefore) * 1024 / Double(max(1, sockets.count)))) KB |
""")
for descriptor in sockets { close(descriptor) }
// MARK: 3. A first push and pull through the server and straight to PostgreSQL

let tree = work.appendingPathComponent("tree.json").path
_ = try cli(["generate", "--members", "\(documentCount)", "--seed", "7", "-o", tree], home: work.path)
func timed(_ arguments: [String], home: String, input: String = "") throws -> Double {
    let start = ContinuousClock.now
    let result = try cli(arguments, home: home, input: input)
    guard result.status == 0 else {
        FileHandle.standardError.write(Data("familytree \(arguments.joined(separator: " ")) failed: \(result.error)\n".utf8))
        exit(1)
    }
    return seconds(ContinuousClock.now - start)
}

// Three rounds, each with users of its own, the two sides alternating (the machine is noisy).
var rounds: [(viaPush: Double, directPush: Double, viaPull: Double, directPull: Double)] = []
for round in 0..<option("--rounds", 3) {
    let directUser = "direct\(round)_\(run)", viaUser = "via\(round)_\(run)"
    try await PostgresAdmin.createUser(directUser, password: "pw-\(directUser)", adminURL: adminURL)
    let directStore = "postgres://\(directUser):pw-\(directUser)@\(hostAndDatabase)"
    _ = try cli(["serve", "add-user", viaUser, "--store", serverStore], home: work.path, input: "password-\(viaUser)\n")
    let home = work.appendingPathComponent("round\(round)").path
    for side in ["via", "via-pull"] {
        _ = try cli(["login", address, "--user", viaUser], home: "\(home)/\(side)", input: "password-\(viaUser)\n")
    }
    let directPush = try timed(["sync", "push", tree, "--user", directUser, "--store", directStore, "--new-tree"], home: "\(home)/direct")
    let viaPush = try timed(["sync", "push", tree, "--store", address, "--new-tree"], home: "\(home)/via")
    let viaPull = try timed(["sync", "pull", "-o", "\(home)/via-pulled.json", "--store", address], home: "\(home)/via-pull")
    let directPull = try timed(["sync", "pull", "--user", directUser, "--store", directStore, "-o", "\(home)/direct-pulled.json"], home: "\(home)/direct-pull")
    rounds.append((viaPush, directPush, viaPull, directPull))
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func list(_ values: [Double]) -> String { values.map { String(format: "%.2f", $0) }.joined(separator: ", ") }
let rows = [
    ("first push", rounds.map(\.viaPush), rounds.map(\.directPush)),
    ("first pull", rounds.map(\.viaPull), rounds.map(\.directPull)),
]
let documents = try TreeMirror.documents(of: JSONParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: tree)))).root).count
say("""

## A first push and pull of \(documents) documents (\(documentCount) members) by the CLI, \(rounds.count) rounds (median; each round)
| | through the server | straight to PostgreSQL | ratio of the medians |
|---|---:|---:|---:|
""")
for (name, via, direct) in rows {
    say("| \(name) | \(String(format: "%.2f", median(via))) s (\(list(via))) | \(String(format: "%.2f", median(direct))) s (\(list(direct))) | \(String(format: "%.2f", median(via) / median(direct)))x |")
}

try? FileManager.default.removeItem(at: work)
#else
print("familytree-server-benchmark needs the Server and PostgreSQL traits: swift build -c release --traits Server,PostgreSQL")
#endif
