import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// The ranking solver against exhaustive search on small graphs, and its results on family shapes
/// the old generation counting got wrong.
@Suite struct NetworkSimplexTests {
    typealias Edge = NetworkSimplex.Edge

    /// Longest-path ranks: a feasible start.
    static func longestPath(nodeCount: Int, edges: [Edge]) -> [Int] {
        var rank = Array(repeating: 0, count: nodeCount)
        for _ in 0..<nodeCount {
            for edge in edges { rank[edge.head] = max(rank[edge.head], rank[edge.tail] + edge.minLength) }
        }
        let least = rank.min() ?? 0
        return rank.map { $0 - least }
    }

    static func cost(_ rank: [Int], _ edges: [Edge]) -> Int {
        edges.reduce(0) { $0 + $1.weight * (rank[$1.head] - rank[$1.tail]) }
    }

    /// The least cost over every assignment of ranks 0..<limit.
    static func bruteForceOptimum(nodeCount: Int, edges: [Edge], limit: Int) -> Int {
        var best = Int.max
        var rank = Array(repeating: 0, count: nodeCount)
        func assign(_ node: Int) {
            if node == nodeCount {
                if edges.allSatisfy({ rank[$0.head] - rank[$0.tail] >= $0.minLength }) { best = min(best, cost(rank, edges)) }
                return
            }
            for value in 0..<limit {
                rank[node] = value
                assign(node + 1)
            }
        }
        assign(0)
        return best
    }

    @Test(arguments: 1...60)
    func findsTheOptimumOfRandomSmallGraphs(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let nodeCount = 3 + Int(random.next() % 4)
        var edges: [Edge] = []
        // Edges only from lower to higher numbers: acyclic.
        for tail in 0..<nodeCount {
            for head in (tail + 1)..<nodeCount where random.next() % 2 == 0 {
                edges.append(Edge(tail: tail, head: head, minLength: Int(random.next() % 2), weight: 1 + Int(random.next() % 4)))
            }
        }
        let start = Self.longestPath(nodeCount: nodeCount, edges: edges)
        var simplex = NetworkSimplex(nodeCount: nodeCount, edges: edges, feasibleRanks: start)
        simplex.solve(maxExchanges: 10_000)
        for edge in edges { #expect(simplex.rank[edge.head] - simplex.rank[edge.tail] >= edge.minLength) }
        #expect(simplex.rank.min() == 0)
        #expect(Self.cost(simplex.rank, edges) == Self.bruteForceOptimum(nodeCount: nodeCount, edges: edges, limit: nodeCount + 1))
    }

    /// Renumbering only the parts of the tree an exchange changed gives exactly what renumbering
    /// the whole subtree gives: the same exchanges, the same ranks, also when stopped early.
    @Test(arguments: 1...12)
    func renumberingOnlyWhatChangedMatchesRenumberingEverything(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let nodeCount = 150 + Int(random.next() % 250)
        // Acyclic by a random order of the nodes; a few parts left unconnected.
        var order = Array(0..<nodeCount)
        for index in order.indices.reversed() { order.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        var edges: [Edge] = []
        for position in 1..<nodeCount where random.next() % 8 != 0 {
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let tail = order[Int(random.next() % UInt64(position))]
                edges.append(Edge(tail: tail, head: order[position], minLength: Int(random.next() % 3), weight: 1 + Int(random.next() % 5)))
            }
        }
        let start = Self.longestPath(nodeCount: nodeCount, edges: edges)
        for limit in [10_000, 25] {
            var shortcut = NetworkSimplex(nodeCount: nodeCount, edges: edges, feasibleRanks: start)
            shortcut.solve(maxExchanges: limit)
            var whole = NetworkSimplex(nodeCount: nodeCount, edges: edges, feasibleRanks: start)
            whole.renumbersWholeSubtrees = true
            whole.solve(maxExchanges: limit)
            #expect(shortcut.exchanges == whole.exchanges && shortcut.exchanges > 0)
            #expect(shortcut.rank == whole.rank)
        }
    }

    @Test func negativeMinimumLengthsMeasureDistancesBetweenOffsets() {
        // Node 2 must stand at most 5 left of node 0's and node 1's offsets: the cost is then the
        // distance |(x0 + 5) - (x1 + 0)|, least when x1 = x0 + 5; nodes 0 and 1 are kept 3 apart.
        let edges = [
            Edge(tail: 0, head: 1, minLength: 3, weight: 0),
            Edge(tail: 2, head: 0, minLength: -5, weight: 1),
            Edge(tail: 2, head: 1, minLength: 0, weight: 1),
        ]
        var simplex = NetworkSimplex(nodeCount: 3, edges: edges, feasibleRanks: [0, 20, -5])
        simplex.solve(maxExchanges: 100)
        let x = simplex.rank
        #expect(x[1] - x[0] == 5)
    }

    @Test func disconnectedPartsAreEachShiftedToZero() {
        let edges = [Edge(tail: 0, head: 1, minLength: 1, weight: 1), Edge(tail: 2, head: 3, minLength: 2, weight: 1)]
        var simplex = NetworkSimplex(nodeCount: 5, edges: edges, feasibleRanks: [4, 9, 7, 12, 3])
        simplex.solve(maxExchanges: 100)
        #expect(simplex.rank == [0, 1, 0, 2, 0])
    }
}

/// Layers chosen by optimisation: ancestries of people who married in float down to their spouse.
@Suite struct OptimalLayeringTests {
    /// A line of `generations` fathers and sons; the wife of each son comes with an ancestry of
    /// `depth(generation)` generations of her own.
    static func lineage(generations: Int, wifeAncestry depth: (Int) -> Int) throws -> FamilyGraph {
        var members: [Member] = []
        var unions: [Union] = []
        func person(_ id: String) -> String {
            members.append(Member(id: id, firstName: id))
            return id
        }
        var son = person("s0")
        for generation in 0..<generations {
            let wife = person("w\(generation)")
            // Her own line: a father and mother per generation, up `depth` generations.
            var child = wife
            for level in 0..<depth(generation) {
                let father = person("w\(generation)f\(level)")
                let mother = person("w\(generation)m\(level)")
                unions.append(Union(id: "W\(generation)-\(level)", partners: [father, mother], children: [ChildLink(child)]))
                child = father
            }
            let next = person("s\(generation + 1)")
            unions.append(Union(id: "S\(generation)", partners: [son, wife], children: [ChildLink(next)]))
            son = next
        }
        return try FamilyGraph(members: members, unions: unions)
    }

