import Testing
@testable import FamilyTree

/// Typed edits on a tree file: each changes only what it names, keeps every field familytree does
/// not know, and is refused whole, with every problem, when the tree would not be valid.
@Suite struct TreeFileTests {
    static let appFile = #"""
    {"appVersion": 7, "settings": {"zoom": 1.50, "theme": null},
     "members": [
       {"id": "a", "firstName": "Ann", "birthday": 600000000.0, "x-rating": 1e3, "tags": ["x", 2]},
       {"id": "b", "firstName": "Bob", "spouse": "a", "children": ["c"]},
       {"id": "c", "firstName": "Cy", "birthday": "1990-02-28"}
     ]}
    """#

    func file() throws -> TreeFile { try TreeFile(json: Array(Self.appFile.utf8), file: "app.json") }

    /// The root's members by id, as raw objects.
    func rawMembers(_ file: TreeFile) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for member in file.root["members"]?.arrayValue ?? [] { if let id = member["id"]?.stringValue { result[id] = member } }
        return result
    }

    @Test func anEditChangesOnlyTheFieldsItNamesAndKeepsEverythingElseAsWritten() throws {
        var tree = try file()
        let before = tree.root
        try tree.apply(.editMember("a", MemberChanges(nickname: .set("Annie"))))
        guard case .object(var expected) = before, case .array(var members) = expected["members"]!, case .object(var ann) = members[0] else {
            Issue.record("unexpected shape")
            return
        }
        ann["nickname"] = .string("Annie")
        members[0] = .object(ann)
        expected["members"] = .array(members)
        #expect(tree.root == .object(expected))
        // Numbers keep their literal text: 600000000.0 and 1e3, not 600000000 and 1000.
        #expect(tree.text.contains("\"birthday\": 600000000.0") && tree.text.contains("\"x-rating\": 1e3") && tree.text.contains("\"zoom\": 1.50"))
        #expect(tree.graph.member("a")?.nickname == "Annie")
    }

    @Test func aChildOfASeedCoupleJoinsTheirUnion() throws {
        var tree = try file()
        try tree.apply(.addMember(Member(id: "d", firstName: "Di", birthday: PartialDate("1992")), parents: ["b", "a"]))
        let couple = try #require(tree.graph.unions.first { Set($0.partners) == ["a", "b"] })
        #expect(couple.children.map(\.member) == ["c", "d"])
        #expect(tree.graph.unions.count == 1)
        // Bob's seed fields are untouched; the new child is in an explicit union record of the couple.
        #expect(rawMembers(tree)["b"]?["children"] == .array([.string("c")]))
    }

    @Test func marriagesDivorcesAndRemarriages() throws {
        var tree = TreeFile.empty()
        try tree.apply(
            .addMember(Member(id: "k", firstName: "Karl")), .addMember(Member(id: "s", firstName: "Siobhán")),
            .marry("k", "s", date: PartialDate("1940-06-15"))
        )
        #expect(throws: FamilyTreeError.self) { try tree.apply(.marry("s", "k")) }
        try tree.apply(.divorce("k", "s", date: PartialDate("1947")), .marry("k", "s", date: PartialDate("1950")))
        #expect(tree.graph.unions.map(\.id) == ["k+s", "k+s-2"])
        #expect(tree.graph.unions[0].divorce == PartialDate("1947"))
        #expect(throws: FamilyTreeError.self) { try tree.apply(.divorce("k", "nobody")) }
        #expect(throws: FamilyTreeError.self) { try tree.apply(.marry("k", "k")) }
        // A divorce taken back is refused while the couple are together again in another union.
        #expect(throws: FamilyTreeError.self) { try tree.apply(.clearDivorce("k+s")) }
        try tree.apply(.divorce("k", "s"))
        #expect(tree.graph.unions[1].divorcePhrase == "date unknown")
        try tree.apply(.clearDivorce("k+s-2"))
        #expect(tree.graph.unions[1].divorce == nil && tree.graph.unions[1].divorcePhrase == nil)
        #expect(tree.graph.unions[0].divorce == PartialDate("1947"), "the first marriage stays ended")
        #expect(throws: FamilyTreeError.self) { try tree.apply(.clearDivorce("no-such-union")) }
    }

    @Test func aRefusedEditLeavesTheFileAsItWasAndNamesEveryProblem() throws {
        var tree = try file()
        let before = tree.root
        // c is b's child: making b c's child too would make b their own ancestor.
        #expect {
            try tree.apply(.addMember(Member(id: "e", firstName: "Eve")), .link(CrossBloodlineConnection(id: "x", fromChild: "b", toNewParent: "c")))
        } throws: { error in
            String(describing: error).contains("own ancestor")
        }
        #expect(tree.root == before)
        #expect(throws: FamilyTreeError.self) { try tree.apply(.addMember(Member(id: "a", firstName: "Again"))) }
        #expect(tree.root == before)
    }

    @Test func deletingAMemberNamedByOthersNeedsWithReferences() throws {
        var tree = try file()
        #expect {
            try tree.apply(.deleteMember("c"))
        } throws: { error in
            String(describing: error).contains("still named by union")
        }
        try tree.apply(.deleteMember("c", withReferences: true))
        #expect(tree.graph.member("c") == nil)
        #expect(rawMembers(tree)["b"]?["children"] == .array([]))
        try tree.apply(.setRemoved("a", true))
        #expect(tree.graph.member("a")?.isRemoved == true)
        try tree.apply(.setRemoved("a", false))
        #expect(rawMembers(tree)["a"]?["removed"] == nil)
    }

    @Test func aDateGivenReplacesAPhraseKeptForAnUnplaceableOne() throws {
        var tree = try TreeFile(root: try JSONParser.parse(#"{"members": [{"id": "h", "firstName": "H", "birthPhrase": "5 Tishri 5650"}]}"#).root)
        try tree.apply(.editMember("h", MemberChanges(birthday: .set(PartialDate("1889-09-30")!))))
        #expect(tree.graph.member("h")?.birthPhrase == nil)
        #expect(tree.graph.member("h")?.birthday == PartialDate("1889-09-30"))
    }

    @Test func replacingFieldsWritesOnlyTheNamedOnesAndKeepsTheRest() throws {
        var tree = try file()
        var card = Member(id: "a", firstName: "Anna", lastName: "Berg")
        card.notes = "from a card"
        try tree.apply(.replaceFields(card, [.firstName, .lastName, .birthday, .notes]))
        let ann = try #require(rawMembers(tree)["a"])
        #expect(ann["firstName"] == .string("Anna") && ann["lastName"] == .string("Berg") && ann["notes"] == .string("from a card"))
        // A named field the new value lacks is removed; a field not named is kept as written.
        #expect(ann["birthday"] == nil)
        #expect(ann["x-rating"] == .number("1e3") && ann["tags"] != nil)
        #expect(throws: FamilyTreeError.self) { try tree.apply(.replaceFields(Member(id: "nobody", firstName: "N"), [.firstName])) }
    }

    @Test func unionsAreAddedEditedEmptiedAndDeleted() throws {
        var tree = TreeFile.empty()
        try tree.apply(
            .addMember(Member(id: "p", firstName: "Pa")), .addMember(Member(id: "m", firstName: "Ma")), .addMember(Member(id: "k", firstName: "Kid")),
            .addUnion(Union(id: "solo", partners: ["p"], children: [ChildLink("k", kind: .adopted)]))
        )
        #expect(tree.graph.unions.map(\.id) == ["solo"])
        try tree.apply(.editUnion("solo", partners: ["p", "m"], marriage: .set(PartialDate("1970")!)))
        #expect(tree.graph.unions[0].partners == ["p", "m"] && tree.graph.unions[0].marriage == PartialDate("1970"))
        try tree.apply(.removeChild("k", union: "solo"))
        #expect(tree.graph.unions[0].children.isEmpty)
        #expect(tree.graph.member("k") != nil, "the child stays in the tree")
        try tree.apply(.deleteUnion("solo"))
        #expect(tree.graph.unions.isEmpty && tree.graph.members.count == 3)
        // Refused: a union id taken, a partner who is nobody, three partners, a union that is not there.
        try tree.apply(.addUnion(Union(id: "u", partners: ["p"])))
        #expect(throws: FamilyTreeError.self) { try tree.apply(.addUnion(Union(id: "u", partners: ["m"]))) }
        #expect(throws: FamilyTreeError.self) { try tree.apply(.addUnion(Union(id: "v", partners: ["ghost"]))) }
        #expect(throws: FamilyTreeError.self) { try tree.apply(.editUnion("u", partners: ["p", "m", "k"])) }
        #expect(throws: FamilyTreeError.self) { try tree.apply(.deleteUnion("missing")) }
    }

    /// A batch checks ids against the records and validates once, so thousands of edits (a
    /// contacts import) stay linear; the edits later in a batch see the members added before them.
    @Test func aLargeBatchSeesItsOwnEditsAndIsValidatedOnce() throws {
        var tree = TreeFile.empty()
        var edits: [TreeEdit] = []
        for index in 0..<3_000 {
            edits.append(.addMember(Member(id: "m\(index)", firstName: "M\(index)")))
            edits.append(.editMember("m\(index)", MemberChanges(nickname: .set("n\(index)"))))
            if index > 0, index.isMultiple(of: 2) {
                edits.append(.addUnion(Union(id: "u\(index)", partners: ["m\(index - 1)"], children: [ChildLink("m\(index)")])))
            }
        }
        try tree.apply(edits)
        #expect(tree.graph.members.count == 3_000 && tree.graph.unions.count == 1_499)
        #expect(tree.graph.member("m2999")?.nickname == "n2999")
        // A problem anywhere in a batch refuses the whole batch.
        let before = tree.root
        #expect(throws: FamilyTreeError.self) { try tree.apply(.addMember(Member(id: "new", firstName: "N")), .addMember(Member(id: "new", firstName: "Again"))) }
        #expect(tree.root == before)
    }

    @Test func danglingReferencesAreDroppedAndEachRepairIsNamed() throws {
        let root = try JSONParser.parse(#"""
        {"members": [{"id": "a", "firstName": "A"}, {"id": "b", "firstName": "B"}],
         "unions": [{"id": "ab", "partners": ["a", "gone"], "children": ["b", {"id": "lost"}]}, {"id": "x", "partners": ["gone"]}],
         "crossBloodlineConnections": [{"id": "c", "fromChild": "b", "toNewParent": "gone"}]}
        """#).root
        let (repaired, repairs) = TreeFile.droppingDanglingReferences(root)
        #expect(repairs.count == 3)
        #expect(repairs.contains { $0.contains("union ab") && $0.contains("gone, lost") })
        let tree = try TreeFile(root: repaired)
        #expect(tree.graph.unions.map(\.id) == ["ab"])
        #expect(tree.graph.unions[0].partners == ["a"] && tree.graph.unions[0].children.map(\.member) == ["b"])
        #expect(tree.graph.crossBloodlineConnections.isEmpty)
    }
}
