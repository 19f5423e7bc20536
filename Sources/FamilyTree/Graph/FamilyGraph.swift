/// A validated family: members, unions with their children in sibling order, and cross-bloodline
/// connections. Immutable; edits build a new graph through the same validating initializer.
public struct FamilyGraph: Sendable {
    /// Members in file order.
    public let members: [Member]
    /// Unions in file order, each with its children in sibling order.
    public let unions: [Union]
    /// The cross-bloodline connections, in file order.
    public let crossBloodlineConnections: [CrossBloodlineConnection]
    /// The sources that citations name.
    public let sources: [Source]
    /// What the genealogy file the tree came from held besides people, families and sources.
    public let genealogyFile: GenealogyFile?
    /// The same graph as indices.
    package let topology: Topology
    /// Where each member stands in the source file (empty for a graph built in code).
    private let memberLocations: [TreeLocation]
    private let indexByID: [Member.ID: Int]

    /// Validates `document` and builds the graph, or throws every problem found.
    public init(document: TreeDocument, file: String? = nil) throws(FamilyTreeError) {
        var validator = GraphValidator(document: document)
        let checked = validator.run()
        guard validator.problems.isEmpty else { throw .invalidTree(file: file, validator.problems) }
        members = document.members
        memberLocations = document.memberLocations
        unions = checked.unions
        crossBloodlineConnections = document.crossBloodlineConnections
        sources = document.sources
        genealogyFile = document.genealogyFile
        topology = checked.topology
        indexByID = checked.indexByID
    }

    /// Builds and validates a graph from values.
    public init(members: [Member], unions: [Union] = [], crossBloodlineConnections: [CrossBloodlineConnection] = []) throws(FamilyTreeError) {
        try self.init(document: TreeDocument(members: members, unions: unions, crossBloodlineConnections: crossBloodlineConnections))
    }

    /// Parses and validates tree.json bytes; `file` names the source in error messages.
    public init(json bytes: [UInt8], file: String? = nil) throws(FamilyTreeError) {
        try self.init(document: try TreeDocument(json: bytes, file: file), file: file)
    }

    /// Where the member at `index` stands in the source file.
    public func location(ofMemberAt index: Int) -> TreeLocation {
        index < memberLocations.count ? memberLocations[index] : TreeLocation(path: "members[\(index)]")
    }

    /// The position of the member with `id` in `members`.
    public func index(of id: Member.ID) -> Int? { indexByID[id] }

    /// The member with `id`.
    public func member(_ id: Member.ID) -> Member? { indexByID[id].map { members[$0] } }

    /// The members that share a union with the member at `index`, in union order.
    public func partners(ofMemberAt index: Int) -> [Int] {
        topology.unionsOfMember[index].flatMap { topology.partners[$0] }.filter { $0 != index }
    }

    /// The member's parents: partners of every union they are a child of, then cross-bloodline parents.
    public func parents(ofMemberAt index: Int) -> [Int] {
        var result: [Int] = []
        for union in topology.parentUnions[index] { result += topology.partners[union] }
        for link in topology.crossLinks where link.child == index { result.append(link.parent) }
        return result
    }
}

extension TreeDocument {
    /// Reads tree.json bytes without validating the graph; throws only on malformed JSON.
    public init(json bytes: [UInt8], file: String? = nil) throws(FamilyTreeError) {
        // Plain JSON is read from a tape; anything JSONParser must speak about (a syntax error, a
        // repeated key) goes through it.
        if let tape = JSONTape(bytes) {
            self = TreeDocumentReader.read(tape)
            return
        }
        let json: JSONDocument
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .malformedJSON(file: file, error)
        }
        self = TreeDocumentReader.read(json)
    }
}
