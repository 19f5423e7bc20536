/// Reads tree.json into a `TreeDocument`: from a tape when the file is plain JSON (a pass over
/// its bytes, no dictionaries), otherwise from the parsed value.
///
/// Two shapes are read, and may be mixed in one file:
/// - the seed app's: members with `spouse` (an id) and `children` (ids, or nested member objects);
/// - ours: a `unions` array with `partners`, `marriage`, `divorce` and `children` (ids, or
///   `{"id": ..., "kind": "adopted"}`).
/// Unknown keys are ignored, so newer app documents still load.
enum TreeDocumentReader {
    /// Reads a parsed document.
    static func read(_ json: JSONDocument) -> TreeDocument {
        let lines = json.elementLocations.mapValues { $0.map(\.line) }
        return RecordReader.read(root: json.root, elementLines: lines, duplicateKeys: json.duplicateKeys)
    }

    /// Reads a tape; it holds no duplicate key (a tape is not made of such a file).
    static func read(_ tape: JSONTape) -> TreeDocument {
        let lines = tape.topLevelElementOffsets.mapValues { tape.lines(ofAscendingOffsets: $0) }
        return tape.withRoot { root in RecordReader.read(root: root, elementLines: lines, duplicateKeys: []) }
    }
}

/// The records of a tree file read from either kind of JSON value.
private struct RecordReader<Node: JSONNode> {
    private var problems: [TreeProblem] = []
    private var members: [Member] = []
    private var memberLocations: [TreeLocation] = []
    private var unions: [Union] = []
    private var unionLocations: [TreeLocation] = []
    private var connections: [CrossBloodlineConnection] = []
    private var connectionLocations: [TreeLocation] = []
    private let elementLines: [String: [Int]]
    /// The position in the file's `unions` of the first union this reader reads.
    private var unionNumberBase = 0

    private init(elementLines: [String: [Int]]) { self.elementLines = elementLines }

    static func read(root: Node, elementLines: [String: [Int]], duplicateKeys: [JSONDocument.DuplicateKey]) -> TreeDocument {
        var reader = RecordReader(elementLines: elementLines)
        reader.readRoot(root, duplicateKeys: duplicateKeys)
        var document = TreeDocument(
            members: reader.members, unions: reader.unions, crossBloodlineConnections: reader.connections,
            problems: reader.problems, memberLocations: reader.memberLocations, unionLocations: reader.unionLocations,
            connectionLocations: reader.connectionLocations
        )
        // A genealogy file's sources and kept records, when the tree came from one.
        if root.isObject {
            var fields = FieldReader(root, at: TreeLocation(path: ""))
            document.sources = fields.sources()
            document.genealogyFile = fields.genealogyFile()
            document.problems += fields.problems
        }
        return document
    }

    private mutating func report(_ message: String, at location: TreeLocation, ids: [String] = []) {
        problems.append(TreeProblem(.invalidField, message, ids: ids, at: location))
    }

    /// The elements of a top-level array, with where each stands in the file.
    private struct Records {
        var key: String
        var elements: [Node] = []
        var lines: [Int] = []

        var indices: Range<Int> { elements.indices }

        /// Where the element at `position` stands; made as it is read (on the reading thread).
        func location(_ position: Int) -> TreeLocation {
            TreeLocation(path: "\(key)[\(position)]", line: position < lines.count ? lines[position] : nil)
        }
    }

    private mutating func records(_ key: String, in root: Node) -> Records {
        guard let value = root[key] else { return Records(key: key) }
        guard let elements = value.elements else {
            report("expected an array, found \(value.kindDescription)", at: TreeLocation(path: key))
            return Records(key: key)
        }
        return Records(key: key, elements: elements, lines: elementLines[key] ?? [])
    }

