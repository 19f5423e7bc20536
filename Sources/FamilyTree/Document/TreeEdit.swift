/// One change to a tree file, in the family's terms (see `TreeFile.apply`).
public enum TreeEdit: Sendable, Hashable {
    /// Adds `member`; with `parents` (one or two member ids) as a child of their union (made when
    /// they have none), or with `union` as a child of that union.
    case addMember(Member, parents: [Member.ID] = [], union: Union.ID? = nil, kind: ChildKind = .birth)
    /// Changes some of a member's fields.
    case editMember(Member.ID, MemberChanges)
    /// A new union of two members (refused while they are married and not divorced).
    case marry(Member.ID, Member.ID, date: PartialDate? = nil, union: Union.ID? = nil)
    /// Ends the two members' current union (`date` when known).
    case divorce(Member.ID, Member.ID, date: PartialDate? = nil)
    /// Takes a union's divorce back (its date, or the words kept for it): the couple is together
    /// again. Refused while the two are a couple in another union.
    case clearDivorce(Union.ID)
    /// Adds an existing member to a union's children.
    case addChild(Member.ID, union: Union.ID, kind: ChildKind = .birth)
    /// Records that a child also belongs to a parent in another bloodline.
    case link(CrossBloodlineConnection)
    /// Marks a member removed (hidden from charts, kept in the file) or restores one.
    case setRemoved(Member.ID, Bool)
    /// Deletes a member; refused while unions or connections name them, unless `withReferences`,
    /// which takes the member out of them too (a union left with no partner goes, and so does a
    /// single parent's union whose only child this was).
    case deleteMember(Member.ID, withReferences: Bool = false)
    /// Writes the listed fields of an existing member as `member` has them (a field `member` lacks
    /// is removed); the member's other fields, known or not, stay as they are. `member.id` names
    /// the record.
    case replaceFields(Member, Set<MemberField>)
    /// Adds a union record; its partners and children must be members.
    case addUnion(Union)
    /// Sets a union's partners (one or two members) and, when given, changes its marriage date.
    case editUnion(Union.ID, partners: [Member.ID], marriage: FieldChange<PartialDate>? = nil)
    /// Takes a child out of a union's children (the child stays in the tree).
    case removeChild(Member.ID, union: Union.ID)
    /// Deletes a union record; its partners and children stay in the tree.
    case deleteUnion(Union.ID)
    /// Deletes a cross-bloodline connection record; the child and the parent stay in the tree.
    case unlink(CrossBloodlineConnection.ID)
}

/// A member's fields as tree.json names them.
public enum MemberField: String, Sendable, Hashable, CaseIterable {
    case firstName, middleName, lastName, suffix, nickname, sex, birthday, birthPhrase, deathDate, deathPhrase
    case sortDate, photo, notes, color, contact
    /// The soft-delete flag (`removed`).
    case removed
    case isTopOfBloodline, isMarriedIntoFamily
}

/// A field change: a new value, or the field removed.
public enum FieldChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case set(Value)
    case clear
}

/// The member fields an edit changes; `nil` leaves a field as it is.
public struct MemberChanges: Sendable, Hashable {
    /// A new first name (a member always has one, so it cannot be cleared).
    public var firstName: String?
    /// Middle name(s).
    public var middleName: FieldChange<String>?
    /// Last name.
    public var lastName: FieldChange<String>?
    /// Nickname (shown by name-age labels).
    public var nickname: FieldChange<String>?
    /// Sex.
    public var sex: FieldChange<Sex>?
    /// Birthday; a new one replaces a birth phrase kept for an unplaceable date.
    public var birthday: FieldChange<PartialDate>?
    /// Date of death; a new one replaces a death phrase.
    public var deathDate: FieldChange<PartialDate>?
    /// Notes.
    public var notes: FieldChange<String>?
    /// Box colour, `#RRGGBB`.
    public var color: FieldChange<String>?
    /// Photo: a file path relative to the tree, or a `data:` URL.
    public var photo: FieldChange<String>?
    /// Events to add after the member's others (a burial, an occupation, ...).
    public var addedEvents: [LifeEvent] = []

