import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
@testable import FamilyTreeLayout
import TestSupport

/// A family unit's members stand with as many couples side by side as any order of them allows.
struct PartnerOrderTests {
    /// Unions between neighbours of `order`.
    static func adjacentUnions(_ order: [Int], graph: FamilyGraph) -> Int {
        zip(order, order.dropFirst()).reduce(0) { total, pair in
            total + graph.partners(ofMemberAt: pair.0).filter { $0 == pair.1 }.count
        }
    }

    /// Every order of `members` (Heap's algorithm), for the best count by brute force.
    static func bestOfAllOrders(_ members: [Int], graph: FamilyGraph) -> Int {
        var items = members
        var best = adjacentUnions(items, graph: graph)
        var counters = Array(repeating: 0, count: items.count)
        var index = 1
        while index < items.count {
            if counters[index] < index {
                items.swapAt(index % 2 == 0 ? 0 : counters[index], index)
                best = max(best, adjacentUnions(items, graph: graph))
                counters[index] += 1
                index = 1
            } else {
                counters[index] = 0
                index += 1
            }
        }
        return best
    }

    /// A unit of `count` people: partnerships along a random tree (some couples married twice),
    /// and with `ring` one more that closes a ring.
    static func unit(count: Int, seed: UInt64, ring: Bool) throws -> FamilyGraph {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let ids = (0..<count).map { "m\($0)" }
        var unions: [Union] = []
        for member in 1..<count {
            let partner = next(member)
            unions.append(Union(id: "u\(unions.count)", partners: [ids[partner], ids[member]]))
            if next(5) == 0 { unions.append(Union(id: "u\(unions.count)", partners: [ids[member], ids[partner]])) }
        }
        if ring, count > 2 {
            unions.append(Union(id: "u\(unions.count)", partners: [ids[count - 1], ids[next(count - 2)]]))
        }
        return try FamilyGraph(members: ids.map { Member(id: $0, firstName: $0) }, unions: unions)
    }

    @Test func keepsAsManyCouplesTogetherAsTheBestOrderOfAnyTreeOfPartnerships() throws {
        var walkMissed = 0
        for seed in UInt64(1)...80 {
            let count = 3 + Int(seed % 5)
            let graph = try Self.unit(count: count, seed: seed, ring: false)
            let members = Array(0..<count)
            let order = PartnerOrder.order(of: members, graph: graph, unitOfMember: Layering(graph: graph).componentOfMember)
            #expect(order.sorted() == members, "seed \(seed): every member exactly once")
            let best = Self.bestOfAllOrders(members, graph: graph)
            #expect(Self.adjacentUnions(order, graph: graph) == best, "seed \(seed): \(order)")
            if Self.adjacentUnions(PartnerOrder.walk(members, graph: graph, unitOfMember: Layering(graph: graph).componentOfMember), graph: graph) < best {
                walkMissed += 1
            }
        }
        #expect(walkMissed > 5, "the cases include units the walk alone orders worse (\(walkMissed))")
    }

    @Test func aRingOfPartnershipsDoesNoWorseThanTheWalk() throws {
        for seed in UInt64(1)...40 {
            let count = 3 + Int(seed % 6)
            let graph = try Self.unit(count: count, seed: seed, ring: true)
            let members = Array(0..<count)
            let layering = Layering(graph: graph)
            let order = PartnerOrder.order(of: members, graph: graph, unitOfMember: layering.componentOfMember)
            #expect(order.sorted() == members, "seed \(seed)")
            let walk = PartnerOrder.walk(members, graph: graph, unitOfMember: layering.componentOfMember)
            #expect(Self.adjacentUnions(order, graph: graph) >= Self.adjacentUnions(walk, graph: graph), "seed \(seed)")
        }
    }

    @Test func couplesMarriedTwiceAreAllDrawn() throws {
        // No one with a single partnership, so the walk starts at a hub whose first partner has
        // another partner: that partner was once left out of the unit and drawn over someone else.
        let graph = try FamilyGraph(
            members: ["ann", "bob", "cat"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "u1", partners: ["ann", "bob"]), Union(id: "u2", partners: ["ann", "bob"]),
                     Union(id: "u3", partners: ["bob", "cat"]), Union(id: "u4", partners: ["bob", "cat"])]
        )
        let layering = Layering(graph: graph)
        #expect(PartnerOrder.walk([0, 1, 2], graph: graph, unitOfMember: layering.componentOfMember).sorted() == [0, 1, 2])
        #expect(PartnerOrder.order(of: [0, 1, 2], graph: graph, unitOfMember: layering.componentOfMember) == [0, 1, 2])
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph).isEmpty, "\(layoutViolations(layout, of: graph))")
        let metrics = LayoutMetrics.measure(layout, of: graph)
        #expect(metrics.overlaps == 0)
        #expect(metrics.coupleAdjacencyPercent == 100)
    }

    @Test func aLargeUnitIsOrderedInLinearTime() throws {
        // One person with 5,000 partners, each of whom married once more: 10,001 people in one unit.
        let count = 5_000
        var members = [Member(id: "hub", firstName: "Hub")]
        var unions: [Union] = []
        for index in 0..<count {
            members += [Member(id: "p\(index)", firstName: "P"), Member(id: "q\(index)", firstName: "Q")]
            unions += [Union(id: "a\(index)", partners: ["hub", "p\(index)"]), Union(id: "b\(index)", partners: ["p\(index)", "q\(index)"])]
        }
        let graph = try FamilyGraph(members: members, unions: unions)
        let order = PartnerOrder.order(of: Array(graph.members.indices), graph: graph, unitOfMember: Layering(graph: graph).componentOfMember)
        #expect(order.count == graph.members.count)
        // The hub beside two partners, every other partner beside their second spouse.
        #expect(Self.adjacentUnions(order, graph: graph) == count + 2)
    }

    @Test(.requiresSharedData("gedcom-samples/EnglishTudorRoyalFamily.ged"))
    func theTudorsKeepEveryCoupleTogetherThatAnyOrderCould() throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: SharedTrees.tudors)))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        var layout = LayeredLayout()
        layout.options.keepsCouplesTogether = true
        let metrics = LayoutMetrics.measure(layout.place(graph), of: graph)
        // 143 of the 166 couples is the most any order of the units allows (counted exactly per unit,
        // by trying every order); the walk alone kept 138 (83.1%).
        #expect(metrics.coupleAdjacencyPercent >= 86.1, "\(metrics.coupleAdjacencyPercent)%")
    }
}
