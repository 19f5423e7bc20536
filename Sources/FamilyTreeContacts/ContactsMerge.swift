import FamilyTree

/// What a re-import did, member by member.
public struct ContactsMergeSummary: Sendable, Hashable, CustomStringConvertible {
    public var added = 0
    /// Members whose card changed, restored ones included.
    public var updated = 0
    /// Members marked removed because their card is gone.
    public var removed = 0
    public var unchanged = 0
    /// Of `updated`, members that were removed and whose card came back.
    public var restored = 0

    public var description: String {
        "added \(added), updated \(updated)\(restored > 0 ? " (\(restored) restored)" : ""), removed \(removed), unchanged \(unchanged)"
    }
}

/// Merges imported contacts into a tree file as a sync, the way seed 002 re-synced its contacts:
/// members are matched by their card's UID; a member whose card changed is updated, a new card
/// is added, a member whose card is gone is marked removed (kept, hidden from charts). Members
/// that did not come from contacts, and every field familytree does not know, are left as they are.
public enum ContactsMerge {
    /// The member keys a card owns; a re-import of a changed card replaces them and keeps the rest
    /// (a colour, flags, fields of other apps).
    public static let cardOwnedKeys: Set<String> = [
        "firstName", "middleName", "lastName", "nickname", "sex", "birthday", "birthPhrase", "photo", "notes", "contact", "removed",
    ]

    /// `root` (a tree.json object) with the contacts merged in, the summary, and the children the
    /// tree already places elsewhere (reported, not moved).
    public static func merge(_ imported: ContactsImport, into root: JSONValue) throws(FamilyTreeError) -> (root: JSONValue, summary: ContactsMergeSummary, report: [ContactsReportEntry]) {
        guard case .object(var fields) = root else {
            throw .invalidTree(file: nil, [TreeProblem(.invalidField, "a tree file must be a JSON object", at: TreeLocation(path: "$"))])
        }
        var members = try array("members", in: fields)
        var unions = try array("unions", in: fields)
        var summary = ContactsMergeSummary()
        var report: [ContactsReportEntry] = []

        var indexByUID: [String: Int] = [:]
        var usedIDs: Set<String> = []
        for (index, member) in members.enumerated() {
            if let id = member["id"]?.stringValue { usedIDs.insert(id) }
            if let uid = member["contact"]?["uid"]?.stringValue, indexByUID[uid] == nil { indexByUID[uid] = index }
        }

        var idMap: [String: String] = [:]
        var importedUIDs: Set<String> = []
        for member in imported.document.members {
            guard let uid = member.contact?.uid else { continue }
            importedUIDs.insert(uid)
            guard let index = indexByUID[uid], case .object(var existing) = members[index], let existingID = existing["id"]?.stringValue else {
                var id = member.id
                var suffix = 2
                while usedIDs.contains(id) {
                    id = "\(member.id)-\(suffix)"
                    suffix += 1
                }
                usedIDs.insert(id)
                idMap[member.id] = id
                var added = member
                added.id = id
                members.append(added.jsonValue)
                summary.added += 1
                continue
            }
            idMap[member.id] = existingID
            let wasRemoved = existing["removed"] == .bool(true)
            let sameCard = existing["contact"]?["fingerprint"]?.stringValue == member.contact?.fingerprint
            if sameCard, !wasRemoved {
                summary.unchanged += 1
                continue
            }
            if sameCard {
                existing["removed"] = nil
            } else {
                var updated = member
                updated.id = existingID
                guard case .object(let cardFields) = updated.jsonValue else { continue }
                // A sex only hinted by a relative's label does not overwrite one the tree has.
                let keptSex = imported.membersWithHintedSex.contains(member.id) ? existing["sex"] : nil
                for key in cardOwnedKeys { existing[key] = nil }
                for (key, value) in cardFields { existing[key] = value }
                if let keptSex { existing["sex"] = keptSex }
            }
            members[index] = .object(existing)
            summary.updated += 1
            if wasRemoved { summary.restored += 1 }
        }
        for (uid, index) in indexByUID.sorted(by: { $0.value < $1.value }) where !importedUIDs.contains(uid) {
            guard case .object(var existing) = members[index], existing["removed"] != .bool(true) else { continue }
            existing["removed"] = .bool(true)
            members[index] = .object(existing)
            summary.removed += 1
        }

        report += mergeUnions(imported.document.unions, idMap: idMap, into: &unions)
        fields["members"] = .array(members)
        fields["unions"] = .array(unions)
        return (.object(fields), summary, report)
    }

