import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeGEDCOM
import TestSupport

/// Relationships in royal92.ged whose answers history gives. Checked against two independent
/// published sources each: ThoughtCo, "How Was Queen Victoria Related to Prince Albert?", and
/// Elizabeth Longford, "Queen Victoria: Born to Succeed" (1965), quoted on the Golden Age of
/// Regina blog: Victoria's mother and Albert's father were sister and brother, children of Francis,
/// Duke of Saxe-Coburg-Saalfeld, and Augusta Reuss-Ebersdorf; Victoria's father Edward, Duke of
/// Kent, was George III's fourth son.
@Suite(.requiresSharedData("royal92/royal92.ged"))
struct HistoricalRelationshipTests {
    static func royal92() throws -> (FamilyGraph, RelationshipCalculator) {
        let bytes = Array(try Data(contentsOf: GEDCOMFixtures.sharedData.appendingPathComponent("royal92/royal92.ged")))
        let graph = try FamilyGraph(document: try GEDCOMImport(bytes: bytes).document)
        return (graph, RelationshipCalculator(graph))
    }

    func index(_ name: String, in graph: FamilyGraph) throws -> Int {
        guard case .found(let index) = graph.lookUp(name) else { throw LookupFailure(name: name) }
        return index
    }

    struct LookupFailure: Error { var name: String }

    @Test func victoriaAndAlbertWereFirstCousinsAndSpouses() throws {
        let (graph, calculator) = try Self.royal92()
        let victoria = try index("Victoria Hanover", in: graph), albert = try index("Albert Augustus Charles", in: graph)
        let found = calculator.relationships(from: victoria, to: albert)
        #expect(found.prefix(2).map(\.english) == ["husband", "first cousin"])
        let cousins = try #require(found.first { $0.kind == .cousin(degree: 1, removed: 0) })
        let grandparents = Set(cousins.commonAncestors.map { graph.members[$0].fullName })
        #expect(grandparents.contains { $0.hasPrefix("Francis") } && grandparents.contains { $0.hasPrefix("Augusta") })
        #expect(calculator.relationships(from: albert, to: victoria).prefix(2).map(\.english) == ["wife", "first cousin"])
    }

    @Test func georgeIIIWasVictoriasGrandfather() throws {
        let (graph, calculator) = try Self.royal92()
        let victoria = try index("Victoria Hanover", in: graph), george = try index("George III Hanover", in: graph)
        #expect(calculator.relationships(from: victoria, to: george).first?.english == "grandfather")
        #expect(calculator.relationships(from: george, to: victoria).first?.english == "granddaughter")
    }

    /// Royal92's Anglo-Saxon line goes back 66 generations from its first person to Sceaf, and
    /// the search once stopped at 64: "not related".
    @Test func aLineOfSixtySixGenerationsIsFollowed() throws {
        let (graph, calculator) = try Self.royal92()
        let first = try #require(graph.index(of: "I1")), sceaf = try #require(graph.index(of: "I2018"))
        #expect(graph.members[sceaf].fullName.hasPrefix("Sceaf"))
        #expect(calculator.relationships(from: first, to: sceaf).first?.english == "66th great-grandfather")
    }

    /// A chart's labels take the short way (`closestRelationships`); it gives what the first of
    /// every way gives, here for everyone in royal92 from two homes, one in the middle of its
    /// pedigree collapse.
    @Test func theClosestIsTheFirstOfEveryWay() throws {
        let (graph, calculator) = try Self.royal92()
        let everyone = Array(graph.members.indices)
        let victoria = try index("Victoria Hanover", in: graph)
        for home in [victoria, everyone.count / 2] {
            let full = calculator.relationships(from: home, toEach: everyone).map(\.first)
            #expect(calculator.closestRelationships(from: home, toEach: everyone) == full)
            // Victoria is related to most of the file: the comparison covers many shapes.
            if home == victoria { #expect(full.compactMap { $0 }.count > 1_000) }
        }
    }
}