    /// Changes of the fields given; the others are left as they are.
    public init(
        firstName: String? = nil, middleName: FieldChange<String>? = nil, lastName: FieldChange<String>? = nil,
        nickname: FieldChange<String>? = nil, sex: FieldChange<Sex>? = nil, birthday: FieldChange<PartialDate>? = nil,
        deathDate: FieldChange<PartialDate>? = nil, notes: FieldChange<String>? = nil, color: FieldChange<String>? = nil,
        photo: FieldChange<String>? = nil
    ) {
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.nickname = nickname
        self.sex = sex
        self.birthday = birthday
        self.deathDate = deathDate
        self.notes = notes
        self.color = color
        self.photo = photo
    }

    /// The tree.json fields as they change: a value to write, or `nil` to remove the key.
    var fields: [(key: String, value: JSONValue?)] {
        func text(_ change: FieldChange<String>?) -> JSONValue?? { change.map { if case .set(let value) = $0 { .string(value) } else { nil } } }
        func date(_ change: FieldChange<PartialDate>?) -> JSONValue?? { change.map { if case .set(let value) = $0 { .string(value.description) } else { nil } } }
        let changes: [(String, JSONValue??)] = [
            ("firstName", firstName.map { .string($0) }), ("middleName", text(middleName)), ("lastName", text(lastName)),
            ("nickname", text(nickname)), ("sex", sex.map { if case .set(let value) = $0 { .string(value.rawValue) } else { nil } }),
            ("birthday", date(birthday)), ("deathDate", date(deathDate)), ("notes", text(notes)), ("color", text(color)),
            ("photo", text(photo)),
        ]
        var result: [(key: String, value: JSONValue?)] = []
        for case let (key, change?) in changes {
            result.append((key, change))
            // A date given replaces the words kept for a date that could not be placed.
            if key == "birthday" { result.append(("birthPhrase", nil)) }
            if key == "deathDate" { result.append(("deathPhrase", nil)) }
        }
        return result
    }
}