    @Test func wivesLineagesJoinAtTheirOwnDepthWithNoLongLine() throws {
        // Thirteen generations; the wives' recorded ancestries are 0 to 5 generations deep.
        let graph = try Self.lineage(generations: 13) { [3, 0, 5, 1, 2, 4, 0, 3, 5, 2, 1, 4, 0][$0] }
        let layout = LayeredLayout().place(graph)
        #expect(layoutViolations(layout, of: graph).isEmpty)
        let metrics = LayoutMetrics.measure(layout, of: graph)
        #expect(metrics.longEdges == 0)
        #expect(metrics.crossings == 0)
        for (union, children) in graph.topology.children.enumerated() {
            let parentLayer = graph.topology.partners[union].map { layout.boxes[$0].layer }.max()!
            #expect(children.allSatisfy { layout.boxes[$0].layer == parentLayer + 1 }, "\(graph.unions[union].id)")
        }
    }

    @Test func theLayeringIsOptimalOnTheLineage() throws {
        let graph = try Self.lineage(generations: 6) { $0 % 3 }
        let layering = Layering(graph: graph)
        // Every parent-child line spans exactly one layer: the least total possible.
        for (union, children) in graph.topology.children.enumerated() {
            for parent in graph.topology.partners[union] {
                for child in children { #expect(layering.layerOfMember[child] - layering.layerOfMember[parent] == 1) }
            }
        }
    }
}

/// Childless brothers and sisters alike ranked as one (`Layering.leavesAlike`).
@Suite struct LeavesAlikeTests {
    typealias Edge = NetworkSimplex.Edge

