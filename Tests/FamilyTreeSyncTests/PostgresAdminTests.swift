#if PostgreSQL
import Dispatch
@testable import FamilyTreePostgres
import FamilyTreeSync
import Foundation
import Logging
import PostgresNIO
import Testing
import TestSupport

/// The suites whose tests stall an administrator's client, one test after another: each holds the
/// other's waiting administrator to a time limit, and a dry run of 2026-11-26 saw both fail at the
/// same moment (other suites still make roles meanwhile, as users of the cluster would).
@Suite(.serialized, .threadsOfItsOwn, .requiresPostgreSQL)
struct PostgresAdministration {}

extension PostgresAdministration {
    /// The administrator's commands: a user's login role made from any name and password, and the
    /// administrators' lock held only while the server works, never while a client stalls.
    @Suite
    struct PostgresAdminTests {
        /// A name and a password made to break out of any quoting: both reach the server as they are.
        @Test func aHostileNameAndPasswordMakeExactlyThatRole() async throws {
            let admin = try PostgresTestServer.adminURL()
            let host = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
            let uid = "ft" + String(UInt32.random(in: .min ... .max), radix: 36) + "_o'b\"$$;--é\u{301}"
            let password = "p'w\"$$\\ \u{301}'; DROP ROLE familytree_app; --"
            try await PostgresAdmin.createUser(uid, password: password, adminURL: admin)
            func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
            let store = try await PostgresDocumentStore(url: "postgres://\(encoded(uid)):\(encoded(password))@\(host)")
            #expect(store.role == uid)
            let (key, body) = member("ada")
            #expect(try await store.push(user: uid, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
            await store.close()
            // Made again with a new password: the old one no longer logs in.
            try await PostgresAdmin.createUser(uid, password: "second", adminURL: admin)
            await #expect(throws: SyncError.self) {
                try await PostgresDocumentStore(url: "postgres://\(encoded(uid)):\(encoded(password))@\(host)")
            }
            let again = try await PostgresDocumentStore(url: "postgres://\(encoded(uid)):second@\(host)")
            #expect(try await again.pull(user: uid, after: 0, limit: 10).map(\.body) == [body])
            await again.close()
        }

        /// PostgreSQL keeps 63 bytes of a role's name: a longer user id is refused, not cut short.
        @Test func aUserIdLongerThanARoleNameIsRefused() async throws {
            let admin = try PostgresTestServer.adminURL()
            let prefix = "ft" + String(UInt32.random(in: .min ... .max), radix: 36) + "_"
            let longest = prefix + String(repeating: "é", count: (63 - prefix.utf8.count) / 2) + (prefix.utf8.count % 2 == 0 ? "x" : "")
            #expect(longest.utf8.count == 63)
            try await PostgresAdmin.createUser(longest, password: "pw", adminURL: admin)
            let host = admin[admin.index(after: admin.lastIndex(of: "@")!)...]
            let store = try await PostgresDocumentStore(url: "postgres://\(longest.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!):pw@\(host)")
            #expect(store.role == longest)
            await store.close()
            await #expect(throws: SyncError.store("a user id names a PostgreSQL role, at most 63 bytes; this one is 64")) {
                try await PostgresAdmin.createUser(longest + "y", password: "pw", adminURL: admin)
            }
        }

        /// An administrator whose client stalls at every step (a busy machine, a starved thread pool)
        /// keeps no other administrator waiting: while it stands still, another user is made at once.
        @Test func aStalledAdministratorKeepsNoOtherWaiting() async throws {
            let admin = try PostgresTestServer.adminURL()
            let prefix = "ft" + String(UInt32.random(in: .min ... .max), radix: 36)
            // The schema is in place first: installing it is the one thing administrators do in turn.
            try await PostgresAdmin.install(adminURL: admin)
            let stalls = try await SteppedExecutor.atEachStep(of: {
                try await PostgresAdmin.createUser(prefix + "_slow", password: "pw", adminURL: admin)
            }, another: { stall in
                try await PostgresAdmin.createUser(prefix + "_fast\(stall)", password: "pw", adminURL: admin)
            }, "another administrator waited more than 20 s while one stood still")
            #expect(stalls >= 3, "the client was stopped at each of its steps (\(stalls))")
        }
    }

    /// Installing the schema in a database that has none, as CI's fresh server does for the first
    /// tests at once: an installer whose client stalls at every step keeps no other waiting.
    @Suite
    struct PostgresInstallTests {
        @Test func aStalledInstallerKeepsNoOtherWaiting() async throws {
            let admin = try PostgresTestServer.adminURL()
            let database = "ft_install_" + String(UInt32.random(in: .min ... .max), radix: 36)
            let logger = Logger(label: "familytree.tests.install")
            let address = try PostgresURL(admin)
            let control = try await PostgresConnection.connect(configuration: try address.configuration(), id: 9, logger: logger)
            _ = try await control.rows(PostgresQuery(unsafeSQL: "CREATE DATABASE \(database)"), logger: logger)
            let fresh = String(admin[..<admin.lastIndex(of: "/")!]) + "/" + database
            // Whatever the installer has sent, the administrators' lock in its database is free within
            // moments: the server holds it only while it runs the installation.
            let stalls = try await SteppedExecutor.atEachStep(of: {
                try await PostgresAdmin.install(adminURL: fresh)
            }, another: { _ in
                let other = try await PostgresConnection.connect(configuration: try PostgresURL(fresh).configuration(), id: 10, logger: logger)
                try await other.inTransaction(logger: logger) {
                    _ = try await other.rows("SELECT pg_advisory_xact_lock(\(PostgresAdmin.administratorsLock))", logger: logger)
                }
                try await other.close()
            }, "the administrators' lock was held more than 20 s while the installer stood still")
            #expect(stalls >= 3, "the installer was stopped at each of its steps (\(stalls))")
            // Installed whole: a second installation finds it in place.
            try await PostgresAdmin.install(adminURL: fresh)
            _ = try await control.rows(PostgresQuery(unsafeSQL: "DROP DATABASE \(database) WITH (FORCE)"), logger: logger)
            try await control.close()
        }
    }
}