extension TreeEdit {
    func apply(to tree: inout RawTree, graph: FamilyGraph, file: String?) throws(FamilyTreeError) {
        func refuse(_ message: String, ids: [String]) -> FamilyTreeError {
            .invalidTree(file: file, [TreeProblem(.invalidField, message, ids: ids)])
        }
        // The graph is as of the last edit that needed it; members added since are in `tree`.
        func member(_ id: Member.ID) throws(FamilyTreeError) {
            guard graph.index(of: id) != nil || tree.index(ofRecord: id, in: "members") != nil else {
                throw .invalidTree(file: file, [TreeProblem(.unknownReference, "no member has the id \"\(id)\"", ids: [id])])
            }
        }
        func record(of id: Member.ID) throws(FamilyTreeError) -> Int {
            try member(id)
            guard let position = tree.index(ofRecord: id, in: "members") else { throw refuse("\"\(id)\" is nested inside another member's record; edit it in the file", ids: [id]) }
            return position
        }
        func union(_ id: Union.ID) throws(FamilyTreeError) -> Int {
            guard let position = tree.index(ofRecord: id, in: "unions") else {
                throw .invalidTree(file: file, [TreeProblem(.unknownReference, "no union record has the id \"\(id)\"", ids: [id])])
            }
            return position
        }
        switch self {
        case .addMember(let new, let parents, let union, let kind):
            guard graph.index(of: new.id) == nil, tree.index(ofRecord: new.id, in: "members") == nil else {
                throw .invalidTree(file: file, [TreeProblem(.duplicateID, "a member with the id \"\(new.id)\" is already in the tree", ids: [new.id])])
            }
            for parent in parents { try member(parent) }
            tree.append(new.jsonValue, to: "members")
            if let union {
                try Self.appendChild(new.id, to: union, kind: kind, in: &tree, graph: graph, file: file)
            } else if !parents.isEmpty {
                guard parents.count <= 2, Set(parents).count == parents.count else { throw refuse("a child has one or two parents", ids: parents) }
                let couple = Set(parents)
                // The parents' latest union of exactly these partners, or a new one.
                if let existing = graph.unions.last(where: { Set($0.partners) == couple }), tree.index(ofRecord: existing.id, in: "unions") != nil {
                    try Self.appendChild(new.id, to: existing.id, kind: kind, in: &tree, graph: graph, file: file)
                } else {
                    let id = tree.freeID(parents.joined(separator: "+"), in: "unions", taken: Set(graph.unions.map(\.id)))
                    tree.append(Union(id: id, partners: parents, children: [ChildLink(new.id, kind: kind)]).jsonValue, to: "unions")
                }
            }

        case .editMember(let id, let changes):
            tree.update(try record(of: id), in: "members") { fields in
                for (key, value) in changes.fields { fields[key] = value }
                if !changes.addedEvents.isEmpty {
                    fields["events"] = .array((fields["events"]?.arrayValue ?? []) + changes.addedEvents.map(\.jsonValue))
                }
            }

        case .marry(let first, let second, let date, let union):
            try member(first)
            try member(second)
            guard first != second else { throw refuse("\"\(first)\" cannot marry themselves", ids: [first]) }
            if let current = graph.unions.first(where: { Set($0.partners) == [first, second] && $0.divorce == nil && $0.divorcePhrase == nil }) {
                throw refuse("\"\(first)\" and \"\(second)\" are already a couple (union \"\(current.id)\"); divorce them first to record a new marriage", ids: [first, second, current.id])
            }
            let id = union ?? tree.freeID("\(first)+\(second)", in: "unions", taken: Set(graph.unions.map(\.id)))
            tree.append(Union(id: id, partners: [first, second], marriage: date).jsonValue, to: "unions")

        case .divorce(let first, let second, let date):
            try member(first)
            try member(second)
            guard let current = graph.unions.last(where: { Set($0.partners) == [first, second] && $0.divorce == nil && $0.divorcePhrase == nil }) else {
                throw refuse("\"\(first)\" and \"\(second)\" are not a married couple", ids: [first, second])
            }
            if tree.index(ofRecord: current.id, in: "unions") == nil {
                // A couple from the seed app's spouse fields: an explicit union of theirs takes the divorce.
                tree.append(.object(["id": .string(current.id), "partners": .array([.string(first), .string(second)])]), to: "unions")
            }
            tree.update(tree.index(ofRecord: current.id, in: "unions")!, in: "unions") { fields in
                if let date { fields["divorce"] = .string(date.description) } else { fields["divorcePhrase"] = .string("date unknown") }
            }

        case .clearDivorce(let id):
            let position = try union(id)
            if let ended = graph.unions.first(where: { $0.id == id }),
               let current = graph.unions.first(where: { $0.id != id && Set($0.partners) == Set(ended.partners) && $0.divorce == nil && $0.divorcePhrase == nil }) {
                throw refuse("the couple of union \"\(id)\" are together again in union \"\(current.id)\"; its divorce stays", ids: [id, current.id])
            }
            tree.update(position, in: "unions") { fields in
                fields["divorce"] = nil
                fields["divorcePhrase"] = nil
            }

        case .addChild(let child, let union, let kind):
            try member(child)
            try Self.appendChild(child, to: union, kind: kind, in: &tree, graph: graph, file: file)

        case .link(let connection):
            try member(connection.fromChild)
            try member(connection.toNewParent)
            tree.append(.object(["id": .string(connection.id), "fromChild": .string(connection.fromChild), "toNewParent": .string(connection.toNewParent)]), to: "crossBloodlineConnections")

        case .setRemoved(let id, let removed):
            tree.update(try record(of: id), in: "members") { fields in fields["removed"] = removed ? .bool(true) : nil }

        case .deleteMember(let id, let withReferences):
            let position = try record(of: id)
            let references = graph.unions.filter { $0.partners.contains(id) || $0.children.contains { $0.member == id } }.map { "union \"\($0.id)\"" }
                + graph.crossBloodlineConnections.filter { $0.fromChild == id || $0.toNewParent == id }.map { "cross-bloodline connection \"\($0.id)\"" }
            if !references.isEmpty, !withReferences {
                throw refuse("\"\(id)\" is still named by \(references.joined(separator: ", ")); remove those first, or delete with its references", ids: [id])
            }
            tree.remove(position, from: "members")
            tree.removeReferences(to: id)

        case .replaceFields(let new, let names):
            guard case .object(let values) = new.jsonValue else { return }
            tree.update(try record(of: new.id), in: "members") { fields in
                for name in names { fields[name.rawValue] = values[name.rawValue] }
            }

        case .addUnion(let new):
            guard tree.index(ofRecord: new.id, in: "unions") == nil, !graph.unions.contains(where: { $0.id == new.id }) else {
                throw .invalidTree(file: file, [TreeProblem(.duplicateID, "a union with the id \"\(new.id)\" is already in the tree", ids: [new.id])])
            }
            for id in new.partners + new.children.map(\.member) { try member(id) }
            tree.append(new.jsonValue, to: "unions")

        case .editUnion(let id, let partners, let marriage):
            guard (1...2).contains(partners.count), Set(partners).count == partners.count else { throw refuse("a union has one or two partners", ids: [id] + partners) }
            for partner in partners { try member(partner) }
            tree.update(try union(id), in: "unions") { fields in
                fields["partners"] = .array(partners.map(JSONValue.string))
                switch marriage {
                case .set(let date)?: fields["marriage"] = .string(date.description)
                case .clear?: fields["marriage"] = nil
                case nil: break
                }
            }

        case .removeChild(let child, let id):
            tree.update(try union(id), in: "unions") { fields in
                guard let children = fields["children"]?.arrayValue else { return }
                fields["children"] = .array(children.filter { ($0.stringValue ?? $0["id"]?.stringValue) != child })
            }

        case .deleteUnion(let id):
            tree.remove(try union(id), from: "unions")

        case .unlink(let id):
            guard let position = tree.index(ofRecord: id, in: "crossBloodlineConnections") else {
                throw .invalidTree(file: file, [TreeProblem(.unknownReference, "no cross-bloodline connection has the id \"\(id)\"", ids: [id])])
            }
            tree.remove(position, from: "crossBloodlineConnections")
        }
    }

