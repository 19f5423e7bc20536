extension TreeDocument {
    /// The document in familytree's own tree.json format (members, unions, crossBloodlineConnections).
    ///
    /// Absent fields are left out; unions carry children as ids, or as `{"id", "kind"}` when not birth children.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = [
            "members": .array(members.map(Self.json(for:))),
            "unions": .array(unions.map(Self.json(for:))),
            "crossBloodlineConnections": .array(crossBloodlineConnections.map {
                .object(["id": .string($0.id), "fromChild": .string($0.fromChild), "toNewParent": .string($0.toNewParent)])
            }),
        ]
        if !sources.isEmpty { fields["sources"] = .array(sources.map(\.jsonValue)) }
        if let genealogyFile { fields["gedcom"] = genealogyFile.jsonValue }
        return .object(fields)
    }

    static func json(for member: Member) -> JSONValue {
        var fields: [String: JSONValue] = ["id": .string(member.id), "firstName": .string(member.firstName)]
        let optionalStrings: [(String, String?)] = [
            ("middleName", member.middleName), ("lastName", member.lastName), ("suffix", member.suffix), ("nickname", member.nickname),
            ("sex", member.sex?.rawValue), ("birthday", member.birthday?.description), ("deathDate", member.deathDate?.description),
            ("sortDate", member.sortDate?.description), ("birthPhrase", member.birthPhrase), ("deathPhrase", member.deathPhrase),
            ("photo", member.photo), ("color", member.color), ("notes", member.notes),
        ]
        for case let (key, value?) in optionalStrings { fields[key] = .string(value) }
        if member.isTopOfBloodline { fields["isTopOfBloodline"] = .bool(true) }
        if member.isMarriedIntoFamily { fields["isMarriedIntoFamily"] = .bool(true) }
        if member.isRemoved { fields["removed"] = .bool(true) }
        if let contact = member.contact { fields["contact"] = json(for: contact) }
        GenealogyJSON.add(events: member.events, citations: member.citations, recorded: member.recorded, to: &fields)
        return .object(fields)
    }

    static func json(for contact: ContactDetails) -> JSONValue {
        var fields: [String: JSONValue] = ["uid": .string(contact.uid)]
        if let revision = contact.revision { fields["revision"] = .string(revision) }
        if let fingerprint = contact.fingerprint { fields["fingerprint"] = .string(fingerprint) }
        if let photoURL = contact.photoURL { fields["photoURL"] = .string(photoURL) }
        let lists = [("phones", contact.phones), ("emails", contact.emails), ("addresses", contact.addresses), ("dates", contact.dates)]
        for (key, values) in lists where !values.isEmpty {
            fields[key] = .array(values.map { .object(["label": .string($0.label), "value": .string($0.value)]) })
        }
        return .object(fields)
    }

    static func json(for union: Union) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(union.id),
            "partners": .array(union.partners.map(JSONValue.string)),
            "children": .array(union.children.map(\.jsonValue)),
        ]
        if let marriage = union.marriage { fields["marriage"] = .string(marriage.description) }
        if let divorce = union.divorce { fields["divorce"] = .string(divorce.description) }
        if let phrase = union.marriagePhrase { fields["marriagePhrase"] = .string(phrase) }
        if let phrase = union.divorcePhrase { fields["divorcePhrase"] = .string(phrase) }
        GenealogyJSON.add(events: union.events, citations: union.citations, recorded: union.recorded, to: &fields)
        return .object(fields)
    }
}

extension FamilyGraph {
    /// The graph as a document (children in sibling order), for writing back to tree.json.
    public var document: TreeDocument {
        var document = TreeDocument(members: members, unions: unions, crossBloodlineConnections: crossBloodlineConnections)
        document.sources = sources
        document.genealogyFile = genealogyFile
        return document
    }
}

extension Member {
    /// The member's tree.json object.
    public var jsonValue: JSONValue { TreeDocument.json(for: self) }
}

extension Union {
    /// The union's tree.json object.
    public var jsonValue: JSONValue { TreeDocument.json(for: self) }
}

extension ChildLink {
    /// The child's entry in a union's `children`: the id, or `{"id", "kind"}` when not a birth child.
    public var jsonValue: JSONValue {
        kind == .birth ? .string(member) : .object(["id": .string(member), "kind": .string(kind.rawValue)])
    }
}