/// The watchdog that closes a connection whose server says nothing for too long.
@Suite(.threadsOfItsOwn, .requiresPostgreSQL)
struct PostgresWatchdogTests {
    /// An answer that came in time, awaited by a task that got a thread only after the limit (a
    /// busy machine), leaves the connection open: the watchdog stops as the answer arrives.
    @Test func anAnswerAwaitedPastItsLimitLeavesTheConnectionOpen() async throws {
        let logger = Logger(label: "familytree.tests.watchdog")
        let address = try PostgresURL(try PostgresTestServer.adminURL())
        let connection = try await PostgresConnection.connect(configuration: try address.configuration(), id: 7, logger: logger)
        let stepped = SteppedExecutor()
        let done = Flag()
        let query = Task(executorPreference: stepped) {
            defer { done.set() }
            return try await connection.rows("SELECT 1", logger: logger, timeout: .milliseconds(300)).count
        }
        // The task sends the query, then stands still: the answer comes, the limit passes.
        #expect(await stepped.waitForNextJob(orUntil: done))
        stepped.step()
        try await Task.sleep(for: .milliseconds(900))
        stepped.runFreely()
        #expect(try await query.value == 1)
        #expect(!connection.isClosed, "the watchdog closed a connection whose answer had come")
        #expect(try await connection.rows("SELECT 2", logger: logger).count == 1)
        try await connection.close()
    }

    /// A server that does not answer in time has the connection closed, and the query fails with
    /// the limit rather than hanging.
    @Test func aServerSilentPastTheLimitFailsTheQuery() async throws {
        let logger = Logger(label: "familytree.tests.watchdog")
        let address = try PostgresURL(try PostgresTestServer.adminURL())
        let connection = try await PostgresConnection.connect(configuration: try address.configuration(), id: 8, logger: logger)
        await #expect(throws: SyncError.store("no answer from the server in 1 s")) {
            try await connection.rows("SELECT pg_sleep(5)", logger: logger, timeout: .seconds(1))
        }
        #expect(connection.isClosed)
    }
}