    private static func array(_ key: String, in fields: [String: JSONValue]) throws(FamilyTreeError) -> [JSONValue] {
        switch fields[key] {
        case .array(let elements)?: return elements
        case nil, .null?: return []
        case let other?:
            throw .invalidTree(file: nil, [TreeProblem(.invalidField, "expected an array, found \(other.kindDescription)", at: TreeLocation(path: key))])
        }
    }

    /// The id of a child entry: an id string, or `{"id": ...}`.
    private static func childID(_ entry: JSONValue) -> String? { entry.stringValue ?? entry["id"]?.stringValue }

    /// Adds the imported unions: a union the tree already has (same id) gets the new partners,
    /// marriage date and children; a child the contacts place in another `contacts:` union moves
    /// there; a child the tree places in a union of its own stays, and is reported.
    private static func mergeUnions(_ imported: [Union], idMap: [String: String], into unions: inout [JSONValue]) -> [ContactsReportEntry] {
        var report: [ContactsReportEntry] = []
        func isOwn(_ union: JSONValue) -> Bool { union["id"]?.stringValue?.hasPrefix(ContactsImport.unionPrefix) ?? false }
        // Looked up once, kept current below: which union has each id, and which union holds each child.
        var positionOfID: [String: Int] = [:]
        var holderOfChild: [String: Int] = [:]
        for (position, union) in unions.enumerated() {
            if let id = union["id"]?.stringValue, positionOfID[id] == nil { positionOfID[id] = position }
            for child in union["children"]?.arrayValue ?? [] { if let id = childID(child), holderOfChild[id] == nil { holderOfChild[id] = position } }
        }
        for original in imported {
            var union = original
            union.partners = union.partners.map { idMap[$0] ?? $0 }
            union.children = union.children.map { ChildLink(idMap[$0.member] ?? $0.member, kind: $0.kind) }
            union.id = ContactsImport.unionPrefix + union.partners.sorted().joined(separator: "+")
            let target = positionOfID[union.id]
            var newChildren: [ChildLink] = []
            for child in union.children {
                let holder = holderOfChild[child.member]
                if let holder, holder == target { continue }
                if let holder, !isOwn(unions[holder]) {
                    report.append(ContactsReportEntry(
                        kind: .conflict, line: 0, card: child.member,
                        message: "the contacts name other parents than the tree's union \(unions[holder]["id"]?.stringValue ?? "?"): the tree's are kept"
                    ))
                    continue
                }
                if let holder, case .object(var fields) = unions[holder] {
                    fields["children"] = .array((fields["children"]?.arrayValue ?? []).filter { childID($0) != child.member })
                    unions[holder] = .object(fields)
                }
                newChildren.append(child)
            }
            let position = target ?? unions.count
            for child in newChildren { holderOfChild[child.member] = position }
            if let position = target, case .object(var fields) = unions[position] {
                fields["partners"] = .array(union.partners.map(JSONValue.string))
                fields["children"] = .array((fields["children"]?.arrayValue ?? []) + newChildren.map(\.jsonValue))
                if let marriage = union.marriage { fields["marriage"] = .string(marriage.description) }
                unions[position] = .object(fields)
            } else {
                union.children = newChildren
                positionOfID[union.id] = unions.count
                unions.append(union.jsonValue)
            }
        }
        // A union of the contacts' left with neither children nor a couple says nothing.
        unions.removeAll { union in
            isOwn(union) && (union["children"]?.arrayValue ?? []).isEmpty && (union["partners"]?.arrayValue ?? []).count < 2
        }
        return report
    }
}
