#if Server
import FamilyTree
import FamilyTreeSync
internal import Foundation

/// An edit as the browser sends it, in the family's words: change a person's fields, add a child,
/// a parent or a partner, marry, divorce, link a child to a parent of another bloodline, remove.
/// `BrowserEdits` turns a batch of them into the CLI's typed edits (`TreeEdit`), made again from
/// the tree as it is whenever another relative saved first.
struct BrowserEdit: Codable, Sendable, Hashable {
    enum Operation: String, Codable, Sendable, CaseIterable {
        /// `member`'s `fields` change; `was` holds the values the user saw.
        case edit
        /// A new person (`fields`), related to no one yet (`member` is ignored: the tree's first).
        case add
        /// A new person (`fields`) is a child of `member` and, when given, of `other`.
        case addChild
        /// A new person (`fields`) is a parent of `member`.
        case addParent
        /// A new person (`fields`) marries `member` (on `date`, when given).
        case addPartner
        /// `member` and `other` marry (on `date`).
        case marry
        /// `member` and `other` divorce (on `date`).
        case divorce
        /// `member` also belongs to `other`, a parent in another bloodline.
        case link
        /// `member` is a child of `other` (and of `other`'s partner in their latest union).
        case childOf
        /// Hides `member` from the tree (kept, restorable); an admin's.
        case remove
        /// Shows a removed `member` again; an admin's.
        case restore
        /// Takes the cross-bloodline connection `member` away (an undo of `link`).
        case unlink
        /// Takes the marriage recorded as union `member` away while it has no children (an undo
        /// of `marry`); deletes the union's document, so an admin's.
        case unmarry
        /// Takes the divorce of union `member` back (an undo of `divorce`).
        case undivorce
    }

    var op: Operation
    var member: String
    var other: String? = nil
    var fields: [String: String?]? = nil
    var was: [String: String?]? = nil
    var date: String? = nil
}

/// A batch of browser edits made into typed edits against one version of the tree.
struct BrowserEdits {
    /// The fields the browser may change, in the order the card shows them.
    static let editableFields = ["firstName", "middleName", "lastName", "nickname", "sex", "birthday", "deathDate", "notes", "photo"]
    static let maximumEdits = 50
    static let maximumNameCharacters = 200
    static let maximumNotesCharacters = 20_000
    /// A photo is a data: URL inside the member's document, which may hold 1 MiB in all.
    static let maximumPhotoBytes = 600_000

    /// A field another relative changed since the user read it.
    struct Conflict: Codable, Sendable, Hashable {
        var member: String
        var name: String
        var field: String
        /// What the user read.
        var was: String?
        /// What the user wants.
        var yours: String?
        /// What the tree holds now.
        var theirs: String?
    }

    /// The edits were refused because of these conflicts; nothing was written.
    struct Conflicts: Error {
        var conflicts: [Conflict]
    }

    let edits: [BrowserEdit]
    /// One id per edit, for the person or connection it creates: chosen once, so an edit made
    /// again after another relative saved first finds what its earlier try already wrote.
    let newIDs: [String]

