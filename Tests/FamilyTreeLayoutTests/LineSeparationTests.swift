import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
@testable import FamilyTreeLayout
import TestSupport

/// Child lines of different families never share a segment nor run side by side closer than a
/// quarter of a box's height, in either direction, and the measure that says so counts what it says.
@Suite struct LineSeparationTests {
    /// Close and overlapping pairs counted pair by pair, the slow and obvious way.
    static func bruteForce(_ layout: Layout) -> (close: Int, onTop: Int) {
        var segments: [(family: String, vertical: Bool, position: Double, low: Double, high: Double)] = []
        for edge in layout.edges where edge.kind != .partner {
            let family = "\(edge.from)"
            for (a, b) in zip(edge.points, edge.points.dropFirst()) {
                if a.y == b.y, a.x != b.x { segments.append((family, false, a.y, min(a.x, b.x), max(a.x, b.x))) }
                if a.x == b.x, a.y != b.y { segments.append((family, true, a.x, min(a.y, b.y), max(a.y, b.y))) }
            }
        }
        var close = 0
        var onTop = 0
        for i in segments.indices {
            for j in segments.indices where i < j {
                let (s, t) = (segments[i], segments[j])
                guard s.vertical == t.vertical, s.family != t.family, min(s.high, t.high) - max(s.low, t.low) > 0.01 else { continue }
                let distance = abs(s.position - t.position)
                if distance < 0.01 { onTop += 1 } else if distance < LineSeparation.minimumGap - 0.01 { close += 1 }
            }
        }
        return (close, onTop)
    }

    @Test func theMeasureCountsCloseAndOverlappingPairsOfDifferentFamiliesOnly() {
        func line(_ union: Int, _ points: [(Double, Double)]) -> Layout.Edge {
            Layout.Edge(kind: .child, from: .union(union), to: .member(0), points: points.map { Point(x: $0.0, y: $0.1) })
        }
        let edges = [
            line(0, [(0, 0), (0, 50), (100, 50)]),
            line(1, [(50, 0), (50, 55), (200, 55)]),   // 5 below union 0's bus, overlapping 50...100: close
            line(2, [(80, 0), (80, 50), (300, 50)]),   // on union 0's bus from 80 to 100: on top
            line(0, [(0, 0), (0, 50), (40, 50)]),      // union 0's own: never counted
            line(3, [(100, 70), (100, 90)]),           // ends where union 0's bus ends: no overlap
            line(4, [(400, 50), (500, 50)]),           // far along: nothing
            line(5, [(85, 10), (85, 45)]),             // beside union 2's drop at 80, 5 apart: close
            Layout.Edge(kind: .partner, from: .member(1), to: .member(2), points: [Point(x: 0, y: 51), Point(x: 100, y: 51)]),
        ]
        let layout = Layout(boxes: [], unions: [], edges: edges, width: 600, height: 100, layerCount: 1, direction: .topDown, layers: [])
        let measured = LineSeparation.measure(layout)
        #expect(measured.closePairs == 3)  // 0-1, 1-2 (55 vs 50 over 80...200), 2-5
        #expect(measured.overlappingPairs == 1)
        let brute = Self.bruteForce(layout)
        #expect(measured.closePairs == brute.close && measured.overlappingPairs == brute.onTop)
    }

