import Foundation
import Testing
@testable import FamilyTree
import TestSupport

/// Files shipped with the package: fixtures here, examples at the package root.
enum TestFiles {
    static let packageRoot = TestPaths.packageRoot

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    static func example(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: packageRoot.appendingPathComponent("examples/\(name)")))
    }
}

@Suite struct SeedAppDocumentTests {
    let graph: FamilyGraph

    init() throws {
        graph = try FamilyGraph(json: try TestFiles.fixture("seed001-app.json"), file: "seed001-app.json")
    }

    func id(_ suffix: String) -> String { "6A1F0C52-1D0B-4E2B-9A39-2B6C61C1E\(suffix)" }

    @Test func loadsEveryMemberWithTheAppsFields() throws {
        #expect(graph.members.count == 7)
        let walter = try #require(graph.member(id("001")))
        #expect(walter.firstName == "Walter" && walter.lastName == "Hale")
        #expect(walter.isTopOfBloodline && !walter.isMarriedIntoFamily)
        #expect(try #require(graph.member(id("002"))).isMarriedIntoFamily)
        // A Swift `Date` encoded by JSONEncoder: seconds since 2001-01-01.
        #expect(walter.birthday == PartialDate("1960-01-01"))
    }

    @Test func spouseAndChildrenBecomeOneUnionPerCouple() throws {
        #expect(graph.unions.count == 2)
        let hale = try #require(graph.unions.first { Set($0.partners) == [id("001"), id("002")] })
        // Both parents list the children; they appear once, oldest first.
        #expect(hale.children.map(\.member) == [id("004"), id("003")])
        // Daniel never names Susan, but Susan names him: the union is theirs.
        let price = try #require(graph.unions.first { Set($0.partners) == [id("004"), id("005")] })
        #expect(price.children.map(\.member) == [id("006")])
    }

    @Test func crossBloodlineConnectionsLoad() throws {
        #expect(graph.crossBloodlineConnections == [CrossBloodlineConnection(id: "0B8E3C7A-5C43-4C11-8F0B-8D7E0D8F1001", fromChild: id("006"), toNewParent: id("007"))])
        let megan = try #require(graph.index(of: id("006")))
        let gloria = try #require(graph.index(of: id("007")))
        #expect(graph.parents(ofMemberAt: megan).contains(gloria))
    }

    @Test func nestedChildObjectsAreMembersToo() throws {
        let json = #"{"members": [{"id": "p", "firstName": "Pat", "children": [{"id": "k", "firstName": "Kim", "children": []}]}]}"#
        let graph = try FamilyGraph(json: Array(json.utf8))
        #expect(graph.members.map(\.id) == ["p", "k"])
        #expect(graph.unions.first?.children.map(\.member) == ["k"])
    }
}

@Suite struct ExampleTreeTests {
    @Test func exampleFamilyHasWhatTheREADMEPromises() throws {
        let graph = try FamilyGraph(json: try TestFiles.example("family.json"))
        let karl = try #require(graph.index(of: "karl"))
        #expect(graph.topology.unionsOfMember[karl].count == 2, "a remarriage")
        #expect(graph.members.contains { $0.birthday?.anchor.year == nil && $0.birthday != nil }, "a month-day-only birthday")
        #expect(graph.members.contains { $0.fullName.unicodeScalars.contains { !$0.isASCII } }, "non-ASCII names")
        #expect(!graph.crossBloodlineConnections.isEmpty)
        #expect(graph.unions.contains { $0.children.contains { $0.kind == .adopted } })
        // Peter and Emily are first cousins: Karl and Liesel are siblings.
        let peter = try #require(graph.index(of: "peter"))
        let emily = try #require(graph.index(of: "emily"))
        #expect(graph.partners(ofMemberAt: peter).contains(emily))
        let grandparents = { (member: Int) in Set(graph.parents(ofMemberAt: member).flatMap(graph.parents(ofMemberAt:))) }
        #expect(!grandparents(peter).isDisjoint(with: grandparents(emily)))
        // Half-siblings: Lukas shares only Karl with Anna and Peter.
        let lukasUnion = graph.topology.primaryParentUnion[try #require(graph.index(of: "lukas"))]
        #expect(lukasUnion != graph.topology.primaryParentUnion[peter])
    }

    @Test func siblingsAreInBirthOrderWithUndatedKeepingTheirPlace() throws {
        let graph = try FamilyGraph(json: try TestFiles.example("family.json"))
        let carters = try #require(graph.unions.first { $0.id == "liesel+james" })
        #expect(carters.children.map(\.member) == ["tom", "emily", "mei"])
        let muellers = try #require(graph.unions.first { $0.id == "karl+siobhan" })
        #expect(muellers.children.map(\.member) == ["anna", "peter"])
    }

    @Test func neighbourhoodKeepsAncestorsDescendantsAndPartners() throws {
        let graph = try FamilyGraph(json: try TestFiles.example("family.json"))
        let peter = try #require(graph.index(of: "peter"))
        let alone = graph.neighbourhood(ofMemberAt: peter, generations: 1, includingSiblings: false)
        #expect(Set(alone.members.map(\.id)) == ["peter", "emily", "karl", "siobhan", "margarethe", "sophie", "jonas"])
        // By default his sister Anna and half-brother Lukas come too, with Lukas's wife Zoë.
        let part = graph.neighbourhood(ofMemberAt: peter, generations: 1)
        #expect(Set(part.members.map(\.id)) == Set(alone.members.map(\.id)).union(["anna", "lukas", "zoe"]))
        let none = graph.neighbourhood(ofMemberAt: try #require(graph.index(of: "peter")), generations: 0)
        #expect(Set(none.members.map(\.id)) == ["peter", "emily"])
    }

    /// A large tree's first picture: the people nearest one person, whole rings of equally near
    /// relatives at a time, their partners with them, the person's own ring always.
    @Test func nearestRelativesComeInWholeRingsWithTheirPartners() throws {
        let graph = try FamilyGraph(json: try TestFiles.example("family.json"))
        let peter = try #require(graph.index(of: "peter"))
        // Parents, children and his wife (one tie away), with their partners: however few are asked for.
        let ring = graph.nearestRelatives(ofMemberAt: peter, count: 1)
        #expect(Set(ring.members.map(\.id)) == ["peter", "emily", "karl", "siobhan", "margarethe", "sophie", "jonas"])
        let everyone = graph.nearestRelatives(ofMemberAt: peter, count: graph.members.count)
        #expect(everyone.members.count > ring.members.count)
        #expect(Set(everyone.members.map(\.id)).isSuperset(of: ["anna", "lukas", "zoe"]), "his siblings are two ties away")

        let large = try FamilyGraph(document: TreeGenerator(memberCount: 5_000, seed: 3).generate())
        let middle = large.members.count / 2
        let near = large.nearestRelatives(ofMemberAt: middle, count: 300)
        #expect(near.members.count <= 600 && near.members.count > 1, "\(near.members.count)")
        #expect(near.index(of: large.members[middle].id) != nil)
        for relative in large.parents(ofMemberAt: middle) + large.partners(ofMemberAt: middle) {
            #expect(near.index(of: large.members[relative].id) != nil)
        }
        // Every partner of someone kept is kept.
        for member in near.members.indices {
            for partner in large.partners(ofMemberAt: try #require(large.index(of: near.members[member].id))) {
                #expect(near.index(of: large.members[partner].id) != nil)
            }
        }
    }
}
