/// A user's role on a shared tree, from least to most: what each may do is `TreeOperation`'s
/// `minimumRole`.
///
/// The tree is its owner's `users/{uid}` namespace. Its first owner is that user; ownership can be
/// handed on, and the tree keeps its name. A user with no role on a tree reaches none of it.
public enum TreeRole: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Pulls and reads everything.
    case viewer
    /// Also creates and edits members, unions and cross-bloodline links; deletes nothing, shares nothing.
    case helper
    /// Also deletes, and shares the tree as admin, helper or viewer; cannot remove or demote the owner.
    case admin
    /// Everything, including handing the tree to another user and deleting it.
    case owner

    private var rank: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (lhs: TreeRole, rhs: TreeRole) -> Bool { lhs.rank < rhs.rank }

    public var description: String { rawValue }

    /// Whether this role may do `operation`.
    public func allows(_ operation: TreeOperation) -> Bool { self >= operation.minimumRole }

    /// `a viewer`, `an admin`.
    package var withArticle: String { (self == .admin || self == .owner ? "an " : "a ") + rawValue }
}

/// What a user does with a tree, and the least role that may.
public enum TreeOperation: String, Sendable, Hashable, CaseIterable {
    /// Pull documents, list the tree's members.
    case read
    /// Create or change documents (a restored tombstone included).
    case write
    /// Write tombstones.
    case delete
    /// Give a user a role (admin, helper or viewer) or change theirs.
    case share
    /// Take a user's role away.
    case unshare
    /// Hand the tree to another user.
    case transfer
    /// Delete the whole tree, with its members and log.
    case deleteTree
    /// Read who changed which document when.
    case readLog

    /// The least role allowed to do this.
    public var minimumRole: TreeRole {
        switch self {
        case .read: .viewer
        case .write: .helper
        case .delete, .share, .unshare, .readLog: .admin
        case .transfer, .deleteTree: .owner
        }
    }

    /// The operation in words: "pushing", "deleting".
    var gerund: String {
        switch self {
        case .read: "reading"
        case .write: "pushing"
        case .delete: "deleting"
        case .share: "sharing"
        case .unshare: "unsharing"
        case .transfer: "handing it on"
        case .deleteTree: "deleting the tree"
        case .readLog: "reading its log"
        }
    }
}

/// Who has which role on a tree.
public struct TreeMembership: Sendable, Hashable {
    /// The tree (its namespace's uid).
    public var tree: String
    /// The user holding the role.
    public var user: String
    /// The role.
    public var role: TreeRole
    /// Who granted it; `nil` for the first owner's own tree.
    public var grantedBy: String?
    /// When, as ISO 8601 (UTC); `nil` for the first owner's own tree.
    public var grantedAt: String?
    /// Whether the share hides living people's details from this viewer (a rule `familytree serve`
    /// keeps and applies; a store reached directly knows nothing of it).
    public var hidesLiving: Bool

    /// A membership.
    public init(tree: String, user: String, role: TreeRole, grantedBy: String? = nil, grantedAt: String? = nil, hidesLiving: Bool = false) {
        self.tree = tree
        self.user = user
        self.role = role
        self.grantedBy = grantedBy
        self.grantedAt = grantedAt
        self.hidesLiving = hidesLiving
    }
}

extension TreeMembership {
    /// A tree's roles as every store lists them: its namespace's user as owner when nobody is
    /// recorded as owner yet, then the owner first, by role, then by name.
    package static func listing(_ members: [TreeMembership], of tree: String) -> [TreeMembership] {
        var members = members
        if !members.contains(where: { $0.role == .owner }) { members.append(TreeMembership(tree: tree, user: tree, role: .owner)) }
        return members.sorted { ($1.role, $0.user) < ($0.role, $1.user) }
    }

