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
}
