#if Server
import Foundation
import Testing
@testable import FamilyTreeServer

/// One user's flood of requests takes a bounded share; another user's request passes straight on.
@Suite(.timeLimit(.minutes(2))) struct FairShareTests {
    /// Counts what runs at once, and the most at once.
    actor Gauge {
        var running = 0
        var most = 0
        var finished = 0
        func enter() { running += 1; most = max(most, running) }
        func leave() { running -= 1; finished += 1 }
    }

    @Test func aFloodingUserWaitsInTurnAndOthersDoNot() async throws {
        let share = FairShare(perUser: 2, queue: 10)
        let gauge = Gauge()
        let flood = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await share.run(for: "alice") {
                            await gauge.enter()
                            try await Task.sleep(for: .milliseconds(100))
                            await gauge.leave()
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await Task.sleep(for: .milliseconds(30))
        // Bob is not behind alice's twelve (six rounds of 100 ms): his request is done while most
        // of hers still wait.
        try await share.run(for: "bob") {}
        #expect(await gauge.finished < 10)
        try await flood.value
        #expect(await gauge.most == 2, "alice's requests ran at most two at a time")

        // Beyond the queue, a user's request is refused rather than held.
        let small = FairShare(perUser: 1, queue: 1)
        // (Waiting for each state rather than sleeping a fixed time: a busy machine starts tasks late.)
        func until(_ state: (running: Int, waiting: Int)) async throws {
            for _ in 0..<500 {
                if await small.load(of: "alice") == state { return }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let release = AsyncStream<Void>.makeStream()
        let holding = Task { try await small.run(for: "alice") { for await _ in release.stream {} } }
        try await until((1, 0))
        let waiting = Task { try await small.run(for: "alice") {} }
        try await until((1, 1))
        await #expect(throws: APIFailure.self) { try await small.run(for: "alice") {} }
        release.continuation.finish()
        try await holding.value
        try await waiting.value
    }
}
#endif
