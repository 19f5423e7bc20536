import Dispatch
import Testing
import TestSupport

/// A suite on threads of its own runs there from start to end, whoever resumes it, and keeps going
/// while the cooperative pool is held.
@Suite(.threadsOfItsOwn) struct ThreadsOfItsOwnTests {
    @Test func theTestChildTasksAndResumptionsRunOnTheSuitesOwnQueue() async {
        #expect(QueueExecutor.shared.isCurrent)
        // A child task inherits the preference.
        async let child = QueueExecutor.shared.isCurrent
        #expect(await child)
        // Resumed from a thread of another queue (as postgres-nio resumes from its event loop).
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { continuation.resume() }
        }
        #expect(QueueExecutor.shared.isCurrent)
    }

    @Test func aTestGoesOnWhileThePoolIsHeld() async throws {
        // Detached tasks prefer no executor: they run on the cooperative pool, one per core, and
        // block there until released.
        let width = 8
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            Task.detached {
                started.signal()
                release.wait()
            }
        }
        defer { for _ in 0..<width { release.signal() } }
        // On the pool this test could not go on until they are released: a timer releases them
        // after 10 s, so that case fails below instead of hanging the run.
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { for _ in 0..<width { release.signal() } }
        // However many of them hold the pool (other tests may hold it too), this test's own child
        // tasks and continuations run.
        _ = started.wait(timeout: .now() + 1)
        let clock = ContinuousClock()
        let start = clock.now
        async let child = (1...1_000).reduce(0, +)
        await Task.yield()
        #expect(await child == 500_500)
        try await Task.sleep(for: .milliseconds(10))
        #expect(clock.now - start < .seconds(5), "the test's own work waited for the pool")
    }
}