extension SteppedExecutor {
    /// Runs `slow` on a stepped executor that stops it before each of its steps, and at every stop
    /// runs `another` (on the suite's own threads), which must finish within 20 s: what `slow` has
    /// sent by then must keep no one waiting. Returns how many stops there were.
    ///
    /// A lock held by the stalled client would keep `another` waiting until its queries' own limit
    /// (30 s), so any shorter limit finds it; a generous one keeps a busy machine from failing the
    /// test. When it fails, the message lists what every session on the server is doing, to tell a
    /// lock from a slow machine.
    static func atEachStep(
        of slow: @escaping @Sendable () async throws -> Void, another: @escaping @Sendable (Int) async throws -> Void,
        _ failure: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int {
        let stepped = SteppedExecutor()
        let slowDone = Flag()
        let slowTask = Task(executorPreference: stepped) {
            defer { slowDone.set() }
            try await slow()
        }
        // However this ends, the stalled task is let go: it must not hold its transaction open.
        defer { stepped.runFreely() }
        var stalls = 0
        while await stepped.waitForNextJob(orUntil: slowDone) {
            stalls += 1
            let started = ContinuousClock.now
            let fastDone = Flag()
            let stall = stalls
            // On the suite's own threads: a pool held by the rest of the run must not be what it waits for.
            let fast = Task(executorPreference: QueueExecutor.shared) {
                defer { fastDone.set() }
                try await another(stall)
            }
            while !fastDone.isSet, ContinuousClock.now - started < .seconds(20) {
                try await Task.sleep(for: .milliseconds(20))
            }
            let finished = fastDone.isSet
            if !finished {
                let activity = await PostgresTestServer.activity()
                Issue.record("\(failure), at its step \(stalls); the server's sessions:\n\(activity)", sourceLocation: sourceLocation)
                // Let the stalled one finish so the waiting one can; then stop.
                stepped.runFreely()
                _ = try? await fast.value
                break
            }
            try await fast.value
            stepped.step()
        }
        try await slowTask.value
        return stalls
    }
}

extension PostgresTestServer {
    /// Every client's session on the server that is busy or keeps another waiting: its state, what
    /// it waits on and for whom, and the start of its query; or why that could not be read.
    static func activity() async -> String {
        let logger = Logger(label: "familytree.tests.activity")
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try PostgresURL(try adminURL()).configuration(), id: 11, logger: logger)
        } catch {
            return "  (not read: \(error))"
        }
        let listing: String
        do {
            let rows = try await connection.rows("""
                SELECT pid, coalesce(datname, ''), coalesce(state, ''), coalesce(wait_event_type || ':' || wait_event, ''),
                       pg_blocking_pids(pid)::text, left(regexp_replace(coalesce(query, ''), '\\s+', ' ', 'g'), 100)
                FROM pg_stat_activity
                WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND (state IS DISTINCT FROM 'idle'
                      OR pid IN (SELECT unnest(pg_blocking_pids(waiting.pid)) FROM pg_stat_activity waiting))
                """, logger: logger)
            listing = try rows.map { row in
                let (pid, database, state, wait, blockers, query) = try row.decode((Int32, String, String, String, String, String).self)
                return "  \(pid) \(database) \(state) waits \(wait.isEmpty ? "-" : wait) on \(blockers): \(query)"
            }.joined(separator: "\n")
        } catch {
            listing = "  (not read: \(error))"
        }
        try? await connection.close()
        return listing
    }
}

/// A task executor that runs a job only when the test says so: between steps, its task stands still.
final class SteppedExecutor: TaskExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [UnownedJob] = []
    private var free = false
    private let queue = DispatchQueue(label: "familytree.tests.stepped")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let runNow = lock.withLock {
            if !free { pending.append(job) }
            return free
        }
        if runNow { run(job) }
    }

    private func run(_ job: UnownedJob) {
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs the oldest waiting job.
    func step() {
        let job = lock.withLock { pending.isEmpty ? nil : pending.removeFirst() }
        if let job { run(job) }
    }

    /// Runs every job from now on as it comes.
    func runFreely() {
        let jobs = lock.withLock {
            free = true
            defer { pending.removeAll() }
            return pending
        }
        jobs.forEach(run)
    }

    /// Waits until a job waits for its step (true) or `done` is set (false).
    func waitForNextJob(orUntil done: Flag) async -> Bool {
        while true {
            if lock.withLock({ !pending.isEmpty }) { return true }
            if done.isSet { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A flag one task sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
#endif
