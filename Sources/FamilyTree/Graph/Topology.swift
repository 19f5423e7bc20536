/// The shape of a validated graph as integer indices, for layout code that walks it often.
///
/// Member and union indices are positions in `FamilyGraph.members` and `FamilyGraph.unions`.
public struct Topology: Sendable {
    /// The one or two partners of each union.
    public let partners: [[Int]]
    /// Each union's children, in sibling order.
    public let children: [[Int]]
    /// Each member's unions as a partner, in order (by marriage date where known, else file order).
    public let unionsOfMember: [[Int]]
    /// Every union each member is a child of, in file order.
    public let parentUnions: [[Int]]
    /// The union each member is drawn under: the first where they are a birth child, else the first; -1 for none.
    public let primaryParentUnion: [Int]
    /// Cross-bloodline connections as (child, new parent) member indices, in file order.
    public let crossLinks: [CrossLink]

    /// A cross-bloodline connection by member index.
    public struct CrossLink: Sendable, Hashable {
        /// The child's member index.
        public let child: Int
        /// The parent's member index.
        public let parent: Int
    }
}