    /// Whether the edit's checks read unions or connections as the edits before it left them (the
    /// graph is rebuilt first); the others check ids against the records directly, which keeps a
    /// batch of thousands of edits linear.
    var readsCurrentGraph: Bool {
        switch self {
        case .addMember(_, let parents, let union, _): !parents.isEmpty || union != nil
        case .marry, .divorce, .clearDivorce, .deleteMember: true
        case .editMember, .addChild, .link, .setRemoved, .replaceFields, .addUnion, .editUnion, .removeChild, .deleteUnion, .unlink: false
        }
    }
}

extension TreeEdit {
    /// Appends `child` to the children of `union`; a union the seed app's fields make gets an
    /// explicit record of its own first (the reader merges the two).
    static func appendChild(_ child: Member.ID, to union: Union.ID, kind: ChildKind, in tree: inout RawTree, graph: FamilyGraph, file: String?) throws(FamilyTreeError) {
        if tree.index(ofRecord: union, in: "unions") == nil, let derived = graph.unions.first(where: { $0.id == union }) {
            tree.append(.object(["id": .string(union), "partners": .array(derived.partners.map(JSONValue.string))]), to: "unions")
        }
        guard let position = tree.index(ofRecord: union, in: "unions") else {
            throw .invalidTree(file: file, [TreeProblem(.unknownReference, "no union has the id \"\(union)\"", ids: [union])])
        }
        tree.update(position, in: "unions") { fields in
            var children = fields["children"]?.arrayValue ?? []
            children.append(ChildLink(child, kind: kind).jsonValue)
            fields["children"] = .array(children)
        }
    }
}

