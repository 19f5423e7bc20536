#if Server
/// At most `perUser` requests of one user are answered at once in this process; the user's next
/// ones wait their turn in order, and beyond `queue` waiting they are refused (429). So one user's
/// flood of requests takes a bounded share of the store while every other user's pass straight on.
actor FairShare {
    private let perUser: Int
    private let queue: Int
    private var running: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(perUser: Int, queue: Int) {
        self.perUser = max(1, perUser)
        self.queue = max(0, queue)
    }

    /// Runs `body` in `user`'s share.
    func run<T: Sendable>(for user: String, _ body: @Sendable () async throws -> T) async throws -> T {
        try await enter(user)
        defer { leave(user) }
        return try await body()
    }

    /// How many of `user`'s requests run and how many wait (for tests, and a status page).
    func load(of user: String) -> (running: Int, waiting: Int) {
        (running[user, default: 0], waiting[user, default: []].count)
    }

    private func enter(_ user: String) async throws {
        if running[user, default: 0] < perUser {
            running[user, default: 0] += 1
            return
        }
        guard waiting[user, default: []].count < queue else {
            throw APIFailure.throttled("\(user) has \(perUser + queue) requests under way on this server; wait for them to finish")
        }
        // The leaving request hands its place over: `running` stays the same.
        await withCheckedContinuation { waiting[user, default: []].append($0) }
    }

    private func leave(_ user: String) {
        if var next = waiting[user], !next.isEmpty {
            let first = next.removeFirst()
            waiting[user] = next.isEmpty ? nil : next
            first.resume()
        } else {
            running[user, default: 1] -= 1
            if running[user] == 0 { running[user] = nil }
        }
    }
}
#endif
