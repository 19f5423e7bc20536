/// The contents of a tree file as written, before validation.
///
/// Reading never stops at the first problem: fields that cannot be read are reported in
/// `problems` and left out, so that validation can report everything at once.
public struct TreeDocument: Sendable {
    /// Members in file order.
    public var members: [Member]
    /// Unions as listed, then those derived from the seed app's `spouse` and `children` fields.
    public var unions: [Union]
    /// Cross-bloodline connections in file order.
    public var crossBloodlineConnections: [CrossBloodlineConnection]
    /// The sources that members' and unions' citations name.
    public var sources: [Source] = []
    /// What the genealogy file the tree came from held besides people, families and sources,
    /// kept to be written back (`nil` for a tree that never was one).
    public var genealogyFile: GenealogyFile?
    /// Problems found while reading fields.
    public var problems: [TreeProblem]

    /// Where each member, union and connection stands in the file, parallel to the records; empty
    /// for a document built in code, whose locations are its array positions.
    public var memberLocations: [TreeLocation]
    /// Where each union was read in the file, indexed like `unions` (empty for documents built in code).
    public var unionLocations: [TreeLocation]
    /// Where each cross-bloodline connection was read, indexed like `crossBloodlineConnections`.
    public var connectionLocations: [TreeLocation]

    /// A document built in code; locations are the array positions.
    public init(members: [Member], unions: [Union] = [], crossBloodlineConnections: [CrossBloodlineConnection] = []) {
        self.members = members
        self.unions = unions
        self.crossBloodlineConnections = crossBloodlineConnections
        self.problems = []
        self.memberLocations = []
        self.unionLocations = []
        self.connectionLocations = []
    }

    /// Where the member at `index` stands in the file.
    public func location(ofMember index: Int) -> TreeLocation {
        index < memberLocations.count ? memberLocations[index] : TreeLocation(path: "members[\(index)]")
    }

    /// Where the union at `index` stands in the file.
    public func location(ofUnion index: Int) -> TreeLocation {
        index < unionLocations.count ? unionLocations[index] : TreeLocation(path: "unions[\(index)]")
    }

    /// Where the cross-bloodline connection at `index` stands in the file.
    public func location(ofConnection index: Int) -> TreeLocation {
        index < connectionLocations.count ? connectionLocations[index] : TreeLocation(path: "crossBloodlineConnections[\(index)]")
    }

    init(
        members: [Member], unions: [Union], crossBloodlineConnections: [CrossBloodlineConnection], problems: [TreeProblem],
        memberLocations: [TreeLocation], unionLocations: [TreeLocation], connectionLocations: [TreeLocation]
    ) {
        self.members = members
        self.unions = unions
        self.crossBloodlineConnections = crossBloodlineConnections
        self.problems = problems
        self.memberLocations = memberLocations
        self.unionLocations = unionLocations
        self.connectionLocations = connectionLocations
    }
}

extension TreeDocument {
    /// The document without its removed (soft-deleted) members, as charts show it: they leave the
    /// unions they were partners or children in, unions left with no partner go, and so do
    /// cross-bloodline connections that touch them. A document with none comes back unchanged.
    public func hidingRemovedMembers() -> TreeDocument {
        // Most trees have no one removed: asked without copying a member.
        guard members.contains(where: { $0.isRemoved }) else { return self }
        let removed = Set(members.lazy.filter(\.isRemoved).map(\.id))
        var kept = TreeDocument(members: [], unions: [], crossBloodlineConnections: [])
        kept.problems = problems
        kept.sources = sources
        kept.genealogyFile = genealogyFile
        for (index, member) in members.enumerated() where !removed.contains(member.id) {
            kept.members.append(member)
            if index < memberLocations.count { kept.memberLocations.append(memberLocations[index]) }
        }
        for (index, union) in unions.enumerated() {
            var visible = union
            visible.partners.removeAll { removed.contains($0) }
            visible.children.removeAll { removed.contains($0.member) }
            guard !visible.partners.isEmpty else { continue }
            kept.unions.append(visible)
            if index < unionLocations.count { kept.unionLocations.append(unionLocations[index]) }
        }
        for (index, connection) in crossBloodlineConnections.enumerated()
        where !removed.contains(connection.fromChild) && !removed.contains(connection.toNewParent) {
            kept.crossBloodlineConnections.append(connection)
            if index < connectionLocations.count { kept.connectionLocations.append(connectionLocations[index]) }
        }
        return kept
    }
}