    /// A user's trees as every store lists them: their own first (added when they own it without a
    /// recorded role), then by name.
    package static func listing(trees: [TreeMembership], of user: String, ownsOwnTree: Bool) -> [TreeMembership] {
        var trees = trees
        if ownsOwnTree, !trees.contains(where: { $0.tree == user }) { trees.append(TreeMembership(tree: user, user: user, role: .owner)) }
        return trees.sorted { ($0.tree == user ? 0 : 1, $0.tree) < ($1.tree == user ? 0 : 1, $1.tree) }
    }
}

/// One change of a document, as the audit trail keeps it.
public struct AuditEntry: Sendable, Hashable {
    /// The tree changed.
    public var tree: String
    /// The document.
    public var key: DocumentKey
    /// The version the change made.
    public var version: Int64
    /// Whether the change deleted the document (a tombstone).
    public var isDeleted: Bool
    /// The tree's change sequence number of the change.
    public var sequence: Int64
    /// Who made it.
    public var user: String
    /// When, as ISO 8601 (UTC).
    public var time: String

    /// An entry of the log.
    public init(tree: String, key: DocumentKey, version: Int64, isDeleted: Bool, sequence: Int64, user: String, time: String) {
        self.tree = tree
        self.key = key
        self.version = version
        self.isDeleted = isDeleted
        self.sequence = sequence
        self.user = user
        self.time = time
    }
}

/// A document store whose trees can be shared in roles; every call names the acting user.
///
/// The role rules are the store's, not the caller's: PostgreSQL enforces them with row-level
/// security in the database itself (a user with their own credentials in `psql` can do no more),
/// SQLite in the store's own transactions (a local file is only as private as its permissions).
public protocol SharedTreeStore: DocumentStore {
    /// `user`'s role on `tree`, or `nil` when they have none.
    func role(of user: String, in tree: String) async throws(SyncError) -> TreeRole?
    /// Gives `member` `role` (admin, helper or viewer) on `tree`, as `user`.
    func share(tree: String, as user: String, with member: String, role: TreeRole) async throws(SyncError)
    /// Takes `member`'s role on `tree` away, as `user` (anyone may leave a tree they do not own).
    func unshare(tree: String, as user: String, member: String) async throws(SyncError)
    /// Makes `newOwner` the owner of `tree`, as its owner `user`, who stays on as admin.
    func transfer(tree: String, as user: String, to newOwner: String) async throws(SyncError)
    /// Every role on `tree`, owner first, as `user` (any role may ask).
    func members(of tree: String, as user: String) async throws(SyncError) -> [TreeMembership]
    /// Every tree `user` has a role on, their own first.
    func trees(of user: String) async throws(SyncError) -> [TreeMembership]
    /// The changes of `tree`, newest first, at most `limit`, only those of `key` when given, as
    /// `user` (an admin or the owner).
    func log(of tree: String, as user: String, key: DocumentKey?, limit: Int) async throws(SyncError) -> [AuditEntry]
    /// Deletes `tree` whole (its documents, sequence, roles and log), as its owner `user`.
    func deleteTree(_ tree: String, as user: String) async throws(SyncError)
}

extension SyncError {
    /// `user` may not do `operation` on `tree` with `role` (`nil`: no role at all).
    public static func notAllowed(user: String, tree: String, role: TreeRole?, operation: TreeOperation) -> SyncError {
        let whose = tree == user ? "their own tree" : "\(tree)'s tree"
        guard let role else { return .accessDenied("\(user) has no role on \(whose); \(operation.gerund) needs \(operation.minimumRole.withArticle) role or above") }
        let needed = operation.minimumRole == .owner ? "the owner" : "\(operation.minimumRole) or above"
        return .accessDenied("\(user) is \(role.withArticle) of \(whose); \(operation.gerund) needs \(needed)")
    }
}

extension TreeRole {
    /// The roles `share` may give: the owner's is handed on with `transfer`.
    public static let shareable: [TreeRole] = [.admin, .helper, .viewer]
}
