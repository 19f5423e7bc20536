import FamilyTree

/// One tree's documents as a store last gave them to a reader, kept up to date by pulling only
/// what changed since.
public struct TreeSnapshot: Sendable {
    /// Every document pulled, tombstones included, by key.
    public private(set) var documents: [DocumentKey: StoredDocument] = [:]
    /// The tree's change sequence this snapshot is complete up to.
    public private(set) var sequence: Int64 = 0
    /// The tree the documents make, as `SharedTreeEditor` last read or wrote it, with the
    /// sequence it is of: a tree of thousands is not read and checked again for every edit.
    private var parsed: Parsed?

    struct Parsed: Sendable {
        var sequence: Int64
        var file: TreeFile
        /// `TreeMirror.records(of: file.root)` (sharing their storage with the root).
        var records: [DocumentKey: JSONValue]
    }

    /// An empty snapshot: the first `update` reads the whole tree.
    public init() {}

    /// Pulls what changed after `sequence`, as `user`, and returns it. The store checks `user`'s
    /// role on every call, so a snapshot kept for one reader is safe to bring up to date for another.
    @discardableResult
    public mutating func update(from store: any DocumentStore, user: String, tree: String, pageSize: Int = 5_000) async throws(SyncError) -> [StoredDocument] {
        var pulled: [StoredDocument] = []
        while true {
            let page = try await store.pull(user: user, tree: tree, after: sequence, limit: pageSize)
            for document in page { documents[document.key] = document }
            pulled += page
            guard let last = page.last else { return pulled }
            sequence = last.sequence
            if page.count < pageSize { return pulled }
        }
    }

    /// The live documents' bodies.
    public var bodies: [DocumentKey: String] {
        var bodies: [DocumentKey: String] = [:]
        bodies.reserveCapacity(documents.count)
        for (key, document) in documents where !document.isDeleted { bodies[key] = document.body }
        return bodies
    }

    /// The tree the live documents make (records in id order), when an edit saved through this
    /// snapshot left it read at the snapshot's sequence; `nil` otherwise. Its root is
    /// `TreeMirror.tree(from: bodies)`, had without reading every document again.
    public var parsedTree: TreeFile? {
        parsed?.sequence == sequence ? parsed?.file : nil
    }

    /// The parsed tree, when it is of the snapshot's sequence.
    var currentParse: Parsed? { parsed?.sequence == sequence ? parsed : nil }

    /// Keeps `file` (whose records are `fileRecords`) as the tree at this sequence, when the
    /// documents `pulled` after writing `writes` are exactly those (no one else wrote between).
    /// Records are put in document order first (an edit adds at the end).
    mutating func keep(_ file: TreeFile, records fileRecords: [DocumentKey: JSONValue], after writes: [DocumentWrite], pulled: [StoredDocument]) {
        parsed = nil
        let written = Dictionary(writes.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        guard pulled.count == written.count else { return }
        for document in pulled {
            guard let write = written[document.key], write.isDeleted == document.isDeleted else { return }
            // A store may give the body back formatted its own way (PostgreSQL's JSONB does).
            if document.body != write.body {
                guard let stored = try? TreeMirror.record(document.body, of: document.key),
                      let sent = try? TreeMirror.record(write.body, of: document.key), stored == sent else { return }
            }
        }
        var file = file
        if let ordered = TreeMirror.inDocumentOrder(file.root) {
            guard let reordered = try? TreeFile(root: ordered, file: file.file) else { return }
            file = reordered
        }
        parsed = Parsed(sequence: sequence, file: file, records: fileRecords)
    }

    /// Keeps a tree just read from every document.
    mutating func keep(_ file: TreeFile, records fileRecords: [DocumentKey: JSONValue]) {
        parsed = Parsed(sequence: sequence, file: file, records: fileRecords)
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
            let (before, beforeRecords, isWhole) = try read(&snapshot)
            var after = before
            try after.apply(try edits(before))
            let afterRecords = try TreeMirror.records(of: after.root)
            let writes = try Self.writes(from: beforeRecords, to: afterRecords, snapshot: snapshot)
            guard !writes.isEmpty else { return Result(before: before, after: after, changed: [], sequence: snapshot.sequence, attempts: attempt) }
            let outcomes = try await store.push(user: user, tree: tree, writes)
            // A write refused as a conflict leaves the others of the batch applied; they are
            // identical when the edits are made again, and then come back `unchanged`.
            if !outcomes.contains(where: { if case .conflict = $0 { true } else { false } }) {
                let pulled = try await snapshot.update(from: store, user: user, tree: tree)
                if snapshot.currentParse == nil, isWhole {
                    snapshot.keep(after, records: afterRecords, after: writes, pulled: pulled)
                }
                return Result(before: before, after: after, changed: writes.map(\.key), sequence: snapshot.sequence, attempts: attempt)
            }
            // Writers that met stay apart a little longer each time, at random.
            try await Task.sleep(for: .milliseconds(Int.random(in: 1...10) * attempt))
        }
        throw KeptChanging(tree: tree, attempts: attempts)
    }

    /// The tree the snapshot's documents make, and its records by document: kept from the last
    /// edit when that is of the snapshot's sequence, else read from every document. `isWhole` is
    /// false when references to records not in the store were left out: such a tree is not the
    /// store's, and is not kept.
    private static func read(_ snapshot: inout TreeSnapshot) throws -> (file: TreeFile, records: [DocumentKey: JSONValue], isWhole: Bool) {
        if let kept = snapshot.currentParse { return (kept.file, kept.records, true) }
        let (root, repairs) = TreeFile.droppingDanglingReferences(try TreeMirror.tree(from: snapshot.bodies))
        let file = try TreeFile(root: root)
        let records = try TreeMirror.records(of: file.root)
        if repairs.isEmpty { snapshot.keep(file, records: records) }
        return (file, records, repairs.isEmpty)
    }

    /// Other writers changed the documents an edit needed every time it was made.
    public struct KeptChanging: Error, Sendable, CustomStringConvertible {
        public var tree: String
        public var attempts: Int
        public var description: String { "\(tree)'s tree changed \(attempts) times while this edit was being saved; try again" }
    }

    /// The writes that turn the records `before` into `after` (only the records that differ are
    /// written as text), each based on the version `snapshot` holds, in key order.
    static func writes(from before: [DocumentKey: JSONValue], to after: [DocumentKey: JSONValue], snapshot: TreeSnapshot) throws(SyncError) -> [DocumentWrite] {
        var writes: [DocumentWrite] = []
        func base(_ key: DocumentKey) -> Int64 { snapshot.documents[key]?.version ?? 0 }
        for (key, record) in after where before[key] != record {
            writes.append(DocumentWrite(key: key, body: JSONWriter.compactString(from: record), baseVersion: base(key)))
        }
        for (key, record) in before where after[key] == nil {
            writes.append(DocumentWrite(key: key, body: JSONWriter.compactString(from: record), isDeleted: true, baseVersion: base(key)))
        }
        writes.sort { $0.key < $1.key }
        try SyncLimits.check(writes)
        return writes
    }
}
