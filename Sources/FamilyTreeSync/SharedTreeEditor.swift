import FamilyTree

/// One tree's documents as a store last gave them to a reader, kept up to date by pulling only
/// what changed since.
public struct TreeSnapshot: Sendable {
    /// Every document pulled, tombstones included, by key.
    public private(set) var documents: [DocumentKey: StoredDocument] = [:]
    /// The tree's change sequence this snapshot is complete up to.
    public private(set) var sequence: Int64 = 0

    /// An empty snapshot: the first `update` reads the whole tree.
    public init() {}

    /// Pulls what changed after `sequence`, as `user`. The store checks `user`'s role on every
    /// call, so a snapshot kept for one reader is safe to bring up to date for another.
    public mutating func update(from store: any DocumentStore, user: String, tree: String, pageSize: Int = 5_000) async throws(SyncError) {
        while true {
            let page = try await store.pull(user: user, tree: tree, after: sequence, limit: pageSize)
            for document in page { documents[document.key] = document }
            guard let last = page.last else { return }
            sequence = last.sequence
            if page.count < pageSize { return }
        }
    }

    /// The live documents' bodies.
    public var bodies: [DocumentKey: String] {
        var bodies: [DocumentKey: String] = [:]
        bodies.reserveCapacity(documents.count)
        for (key, document) in documents where !document.isDeleted { bodies[key] = document.body }
        return bodies
    }
}

/// Typed edits (`TreeEdit`, the CLI's) applied to a tree in a shared store, as one user, without
/// losing anyone else's change.
///
/// The edits are made from the tree as the store holds it now, applied, and only the documents
/// they changed are written, each compare-and-set on the version read. When another writer got
/// there first, the tree is read again and the edits made again from it: two relatives adding a
/// child to one couple at once both add theirs, and an edit of a member's notes does not undo
/// another's edit of the name.
///
/// ```swift
/// var snapshot = TreeSnapshot()
/// let result = try await SharedTreeEditor.apply(to: "alice", as: "bob", in: store, snapshot: &snapshot) { file in
///     [.editMember("m1", MemberChanges(notes: .set("Moved to Leeds in 1952")))]
/// }
/// ```
public enum SharedTreeEditor {
    /// What one application of edits wrote.
    public struct Result: Sendable {
        /// The tree the edits were made from (the last time, when made again).
        public var before: TreeFile
        /// The tree with the edits applied.
        public var after: TreeFile
        /// The documents written (created, changed or made tombstones).
        public var changed: [DocumentKey]
        /// The tree's change sequence after the write (the snapshot's).
        public var sequence: Int64
        /// How many times the edits were made: 1 unless another writer came between.
        public var attempts: Int
    }

    /// Makes `edits` from the tree `tree` holds now (after `snapshot` is brought up to date) and
    /// writes what they change, as `user`; when another writer changed one of those documents
    /// meanwhile, does it again from the newer tree, up to `attempts` times. `edits` may throw to
    /// refuse (a field another relative changed since the user read it): nothing is written.
    ///
    /// The store applies each write of a batch on its own, so when one of them meets another
    /// writer's change, the others may already be written: `edits` is then made from a tree that
    /// holds them, and should not make again what is there (an `addMember` of an id chosen before
    /// the first try becomes an `addChild`, say).
    ///
    /// References to records not in the store (a union naming a member whose document has not
    /// arrived) are left out of the tree the edits see, and are written back only in documents
    /// the edits change.
    public static func apply(
        to tree: String, as user: String, in store: any DocumentStore, snapshot: inout TreeSnapshot, attempts: Int = 8,
        _ edits: (TreeFile) throws -> [TreeEdit]
    ) async throws -> Result {
        for attempt in 1...max(1, attempts) {
            try await snapshot.update(from: store, user: user, tree: tree)
            let (root, _) = TreeFile.droppingDanglingReferences(try TreeMirror.tree(from: snapshot.bodies))
            let before = try TreeFile(root: root)
            var after = before
            try after.apply(try edits(before))
            let writes = try Self.writes(from: TreeMirror.documents(of: before.root), to: TreeMirror.documents(of: after.root), snapshot: snapshot)
            guard !writes.isEmpty else { return Result(before: before, after: after, changed: [], sequence: snapshot.sequence, attempts: attempt) }
            let outcomes = try await store.push(user: user, tree: tree, writes)
            // A write refused as a conflict leaves the others of the batch applied; they are
            // identical when the edits are made again, and then come back `unchanged`.
            if !outcomes.contains(where: { if case .conflict = $0 { true } else { false } }) {
                try await snapshot.update(from: store, user: user, tree: tree)
                return Result(before: before, after: after, changed: writes.map(\.key), sequence: snapshot.sequence, attempts: attempt)
            }
            // Writers that met stay apart a little longer each time, at random.
            try await Task.sleep(for: .milliseconds(Int.random(in: 1...10) * attempt))
        }
        throw KeptChanging(tree: tree, attempts: attempts)
    }

    /// Other writers changed the documents an edit needed every time it was made.
    public struct KeptChanging: Error, Sendable, CustomStringConvertible {
        public var tree: String
        public var attempts: Int
        public var description: String { "\(tree)'s tree changed \(attempts) times while this edit was being saved; try again" }
    }

    /// The writes that turn `before` into `after`, each based on the version `snapshot` holds.
    static func writes(from before: [DocumentKey: String], to after: [DocumentKey: String], snapshot: TreeSnapshot) throws(SyncError) -> [DocumentWrite] {
        var writes: [DocumentWrite] = []
        for key in Set(before.keys).union(after.keys).sorted() where before[key] != after[key] {
            let base = snapshot.documents[key]?.version ?? 0
            if let body = after[key] {
                writes.append(DocumentWrite(key: key, body: body, baseVersion: base))
            } else {
                writes.append(DocumentWrite(key: key, body: before[key]!, isDeleted: true, baseVersion: base))
            }
        }
        try SyncLimits.check(writes)
        return writes
    }
}
