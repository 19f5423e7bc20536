import FamilyTree

/// One device syncing one tree with a store as one user: push local changes, pull the store's.
/// The tree is the user's own unless another tree shared with them is named.
public struct SyncSession: Sendable {
    /// The store documents go to and come from.
    public let store: any DocumentStore
    /// What this device knows of the store.
    public let state: LocalSyncState
    /// The user syncing.
    public let user: String
    /// The tree synced (its owner's namespace): `user`'s own, or one shared with them.
    public let tree: String
    /// Documents per pull page.
    public var pageSize = 5_000
    /// Called after each batch or page with the documents done and, for a push, the total.
    public var progress: (@Sendable (_ done: Int, _ total: Int?) -> Void)?

    /// A session of `user` on `tree` (by default their own) between `store` and this device's
    /// `state`; refuses an empty user id.
    public init(store: any DocumentStore, state: LocalSyncState, user: String, tree: String? = nil) throws(SyncError) {
        guard !user.isEmpty, tree?.isEmpty != true else { throw .missingUser }
        self.store = store
        self.state = state
        self.user = user
        self.tree = tree ?? user
    }

    /// What a push did.
    public struct PushReport: Sendable, Hashable {
        /// Writes the store applied.
        public var applied = 0
        /// Writes the store already held (a retried batch).
        public var unchanged = 0
        /// Writes refused as stale and merged with the store's version.
        public var merged = 0
        /// Values the merges set aside, kept for the user.
        public var conflicts: [MergeConflict] = []
        /// Batches sent.
        public var batches = 0
        /// The local documents after merging (what the tree file should now hold).
        public var documents: [DocumentKey: String] = [:]
    }

    /// What a pull did.
    public struct PullReport: Sendable, Hashable {
        /// Documents pulled.
        public var pulled = 0
        /// Pages pulled.
        public var pages = 0
        /// Values the merges set aside, kept for the user.
        public var conflicts: [MergeConflict] = []
        /// The local documents after the pull (what the tree file should now hold).
        public var documents: [DocumentKey: String] = [:]
    }

    // MARK: Push

    /// Sends every document that differs from what this device last saw, deletions as tombstones,
    /// in batches of at most 500 documents and 9 MiB; refused writes are merged and sent again.
    public func push(_ local: [DocumentKey: String]) async throws(SyncError) -> PushReport {
        var bases = try state.bases()
        let unacknowledged = try state.unacknowledgedWrites()
        var report = PushReport(documents: local)
        var (pending, staleCopies) = Self.writes(for: local, bases: bases)
        for key in staleCopies { report.documents[key] = nil }
        try SyncLimits.check(pending)
        let total = pending.count
        var done = 0
        var round = 0
        while !pending.isEmpty {
            round += 1
            guard round <= 10 else { throw .store("documents kept changing in the store while merging; try again") }
            var retry: [DocumentWrite] = []
            for batch in Self.batches(pending) {
                let note = try state.notePending(batch)
                let outcomes = try await store.push(user: user, tree: tree, batch)
                report.batches += 1
                var recorded: [(DocumentKey, LocalSyncState.Base)] = []
                var conflicts: [MergeConflict] = []
                for (write, outcome) in zip(batch, outcomes) {
                    switch outcome {
                    case .applied(let version, _), .unchanged(let version):
                        if case .applied = outcome { report.applied += 1 } else { report.unchanged += 1 }
                        let base = LocalSyncState.Base(body: write.body, version: version, isDeleted: write.isDeleted)
                        recorded.append((write.key, base))
                        bases[write.key] = base
                    case .conflict(let current) where unacknowledged.contains(write.key, body: current.body, isDeleted: current.isDeleted):
                        // The store holds what this device sent earlier and never heard back about:
                        // that is the base now, and this newer write simply goes on top of it.
                        let known = LocalSyncState.Base(body: current.body, version: current.version, isDeleted: current.isDeleted)
                        recorded.append((write.key, known))
                        bases[write.key] = known
                        retry.append(DocumentWrite(key: write.key, body: write.body, isDeleted: write.isDeleted, baseVersion: current.version))
                    case .conflict(let current):
                        report.merged += 1
                        let base = bases[write.key].flatMap { $0.isDeleted ? nil : $0.body }
                        let merged = DocumentMerge.merge(
                            key: write.key, base: base, local: write.isDeleted ? nil : write.body,
                            store: current.isDeleted ? nil : current.body, storeTombstone: current.isDeleted ? current.body : nil
                        )
                        conflicts += merged.conflicts
                        let known = LocalSyncState.Base(body: current.body, version: current.version, isDeleted: current.isDeleted)
                        recorded.append((write.key, known))
                        bases[write.key] = known
                        report.documents[write.key] = merged.body
                        if merged.body != (current.isDeleted ? nil : current.body) {
                            retry.append(DocumentWrite(key: write.key, body: merged.body ?? current.body, isDeleted: merged.body == nil, baseVersion: current.version))
                        }
                    }
                }
                // After the store committed: a crash before this line only makes the next push find the batch `unchanged`.
                try state.record(recorded, settling: note)
                try state.addConflicts(conflicts)
                report.conflicts += conflicts
                done += batch.count
                progress?(min(done, total), total)
            }
            pending = retry
        }
        if !unacknowledged.isEmpty { try state.settleAllPending() }
        return report
    }

