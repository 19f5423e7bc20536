import FamilyTree

/// What a re-import did, member by member.
public struct ContactsMergeSummary: Sendable, Hashable, CustomStringConvertible {
    /// Members added for new cards.
    public var added = 0
    /// Members whose card changed, restored ones included.
    public var updated = 0
    /// Members marked removed because their card is gone.
    public var removed = 0
    /// Members whose card did not change.
    public var unchanged = 0
    /// Of `updated`, members that were removed and whose card came back.
    public var restored = 0

    /// A summary with these counts.
    public init(added: Int = 0, updated: Int = 0, removed: Int = 0, unchanged: Int = 0, restored: Int = 0) {
        self.added = added
        self.updated = updated
        self.removed = removed
        self.unchanged = unchanged
        self.restored = restored
    }

    public var description: String {
        "added \(added), updated \(updated)\(restored > 0 ? " (\(restored) restored)" : ""), removed \(removed), unchanged \(unchanged)"
    }
}

/// Merges imported contacts into a tree file as a sync, as a contacts app re-syncs on launch:
/// members are matched by their card's UID; a member whose card changed is updated, a new card
/// is added, a member whose card is gone is marked removed (kept, hidden from charts). Members
/// that did not come from contacts, and every field familytree does not know, are left as they are.
public enum ContactsMerge {
    /// The member fields a card owns; a re-import of a changed card replaces them and keeps the
    /// rest (a colour, flags, fields of other apps).
    public static let cardOwnedFields: Set<MemberField> = [
        .firstName, .middleName, .lastName, .nickname, .sex, .birthday, .birthPhrase, .photo, .notes, .contact, .removed,
    ]

    /// `tree` with the contacts merged in by typed edits (validated together), the summary, and
    /// the children the tree already places elsewhere (reported, not moved).
    ///
    /// With `base`, the cards as the last import read them (a CardDAV pull keeps them), the merge is
    /// three-way, field by field: a field the card did not change keeps the tree's value (a birth
    /// year completed in the tree survives a new phone number on the card); a field changed on both
    /// sides takes the card's, and the tree's value is named in a `conflict` report entry.
    public static func merge(_ imported: ContactsImport, into tree: TreeFile, base: ContactsImport? = nil) throws(FamilyTreeError) -> (tree: TreeFile, summary: ContactsMergeSummary, report: [ContactsReportEntry]) {
        let graph = tree.graph
        var baseByUID: [String: Member] = [:]
        for member in base?.document.members ?? [] {
            if let uid = member.contact?.uid, baseByUID[uid] == nil { baseByUID[uid] = member }
        }
        var conflicts: [ContactsReportEntry] = []
        var edits: [TreeEdit] = []
        var summary = ContactsMergeSummary()

        var memberByUID: [String: Member] = [:]
        var usedIDs: Set<Member.ID> = []
        for member in graph.members {
            usedIDs.insert(member.id)
            if let uid = member.contact?.uid, memberByUID[uid] == nil { memberByUID[uid] = member }
        }

        var idMap: [Member.ID: Member.ID] = [:]
        var importedUIDs: Set<String> = []
        for member in imported.document.members {
            guard let uid = member.contact?.uid else { continue }
            importedUIDs.insert(uid)
            guard let existing = memberByUID[uid] else {
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
                edits.append(.addMember(added))
                summary.added += 1
                continue
            }
            idMap[member.id] = existing.id
            let sameCard = existing.contact?.fingerprint == member.contact?.fingerprint
            if sameCard, !existing.isRemoved {
                summary.unchanged += 1
                continue
            }
            if sameCard {
                edits.append(.setRemoved(existing.id, false))
            } else {
                var updated = member
                updated.id = existing.id
                var fields = cardOwnedFields
                // A sex only hinted by a relative's label does not overwrite one the tree has.
                if imported.membersWithHintedSex.contains(member.id), existing.sex != nil { fields.remove(.sex) }
                if let before = baseByUID[uid] {
                    conflicts += keepTreeEdits(of: existing, card: member, base: before, in: &fields)
                }
                edits.append(.replaceFields(updated, fields))
            }
            summary.updated += 1
            if existing.isRemoved { summary.restored += 1 }
        }
        for member in graph.members where !member.isRemoved {
            guard let uid = member.contact?.uid, memberByUID[uid]?.id == member.id, !importedUIDs.contains(uid) else { continue }
            edits.append(.setRemoved(member.id, true))
            summary.removed += 1
        }

        let report = conflicts + mergeUnions(imported.document.unions, idMap: idMap, graph: graph, into: &edits)
        var merged = tree
        try merged.apply(edits)
        return (merged, summary, report)
    }

