import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeLayout
import TestSupport

/// Checks the promises of the layered layout on one graph; returns what is broken.
func layoutViolations(_ layout: Layout, of graph: FamilyGraph) -> [String] {
    var broken: [String] = []
    let topology = graph.topology
    let epsilon = 0.01
    // Each member drawn exactly once.
    if layout.boxes.count != graph.members.count || layout.boxes.enumerated().contains(where: { $0.offset != $0.element.member }) {
        broken.append("boxes do not match members one to one")
    }
    let drawn = layout.layers.flatMap { $0 }
    if drawn.sorted() != Array(graph.members.indices) { broken.append("layers do not list every member exactly once") }
    var position = Array(repeating: 0, count: graph.members.count)
    for layer in layout.layers { for (index, member) in layer.enumerated() { position[member] = index } }
    // No overlaps: neighbours in a layer are apart, and layers are apart.
    for layer in layout.layers {
        for (left, right) in zip(layer, layer.dropFirst()) {
            let (a, b) = (layout.boxes[left], layout.boxes[right])
            let apart = layout.direction == .topDown ? a.x + a.width <= b.x + epsilon : a.y + a.height <= b.y + epsilon
            if !apart { broken.append("\(graph.members[left].id) overlaps \(graph.members[right].id)") }
        }
    }
    for (upper, lower) in zip(layout.layers, layout.layers.dropFirst()) where !upper.isEmpty && !lower.isEmpty {
        let upperEnd = upper.map { layout.direction == .topDown ? layout.boxes[$0].y + layout.boxes[$0].height : layout.boxes[$0].x + layout.boxes[$0].width }.max()!
        let lowerStart = lower.map { layout.direction == .topDown ? layout.boxes[$0].y : layout.boxes[$0].x }.min()!
        if upperEnd > lowerStart + epsilon { broken.append("layers overlap") }
    }
    // Couples adjacent in their layer, or drawn apart: both grew up in the tree, and a marriage
    // line runs from each to the union point between them.
    for (union, partners) in topology.partners.enumerated() where partners.count == 2 {
        let (a, b) = (partners[0], partners[1])
        guard layout.boxes[a].layer != layout.boxes[b].layer || abs(position[a] - position[b]) != 1 else { continue }
        let marriageLines = layout.edges.filter { $0.kind == .partner && $0.to == .union(union) }.map(\.from)
        let point = layout.unions.first { $0.union == union }!
        let along = layout.direction == .topDown ? point.x : point.y
        let centres = [a, b].map { layout.direction == .topDown ? layout.boxes[$0].x + layout.boxes[$0].width / 2 : layout.boxes[$0].y + layout.boxes[$0].height / 2 }
        let drawnApart = layout.boxes[a].layer == layout.boxes[b].layer
            && topology.primaryParentUnion[a] >= 0 && topology.primaryParentUnion[b] >= 0
            && Set(marriageLines) == [.member(a), .member(b)]
            && along >= centres.min()! - epsilon && along <= centres.max()! + epsilon
        if !drawnApart { broken.append("partners of \(graph.unions[union].id) are not side by side") }
    }
    // Every child below all its parents.
    for member in graph.members.indices {
        for parent in graph.parents(ofMemberAt: member) where layout.boxes[parent].layer >= layout.boxes[member].layer {
            broken.append("\(graph.members[member].id) is not below its parent \(graph.members[parent].id)")
        }
    }
    // Siblings left to right in sibling order (within a layer).
    for (union, children) in topology.children.enumerated() {
        let drawnHere = children.filter { topology.primaryParentUnion[$0] == union }
        for (older, younger) in zip(drawnHere, drawnHere.dropFirst()) where layout.boxes[older].layer == layout.boxes[younger].layer {
            if position[older] > position[younger] { broken.append("children of \(graph.unions[union].id) out of sibling order") }
        }
    }
    return broken
}

/// Lines that pass through a member's box (boxes are checked strictly inside, so touching an end is fine).
func linesThroughBoxes(_ layout: Layout) -> [String] {
    var broken: [String] = []
    for edge in layout.edges {
        for (a, b) in zip(edge.points, edge.points.dropFirst()) {
            let (lowX, highX, lowY, highY) = (min(a.x, b.x), max(a.x, b.x), min(a.y, b.y), max(a.y, b.y))
            for box in layout.boxes where box.x + 0.5 < highX + (lowX == highX ? 1 : 0) && lowX < box.x + box.width - 0.5
                && box.y + 0.5 < highY + (lowY == highY ? 1 : 0) && lowY < box.y + box.height - 0.5 {
                // A vertical or horizontal segment overlapping the box's interior.
                let crossesInterior = (lowX == highX && lowX > box.x + 0.5 && lowX < box.x + box.width - 0.5)
                    || (lowY == highY && lowY > box.y + 0.5 && lowY < box.y + box.height - 0.5)
                if crossesInterior { broken.append("\(edge.kind) line \(edge.from)->\(edge.to) passes through box of member \(box.member)") }
            }
        }
    }
    return broken
}

@Suite struct LayoutPropertyTests {
    /// 200 generated trees of 2 to 400 members, fixed seeds.
    static let seeds: [UInt64] = Array(1...200)