    /// Sibling groups from lists of member components.
    static func groups(_ lists: [[Int]], count: Int) -> Layering.SiblingGroups {
        var ofComponent = Array(repeating: [Int](), count: count)
        for (group, members) in lists.enumerated() { for member in members { ofComponent[member].append(group) } }
        return Layering.SiblingGroups(members: CompactGraph.Rows(lists), groupsOfComponent: CompactGraph.Rows(ofComponent))
    }

    /// Longest-path layers of a component graph given by its children (every edge from a lower number).
    static func longestPath(_ children: [[Int]]) -> [Int] {
        var layer = Array(repeating: 0, count: children.count)
        for (parent, list) in children.enumerated() { for child in list { layer[child] = max(layer[child], layer[parent] + 1) } }
        return layer
    }

    /// What a ranking costs: each line's length by its count, and each sibling group's spread below
    /// its highest member, `siblingSpreadWeight` a layer.
    static func cost(_ layer: [Int], children: [[Int]], groups: [[Int]]) -> Int {
        var total = 0
        for (parent, list) in children.enumerated() { for child in list { total += layer[child] - layer[parent] } }
        for members in groups {
            let highest = members.map { layer[$0] }.min()!
            total += members.reduce(0) { $0 + Layering.siblingSpreadWeight * (layer[$1] - highest) }
        }
        return total
    }

    @Test func thousandsOfChildrenOfOneCoupleAreRankedAsOne() {
        // Component 0, the couple; 1...5_000 their children, one of whom (1) has a child of their own (5_001).
        var children = Array(repeating: [Int](), count: 5_002)
        children[0] = Array(1...5_000)
        children[1] = [5_001]
        let siblings = Self.groups([Array(1...5_000)], count: children.count)
        let pairs = children.enumerated().flatMap { parent, list in list.map { (parent, $0) } }
        let weights = Dictionary(uniqueKeysWithValues: pairs.map { ($0.0 * children.count + $0.1, 1) })
        let (standIn, alike) = Layering.leavesAlike(pairs: pairs, weightOfPair: weights, children: children, siblings: siblings)
        #expect(standIn[1] == 1 && alike[1] == 1, "a child with children of their own stands for themself")
        #expect((3...5_000).allSatisfy { standIn[$0] == 2 } && alike[2] == 4_999)
        #expect(standIn[5_001] == 5_001 && standIn[0] == 0)
        let layers = Layering.optimalLayers(startingFrom: Self.longestPath(children), children: children, siblings: siblings)
        #expect(layers[0] == 0 && (1...5_000).allSatisfy { layers[$0] == 1 } && layers[5_001] == 2)
    }