    /// Takes out of `fields` those the card did not change since `base`, so the tree's values stay;
    /// returns a conflict entry per field both changed to different values (the card's wins).
    private static func keepTreeEdits(of member: Member, card: Member, base: Member, in fields: inout Set<MemberField>) -> [ContactsReportEntry] {
        let tree = member.jsonValue, new = card.jsonValue, old = base.jsonValue
        var conflicts: [ContactsReportEntry] = []
        // The card's details and the removed flag are the card's alone.
        for field in fields.subtracting([.contact, .removed]).sorted(by: { $0.rawValue < $1.rawValue }) {
            let key = field.rawValue
            if new[key] == old[key] {
                fields.remove(field)
            } else if tree[key] != old[key], tree[key] != new[key] {
                let mine = shown(tree[key]), theirs = shown(new[key])
                conflicts.append(ContactsReportEntry(
                    kind: .overwritten, line: 0, card: card.fullName,
                    message: "\(key) changed both in the tree (\(mine)) and on the card (\(theirs)): the card's is kept"
                ))
            }
        }
        return conflicts
    }

    /// A field's value in a message: a string quoted, anything else as compact JSON.
    private static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "none" }
        var text = JSONWriter.string(from: value)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    /// `root` (a tree.json object) with the contacts merged in; see `merge(_:into:)` for a `TreeFile`.
    public static func merge(_ imported: ContactsImport, into root: JSONValue) throws(FamilyTreeError) -> (root: JSONValue, summary: ContactsMergeSummary, report: [ContactsReportEntry]) {
        let merged = try merge(imported, into: try TreeFile(root: root))
        return (merged.tree.root, merged.summary, merged.report)
    }

    /// The edits that add the imported unions: a union the tree already has (same id) gets the new
    /// partners, marriage date and children; a child the contacts place in another `contacts:`
    /// union moves there; a child the tree places in a union of its own stays, and is reported.
    private static func mergeUnions(_ imported: [Union], idMap: [Member.ID: Member.ID], graph: FamilyGraph, into edits: inout [TreeEdit]) -> [ContactsReportEntry] {
        var report: [ContactsReportEntry] = []
        func isOwn(_ id: Union.ID) -> Bool { id.hasPrefix(ContactsImport.unionPrefix) }
        // The unions as the edits leave them: children and partner counts, and who holds each child.
        var children: [Union.ID: [Member.ID]] = [:]
        var partnerCount: [Union.ID: Int] = [:]
        var holderOfChild: [Member.ID: Union.ID] = [:]
        var order: [Union.ID] = []
        for union in graph.unions where children[union.id] == nil {
            order.append(union.id)
            children[union.id] = union.children.map(\.member)
            partnerCount[union.id] = union.partners.count
            for child in union.children where holderOfChild[child.member] == nil { holderOfChild[child.member] = union.id }
        }
        for original in imported {
            let partners = original.partners.map { idMap[$0] ?? $0 }
            let id = ContactsImport.unionPrefix + partners.sorted().joined(separator: "+")
            let exists = children[id] != nil
            var newChildren: [ChildLink] = []
            for link in original.children {
                let child = idMap[link.member] ?? link.member
                let holder = holderOfChild[child]
                if let holder, holder == id { continue }
                if let holder, !isOwn(holder) {
                    report.append(ContactsReportEntry(
                        kind: .conflict, line: 0, card: child,
                        message: "the contacts name other parents than the tree's union \(holder): the tree's are kept"
                    ))
                    continue
                }
                if let holder {
                    edits.append(.removeChild(child, union: holder))
                    children[holder]?.removeAll { $0 == child }
                }
                newChildren.append(ChildLink(child, kind: link.kind))
                holderOfChild[child] = id
            }
            if exists {
                edits.append(.editUnion(id, partners: partners, marriage: original.marriage.map { .set($0) }))
                for child in newChildren { edits.append(.addChild(child.member, union: id, kind: child.kind)) }
            } else {
                edits.append(.addUnion(Union(id: id, partners: partners, marriage: original.marriage, children: newChildren)))
                order.append(id)
            }
            children[id, default: []] += newChildren.map(\.member)
            partnerCount[id] = partners.count
        }
        // A union of the contacts' left with neither children nor a couple says nothing.
        for id in order where isOwn(id) && children[id]?.isEmpty != false && partnerCount[id, default: 0] < 2 {
            edits.append(.deleteUnion(id))
        }
        return report
    }
}
