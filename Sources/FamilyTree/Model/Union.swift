/// A couple, or a single parent, and the children they raise together.
///
/// A person may belong to several unions over a life (marriages, partnerships); children
/// belong to a union, so half-siblings are the children of different unions of one parent.
public struct Union: Sendable, Hashable, Identifiable {
    /// A union id: unique among unions (members may use the same strings).
    public typealias ID = String

    /// The union's id.
    public var id: ID
    /// One or two member ids.
    public var partners: [Member.ID]
    /// When the couple married (orders a person's unions).
    public var marriage: PartialDate?
    /// When the union ended, if it did.
    public var divorce: PartialDate?
    /// Marriage and divorce dates as written when they are no date familytree can place.
    public var marriagePhrase: String?
    /// The divorce date as written when it is no date familytree can place ("date unknown").
    public var divorcePhrase: String?
    /// The children; in a `FamilyGraph`, in sibling order.
    public var children: [ChildLink]
    /// What happened to the family (engagement, marriage banns, residence, ...), each with date,
    /// place, notes and sources; the first marriage and divorce take their dates from `marriage`
    /// and `divorce`.
    public var events: [LifeEvent] = []
    /// Sources for the family as a whole.
    public var citations: [Citation] = []
    /// What the genealogy file said of the family that familytree does not model, kept as written.
    public var recorded: [RecordedStructure] = []

    /// A union of `partners` (one or two) with its children in the order given.
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
    /// The child.
    public var member: Member.ID
    /// Birth, adopted, foster or step.
    public var kind: ChildKind

    /// `member` as a child of the kind given.
    public init(_ member: Member.ID, kind: ChildKind = .birth) {
        self.member = member
        self.kind = kind
    }
}

/// How a child is tied to the parents of a union.
public enum ChildKind: String, Sendable, Hashable, CaseIterable {
    case birth, adopted, step, foster
}

/// A cross-bloodline connection: the child also belongs to a parent in another bloodline.
public struct CrossBloodlineConnection: Sendable, Hashable, Identifiable {
    /// The connection's id.
    public var id: String
    /// The child who also belongs to another bloodline.
    public var fromChild: Member.ID
    /// The parent in that bloodline.
    public var toNewParent: Member.ID

    /// A connection making `fromChild` also a child of `toNewParent`.
    public init(id: String, fromChild: Member.ID, toNewParent: Member.ID) {
        self.id = id
        self.fromChild = fromChild
        self.toNewParent = toNewParent
    }
}
