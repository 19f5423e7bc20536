/// A JSON document store holding each tree's documents apart.
///
/// Every call names the acting user and the tree (the owner's namespace, `users/{uid}`); a store
/// refuses a missing user id rather than answer with nothing, and a user reaches only trees they
/// have a role on (their own, or one shared with them: see `SharedTreeStore`).
/// Calls are `async`: a store over the network waits for its server without holding a thread.
public protocol DocumentStore: Sendable {
    /// Applies a batch to `tree` as `user` in one transaction. Each write is compare-and-set on its
    /// base version; a write identical to what the store holds is `unchanged` (so a retried batch is
    /// harmless). Applied writes get consecutive numbers of the tree's change sequence, in commit order.
    func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome]

    /// Up to `limit` documents of `tree` (tombstones included) whose change sequence is after
    /// `sequence`, in sequence order, as `user`.
    func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument]
}

extension DocumentStore {
    /// Applies a batch to `user`'s own tree.
    public func push(user: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        try await push(user: user, tree: user, writes)
    }

    /// Pulls from `user`'s own tree.
    public func pull(user: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        try await pull(user: user, tree: user, after: sequence, limit: limit)
    }
}

extension SyncLimits {
    /// Refuses a batch with a body over 1 MiB, before anything is sent.
    public static func check(_ writes: [DocumentWrite]) throws(SyncError) {
        for write in writes where write.body.utf8.count > maximumDocumentBytes {
            throw .documentTooLarge(write.key, bytes: write.body.utf8.count)
        }
    }
}
