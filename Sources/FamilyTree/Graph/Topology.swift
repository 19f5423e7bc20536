/// The shape of a validated graph as integer indices, for layout code that walks it often.
///
/// Member and union indices are positions in `FamilyGraph.members` and `FamilyGraph.unions`.
package struct Topology: Sendable {
    /// The one or two partners of each union.
    package let partners: [[Int]]
    /// Each union's children, in sibling order.
    package let children: [[Int]]
    /// Each member's unions as a partner, in order (by marriage date where known, else file order).
    package let unionsOfMember: [[Int]]
    /// Every union each member is a child of, in file order.
    package let parentUnions: [[Int]]
    /// The union each member is drawn under: the first where they are a birth child, else the first; -1 for none.
    package let primaryParentUnion: [Int]
    /// Cross-bloodline connections as (child, new parent) member indices, in file order.
    package let crossLinks: [CrossLink]

    /// A cross-bloodline connection by member index.
    package struct CrossLink: Sendable, Hashable {
        /// The child's member index.
        package let child: Int
        /// The parent's member index.
        package let parent: Int
    }
}
