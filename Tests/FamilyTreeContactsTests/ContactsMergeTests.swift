import FamilyTree
import Testing
@testable import FamilyTreeContacts

@Suite struct ContactsMergeTests {
    let empty: JSONValue = .object(["members": .array([]), "unions": .array([])])

    func merge(_ fixture: String, into root: JSONValue) throws -> (root: JSONValue, summary: ContactsMergeSummary, report: [ContactsReportEntry]) {
        try ContactsMerge.merge(try ContactFixtures.fixture(fixture), into: root)
    }

    func member(_ id: String, in root: JSONValue) -> JSONValue? {
        root["members"]?.arrayValue?.first { $0["id"]?.stringValue == id }
    }

    /// The first import, plus what the user did in the tree since: a member of their own (with a
    /// field of another app) as Gustav's father, and a colour on Per.
    func editedFirstImport() throws -> JSONValue {
        guard case .object(var fields) = try merge("reimport-v1.vcf", into: empty).root else { throw CancellationError() }
        var members = fields["members"]!.arrayValue!
        members.append(.object(["id": .string("sven"), "firstName": .string("Sven"), "otherApp": .object(["kept": .bool(true)])]))
        let per = members.firstIndex { $0["id"]?.stringValue == "p3" }!
        guard case .object(var perFields) = members[per] else { throw CancellationError() }
        perFields["color"] = .string("#aa3355")
        members[per] = .object(perFields)
        fields["members"] = .array(members)
        fields["unions"] = .array(fields["unions"]!.arrayValue! + [.object(["id": .string("own"), "partners": .array([.string("sven")]), "children": .array([.string("p1")])])])
        return .object(fields)
    }

    @Test func firstImportAddsEveryCard() throws {
        let first = try merge("reimport-v1.vcf", into: empty)
        #expect(first.summary == ContactsMergeSummary(added: 4, updated: 0, removed: 0, unchanged: 0))
        let graph = try FamilyGraph(json: Array(JSONWriter.string(from: first.root).utf8))
        #expect(graph.unions.map(\.children.count) == [2])
    }

    @Test func reimportAddsUpdatesAndMarksRemovedWithoutTouchingTheRest() throws {
        let before = try editedFirstImport()
        let second = try merge("reimport-v2.vcf", into: before)
        // Per's card changed, Karl's is new, Lena's is gone, Gustav's and Ingrid's are as they were.
        #expect(second.summary == ContactsMergeSummary(added: 1, updated: 1, removed: 1, unchanged: 2))
        let root = second.root
        #expect(member("p3", in: root)?["contact"]?["phones"]?.arrayValue?.first?["value"] == .string("+46 70 000 00 99"))
        #expect(member("p3", in: root)?["color"] == .string("#aa3355"), "a field the card does not own survives the update")
        #expect(member("p4", in: root)?["removed"] == .bool(true))
        #expect(member("p4", in: root)?["firstName"] == .string("Lena"), "a removed member keeps everything")
        #expect(member("sven", in: root) == member("sven", in: before), "members not from contacts are untouched")
        #expect(member("p1", in: root) == member("p1", in: before), "an unchanged card leaves its member as it was")
        #expect(root["unions"]?.arrayValue?.first { $0["id"] == .string("own") } == before["unions"]?.arrayValue?.first { $0["id"] == .string("own") })

        // Charts do not show Lena; the file still validates with her in it.
        let document = try TreeDocument(json: Array(JSONWriter.string(from: root).utf8))
        let full = try FamilyGraph(document: document)
        let shown = try FamilyGraph(document: document.hidingRemovedMembers())
        #expect(full.members.count == 6)
        #expect(shown.members.map(\.id) == ["p1", "p2", "p3", "sven", "p5"])
        #expect(shown.unions.first { $0.partners == ["p1", "p2"] }?.children.map(\.member) == ["p3"])
        #expect(shown.unions.contains { $0.partners == ["p3"] && $0.children.map(\.member) == ["p5"] })
    }

    @Test func reimportingTheSameFileChangesNothingAndTheOldOneRestores() throws {
        let second = try merge("reimport-v2.vcf", into: try editedFirstImport())
        let again = try merge("reimport-v2.vcf", into: second.root)
        #expect(again.summary == ContactsMergeSummary(added: 0, updated: 0, removed: 0, unchanged: 4))
        #expect(again.root == second.root)
        // Lena's card is back: she is restored; Karl's is gone now.
        let back = try merge("reimport-v1.vcf", into: again.root)
        #expect(back.summary.restored == 1)
        #expect(member("p4", in: back.root)?["removed"] == nil)
        #expect(member("p5", in: back.root)?["removed"] == .bool(true))
        #expect(member("p3", in: back.root)?["contact"]?["phones"]?.arrayValue?.first?["value"] == .string("+46 70 000 00 01"))
    }

    @Test func aChildMovesToTheCoupleALaterExportNames() throws {
        func cards(_ dadNamesMum: Bool) -> ContactsImport {
            let dad = "BEGIN:VCARD\nUID:dad\nFN:Dad D\nN:D;Dad;;;\nRELATED;TYPE=child:urn:uuid:kid\n" + (dadNamesMum ? "RELATED;TYPE=spouse:urn:uuid:mum\n" : "") + "END:VCARD\n"
            let others = "BEGIN:VCARD\nUID:mum\nFN:Mum M\nN:M;Mum;;;\nEND:VCARD\nBEGIN:VCARD\nUID:kid\nFN:Kid D\nN:D;Kid;;;\nEND:VCARD\n"
            return ContactsImport(bytes: Array((dad + others).utf8))
        }
        let first = try ContactsMerge.merge(cards(false), into: empty)
        #expect(first.root["unions"]?.arrayValue?.map { $0["id"] } == [.string("contacts:dad")])
        let second = try ContactsMerge.merge(cards(true), into: first.root)
        // Dad's union of one, now childless, is gone; the kid is under the couple, once.
        let unions = second.root["unions"]?.arrayValue ?? []
        #expect(unions.map { $0["id"] } == [.string("contacts:dad+mum")])
        #expect(unions.first?["children"] == .array([.string("kid")]))
        #expect(throws: Never.self) { try FamilyGraph(json: Array(JSONWriter.string(from: second.root).utf8)) }
    }

    @Test func aTreeThatIsNoObjectIsRefused() {
        #expect(throws: FamilyTreeError.self) { try merge("reimport-v1.vcf", into: .array([])) }
    }
}