    @Test(arguments: [(300, 1), (900, 2), (1600, 3)] as [(Int, UInt64)])
    func generatedTreesHaveNoCloseOrOverlappingLinesInEitherDirection(size: Int, seed: UInt64) throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: size, seed: seed).generate())
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: LayeredLayout.Options(direction: direction)).place(graph)
            let measured = LineSeparation.measure(layout)
            #expect(measured.closePairs == 0, "\(size) members, seed \(seed), \(direction)")
            #expect(measured.overlappingPairs == 0, "\(size) members, seed \(seed), \(direction)")
            if size <= 300 {
                let brute = Self.bruteForce(layout)
                #expect(brute.close == 0 && brute.onTop == 0)
            }
            #expect(LayoutMetrics.measure(layout, of: graph).closeLinePairs == 0)
        }
    }

    /// Where many families' lines cross one gap, the gap grows to hold every track a step apart,
    /// rather than squeezing them.
    @Test func aCrowdedGapGrowsInsteadOfSqueezingItsTracks() throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 1200, seed: 9).generate())
        let options = LayeredLayout.Options()
        let layout = LayeredLayout(options: options).place(graph)
        // Where each layer's boxes start, and the tracks (horizontal child-line runs) in the gap above it.
        var layerTop: [Int: Double] = [:]
        var layerBottom: [Int: Double] = [:]
        for box in layout.boxes {
            layerTop[box.layer] = min(layerTop[box.layer] ?? .infinity, box.y)
            layerBottom[box.layer] = max(layerBottom[box.layer] ?? -.infinity, box.y + box.height)
        }
        let layers = layerTop.keys.sorted()
        var grown = 0
        for (upper, lower) in zip(layers, layers.dropFirst()) {
            let (gapTop, gapBottom) = (layerBottom[upper]!, layerTop[lower]!)
            var runs = Set<Double>()
            for edge in layout.edges where edge.kind != .partner {
                for (a, b) in zip(edge.points, edge.points.dropFirst()) where a.y == b.y && a.x != b.x && a.y > gapTop && a.y < gapBottom {
                    runs.insert(a.y)
                }
            }
            let tracks: [Double] = runs.sorted()
            guard tracks.count > 1 else { continue }
            // Tracks a step apart or more, clear of the boxes below by a step.
            for (a, b) in zip(tracks, tracks.dropFirst()) { #expect(b - a >= LineSeparation.minimumGap - 0.001) }
            #expect(gapBottom - tracks.last! >= LineSeparation.minimumGap - 0.001)
            if gapBottom - gapTop > options.generationSpacing + 0.5 { grown += 1 }
        }
        #expect(grown > 0, "a tree this size has gaps with more tracks than the usual gap holds")
    }

    /// A child with a second parent union and a cross-bloodline parent: three lines end in one box,
    /// side by side, never on one segment.
    @Test func severalLinesIntoOneChildEnterItSideBySide() throws {
        // Kid: born to a and b, adopted by c and d, and linked to e across bloodlines.
        let graph = try FamilyGraph(json: Array(#"""
            {"members": [{"id": "a", "firstName": "A"}, {"id": "b", "firstName": "B"}, {"id": "c", "firstName": "C"},
              {"id": "d", "firstName": "D"}, {"id": "e", "firstName": "E"}, {"id": "k", "firstName": "Kid"},
              {"id": "s", "firstName": "Sib"}],
             "unions": [{"id": "ab", "partners": ["a", "b"], "children": ["k"]},
              {"id": "cd", "partners": ["c", "d"], "children": ["s", {"id": "k", "kind": "adopted"}]}],
             "crossBloodlineConnections": [{"id": "x", "fromChild": "k", "toNewParent": "e"}]}
            """#.utf8), file: "kid.json")
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: LayeredLayout.Options(direction: direction)).place(graph)
            let kid = graph.members.firstIndex { $0.id == "k" }!
            let entries = layout.edges.filter { $0.to == .member(kid) }.map { direction == .topDown ? $0.points.last!.x : $0.points.last!.y }
            #expect(entries.count == 3)
            let sorted = entries.sorted()
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(b - a >= LineSeparation.minimumGap - 0.001, "\(entries)") }
            #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0))
        }
    }

    /// Cross-bloodline parents of one child, as many as its box has room for lines a step apart
    /// (eight along a box's width, three along its height): the lines come down into the child a
    /// step apart. (Each leg's clear place is checked against its nearest neighbours among the
    /// sorted lines beside it, not against all of them: 3,000 such parents took 26 s to draw, now 2.7 s.)
    @Test(arguments: [(LayoutDirection.topDown, 8), (.leftRight, 3)])
    func crossBloodlineParentsLeadIntoOneChildAStepApart(direction: LayoutDirection, count: Int) throws {
        let parents = (1...count).map { "p\($0)" }
        let members = [Member(id: "k", firstName: "Kid")] + parents.map { Member(id: $0, firstName: $0.uppercased()) }
        let links = parents.map { CrossBloodlineConnection(id: "x\($0)", fromChild: "k", toNewParent: $0) }
        let graph = try FamilyGraph(members: members, unions: [], crossBloodlineConnections: links)
        let layout = LayeredLayout(options: LayeredLayout.Options(direction: direction)).place(graph)
        let entries = layout.edges.filter { $0.to == .member(0) }.map { direction == .topDown ? $0.points.last!.x : $0.points.last!.y }.sorted()
        #expect(entries.count == count)
        for (a, b) in zip(entries, entries.dropFirst()) { #expect(b - a >= LineSeparation.minimumGap - 0.001, "\(entries)") }
        #expect(LineSeparation.measure(layout) == LineSeparation(closePairs: 0, overlappingPairs: 0))
    }

    /// Both directions on two real trees; royal92 (3,010 people, the densest) top-down, as `stats` measures it.
    @Test(.requiresSharedData("royal92/royal92.ged"), arguments: [
        ("royal92/royal92.ged", [LayoutDirection.topDown]), ("gedcom-samples/EnglishTudorRoyalFamily.ged", [.topDown, .leftRight]),
        ("gedcom-samples/kennedy.ged", [.topDown, .leftRight]),
    ])
    func realTreesHaveNoCloseOrOverlappingLines(path: String, directions: [LayoutDirection]) throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: TestPaths.shared(path))))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        for direction in directions {
            let measured = LineSeparation.measure(LayeredLayout(options: LayeredLayout.Options(direction: direction)).place(graph))
            #expect(measured == LineSeparation(closePairs: 0, overlappingPairs: 0), "\(path) \(direction)")
        }
    }

    /// Real trees whose marriage lines come down from partners generations above the union
    /// (Cleopatra VII married her son; gods married their descendants' descendants) through layers
    /// where every gap between boxes holds a couple's union point, and a god whose marriage lines
    /// leave his box as one trunk beside a family of his own, and a marriage from above whose point
    /// stood between two of the lower partner's marriage lines: no line beside or on another
    /// family's, in both directions, with boxes of one size and boxes as wide as the names.
    @Test(arguments: ["ptolemaic-dynasty.ged", "greek-gods.ged", "roman-gods.ged"])
    func marriageLinesFromAboveKeepClearOfOtherFamiliesLines(fixture: String) throws {
        let graph = try LayoutFixtures.graph(ofFixture: fixture)
        let byName: @Sendable (Member) -> Size = { Size(width: max(120, 7.5 * Double($0.fullName.count) + 24), height: 48) }
        for direction in [LayoutDirection.topDown, .leftRight] {
            for (sizes, boxSize) in [("one size", LayeredLayout.Options().boxSize), ("by name", byName)] {
                let layout = LayeredLayout(options: .init(direction: direction, boxSize: boxSize)).place(graph)
                let separation = LineSeparation.measure(layout)
                #expect(separation.overlappingPairs == 0, "\(fixture), \(direction), \(sizes)")
                #expect(separation.closePairs == 0, "\(fixture), \(direction), \(sizes): \(separation.closePairs)")
                #expect(linesThroughBoxes(layout).isEmpty, "\(fixture), \(direction), \(sizes)")
            }
        }
    }

    /// The sideways steps of every line to a child of `layout` shorter than `limit` (a step along
    /// the layers where the line runs across them).
    static func smallSteps(_ layout: Layout, shorterThan limit: Double) -> [Layout.Edge] {
        layout.edges.filter { edge in
            edge.kind != .partner && zip(edge.points, edge.points.dropFirst()).contains { a, b in
                let step = layout.direction == .topDown ? (a.y == b.y ? abs(a.x - b.x) : 0) : (a.x == b.x ? abs(a.y - b.y) : 0)
                return step > 0 && step < limit
            }
        }
    }

    /// A box of an odd width has its middle half a unit off every whole position the placement
    /// gives, so the line from a couple to their only child came down at the couple's point and
    /// stepped half a unit sideways just above the box: a kink a reader sees (1,125 lines to
    /// children in 213 real files; 64 more stepped 1.5 to 5.5 units where a layer was tight). Such
    /// a line now goes straight in, a little off the middle, which nobody sees; in both directions,
    /// on a small family with boxes of odd widths and on real trees with boxes as wide as the
    /// names (long lines through layers included).
    @Test func aLineGoesStraightIntoAChildWhoseMiddleIsHalfAUnitOff() throws {
        let members = [
            Member(id: "f", firstName: "F"), Member(id: "m", firstName: "M"), Member(id: "c", firstName: "C"),
            Member(id: "p", firstName: "P"), Member(id: "g", firstName: "G"), Member(id: "x", firstName: "X"),
        ]
        // c, an only child; g, c's only child with p (whose parent x stands beside f and m).
        let graph = try FamilyGraph(members: members, unions: [
            Union(id: "fm", partners: ["f", "m"], children: [ChildLink("c")]),
            Union(id: "cp", partners: ["c", "p"], children: [ChildLink("g")]),
            Union(id: "x", partners: ["x"], children: [ChildLink("p")]),
        ])
        let odd: @Sendable (Member) -> Size = { Size(width: $0.id == "c" || $0.id == "g" ? 151 : 150, height: 47) }
        let byName: @Sendable (Member) -> Size = { Size(width: max(120, 7.5 * Double($0.fullName.count) + 24), height: 48) }
        for direction in [LayoutDirection.topDown, .leftRight] {
            let layout = LayeredLayout(options: .init(direction: direction, boxSize: odd)).place(graph)
            #expect(Self.smallSteps(layout, shorterThan: 2).isEmpty, "\(direction)")
            let child = try #require(layout.edges.first { $0.kind == .child && $0.to == .member(2) })
            #expect(Set(child.points.map { direction == .topDown ? $0.x : $0.y }).count == 1, "\(direction): \(child.points)")
            for fixture in ["roman-gods.ged", "ptolemaic-dynasty.ged"] {
                let real = LayeredLayout(options: .init(direction: direction, boxSize: byName)).place(try LayoutFixtures.graph(ofFixture: fixture))
                #expect(Self.smallSteps(real, shorterThan: 6).isEmpty, "\(fixture), \(direction)")
            }
        }
    }
}