/// The top-level arrays of a tree file, changed record by record.
struct RawTree {
    private(set) var fields: [String: JSONValue]
    /// Where each id's first record is, per array; made on first use, kept current by the changes.
    private var positions: [String: [String: Int]] = [:]

    init(_ root: JSONValue, file: String?) throws(FamilyTreeError) {
        guard case .object(let fields) = root else {
            throw .invalidTree(file: file, [TreeProblem(.invalidField, "a tree file must be a JSON object", at: TreeLocation(path: "$"))])
        }
        self.fields = fields
    }

    var root: JSONValue { .object(fields) }

    func records(_ key: String) -> [JSONValue] { fields[key]?.arrayValue ?? [] }

    static func id(of record: JSONValue) -> String? {
        switch record["id"] {
        case .string(let value)?: value
        case .number(let literal)?: literal
        default: nil
        }
    }

    /// The position of the first record whose `id` is `id` in the array `key`.
    mutating func index(ofRecord id: String, in key: String) -> Int? {
        if positions[key] == nil {
            var map: [String: Int] = [:]
            for (position, record) in records(key).enumerated() {
                if let id = Self.id(of: record), map[id] == nil { map[id] = position }
            }
            positions[key] = map
        }
        return positions[key]![id]
    }

    /// Changes the array `key` in place (one copy of it, not one per record).
    private mutating func modify(_ key: String, _ change: (inout [JSONValue]) -> Void) {
        var list = records(key)
        fields[key] = nil
        change(&list)
        fields[key] = .array(list)
    }

    mutating func append(_ record: JSONValue, to key: String) {
        let position = records(key).count
        modify(key) { $0.append(record) }
        if let id = Self.id(of: record), positions[key] != nil, positions[key]![id] == nil { positions[key]![id] = position }
    }

    mutating func update(_ position: Int, in key: String, _ change: (inout [String: JSONValue]) -> Void) {
        modify(key) { list in
            guard case .object(var record) = list[position] else { return }
            list[position] = .null
            change(&record)
            list[position] = .object(record)
        }
    }

    mutating func remove(_ position: Int, from key: String) {
        modify(key) { $0.remove(at: position) }
        positions[key] = nil
    }

    /// `base`, or `base-2`, `base-3`, ... when a record already has it.
    mutating func freeID(_ base: String, in key: String, taken: Set<String>) -> String {
        var candidate = base
        var suffix = 2
        while taken.contains(candidate) || index(ofRecord: candidate, in: key) != nil {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// Takes `id` out of every union (partners, children), connection and seed-app link.
    mutating func removeReferences(to id: Member.ID) {
        positions = [:]
        func names(_ value: JSONValue) -> Bool {
            value.stringValue == id || value["id"]?.stringValue == id
        }
        fields["unions"] = fields["unions"].map { unions in
            .array((unions.arrayValue ?? []).compactMap { union -> JSONValue? in
                guard case .object(var record) = union else { return union }
                if let partners = record["partners"]?.arrayValue {
                    let kept = partners.filter { !names($0) }
                    if kept.isEmpty { return nil }
                    record["partners"] = .array(kept)
                }
                if let children = record["children"]?.arrayValue {
                    let kept = children.filter { !names($0) }
                    // A single parent's union that held only this child has nothing left to say.
                    if kept.isEmpty, kept.count < children.count, record["partners"]?.arrayValue?.count == 1 { return nil }
                    record["children"] = .array(kept)
                }
                return .object(record)
            })
        }
        fields["crossBloodlineConnections"] = fields["crossBloodlineConnections"].map { connections in
            .array((connections.arrayValue ?? []).filter { $0["fromChild"]?.stringValue != id && $0["toNewParent"]?.stringValue != id })
        }
        // The seed app's shape: a member's `spouse` and `children` name others.
        fields["members"] = fields["members"].map { members in
            .array((members.arrayValue ?? []).map { member in
                guard case .object(var record) = member else { return member }
                if record["spouse"]?.stringValue == id { record["spouse"] = nil }
                if let children = record["children"]?.arrayValue { record["children"] = .array(children.filter { !names($0) }) }
                return .object(record)
            })
        }
    }
}