    @Test(arguments: seeds)
    func generatedTreesKeepEveryPromise(seed: UInt64) throws {
        let size = 2 + Int(seed * 7919 % 399)
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: size, seed: seed).generate())
        // Every tenth tree also tries the other starting orders (slow in a debug build).
        let engine = LayeredLayout(options: .init(startingOrderBudget: seed % 10 == 0 ? 3_000 : 0))
        let layout = engine.place(graph)
        let broken = layoutViolations(layout, of: graph)
        #expect(broken.isEmpty, "seed \(seed), \(size) members: \(broken.prefix(5))")
        #expect(engine.place(graph) == layout, "deterministic")
        if seed % 4 == 0 {
            let through = linesThroughBoxes(layout)
            #expect(through.isEmpty, "seed \(seed): \(through.prefix(3))")
            #expect(LinesThroughBoxes.count(in: layout) == through.count, "seed \(seed): the count stats reports")
        }
    }

    @Test(arguments: LayoutDirection.allCases)
    func bothDirectionsKeepEveryPromise(direction: LayoutDirection) throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 600, seed: 77).generate())
        let layout = LayeredLayout(options: .init(direction: direction, startingOrderBudget: 0, boxSize: { Size(width: 80 + Double($0.firstName.count * 7), height: 40) })).place(graph)
        #expect(layoutViolations(layout, of: graph).isEmpty)
        if direction == .leftRight {
            // Generations run left to right.
            let first = layout.boxes.filter { $0.layer == 0 }.map(\.x).max()!
            let second = layout.boxes.filter { $0.layer == 1 }.map(\.x).min()!
            #expect(first < second)
        }
    }

    @Test func exampleFamilyKeepsEveryPromise() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("examples/family.json")
        let graph = try FamilyGraph(json: Array(try Data(contentsOf: url)))
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph).isEmpty)
        // Karl sits between his two wives; each union's children hang under their own union.
        let karl = graph.index(of: "karl")!
        let row = layout.layers[layout.boxes[karl].layer]
        let karlAt = row.firstIndex(of: karl)!
        #expect(Set([row[karlAt - 1], row[karlAt + 1]]) == [graph.index(of: "margarethe")!, graph.index(of: "siobhan")!])
        let lukasUnion = layout.unions.first { $0.children.contains(graph.index(of: "lukas")!) }!
        #expect(Set(lukasUnion.partners) == [karl, graph.index(of: "margarethe")!])
    }

    @Test func aManMarryingHisStepdaughterStillGetsAValidLayout() throws {
        // Fusing all partners into one layer is impossible here; children must still be below parents.
        let graph = try FamilyGraph(
            members: ["ann", "bob", "cat", "dan"].map { Member(id: $0, firstName: $0) },
            unions: [Union(id: "u1", partners: ["ann", "bob"], children: [ChildLink("cat")]),
                     Union(id: "u2", partners: ["dan", "ann"]), Union(id: "u3", partners: ["dan", "cat"])]
        )
        let layout = LayeredLayout().place(graph)
        let ann = layout.boxes[graph.index(of: "ann")!]
        let cat = layout.boxes[graph.index(of: "cat")!]
        #expect(cat.layer > ann.layer)
        #expect(Set(layout.layers.flatMap { $0 }).count == 4)
    }

    @Test func tryingOtherStartingOrdersNeverAddsCrossings() throws {
        for seed: UInt64 in [4, 9] {
            let graph = try FamilyGraph(document: TreeGenerator(memberCount: 300, seed: seed).generate())
            let single = LayoutMetrics.measure(LayeredLayout(options: .init(startingOrderBudget: 0)).place(graph), of: graph).crossings
            let several = LayoutMetrics.measure(LayeredLayout(options: .init(startingOrderBudget: 3_000)).place(graph), of: graph).crossings
            #expect(several <= single)
        }
    }

    @Test func emptyAndSingleMemberTrees() throws {
        let empty = LayeredLayout().place(try FamilyGraph(members: []))
        #expect(empty.boxes.isEmpty && empty.layerCount == 0)
        let single = LayeredLayout().place(try FamilyGraph(members: [Member(id: "a", firstName: "A")]))
        #expect(single.boxes.count == 1 && single.boxes[0].x == 20 && single.boxes[0].y == 20)
    }
}

@Suite struct CrossingCounterTests {
    @Test(arguments: 0..<20)
    func matchesBruteForce(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let lines = (0..<60).map { _ in (upper: Int.random(in: 0..<12, using: &rng), lower: Int.random(in: 0..<12, using: &rng)) }
        var brute = 0
        for i in lines.indices {
            for j in lines.indices where i < j {
                let (a, b) = (lines[i], lines[j])
                if (a.upper < b.upper && a.lower > b.lower) || (a.upper > b.upper && a.lower < b.lower) { brute += 1 }
            }
        }
        #expect(CrossingCounter.crossings(lines) == brute)
    }

    /// The counter over several layer gaps at once (one sorted number per line) counts each gap's
    /// crossings as the one-gap counter does, and none between gaps.
    @Test(arguments: 0..<20)
    func countsGapsEncodedTogetherAsApart(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) + 100)
        let bits = 4
        let gaps = (0..<4).map { _ in
            (0..<Int.random(in: 0...40, using: &rng)).map { _ in (upper: Int.random(in: 0..<(1 << bits), using: &rng), lower: Int.random(in: 0..<(1 << bits), using: &rng)) }
        }
        let keys = gaps.enumerated().flatMap { gap, lines in lines.map { gap << (2 * bits) | $0.upper << bits | $0.lower } }.sorted()
        #expect(CrossingCounter.crossings(sortedKeys: keys, bits: bits) == gaps.reduce(0) { $0 + CrossingCounter.crossings($1) })
    }
}
