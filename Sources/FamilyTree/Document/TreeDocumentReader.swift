/// Reads a tree.json value into a `TreeDocument`.
///
/// Two shapes are read, and may be mixed in one file:
/// - the seed app's: members with `spouse` (an id) and `children` (ids, or nested member objects);
/// - ours: a `unions` array with `partners`, `marriage`, `divorce` and `children` (ids, or
///   `{"id": ..., "kind": "adopted"}`).
/// Unknown keys are ignored, so newer app documents still load.
struct TreeDocumentReader {
    private var problems: [TreeProblem] = []
    private var members: [Member] = []
    private var memberLocations: [TreeLocation] = []
    private var unions: [Union] = []
    private var unionLocations: [TreeLocation] = []
    private var connections: [CrossBloodlineConnection] = []
    private var connectionLocations: [TreeLocation] = []

    static func read(_ json: JSONDocument) -> TreeDocument {
        var reader = TreeDocumentReader()
        reader.readRoot(json)
        return TreeDocument(
            members: reader.members, unions: reader.unions, crossBloodlineConnections: reader.connections,
            problems: reader.problems, memberLocations: reader.memberLocations, unionLocations: reader.unionLocations,
            connectionLocations: reader.connectionLocations
        )
    }

    private mutating func report(_ message: String, at location: TreeLocation, ids: [String] = []) {
        problems.append(TreeProblem(.invalidField, message, ids: ids, at: location))
    }

    private mutating func records(_ key: String, in json: JSONDocument) -> [(JSONValue, TreeLocation)] {
        guard let value = json.root[key] else { return [] }
        guard case .array(let elements) = value else {
            report("expected an array, found \(value.kindDescription)", at: TreeLocation(path: key))
            return []
        }
        let lines = json.elementLocations[key] ?? []
        return elements.enumerated().map { position, element in
            (element, TreeLocation(path: "\(key)[\(position)]", line: position < lines.count ? lines[position].line : nil))
        }
    }

    private mutating func readRoot(_ json: JSONDocument) {
        guard case .object = json.root else {
            report("a tree file must be a JSON object with a \"members\" array, found \(json.root.kindDescription)", at: TreeLocation(path: "$"))
            return
        }
        if json.root["members"] == nil {
            report("missing the \"members\" array", at: TreeLocation(path: "$"))
        }
        for duplicate in json.duplicateKeys {
            report("the key \"\(duplicate.key)\" is written twice in one record (again at column \(duplicate.location.column)); keep one",
                   at: TreeLocation(path: duplicate.path, line: duplicate.location.line))
        }
        let memberRecords = records("members", in: json)
        var seedLinks: [SeedLinks] = []
        for (value, location) in memberRecords {
            if let links = readMember(value, at: location) { seedLinks.append(links) }
        }
        for (value, location) in records("unions", in: json) { readUnion(value, at: location) }
        deriveSeedUnions(from: seedLinks)
        for (value, location) in records("crossBloodlineConnections", in: json) { readConnection(value, at: location) }
    }

    // MARK: Members

    /// What a member record says in the seed app's shape.
    private struct SeedLinks {
        var member: Member.ID
        var spouse: Member.ID?
        var children: [Member.ID]
        var location: TreeLocation
        /// Where each child reference stands, parallel to `children`.
        var childLocations: [TreeLocation]
    }

    private mutating func readMember(_ value: JSONValue, at location: TreeLocation) -> SeedLinks? {
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
        sortable.deathPhrase = fields.string("deathPhrase")
        sortable.isRemoved = fields.bool("removed") ?? false
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
    private mutating func nestedReference(_ element: JSONValue, at location: TreeLocation) -> Member.ID? {
        switch element {
        case .string(let id) where !id.isEmpty:
            return id
        case .object:
            // A nested object carrying more than an id is a member in its own right.
            if element["firstName"] != nil, let links = readMember(element, at: location) {
                pendingNestedLinks.append(links)
                return links.member
            }
            var fields = FieldReader(element, at: location)
            let id = fields.id("id")
            problems += fields.problems
            return id
        default:
            report("expected a member id, found \(element.kindDescription)", at: location)
            return nil
        }
    }

    private var pendingNestedLinks: [SeedLinks] = []

    /// Turns `spouse` and `children` fields into unions, merging into listed unions of the same couple.
    private mutating func deriveSeedUnions(from topLevelLinks: [SeedLinks]) {
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

    private mutating func readUnion(_ value: JSONValue, at location: TreeLocation) {
        var fields = FieldReader(value, at: location)
        guard fields.isObject else {
            report("a union must be an object, found \(value.kindDescription)", at: location)
            return
        }
        let id = fields.id("id", required: false) ?? "unions[\(unions.count)]"
        let partners = fields.idList("partners")
        var children: [ChildLink] = []
        for (position, element) in (fields.array("children") ?? []).enumerated() {
            let childLocation = location.appending("children[\(position)]")
            if case .string(let child) = element, !child.isEmpty {
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
        problems += fields.problems
        unions.append(union)
        unionLocations.append(location)
    }

    private mutating func readConnection(_ value: JSONValue, at location: TreeLocation) {
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