    private mutating func readRoot(_ root: Node, duplicateKeys: [JSONDocument.DuplicateKey]) {
        guard root.isObject else {
            report("a tree file must be a JSON object with a \"members\" array, found \(root.kindDescription)", at: TreeLocation(path: "$"))
            return
        }
        if root["members"] == nil {
            report("missing the \"members\" array", at: TreeLocation(path: "$"))
        }
        for duplicate in duplicateKeys {
            report("the key \"\(duplicate.key)\" is written twice in one record (again at column \(duplicate.location.column)); keep one",
                   at: TreeLocation(path: duplicate.path, line: duplicate.location.line))
        }
        let memberRecords = records("members", in: root)
        let unionRecords = records("unions", in: root)
        var seedLinks: [SeedLinks] = []
        // Records are independent: on a large file, chunks of them are read on every core and
        // joined in file order, exactly as one pass would read them (same records, problems and
        // links, in the same order).
        let parts = Self.chunks(memberRecords, as: Part.members) + Self.chunks(unionRecords, as: Part.unions)
        nonisolated(unsafe) let shared = parts
        let elementLines = elementLines
        let read = Parallel.map(shared.indices) { index in
            var reader = RecordReader(elementLines: elementLines)
            var links: [SeedLinks] = []
            switch shared[index] {
            case .members(let records, let range):
                for position in range {
                    // Only the seed app's shape has links to turn into unions.
                    if let found = reader.readMember(records.elements[position], at: records.location(position)), found.spouse != nil || !found.children.isEmpty {
                        links.append(found)
                    }
                }
            case .unions(let records, let range):
                reader.unionNumberBase = range.lowerBound
                for position in range { reader.readUnion(records.elements[position], at: records.location(position)) }
            }
            return Unchecked((reader, links))
        }
        for part in read {
            let (reader, links) = part.value
            members += reader.members
            memberLocations += reader.memberLocations
            unions += reader.unions
            unionLocations += reader.unionLocations
            problems += reader.problems
            pendingNestedLinks += reader.pendingNestedLinks
            seedLinks += links
        }
        deriveSeedUnions(from: seedLinks)
        let connectionRecords = records("crossBloodlineConnections", in: root)
        for position in connectionRecords.indices { readConnection(connectionRecords.elements[position], at: connectionRecords.location(position)) }
    }

    // MARK: Members

    /// A run of records read together.
    private enum Part {
        case members(Records, Range<Int>)
        case unions(Records, Range<Int>)
    }

    /// Records per part: large enough that a thread's start is nothing beside its work.
    private static var recordsPerPart: Int { 8_192 }

    private static func chunks(_ records: Records, as part: (Records, Range<Int>) -> Part) -> [Part] {
        stride(from: 0, to: records.elements.count, by: recordsPerPart).map { part(records, $0..<min($0 + recordsPerPart, records.elements.count)) }
    }

    /// What a member record says in the seed app's shape.
    private struct SeedLinks {
        var member: Member.ID
        var spouse: Member.ID?
        var children: [Member.ID]
        var location: TreeLocation
        /// Where each child reference stands, parallel to `children`.
        var childLocations: [TreeLocation]
    }

    private mutating func readMember(_ value: Node, at location: TreeLocation) -> SeedLinks? {
        var fields = FieldReader(value, at: location)
        guard fields.isObject, let id = fields.id("id") else {
            problems += fields.problems
            if !fields.isObject { report("a member must be an object, found \(value.kindDescription)", at: location) }
            return nil
        }
        let member = Member(
            id: id,
            firstName: fields.string("firstName") ?? "",
            middleName: fields.string("middleName"),
            lastName: fields.string("lastName"),
            nickname: fields.string("nickname"),
            sex: fields.sex("sex"),
            birthday: fields.date("birthday"),
            deathDate: fields.date("deathDate"),
            photo: fields.string("photo"),
            color: fields.color("color"),
            notes: fields.string("notes"),
            isTopOfBloodline: fields.bool("isTopOfBloodline") ?? false,
            isMarriedIntoFamily: fields.bool("isMarriedIntoFamily") ?? false
        )
        var sortable = member
        sortable.sortDate = fields.date("sortDate")
        sortable.birthPhrase = fields.string("birthPhrase")
        sortable.suffix = fields.string("suffix")
        sortable.deathPhrase = fields.string("deathPhrase")
        sortable.isRemoved = fields.bool("removed") ?? false
        sortable.events = fields.events()
        sortable.citations = fields.citations()
        sortable.recorded = fields.recorded()
        if var contact = fields.object("contact") {
            if let uid = contact.id("uid") {
                sortable.contact = ContactDetails(
                    uid: uid, revision: contact.string("revision"), phones: contact.labeledValues("phones"),
                    emails: contact.labeledValues("emails"), addresses: contact.labeledValues("addresses"),
                    dates: contact.labeledValues("dates"), photoURL: contact.string("photoURL")
                )
                sortable.contact?.fingerprint = contact.string("fingerprint")
            }
            fields.absorb(contact)
        }
        members.append(sortable)
        memberLocations.append(location)
        let spouse = fields.reference("spouse")
        var children: [Member.ID] = []
        var childLocations: [TreeLocation] = []
        if let list = fields.array("children") {
            for (position, element) in list.enumerated() {
                let elementLocation = location.appending("children[\(position)]")
                if let child = nestedReference(element, at: elementLocation) {
                    children.append(child)
                    childLocations.append(elementLocation)
                }
            }
        }
        problems += fields.problems
        return SeedLinks(member: id, spouse: spouse, children: children, location: location, childLocations: childLocations)
    }

    /// A child given as an id, or as a nested member object (the seed app's recursive model).
    private mutating func nestedReference(_ element: Node, at location: TreeLocation) -> Member.ID? {
        if let id = element.stringValue, !id.isEmpty { return id }
        guard element.isObject else {
            report("expected a member id, found \(element.kindDescription)", at: location)
            return nil
        }
        // A nested object carrying more than an id is a member in its own right.
        if element["firstName"] != nil, let links = readMember(element, at: location) {
            pendingNestedLinks.append(links)
            return links.member
        }
        var fields = FieldReader(element, at: location)
        let id = fields.id("id")
        problems += fields.problems
        return id
    }

