/// A JSON document store holding each user's documents apart.
///
/// Every call names its user; a store refuses a missing user id rather than answer with nothing.
/// Calls are `async`: a store over the network waits for its server without holding a thread.
public protocol DocumentStore: Sendable {
    /// Applies a batch in one transaction. Each write is compare-and-set on its base version;
    /// a write identical to what the store holds is `unchanged` (so a retried batch is harmless).
    /// Applied writes get consecutive numbers of the owner's change sequence, in commit order.
    func push(user: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome]

    /// Up to `limit` documents (tombstones included) whose change sequence is after `sequence`, in sequence order.
    func pull(user: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument]
}

extension SyncLimits {
    /// Refuses a batch with a body over 1 MiB, before anything is sent.
    public static func check(_ writes: [DocumentWrite]) throws(SyncError) {
        for write in writes where write.body.utf8.count > maximumDocumentBytes {
            throw .documentTooLarge(write.key, bytes: write.body.utf8.count)
        }
    }
}
