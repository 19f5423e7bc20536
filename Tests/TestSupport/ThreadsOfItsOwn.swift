import Dispatch
import Testing

/// Runs a test's async code on threads of its own rather than on Swift's cooperative pool.
///
/// The cooperative pool has one thread per core (two on CI), and every test that computes or
/// waits for a child process synchronously holds one of them. A test whose progress depends on
/// wall time, such as one holding a PostgreSQL lock across `await`s while other connections wait on
/// it with a 30-second limit, can then be kept off both threads long enough for those waits to
/// expire (the CI run of 2026-11-24: an administrator's transaction starved while a layout test
/// and a killed-push test held the pool, and every test waiting on its lock failed at once).
/// Here the test runs on a concurrent queue that Dispatch widens with new threads when its jobs
/// block, so nothing else in the run can starve it, nor can it starve the rest.
public struct ThreadsOfItsOwn: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(QueueExecutor.shared) {
            // The preference takes effect when the task is next enqueued: a sleep always suspends,
            // so the test starts on the queue, not on whatever thread called this.
            try await Task.sleep(for: .milliseconds(1))
            try await function()
        }
    }
}

extension Trait where Self == ThreadsOfItsOwn {
    /// Runs each test of the suite on threads of its own, not on the cooperative pool.
    public static var threadsOfItsOwn: Self { ThreadsOfItsOwn() }
}

/// A task executor on a concurrent Dispatch queue (overcommitting: a blocked job gets a new thread).
public final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    public static let shared = QueueExecutor(label: "familytree.tests.threads-of-their-own")

    private let queue: DispatchQueue
    private static let identity = DispatchSpecificKey<ObjectIdentifier>()

    init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
        queue.setSpecific(key: Self.identity, value: ObjectIdentifier(self))
    }

    /// Whether the calling code runs on this executor's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.identity) == ObjectIdentifier(self) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