    private var pendingNestedLinks: [SeedLinks] = []

    /// Turns `spouse` and `children` fields into unions, merging into listed unions of the same couple.
    private mutating func deriveSeedUnions(from topLevelLinks: [SeedLinks]) {
        guard !topLevelLinks.isEmpty || !pendingNestedLinks.isEmpty else { return }
        // Unknown ids are reported here, where the reference was written, and left out.
        let known = Set(members.map(\.id))
        var allLinks = topLevelLinks + pendingNestedLinks
        for index in allLinks.indices {
            let links = allLinks[index]
            if let spouse = links.spouse, !known.contains(spouse) {
                problems.append(TreeProblem(.unknownReference, "unknown member id \"\(spouse)\" as the spouse of \"\(links.member)\"", ids: [spouse, links.member], at: links.location.appending("spouse")))
                allLinks[index].spouse = nil
            }
            let kept = links.children.indices.filter { known.contains(links.children[$0]) }
            for position in links.children.indices where !known.contains(links.children[position]) {
                problems.append(TreeProblem(.unknownReference, "unknown member id \"\(links.children[position])\" as a child of \"\(links.member)\"", ids: [links.children[position], links.member], at: links.childLocations[position]))
            }
            allLinks[index].children = kept.map { links.children[$0] }
        }
        // A member whose own `spouse` is empty still has the partner who names them.
        var namedBy: [Member.ID: Member.ID] = [:]
        for links in allLinks { if let spouse = links.spouse, namedBy[spouse] == nil { namedBy[spouse] = links.member } }
        var unionByCouple: [[Member.ID]: Int] = [:]
        for (position, union) in unions.enumerated() where unionByCouple[union.partners.sorted()] == nil {
            unionByCouple[union.partners.sorted()] = position
        }
        for links in allLinks {
            guard links.spouse != nil || !links.children.isEmpty else { continue }
            let partner = links.spouse ?? namedBy[links.member]
            let partners = partner.map { [links.member, $0] } ?? [links.member]
            let key = partners.sorted()
            let position: Int
            if let existing = unionByCouple[key] {
                position = existing
            } else {
                position = unions.count
                unionByCouple[key] = position
                unions.append(Union(id: key.joined(separator: "+"), partners: partners))
                unionLocations.append(links.location.appending(links.spouse != nil ? "spouse" : "children"))
            }
            for child in links.children where !unions[position].children.contains(where: { $0.member == child }) {
                unions[position].children.append(ChildLink(child))
            }
        }
    }

    // MARK: Unions and connections

    private mutating func readUnion(_ value: Node, at location: TreeLocation) {
        var fields = FieldReader(value, at: location)
        guard fields.isObject else {
            report("a union must be an object, found \(value.kindDescription)", at: location)
            return
        }
        let id = fields.id("id", required: false) ?? "unions[\(unionNumberBase + unions.count)]"
        let partners = fields.idList("partners")
        var children: [ChildLink] = []
        for (position, element) in (fields.array("children") ?? []).enumerated() {
            let childLocation = location.appending("children[\(position)]")
            if let child = element.stringValue, !child.isEmpty {
                children.append(ChildLink(child))
                continue
            }
            var childFields = FieldReader(element, at: childLocation)
            guard childFields.isObject else {
                report("a child must be a member id or an object with \"id\" and \"kind\", found \(element.kindDescription)", at: childLocation)
                continue
            }
            if let child = childFields.id("id") {
                children.append(ChildLink(child, kind: childFields.childKind("kind") ?? .birth))
            }
            problems += childFields.problems
        }
        var union = Union(id: id, partners: partners, marriage: fields.date("marriage"), divorce: fields.date("divorce"), children: children)
        union.marriagePhrase = fields.string("marriagePhrase")
        union.divorcePhrase = fields.string("divorcePhrase")
        union.events = fields.events()
        union.citations = fields.citations()
        union.recorded = fields.recorded()
        problems += fields.problems
        unions.append(union)
        unionLocations.append(location)
    }

    private mutating func readConnection(_ value: Node, at location: TreeLocation) {
        var fields = FieldReader(value, at: location)
        guard fields.isObject else {
            report("a cross-bloodline connection must be an object, found \(value.kindDescription)", at: location)
            return
        }
        let child = fields.id("fromChild")
        let parent = fields.id("toNewParent")
        let id = fields.id("id", required: false) ?? "\(child ?? "?")->\(parent ?? "?")"
        problems += fields.problems
        guard let child, let parent else { return }
        connections.append(CrossBloodlineConnection(id: id, fromChild: child, toNewParent: parent))
        connectionLocations.append(location)
    }
}