    /// Random family shapes with sets of childless siblings alike (some sharing a second parent,
    /// some in two sibling groups): ranked with stand-ins, they cost exactly what the network
    /// simplex on every component finds, the least there is.
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func rankingWithStandInsIsOptimal(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let inner = 4 + Int(random.next() % 5)
        var children = Array(repeating: [Int](), count: inner)
        for parent in 0..<inner {
            for child in (parent + 1)..<inner where random.next() % 3 == 0 { children[parent].append(child) }
        }
        var groupLists: [[Int]] = []
        // Childless children alike: of one parent or two, two to five of them, now and then in a
        // sibling group with a child of the same parent who has children.
        for _ in 0..<(2 + Int(random.next() % 3)) {
            let parent = Int(random.next() % UInt64(inner))
            let second = random.next() % 2 == 0 ? Int(random.next() % UInt64(inner)) : parent
            let first = children.count
            let alike = 2 + Int(random.next() % 4)
            for _ in 0..<alike {
                children.append([])
                children[parent].append(children.count - 1)
                if second != parent { children[second].append(children.count - 1) }
            }
            var group = Array(first..<children.count)
            if let sibling = children[parent].first(where: { $0 < inner }), random.next() % 2 == 0 { group.append(sibling) }
            groupLists.append(group)
        }
        let siblings = Self.groups(groupLists, count: children.count)
        let layers = Layering.optimalLayers(startingFrom: Self.longestPath(children), children: children, siblings: siblings)
        for (parent, list) in children.enumerated() { for child in list { #expect(layers[child] > layers[parent]) } }

        // Every component in the simplex, as before stand-ins.
        var edges: [Edge] = []
        for (parent, list) in children.enumerated() {
            for child in Set(list).sorted() { edges.append(Edge(tail: parent, head: child, minLength: 1, weight: list.count { $0 == child })) }
        }
        var start = Self.longestPath(children)
        for members in groupLists {
            let node = start.count
            start.append(members.map { start[$0] }.min()!)
            for member in members { edges.append(Edge(tail: node, head: member, minLength: 0, weight: Layering.siblingSpreadWeight)) }
        }
        var whole = NetworkSimplex(nodeCount: start.count, edges: edges, feasibleRanks: start)
        whole.solve(maxExchanges: 100_000)
        let wholeLayers = Array(whole.rank[0..<children.count])
        #expect(Self.cost(layers, children: children, groups: groupLists) == Self.cost(wholeLayers, children: children, groups: groupLists))
    }
}

/// Positions along the layers from the shortest-lines problem.
@Suite struct ShortestLinesTests {
    static func placements(of graph: FamilyGraph, options: LayeredLayout.Options = .init()) -> (balanced: Placement, shortest: Placement) {
        let layering = Layering(graph: graph)
        let compact = CompactGraph(graph.topology, memberCount: graph.members.count)
        let chains = LongEdgeChains(compact: compact, layering: layering, memberCount: graph.members.count)
        var arrangement = Arrangement(graph: graph, compact: chains.compact, nodeLayers: chains.nodeLayers)
        arrangement.reduceCrossings(sweeps: 4)
        let sizes = graph.members.map(options.boxSize) + Array(repeating: Size(width: 0, height: 0), count: chains.placeholderCount)
        var balanced = Placement(arrangement: arrangement, sizes: sizes, options: options)
        balanced.balance(passes: options.balancingPasses)
        var shortest = balanced
        let solved = shortest.shortenLines(maximumNodes: .max)
        #expect(solved)
        return (balanced, shortest)
    }

    /// The horizontal length of every line from a union to a child.
    static func lineLength(_ placement: Placement) -> Double {
        let compact = placement.arrangement.compact
        var total = 0.0
        for union in 0..<compact.unionCount {
            for entry in compact.children.range(union) {
                total += abs(placement.unionAlong(union) - placement.centre(of: compact.children.items[entry]))
            }
        }
        return total
    }

    /// Without the width allowance the exact solution's lines are no longer than balancing's; with
    /// it, the drawing is no wider than without it, or within the allowance.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func linesAreNoLongerThanBalancingMakesThemAndUnitsKeepTheirSpacing(seed: UInt64) throws {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 400, seed: seed).generate())
        var options = LayeredLayout.Options()
        options.widthAllowance.weight = 0
        let (balanced, shortest) = Self.placements(of: graph, options: options)
        #expect(Self.lineLength(shortest) <= Self.lineLength(balanced) + 1)
        let withAllowance = Self.placements(of: graph).shortest
        let allowed = withAllowance.packedWidth() * withAllowance.options.widthAllowance.ratio
        #expect(Self.width(withAllowance) <= max(Self.width(shortest), allowed) + 1)
        for placement in [shortest, withAllowance] {
            for layer in placement.arrangement.layers {
                for (left, right) in zip(layer, layer.dropFirst()) {
                    #expect(placement.unitStart[right] - placement.unitStart[left] >= placement.unitWidth[left] + placement.options.unitSpacing - 1)
                }
            }
        }
    }

    /// From the leftmost unit's left edge to the rightmost unit's right edge.
    static func width(_ placement: Placement) -> Double {
        let units = 0..<placement.arrangement.unitCount
        let low = units.map { placement.unitStart[$0] }.min() ?? 0
        let high = units.map { placement.unitStart[$0] + placement.unitWidth[$0] }.max() ?? 0
        return high - low
    }

    /// Where the chart has room (here a last generation of ten children is its widest row), an only
    /// child stands straight under its parents' union. Where a staircase of only children would
    /// itself make the chart wider, the drawing's width wins (a line costs less than a point of width).
    @Test func anOnlyChildStandsUnderTheUnionWhereTheChartHasRoom() throws {
        let lineage = try OptimalLayeringTests.lineage(generations: 4) { _ in 0 }
        var members = lineage.members
        var unions = lineage.unions
        members.append(Member(id: "w4", firstName: "w4"))
        let children = (0..<10).map { "c\($0)" }
        members += children.map { Member(id: $0, firstName: $0) }
        unions.append(Union(id: "S4", partners: ["s4", "w4"], children: children.map { ChildLink($0) }))
        let graph = try FamilyGraph(members: members, unions: unions)
        let (_, shortest) = Self.placements(of: graph)
        let compact = shortest.arrangement.compact
        for union in 0..<compact.unionCount where compact.children.range(union).count == 1 {
            let child = compact.children.items[compact.children.range(union).lowerBound]
            #expect(abs(shortest.unionAlong(union) - shortest.centre(of: child)) < 1)
        }

        let (_, staircase) = Self.placements(of: lineage)
        let extent = staircase.arrangement.layers.flatMap { $0 }.map { staircase.unitStart[$0] + staircase.unitWidth[$0] }.max()!
        let widestUnit = staircase.unitWidth.max()!
        #expect(extent < widestUnit + 4 * 87, "narrower than the straight staircase")
    }
}

/// The ranking of a generated family whose members come in the order of their ids (as a tree
/// pulled from a store comes) and in the order generated: optimal either way, and well within
/// the exchange limit. (The order that took the first-found rule a minute, 10,000 people with the
/// layering's sibling groups, is measured by `Benchmarks/WebBenchmark`, not timed here.)
@Suite struct NetworkSimplexOrderTests {
    typealias Edge = NetworkSimplex.Edge

