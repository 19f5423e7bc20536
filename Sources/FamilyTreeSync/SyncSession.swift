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
        /// Documents pulled first (and after a merge).
        public var pulled = 0
        /// Members deleted elsewhere that came back because an edit here or there still names them.
        public var revived: [String] = []
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
        /// Members deleted on one side that came back because an edit on the other still names
        /// them (an edit beats a delete).
        public var revived: [String] = []
        /// The local documents after the pull (what the tree file should now hold).
        public var documents: [DocumentKey: String] = [:]
    }

    // MARK: Push

    /// Pulls, merges and pushes: first takes every change since the last pull into `local`, so
    /// nothing is written on a tree this device has not seen and no reference rests on a member it
    /// has not pulled; then sends every document that differs from what this device last saw,
    /// deletions as tombstones, in batches of at most 500 documents and 9 MiB. Writes refused
    /// because someone wrote in between are pulled, merged and sent again (at most 10 rounds).
    ///
    /// `save` is given the documents as the pull left them, before anything is sent: the caller
    /// writes them where `local` came from, so that a push that fails afterwards (a refused write,
    /// a lost connection) leaves the local copy holding what this device's state says it has seen.
    /// The report's `documents` are what the copy should hold after the push.
    public func push(
        _ local: [DocumentKey: String], saving save: ([DocumentKey: String]) throws -> Void = { _ in }
    ) async throws(SyncError) -> PushReport {
        var report = PushReport(documents: local)
        var documents = local
        for _ in 0..<10 {
            let pulled = try await pull(merging: documents)
            report.pulled += pulled.pulled
            report.revived += pulled.revived
            report.conflicts += pulled.conflicts
            if pulled.documents != documents {
                do {
                    try save(pulled.documents)
                } catch {
                    throw .store("the pulled changes could not be saved, so nothing was sent: \(error)")
                }
                documents = pulled.documents
            }
            let sent = try await send(documents)
            report.applied += sent.applied
            report.unchanged += sent.unchanged
            report.merged += sent.merged
            report.batches += sent.batches
            report.documents = sent.documents
            documents = sent.documents
            if sent.merged == 0 { return report }
        }
        throw .store("documents kept changing in the store while merging; try again")
    }

    /// Sends every document that differs from what this device last saw, deletions as tombstones,
    /// in batches of at most 500 documents and 9 MiB. A write someone else's came before is
    /// refused and counted in `merged`, not sent: the caller pulls, which merges it, and sends again.
    func send(_ local: [DocumentKey: String]) async throws(SyncError) -> PushReport {
        var bases = try await state.bases()
        let unacknowledged = try await state.unacknowledgedWrites()
        var report = PushReport(documents: local)
        var (pending, staleCopies) = Self.writes(for: local, bases: bases)
        if !staleCopies.isEmpty {
            // A copy of a deleted member that a document here still names was brought back by a
            // merge (an edit beats a delete): it is sent, the rest stay deleted.
            var rest = local
            for key in staleCopies { rest[key] = nil }
            let named = Self.namedMembers(in: rest)
            for key in staleCopies {
                if key.collection == .familyTree, named.contains(key.id), let base = bases[key] {
                    pending.append(DocumentWrite(key: key, body: local[key]!, baseVersion: base.version))
                } else {
                    report.documents[key] = nil
                }
            }
        }
        try SyncLimits.check(pending)
        let total = pending.count
        var done = 0
        var round = 0
        while !pending.isEmpty {
            round += 1
            guard round <= 10 else { throw .store("documents kept changing in the store while merging; try again") }
            var retry: [DocumentWrite] = []
            for batch in Self.batches(pending) {
                let note = try await state.notePending(batch)
                let outcomes = try await store.push(user: user, tree: tree, batch)
                report.batches += 1
                var recorded: [(DocumentKey, LocalSyncState.Base)] = []
                var acknowledged: Int64?
                for (write, outcome) in zip(batch, outcomes) {
                    switch outcome {
                    case .applied(let version, _), .unchanged(let version):
                        if case .applied(_, let sequence) = outcome {
                            report.applied += 1
                            acknowledged = max(acknowledged ?? 0, sequence)
                        } else {
                            report.unchanged += 1
                        }
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
                    case .conflict:
                        // Someone wrote it since this device's pull: the push pulls again,
                        // merges, and sends the merge.
                        report.merged += 1
                    }
                }
                // After the store committed: a crash before this line only makes the next push find the batch `unchanged`.
                try await state.record(recorded, settling: note, acknowledging: acknowledged)
                done += batch.count
                progress?(min(done, total), total)
            }
            pending = retry
        }
        if !unacknowledged.isEmpty { try await state.settleAllPending() }
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
        let unacknowledged = try await state.unacknowledgedWrites()
        let acknowledged = try await state.acknowledged()
        while true {
            let page = try await store.pull(user: user, tree: tree, after: try await state.checkpoint(), limit: pageSize)
            if page.isEmpty, report.pulled == 0, acknowledged > 0, try await state.checkpoint() >= acknowledged {
                // Nothing after the checkpoint: the change at it must still be there (only a later
                // change of that document moves it past the checkpoint). Else the store lost what
                // it acknowledged: restored from an older backup, or deleted.
                if try await store.pull(user: user, tree: tree, after: acknowledged - 1, limit: 1).isEmpty {
                    throw .storeBehind(acknowledged: acknowledged)
                }
            }
            if local != nil {
                let prior = try await state.bases(for: page.map(\.key).filter { changes[$0] == nil })
                for document in page {
                    let after = LocalSyncState.Base(body: document.body, version: document.version, isDeleted: document.isDeleted)
                    // This device's own write whose reply was lost: what it wrote is what it had seen.
                    let own = unacknowledged.contains(document.key, body: document.body, isDeleted: document.isDeleted)
                    changes[document.key] = (own ? after : changes[document.key].map(\.before) ?? prior[document.key], after)
                }
            }
            try await state.recordPage(page)
            report.pulled += page.count
            if !page.isEmpty { report.pages += 1 }
            if !page.isEmpty { progress?(report.pulled, nil) }
            if page.count < pageSize { break }
        }
        // Every change the store acknowledged comes back in a pull (itself or a later change of its
        // document): a store that stops short of one lost it.
        if try await state.checkpoint() < acknowledged { throw .storeBehind(acknowledged: acknowledged) }
        // The store's versions of anything sent unacknowledged are this device's bases now.
        if !unacknowledged.isEmpty { try await state.settleAllPending() }
        guard let local else {
            report.documents = try await state.bases().compactMapValues { $0.isDeleted ? nil : $0.body }
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
            let result = DocumentMerge.merge(
                key: key, base: original, local: mine, store: theirs, storeTombstone: after.isDeleted ? after.body : nil, storeVersion: after.version
            )
            report.conflicts += result.conflicts
            merged[key] = result.body
        }
        report.revived = try await revivingNamedMembers(in: &merged, local: local, changed: changes.keys)
        if changes.keys.contains(where: { $0.collection == .crossBloodlineConnections }) {
            try await droppingRepeatedLinks(in: &merged)
        }
        // Only records that join people (families, links, seed-shaped members) can break the tree
        // together; most pulls bring none, and a member's own fields are checked where they were edited.
        if changes.keys.contains(where: Self.joinsPeople(_:)) || changes.keys.contains(where: { $0.collection == .familyTree && merged[$0].map(Self.namesRelatives) == true }) {
            let joining = local.filter { key, body in
                merged[key] != nil && (Self.joinsPeople(key) || Self.namesRelatives(body))
            }
            report.conflicts += settingAsideEditsThatBreakTheTree(in: &merged, local: joining, bases: try await state.bases(for: Array(joining.keys)))
        }
        try await state.addConflicts(report.conflicts)
        report.documents = merged
        return report
    }

    /// Brings back each member a merge left deleted while a document still names them (one side
    /// deleted the member, the other added them to a family or a link): an edit beats a delete.
    /// Their body is the local copy, or the one the store's tombstone keeps. Returns their ids.
    private func revivingNamedMembers(
        in merged: inout [DocumentKey: String], local: [DocumentKey: String], changed: some Collection<DocumentKey>
    ) async throws(SyncError) -> [String] {
        // Only a member this merge dropped, or a reference a pulled document brought, can dangle:
        // the rest of the tree was whole before, and the merge changes only what the pull brought.
        let dropped = changed.contains { $0.collection == .familyTree && local[$0] != nil && merged[$0] == nil }
        let named = dropped ? Self.namedMembers(in: merged) : Self.namedMembers(in: merged, among: changed)
        let missing = named.filter { merged[DocumentKey(.familyTree, $0)] == nil }
        guard !missing.isEmpty else { return [] }
        let keys = missing.sorted().map { DocumentKey(.familyTree, $0) }
        let known = try await state.bases(for: keys)
        var revived: [String] = []
        for key in keys {
            guard let body = local[key] ?? known[key]?.body else { continue }
            merged[key] = body
            revived.append(key.id)
        }
        return revived
    }

    /// Whether a member document names others (the seed's `children` or `spouse`): a scan of its
    /// bytes for either key, far cheaper than parsing it (most members name no one).
    static func namesRelatives(_ body: String) -> Bool {
        var body = body
        return body.withUTF8 { bytes in
            let (quote, c, s) = (UInt8(ascii: "\""), UInt8(ascii: "c"), UInt8(ascii: "s"))
            var index = 0
            while index + 9 < bytes.count {
                if bytes[index] == quote {
                    let next = bytes[index + 1]
                    if next == c, bytes[index + 9] == quote, Self.matches(bytes, at: index + 1, "children") { return true }
                    if next == s, bytes[index + 7] == quote, Self.matches(bytes, at: index + 1, "spouse") { return true }
                }
                index += 1
            }
            return false
        }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ word: StaticString) -> Bool {
        guard start + word.utf8CodeUnitCount <= bytes.count else { return false }
        for offset in 0..<word.utf8CodeUnitCount where bytes[start + offset] != word.utf8Start[offset] { return false }
        return true
    }

    /// Whether a document is a family or a link (what joins people up).
    static func joinsPeople(_ key: DocumentKey) -> Bool { key.collection != .familyTree }

    /// Edits that are each valid can break the tree together (a link here and one there that make
    /// a person their own ancestor). The local edits involved are set aside as conflicts, whole
    /// records, and the store's versions taken, until the tree is valid; the store's side was a
    /// valid tree when it was written.
    private func settingAsideEditsThatBreakTheTree(
        in merged: inout [DocumentKey: String], local: [DocumentKey: String], bases: [DocumentKey: LocalSyncState.Base]
    ) -> [MergeConflict] {
        // Local documents this device changed and has not sent: the only ones it can set aside.
        let edited = local.keys.filter { key in merged[key] != nil && bases[key].map { $0.isDeleted || $0.body != merged[key] } ?? true }
        guard !edited.isEmpty else { return [] }
        var conflicts: [MergeConflict] = []
        var remaining = Set(edited)
        for _ in 0..<8 {
            let problems: [TreeProblem]
            do {
                _ = try TreeFile(root: try TreeMirror.tree(from: merged))
                return conflicts
            } catch let error as FamilyTreeError {
                guard case .invalidTree(_, let found) = error else { return conflicts }
                problems = found
            } catch {
                return conflicts
            }
            let ids = Set(problems.flatMap(\.ids))
            // The edited records that are, or name, someone the problems name.
            let involved = remaining.filter { key in
                ids.contains(key.id) || (merged[key].flatMap { try? JSONParser.parse($0).root }.map {
                    !ids.isDisjoint(with: Self.memberReferences(of: $0, in: key.collection))
                } ?? false)
            }.sorted { ($0.collection == .familyTree ? 1 : 0, $0) < ($1.collection == .familyTree ? 1 : 0, $1) }
            guard let first = involved.first else { return conflicts }
            // Links and families first: they are what joins people up.
            let setAside = involved.filter { $0.collection == first.collection }
            for key in setAside {
                remaining.remove(key)
                let store = bases[key].flatMap { $0.isDeleted ? nil : $0.body }
                conflicts.append(MergeConflict(key: key, path: FieldPath(), localValue: merged[key], storeValue: store, storeVersion: bases[key]?.version))
                merged[key] = store
            }
        }
        return conflicts
    }

    /// Drops a link made here that repeats one the store already has (two relatives linked the
    /// same child to the same parent, each with an id of their own): the same fact, kept once.
    private func droppingRepeatedLinks(in merged: inout [DocumentKey: String]) async throws(SyncError) {
        var byEnds: [String: [DocumentKey]] = [:]
        for (key, body) in merged where key.collection == .crossBloodlineConnections {
            guard let record = try? JSONParser.parse(body).root, let child = record["fromChild"]?.stringValue,
                  let parent = record["toNewParent"]?.stringValue else { continue }
            byEnds[child + "\u{1F}" + parent, default: []].append(key)
        }
        let repeated = byEnds.values.filter { $0.count > 1 }
        guard !repeated.isEmpty else { return }
        let inStore = try await state.bases(for: repeated.flatMap { $0 }).filter { !$0.value.isDeleted }
        for keys in repeated where keys.contains(where: { inStore[$0] != nil }) {
            for key in keys where inStore[key] == nil { merged[key] = nil }
        }
    }

    /// Every member some document names (a union, a connection, a seed-shaped member).
    static func namedMembers(in documents: [DocumentKey: String]) -> Set<String> {
        namedMembers(in: documents, among: documents.keys)
    }

    /// The members the documents at `keys` name.
    static func namedMembers(in documents: [DocumentKey: String], among keys: some Sequence<DocumentKey>) -> Set<String> {
        var named: Set<String> = []
        for key in keys {
            guard let body = documents[key] else { continue }
            // Most member documents name no one (only the seed's shape has spouse and children).
            if key.collection == .familyTree, !Self.namesRelatives(body) { continue }
            guard let record = try? JSONParser.parse(body).root else { continue }
            named.formUnion(memberReferences(of: record, in: key.collection))
        }
        return named
    }

    /// The members a record names: a union's partners and children, a connection's two ends, a
    /// seed-shaped member's spouse and children.
    static func memberReferences(of record: JSONValue, in collection: SyncCollection) -> [String] {
        func reference(_ value: JSONValue) -> String? { value.stringValue ?? value["id"]?.stringValue }
        switch collection {
        case .unions:
            return ((record["partners"]?.arrayValue ?? []) + (record["children"]?.arrayValue ?? [])).compactMap(reference)
        case .crossBloodlineConnections:
            return [record["fromChild"], record["toNewParent"]].compactMap { $0?.stringValue }
        case .familyTree:
            return [record["spouse"]?.stringValue].compactMap { $0 } + (record["children"]?.arrayValue ?? []).compactMap(reference)
        }
    }

    /// Sends `local` again, whole, to a store that lost what it had acknowledged (`storeBehind`):
    /// forgets what this device saw, takes the store's documents as they are now as the base, and
    /// writes every local document that differs (and a tombstone for each one the file no longer
    /// has). This device's tree wins over the store's older copy.
    public func resend(_ local: [DocumentKey: String]) async throws(SyncError) -> PushReport {
        try await state.reset()
        _ = try await pull(merging: nil)
        var report = try await send(local)
        guard report.merged == 0 else { throw .store("the store changed while it was being repaired; push again") }
        report.documents = local
        return report
    }

    /// Local changes a push would send: documents added or edited, and documents deleted.
    public func pendingChanges(_ local: [DocumentKey: String]) async throws(SyncError) -> (changed: Int, deleted: Int) {
        let writes = Self.writes(for: local, bases: try await state.bases()).writes
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