    init(_ edits: [BrowserEdit]) throws {
        guard !edits.isEmpty else { throw APIFailure.invalid("send at least one edit") }
        guard edits.count <= Self.maximumEdits else { throw APIFailure.tooLarge("at most \(Self.maximumEdits) edits at once; this batch has \(edits.count)") }
        for (position, edit) in edits.enumerated() { try Self.check(edit, at: position) }
        self.edits = edits
        newIDs = edits.map { _ in "m" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20) }
    }

    /// Refuses what no tree could take: unknown fields, text too long, dates that are no dates.
    static func check(_ edit: BrowserEdit, at position: Int) throws {
        let place = "edits[\(position)]"
        func id(_ value: String?, _ name: String) throws {
            guard let value else { throw APIFailure.invalid("\(place).\(name) is missing") }
            guard !value.isEmpty, value.utf8.count <= SyncLimits.maximumIdentifierBytes else {
                throw APIFailure.invalid("\(place).\(name) is an id of 1 to \(SyncLimits.maximumIdentifierBytes) bytes")
            }
        }
        try id(edit.member, "member")
        if [.marry, .divorce, .link, .childOf].contains(edit.op) || edit.other != nil { try id(edit.other, "other") }
        if let date = edit.date, !date.isEmpty, PartialDate(date) == nil {
            throw APIFailure.invalid("\(place).date \"\(date.prefix(40))\" is not a date (1952, 1952-03, 1952-03-14, about 1952)")
        }
        for (name, values) in [("fields", edit.fields), ("was", edit.was)] {
            for (field, value) in values ?? [:] {
                guard editableFields.contains(field) else {
                    throw APIFailure.invalid("\(place).\(name) has \"\(field.prefix(40))\"; the fields are \(editableFields.joined(separator: ", "))")
                }
                if name == "fields" { try checkValue(value, of: field, at: "\(place).fields.\(field)") }
            }
        }
        if [.add, .addChild, .addParent, .addPartner].contains(edit.op) {
            guard case let first?? = edit.fields?["firstName"], !first.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw APIFailure.invalid("\(place): a new person needs a first name (fields.firstName)")
            }
        }
    }

    static func checkValue(_ value: String?, of field: String, at place: String) throws {
        guard let value else {
            if field == "firstName" { throw APIFailure.invalid("\(place): a person always has a first name") }
            return
        }
        switch field {
        case "firstName", "middleName", "lastName", "nickname":
            guard value.count <= maximumNameCharacters else { throw APIFailure.invalid("\(place) has \(value.count) characters; at most \(maximumNameCharacters)") }
            if field == "firstName", value.trimmingCharacters(in: .whitespaces).isEmpty { throw APIFailure.invalid("\(place): a person always has a first name") }
        case "notes":
            guard value.count <= maximumNotesCharacters else { throw APIFailure.invalid("\(place) has \(value.count) characters; at most \(maximumNotesCharacters)") }
        case "sex":
            guard Sex(rawValue: value) != nil else { throw APIFailure.invalid("\(place) is one of \(Sex.allCases.map(\.rawValue).joined(separator: ", "))") }
        case "birthday", "deathDate":
            guard PartialDate(value) != nil else { throw APIFailure.invalid("\(place) \"\(value.prefix(40))\" is not a date (1952, 1952-03, 1952-03-14, about 1952)") }
        case "photo":
            guard value.utf8.count <= maximumPhotoBytes else { throw APIFailure.tooLarge("\(place) is \(value.utf8.count) bytes; a photo may have at most \(maximumPhotoBytes)") }
            let kinds = ["data:image/jpeg;base64,", "data:image/png;base64,", "data:image/webp;base64,", "data:image/gif;base64,"]
            guard kinds.contains(where: value.hasPrefix),
                  value.drop(while: { $0 != "," }).dropFirst().allSatisfy({ $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || "+/=".contains($0) })
            else { throw APIFailure.invalid("\(place) is a JPEG, PNG, WebP or GIF image as a base64 data: URL") }
        default: break
        }
    }

    /// A member's editable fields as the card shows them and `was` compares them.
    static func fields(of member: Member) -> [String: String] {
        var fields: [String: String] = ["firstName": member.firstName]
        fields["middleName"] = member.middleName
        fields["lastName"] = member.lastName
        fields["nickname"] = member.nickname
        fields["sex"] = member.sex?.rawValue
        fields["birthday"] = member.birthday?.description
        fields["deathDate"] = member.deathDate?.description
        fields["notes"] = member.notes
        fields["photo"] = member.photo
        return fields
    }

    /// What the batch does to `file`: the typed edits, or the conflicts that stop it.
    func typedEdits(for file: TreeFile) throws -> [TreeEdit] {
        let graph = file.graph
        var result: [TreeEdit] = []
        var conflicts: [Conflict] = []
        func name(_ id: String) -> String { graph.member(id)?.fullName ?? id }
        func exists(_ id: String) -> Bool { graph.index(of: id) != nil }
        for (position, edit) in edits.enumerated() {
            let newID = newIDs[position]
            switch edit.op {
            case .edit:
                guard let member = graph.member(edit.member) else { throw APIFailure.notFound("no one in this tree has the id \"\(edit.member)\"; it may have been deleted") }
                let now = Self.fields(of: member)
                for (field, wanted) in edit.fields ?? [:] {
                    guard let seen = edit.was?[field] else { continue }
                    // Compared as the tree would hold them: "Ann " is "Ann", "1950-3-1" is "1950-03-01".
                    let current = now[field]
                    if current != seen, current != Self.stored(wanted, of: field) {
                        conflicts.append(Conflict(member: member.id, name: member.fullName, field: field, was: seen, yours: wanted, theirs: current))
                    }
                }
                result.append(.editMember(member.id, Self.changes(edit.fields ?? [:])))
            case .add:
                if !exists(newID) { result.append(.addMember(Self.newMember(newID, edit.fields))) }
            case .addChild:
                if !exists(newID) {
                    result.append(.addMember(Self.newMember(newID, edit.fields), parents: [edit.member] + (edit.other.map { [$0] } ?? [])))
                } else if let union = Self.union(of: [edit.member] + (edit.other.map { [$0] } ?? []), in: graph),
                          !union.children.contains(where: { $0.member == newID }) {
                    result.append(.addChild(newID, union: union.id))
                }
            case .addParent:
                guard exists(edit.member) else { throw APIFailure.notFound("no one in this tree has the id \"\(edit.member)\"") }
                if !exists(newID) { result.append(.addMember(Self.newMember(newID, edit.fields))) }
                result += try Self.parentEdits(parent: newID, child: edit.member, unionID: "u" + newID, in: graph, name: name)
            case .addPartner:
                if !exists(newID) { result.append(.addMember(Self.newMember(newID, edit.fields))) }
                if !graph.unions.contains(where: { Set($0.partners) == [edit.member, newID] }) {
                    result.append(.marry(edit.member, newID, date: edit.date.flatMap(PartialDate.init), union: "u" + newID))
                }
            case .marry:
                // Its union's id is the edit's own, so its undo knows which union to take away.
                guard !graph.unions.contains(where: { $0.id == "u" + newID }) else { break }
                result.append(.marry(edit.member, edit.other!, date: edit.date.flatMap(PartialDate.init), union: "u" + newID))
            case .divorce:
                result.append(.divorce(edit.member, edit.other!, date: edit.date.flatMap(PartialDate.init)))
            case .link:
                guard !graph.crossBloodlineConnections.contains(where: { $0.id == newID }) else { break }
                guard edit.member != edit.other else { throw APIFailure.invalid("a person cannot be linked to themselves") }
                result.append(.link(CrossBloodlineConnection(id: newID, fromChild: edit.member, toNewParent: edit.other!)))
            case .childOf:
                guard edit.member != edit.other else { throw APIFailure.invalid("a person cannot be their own child") }
                result += try Self.parentEdits(parent: edit.other!, child: edit.member, unionID: "u" + newID, in: graph, name: name)
            case .remove, .restore:
                guard exists(edit.member) else { throw APIFailure.notFound("no one in this tree has the id \"\(edit.member)\"") }
                result.append(.setRemoved(edit.member, edit.op == .remove))
            case .unlink:
                if graph.crossBloodlineConnections.contains(where: { $0.id == edit.member }) { result.append(.unlink(edit.member)) }
            case .unmarry:
                guard let union = graph.unions.first(where: { $0.id == edit.member }) else { break }
                guard union.children.isEmpty else {
                    let couple = union.partners.map(name).joined(separator: " and ")
                    throw APIFailure(.conflict, "changed", "\(couple) have a child in that family now; their marriage stays")
                }
                result.append(.deleteUnion(union.id))
            case .undivorce:
                guard let union = graph.unions.first(where: { $0.id == edit.member }), union.divorce != nil || union.divorcePhrase != nil else { break }
                result.append(.clearDivorce(union.id))
            }
        }
        if !conflicts.isEmpty { throw Conflicts(conflicts: conflicts) }
        return result
    }

    /// The union whose partners are exactly `parents`.
    static func union(of parents: [String], in graph: FamilyGraph) -> Union? {
        graph.unions.last { Set($0.partners) == Set(parents) }
    }

    /// Makes `parent` a parent of `child`: in the union that already holds the child with one
    /// partner, as its second; else as a child of `parent`'s latest union, or a new union of
    /// `parent` alone. A child with two parents already gets no third: that is a cross-bloodline link.
    static func parentEdits(parent: String, child: String, unionID: String, in graph: FamilyGraph, name: (String) -> String) throws -> [TreeEdit] {
        let parentsNow = graph.unions.filter { $0.children.contains { $0.member == child } }
        if parentsNow.contains(where: { $0.partners.contains(parent) }) { return [] }
        if let single = parentsNow.first(where: { $0.partners.count == 1 }) {
            return [.editUnion(single.id, partners: single.partners + [parent])]
        }
        guard parentsNow.isEmpty else {
            throw APIFailure.invalid("\(name(child)) already has two parents; link \(name(parent)) as a parent in another bloodline instead")
        }
        if let union = graph.unions.last(where: { $0.partners.contains(parent) }) {
            return [.addChild(child, union: union.id)]
        }
        return [.addUnion(Union(id: unionID, partners: [parent], children: [ChildLink(child)]))]
    }

    static func newMember(_ id: String, _ fields: [String: String?]?) -> Member {
        let text = { (key: String) -> String? in
            guard case let value?? = fields?[key] else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        return Member(
            id: id, firstName: text("firstName") ?? "?", middleName: text("middleName"), lastName: text("lastName"), nickname: text("nickname"),
            sex: text("sex").flatMap(Sex.init(rawValue:)), birthday: text("birthday").flatMap(PartialDate.init),
            deathDate: text("deathDate").flatMap(PartialDate.init), photo: text("photo"), notes: text("notes"))
    }

    /// The typed changes of an `edit`'s fields: an empty text clears a field.
    static func changes(_ fields: [String: String?]) -> MemberChanges {
        func text(_ key: String) -> FieldChange<String>? {
            guard let value = fields[key] else { return nil }
            guard let value, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return .clear }
            return .set(key == "notes" ? value : value.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        func date(_ key: String) -> FieldChange<PartialDate>? {
            text(key).map { if case .set(let value) = $0, let date = PartialDate(value) { .set(date) } else { .clear } }
        }
        var changes = MemberChanges(
            middleName: text("middleName"), lastName: text("lastName"), nickname: text("nickname"),
            sex: text("sex").map { if case .set(let value) = $0, let sex = Sex(rawValue: value) { .set(sex) } else { .clear } },
            birthday: date("birthday"), deathDate: date("deathDate"), notes: text("notes"), photo: text("photo"))
        if case .set(let first)? = text("firstName") { changes.firstName = first }
        return changes
    }

    /// The edits that take this batch back, as made on `before` (the tree it was applied to):
    /// old values of edited fields, the people and links it added removed, a divorce taken back,
    /// and, by someone who may delete (`mayDelete`: an admin), a marriage taken away. `nil` when
    /// part of it cannot be taken back here (a new parent's place in a union, a helper's marriage).
    func undo(madeOn before: TreeFile, mayDelete: Bool) -> [BrowserEdit]? {
        var undo: [BrowserEdit] = []
        for (position, edit) in edits.enumerated().reversed() {
            let newID = newIDs[position]
            switch edit.op {
            case .edit:
                guard let member = before.graph.member(edit.member) else { return nil }
                let old = Self.fields(of: member)
                var fields: [String: String?] = [:], was: [String: String?] = [:]
                for (field, value) in edit.fields ?? [:] {
                    fields[field] = old[field]
                    was[field] = Self.stored(value, of: field)
                }
                undo.append(BrowserEdit(op: .edit, member: edit.member, fields: fields, was: was))
            case .add, .addChild, .addParent, .addPartner:
                undo.append(BrowserEdit(op: .remove, member: newID))
            case .link:
                undo.append(BrowserEdit(op: .unlink, member: newID))
            case .remove, .restore:
                undo.append(BrowserEdit(op: edit.op == .remove ? .restore : .remove, member: edit.member))
            case .marry:
                guard mayDelete else { return nil }
                undo.append(BrowserEdit(op: .unmarry, member: "u" + newID))
            case .divorce:
                // The union the divorce ended: the couple's current one, as `TreeEdit.divorce` finds it.
                let couple: Set<String> = [edit.member, edit.other ?? ""]
                guard let ended = before.graph.unions.last(where: { Set($0.partners) == couple && $0.divorce == nil && $0.divorcePhrase == nil }) else { return nil }
                undo.append(BrowserEdit(op: .undivorce, member: ended.id))
            case .undivorce:
                guard let union = before.graph.unions.first(where: { $0.id == edit.member }), union.partners.count == 2 else { return nil }
                undo.append(BrowserEdit(op: .divorce, member: union.partners[0], other: union.partners[1], date: union.divorce?.description))
            case .childOf, .unlink, .unmarry:
                return nil
            }
        }
        return undo
    }

    /// A field's value as the tree holds it once written (trimmed; dates in their own form).
    static func stored(_ value: String?, of field: String) -> String? {
        guard let value else { return nil }
        let trimmed = field == "notes" ? value : value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        if field == "birthday" || field == "deathDate" { return PartialDate(trimmed)?.description }
        return trimmed
    }

    /// What the batch did, in a line for the relatives watching (`by` did it).
    func summary(by user: String, on file: TreeFile) -> String {
        let graph = file.graph
        func name(_ id: String?) -> String { id.flatMap { graph.member($0)?.fullName } ?? "someone" }
        let lines = edits.enumerated().map { position, edit -> String in
            let newID = newIDs[position]
            switch edit.op {
            case .edit:
                let fields = (edit.fields ?? [:]).keys.sorted().map(Self.words(ofField:)).joined(separator: ", ")
                return "changed \(name(edit.member))’s \(fields)"
            case .add: return "added \(name(newID))"
            case .addChild: return "added \(name(newID)), a child of \(name(edit.member))"
            case .addParent: return "added \(name(newID)), a parent of \(name(edit.member))"
            case .addPartner: return "added \(name(newID)), a partner of \(name(edit.member))"
            case .marry: return "married \(name(edit.member)) and \(name(edit.other))"
            case .divorce: return "recorded the divorce of \(name(edit.member)) and \(name(edit.other))"
            case .link: return "linked \(name(edit.member)) to \(name(edit.other)) across bloodlines"
            case .childOf: return "made \(name(edit.member)) a child of \(name(edit.other))"
            case .remove: return "removed \(name(edit.member))"
            case .restore: return "restored \(name(edit.member))"
            case .unlink: return "took back a cross-bloodline link"
            case .unmarry: return "took back a marriage"
            case .undivorce:
                let couple = graph.unions.first { $0.id == edit.member }?.partners.map(name) ?? []
                return couple.count == 2 ? "took back the divorce of \(couple[0]) and \(couple[1])" : "took back a divorce"
            }
        }
        return "\(user) " + lines.joined(separator: "; ")
    }

    static func words(ofField field: String) -> String {
        switch field {
        case "firstName": "first name"
        case "middleName": "middle name"
        case "lastName": "last name"
        case "deathDate": "date of death"
        default: field
        }
    }
}
#endif
