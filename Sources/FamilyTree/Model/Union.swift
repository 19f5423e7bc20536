/// A couple, or a single parent, and the children they raise together.
///
/// A person may belong to several unions over a life (marriages, partnerships); children
/// belong to a union, so half-siblings are the children of different unions of one parent.
public struct Union: Sendable, Hashable, Identifiable {
    public typealias ID = String

    public var id: ID
    /// One or two member ids.
    public var partners: [Member.ID]
    public var marriage: PartialDate?
    public var divorce: PartialDate?
    /// Marriage and divorce dates as written when they are no date familytree can place.
    public var marriagePhrase: String?
    public var divorcePhrase: String?
    /// The children; in a `FamilyGraph`, in sibling order.
    public var children: [ChildLink]

    public init(id: ID, partners: [Member.ID], marriage: PartialDate? = nil, divorce: PartialDate? = nil, children: [ChildLink] = []) {
        self.id = id
        self.partners = partners
        self.marriage = marriage
        self.divorce = divorce
        self.children = children
    }
}

/// A child of a union and how the child is tied to its parents.
public struct ChildLink: Sendable, Hashable {
    public var member: Member.ID
    public var kind: ChildKind

    public init(_ member: Member.ID, kind: ChildKind = .birth) {
        self.member = member
        self.kind = kind
    }
}

/// How a child is tied to the parents of a union.
public enum ChildKind: String, Sendable, Hashable, CaseIterable {
    case birth, adopted, step, foster
}

/// Seed 001's cross-bloodline connection: the child also belongs to a parent in another bloodline.
public struct CrossBloodlineConnection: Sendable, Hashable, Identifiable {
    public var id: String
    public var fromChild: Member.ID
    public var toNewParent: Member.ID

    public init(id: String, fromChild: Member.ID, toNewParent: Member.ID) {
        self.id = id
        self.fromChild = fromChild
        self.toNewParent = toNewParent
    }
}