    /// Consecutive runs of at most 500 writes and 9 MiB of bodies.
    static func batches(_ writes: [DocumentWrite]) -> [[DocumentWrite]] {
        var result: [[DocumentWrite]] = []
        var current: [DocumentWrite] = []
        var bytes = 0
        for write in writes {
            let size = write.body.utf8.count
            if !current.isEmpty, current.count == SyncLimits.maximumBatchDocuments || bytes + size > SyncLimits.maximumBatchBytes {
                result.append(current)
                current = []
                bytes = 0
            }
            current.append(write)
            bytes += size
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    // MARK: Pull

    /// Pulls every change since the checkpoint, page by page (each page and the checkpoint after it
    /// in one local transaction), then merges it with `local`, this device's documents as they are
    /// now (`nil`: take the store's). Local edits not yet pushed are kept; nothing local is wiped first.
    public func pull(merging local: [DocumentKey: String]?) async throws(SyncError) -> PullReport {
        var report = PullReport()
        // What each pulled document was before this pull, and what it is now; only these can change.
        var changes: [DocumentKey: (before: LocalSyncState.Base?, after: LocalSyncState.Base)] = [:]
        let unacknowledged = try state.unacknowledgedWrites()
        while true {
            let page = try await store.pull(user: user, tree: tree, after: try state.checkpoint(), limit: pageSize)
            if local != nil {
                let prior = try state.bases(for: page.map(\.key).filter { changes[$0] == nil })
                for document in page {
                    let after = LocalSyncState.Base(body: document.body, version: document.version, isDeleted: document.isDeleted)
                    // This device's own write whose reply was lost: what it wrote is what it had seen.
                    let own = unacknowledged.contains(document.key, body: document.body, isDeleted: document.isDeleted)
                    changes[document.key] = (own ? after : changes[document.key].map(\.before) ?? prior[document.key], after)
                }
            }
            try state.recordPage(page)
            report.pulled += page.count
            if !page.isEmpty { report.pages += 1 }
            progress?(report.pulled, nil)
            if page.count < pageSize { break }
        }
        // The store's versions of anything sent unacknowledged are this device's bases now.
        if !unacknowledged.isEmpty { try state.settleAllPending() }
        guard let local else {
            report.documents = try state.bases().compactMapValues { $0.isDeleted ? nil : $0.body }
            return report
        }
        // Documents the store did not change stay as they are here, local edits included.
        func live(_ base: LocalSyncState.Base?) -> String? { base.flatMap { $0.isDeleted ? nil : $0.body } }
        var merged = local
        for key in changes.keys.sorted() {
            let (before, after) = changes[key]!
            let (mine, original, theirs) = (local[key], live(before), live(after))
            if mine == original {
                merged[key] = theirs
                continue
            }
            // A stale copy of a document deleted before this device last synced stays deleted.
            if let before, before.isDeleted, mine == before.body, theirs == nil {
                merged[key] = nil
                continue
            }
            let result = DocumentMerge.merge(key: key, base: original, local: mine, store: theirs, storeTombstone: after.isDeleted ? after.body : nil)
            report.conflicts += result.conflicts
            merged[key] = result.body
        }
        try state.addConflicts(report.conflicts)
        report.documents = merged
        return report
    }

    /// Local changes a push would send: documents added or edited, and documents deleted.
    public func pendingChanges(_ local: [DocumentKey: String]) throws(SyncError) -> (changed: Int, deleted: Int) {
        let writes = Self.writes(for: local, bases: try state.bases()).writes
        let deleted = writes.count(where: \.isDeleted)
        return (writes.count - deleted, deleted)
    }

    /// The writes that bring the store to `local`: each document that differs from what this device
    /// last saw (based on that version), and a tombstone for each one `local` no longer has. Also the
    /// local copies of documents deleted since, which must not come back.
    static func writes(for local: [DocumentKey: String], bases: [DocumentKey: LocalSyncState.Base]) -> (writes: [DocumentWrite], staleCopies: [DocumentKey]) {
        var writes: [DocumentWrite] = []
        var staleCopies: [DocumentKey] = []
        for key in local.keys.sorted() {
            let body = local[key]!
            guard let base = bases[key] else {
                writes.append(DocumentWrite(key: key, body: body, baseVersion: 0))
                continue
            }
            if base.body == body {
                if base.isDeleted { staleCopies.append(key) }
                continue
            }
            writes.append(DocumentWrite(key: key, body: body, baseVersion: base.version))
        }
        for (key, base) in bases.sorted(by: { $0.key < $1.key }) where !base.isDeleted && local[key] == nil {
            writes.append(DocumentWrite(key: key, body: base.body, isDeleted: true, baseVersion: base.version))
        }
        return (writes, staleCopies)
    }
}
