import Testing
@testable import FamilyTree

/// One rule for reading a name a person typed, used by every lookup.
@Suite struct NameMatchingTests {
    @Test(arguments: [
        ("Zoë Ó Briain", "zoe o briain"), ("  JÜRGEN   Müller ", "jurgen muller"), ("Łukasz Żółć", "lukasz zolc"),
        ("Straße", "strasse"), ("Zoe\u{308}", "zoe"), ("Ærø", "aero"), ("Иван Петров", "иван петров"), ("Œuvre", "oeuvre"),
    ])
    func namesCompareWithoutCaseAccentsOrExtraSpaces(name: String, key: String) {
        #expect(NameKey.normalized(name) == key)
    }

    static func graph() throws -> FamilyGraph {
        try FamilyGraph(members: [
            Member(id: "Z1", firstName: "Zara", lastName: "Phillips"),
            Member(id: "j1", firstName: "John", lastName: "Kennedy"),
            Member(id: "j2", firstName: "John", middleName: "Fitzgerald", lastName: "Kennedy", nickname: "Jack"),
            Member(id: "z2", firstName: "Zoë", lastName: "Ó Briain"),
        ])
    }

    @Test func lookUpReadsIdsThenNamesInTiers() throws {
        let graph = try Self.graph()
        #expect(graph.lookUp("j2") == .found(2))
        #expect(graph.lookUp("zoe o briain") == .found(3), "accents and case do not matter")
        #expect(graph.lookUp("Zara") == .found(0), "a first name only one member has")
        #expect(graph.lookUp("z1") == .found(0), "an id in another case")
        #expect(graph.lookUp("jack") == .found(2), "a nickname")
        // "John Kennedy" is j1's full name and j2's first and last name: never a silent pick.
        #expect(graph.lookUp("John Kennedy") == .ambiguous([1, 2]))
        #expect(graph.lookUp("John") == .ambiguous([1, 2]))
        #expect(graph.lookUp("Nobody") == .notFound)
    }

    @Test func anIndexExcludesTheMemberWhoseCardNamesTheRelative() throws {
        let graph = try Self.graph()
        let index = NameIndex(graph.members, otherNames: [0: ["Zara Tindall"]])
        #expect(index.matches(for: "Zara Tindall") == [0])
        #expect(index.matches(for: "zara", excluding: 0) == [])
        #expect(index.tiers(for: "John") == [[], [], [1, 2]])
    }
}
