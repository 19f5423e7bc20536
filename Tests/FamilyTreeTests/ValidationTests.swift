import Testing
@testable import FamilyTree

@Suite struct ValidationTests {
    func problems(_ json: String) -> [TreeProblem] {
        do {
            _ = try FamilyGraph(json: Array(json.utf8), file: "t.json")
            return []
        } catch .invalidTree(_, let problems) {
            return problems
        } catch {
            Issue.record("unexpected \(error)")
            return []
        }
    }

    @Test func reportsEveryProblemAtOnceWithIdsAndLines() {
        let json = """
        {"members": [
          {"id": "a", "firstName": "Ann"},
          {"id": "b", "firstName": "Ben"},
          {"id": "a", "firstName": "Again"},
          {"id": "c", "firstName": "Cy", "birthday": "1850-02-30"},
          {"id": "d", "firstName": "Di"},
          {"id": "e", "firstName": "Ed"},
          {"id": "f", "firstName": "Flo"}
        ],
        "unions": [
          {"id": "u1", "partners": ["a", "b"], "children": ["c", "ghost"]},
          {"id": "u2", "partners": ["d", "e"], "children": ["c"]},
          {"id": "u3", "partners": ["f", "f"]}
        ],
        "crossBloodlineConnections": [
          {"id": "x1", "fromChild": "c", "toNewParent": "a"},
          {"id": "x2", "fromChild": "nobody", "toNewParent": "a"}
        ]}
        """
        let found = problems(json)
        let kinds = found.map(\.kind)
        #expect(kinds.contains(.duplicateID))
        #expect(kinds.contains(.invalidField))
        #expect(kinds.contains(.unknownReference))
        #expect(kinds.contains(.tooManyBirthParents))
        #expect(kinds.contains(.selfMarriage))
        #expect(kinds.contains(.repeatedParent))
        let duplicate = found.first { $0.kind == .duplicateID }
        #expect(duplicate?.location?.line == 4 && duplicate?.ids == ["a"])
        #expect(duplicate?.description.contains("members[2] (line 4)") == true)
        let ghost = found.first { $0.ids.contains("ghost") }
        #expect(ghost?.location?.path == "unions[0].children[1]" && ghost?.location?.line == 11)
        let date = found.first { $0.kind == .invalidField }
        #expect(date?.location?.path == "members[3].birthday" && date?.location?.line == 5)
        let repeated = found.first { $0.kind == .repeatedParent }
        #expect(repeated?.ids == ["x1", "c", "a"])
        #expect(found.contains { $0.ids.contains("nobody") && $0.location?.path == "crossBloodlineConnections[1].fromChild" })
    }

    @Test func printsTheCycleOfSomeoneWhoIsTheirOwnAncestor() {
        let json = """
        {"members": [{"id": "a", "firstName": "Ann"}, {"id": "b", "firstName": "Ben"}, {"id": "c", "firstName": "Cy"}],
         "unions": [{"id": "u1", "partners": ["a"], "children": ["b"]}, {"id": "u2", "partners": ["b"], "children": ["c"]}],
         "crossBloodlineConnections": [{"id": "x", "fromChild": "a", "toNewParent": "c"}]}
        """
        let cycle = problems(json).filter { $0.kind == .ancestryCycle }
        #expect(cycle.count == 1)
        #expect(cycle.first?.message.contains("Ann (a) → Ben (b) → Cy (c) → Ann (a)") == true)
        #expect(Set(cycle.first?.ids ?? []) == ["a", "b", "c"])
    }

    @Test func malformedJSONNamesLineAndColumn() {
        #expect {
            _ = try FamilyGraph(json: Array("{\"members\": [\n  {\"id\": \"a\" \"firstName\": \"x\"}\n]}".utf8), file: "bad.json")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("bad.json") && text.contains("line 2, column 14")
        }
    }

    @Test(arguments: ["[]", "{}", "{\"members\": {}}", "{\"members\": [42]}", "{\"members\": [{\"firstName\": \"no id\"}]}"])
    func wrongShapesAreProblemsNotCrashes(json: String) {
        #expect(!problems(json).isEmpty)
    }

    @Test func invalidColoursAndSexAreRejected() {
        let found = problems(#"{"members": [{"id": "a", "firstName": "A", "color": "red; background: url(x)", "sex": "yes"}]}"#)
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.location?.line == 1 })
    }

    @Test func aScriptInANameIsJustAName() throws {
        let graph = try FamilyGraph(json: Array(#"{"members": [{"id": "a", "firstName": "<script>alert(1)</script>"}]}"#.utf8))
        #expect(graph.members[0].firstName == "<script>alert(1)</script>")
    }
}

@Suite struct GeneratorTests {
    @Test(arguments: [1, 2, 50, 500, 3000])
    func generatesValidTreesOfTheRequestedSize(count: Int) throws {
        let document = TreeGenerator(memberCount: count, seed: 42).generate()
        #expect(document.members.count == count)
        let graph = try FamilyGraph(document: document)
        #expect(graph.members.count == count)
    }

    @Test func sameSeedSameTreeAndTheTreeRoundTripsThroughJSON() throws {
        let first = JSONWriter.string(from: TreeGenerator(memberCount: 400, seed: 9).generate().jsonValue)
        let second = JSONWriter.string(from: TreeGenerator(memberCount: 400, seed: 9).generate().jsonValue)
        #expect(first == second)
        #expect(first != JSONWriter.string(from: TreeGenerator(memberCount: 400, seed: 10).generate().jsonValue))
        let reread = try FamilyGraph(json: Array(first.utf8))
        #expect(JSONWriter.string(from: reread.document.jsonValue) == JSONWriter.string(from: try FamilyGraph(document: TreeGenerator(memberCount: 400, seed: 9).generate()).document.jsonValue))
    }

    @Test func generatedTreesHaveTheHardCases() throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 3000, seed: 5).generate())
        #expect(!graph.crossBloodlineConnections.isEmpty)
        #expect(graph.topology.unionsOfMember.contains { $0.count > 1 }, "remarriages")
        #expect(graph.members.contains { $0.birthday != nil && $0.birthday?.anchor.year == nil }, "month-day birthdays")
        #expect(graph.unions.contains { union in
            let partners = union.partners.compactMap(graph.index(of:))
            return partners.count == 2 && partners.allSatisfy { graph.topology.primaryParentUnion[$0] >= 0 }
        }, "marriages within the tree")
    }
}

@Suite struct SeedShapeValidationTests {
    @Test func unknownSpouseAndChildIdsAreReportedWhereTheyAreWritten() {
        let json = "{\"members\": [\n {\"id\": \"a\", \"firstName\": \"A\", \"spouse\": \"ghost\",\n  \"children\": [\"b\", \"nobody\"]},\n {\"id\": \"b\", \"firstName\": \"B\"}\n]}"
        do {
            _ = try FamilyGraph(json: Array(json.utf8))
            Issue.record("expected problems")
        } catch .invalidTree(_, let problems) {
            #expect(problems.map(\.description) == [
                "members[0].spouse (line 2): unknown member id \"ghost\" as the spouse of \"a\"",
                "members[0].children[1] (line 2): unknown member id \"nobody\" as a child of \"a\"",
            ])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