    /// Parent-to-child edges of a generated 3,000-person tree, its members in `order`.
    static func family(sortedByID: Bool) throws -> (nodeCount: Int, edges: [Edge]) {
        let graph = try FamilyGraph(document: TreeGenerator(memberCount: 3_000, seed: 7).generate())
        let ids = sortedByID ? graph.members.map(\.id).sorted() : graph.members.map(\.id)
        let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var edges: [Edge] = []
        for union in graph.unions {
            for partner in union.partners {
                for child in union.children { edges.append(Edge(tail: position[partner]!, head: position[child.member]!, minLength: 1, weight: 1)) }
            }
        }
        return (ids.count, edges)
    }

    @Test func membersInIDOrderAreRankedOptimallyWellWithinTheExchangeLimit() throws {
        var costs: [Int] = []
        for sorted in [false, true] {
            let (nodeCount, edges) = try Self.family(sortedByID: sorted)
            var start = Array(repeating: 0, count: nodeCount)
            // Longest path from the founders, by repeated relaxation (the edges are few).
            var changed = true
            while changed {
                changed = false
                for edge in edges where start[edge.head] < start[edge.tail] + 1 {
                    start[edge.head] = start[edge.tail] + 1
                    changed = true
                }
            }
            var simplex = NetworkSimplex(nodeCount: nodeCount, edges: edges, feasibleRanks: start)
            let limit = 20 * nodeCount + 1_000
            simplex.solve(maxExchanges: limit)
            #expect(simplex.exchanges < 3 * nodeCount, "sorted: \(sorted), \(simplex.exchanges) exchanges")
            for edge in edges { #expect(simplex.rank[edge.head] - simplex.rank[edge.tail] >= 1) }
            costs.append(NetworkSimplexTests.cost(simplex.rank, edges))
        }
        #expect(costs[0] == costs[1], "both orders reach the same least total length")
    }
}
