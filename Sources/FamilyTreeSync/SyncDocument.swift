import FamilyTree

/// The collections a user's tree is mirrored into: `users/{uid}/{collection}/{id}`.
public enum SyncCollection: String, Sendable, Hashable, CaseIterable, Comparable {
    /// One document per member (the iOS app's `familyTree` collection).
    case familyTree
    /// Cross-bloodline connections (the iOS app's collection).
    case crossBloodlineConnections
    /// Our unions (couples and their children), which the iOS app kept inside member documents.
    case unions

    /// Collections in the order of their names.
    public static func < (lhs: SyncCollection, rhs: SyncCollection) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a document lives within one user's tree.
public struct DocumentKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The collection the document is in.
    public var collection: SyncCollection
    /// The document's id in its collection (the record's `id`).
    public var id: String

    /// The key of document `id` in `collection`.
    public init(_ collection: SyncCollection, _ id: String) {
        self.collection = collection
        self.id = id
    }

    /// The Firestore-style path: `users/{uid}/familyTree/{memberId}`.
    public func path(user: String) -> String { "users/\(user)/\(collection.rawValue)/\(id)" }

    public var description: String { "\(collection.rawValue)/\(id)" }

    /// Keys by collection, then id.
    public static func < (lhs: DocumentKey, rhs: DocumentKey) -> Bool { (lhs.collection, lhs.id) < (rhs.collection, rhs.id) }
}

/// A document as the store keeps it.
public struct StoredDocument: Sendable, Hashable {
    /// Which document this is.
    public var key: DocumentKey
    /// The JSON body with sorted keys; for a tombstone, the body it had when deleted.
    public var body: String
    /// Starts at 1; each applied write adds 1.
    public var version: Int64
    /// Whether the document is a tombstone (deleted, kept so other devices learn of it).
    public var isDeleted: Bool
    /// The owner's change sequence when this version was committed.
    public var sequence: Int64

    /// A document as the store holds it.
    public init(key: DocumentKey, body: String, version: Int64, isDeleted: Bool, sequence: Int64) {
        self.key = key
        self.body = body
        self.version = version
        self.isDeleted = isDeleted
        self.sequence = sequence
    }
}

/// A write of one document, compare-and-set on the version it was based on.
public struct DocumentWrite: Sendable, Hashable {
    /// The document written.
    public var key: DocumentKey
    /// Its new body (compact JSON, sorted keys).
    public var body: String
    /// Whether the write deletes it (a tombstone).
    public var isDeleted: Bool
    /// The version this write was made from; 0 for a document the writer never saw.
    public var baseVersion: Int64

    /// A write of `body` to `key` based on `baseVersion` (0 for a new document).
    public init(key: DocumentKey, body: String, isDeleted: Bool = false, baseVersion: Int64) {
        self.key = key
        self.body = body
        self.isDeleted = isDeleted
        self.baseVersion = baseVersion
    }
}

/// What the store did with one write of a batch.
public enum WriteOutcome: Sendable, Hashable {
    /// Written: the new version and its change sequence.
    case applied(version: Int64, sequence: Int64)
    /// The store already holds exactly this (a retried batch): nothing written.
    case unchanged(version: Int64)
    /// The write's base version is not the store's: refused; the store's document is returned.
    case conflict(current: StoredDocument)
}

/// Errors of the document stores and the sync.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A body over Firestore's 1 MiB document limit: refused before sending.
    case documentTooLarge(DocumentKey, bytes: Int)
    /// No user id: a store never answers "nothing" for a missing user.
    case missingUser
    /// The store refused the user (another user's rows, no such role).
    case accessDenied(String)
    /// A store URL familytree cannot open.
    case unsupportedStore(String)
    /// Another sync of this user runs on this device.
    case busy(String)
    /// The store failed.
    case store(String)
    /// A document (from the store or the tree file) that is no record of its collection: not an
    /// object, no id, an id other than its key's. Nothing is written.
    case invalidDocument(DocumentKey?, String)
    /// The store holds less than it acknowledged to this device (restored from an older backup, or
    /// deleted): nothing was sent or changed. `SyncSession.resend` sends this device's tree again.
    case storeBehind(acknowledged: Int64)

    public var description: String {
        switch self {
        case .documentTooLarge(let key, let bytes): "\(key) is \(bytes) bytes; a document may be at most 1 MiB (1,048,576 bytes)"
        case .missingUser: "no user id given"
        case .accessDenied(let reason): "access denied: \(reason)"
        case .unsupportedStore(let url): "unsupported store \"\(url)\": use sqlite:PATH, postgres://user@host:port/db, or a server's https://HOST"
        case .busy(let lock): "another sync of this user is running on this device (lock \(lock))"
        case .store(let reason): "store error: \(reason)"
        case .invalidDocument(let key?, let reason): "document \(key): \(reason); nothing was written"
        case .invalidDocument(nil, let reason): "\(reason); nothing was written"
        case .storeBehind(let sequence): "the store no longer has change \(sequence), which it acknowledged to this device: was it restored from an older backup, or deleted? Nothing was sent or written; to send this device's tree to it again, resend it"
        }
    }
}

/// Limits every store keeps, Firestore's among them.
public enum SyncLimits {
    /// The largest document body, in bytes (Firestore's limit).
    public static let maximumDocumentBytes = 1_048_576
    /// The longest document id, in UTF-8 bytes (Firestore's limit).
    public static let maximumIdentifierBytes = 1_500
    /// The most documents in one batch (Firestore's limit).
    public static let maximumBatchDocuments = 500
    /// The most bytes of bodies in one batch.
    public static let maximumBatchBytes = 9 * 1_048_576
}
