import FamilyTree

// The stages, each a value the next one takes (`LayeredLayout.Stage` names the three that decide
// the drawing; `Options.lastStage` stops after one of them):
//
//   FamilyGraph
//     ranking     -> Layering          a layer per real member: optimal total line length
//                                      (NetworkSimplex), partners in one layer, every child below its
//                                      parents; the demotion heuristic above `optimalRankingLimit`
//     (graph)     -> LongEdgeChains    the ordering graph: a line skipping layers becomes a chain of
//                                      placeholders (node indices from the member count up), with
//                                      `OrderingLayers`, the layer and unit of every node
//     ordering    -> Arrangement       the order of family units in each layer (crossing reduction
//                                      that never breaks a couple or a sibling order);
//                                      StartingOrderSearch tries several starts on trees up to
//                                      `startingOrderBudget` and keeps the best by its own `Score`
//     placement   -> Placement         positions along the layers: balanced, then the shortest-lines
//                                      problem (NetworkSimplex again, ShortestLines.swift) up to
//                                      `exactPlacementLimit` nodes
//     (geometry)  -> LayoutGeometry    boxes, union points, lines with their buses and corridors
//                 -> Layout

/// familytree's own layered layout for families.
///
/// One layer per generation; partners side by side around their union point; each union's
/// children below it in sibling order, centred as far as neighbours allow. A person with
/// several partners sits between or beside them. Everyone is drawn once, even with cousin
/// marriages and cross-bloodline connections. Crossing reduction reorders whole family units
/// and never breaks a couple or a sibling order.
public struct LayeredLayout: LayoutEngine {
    /// The stages that decide a drawing, in the order they run.
    public enum Stage: Int, Sendable, Comparable, CaseIterable {
        /// Each member's layer (generation row); members drawn in their first order, packed left.
        case ranking
        /// The order of family units in each layer, crossings reduced; packed left.
        case ordering
        /// Positions along the layers: parents over children, lines short. The full layout.
        case placement

        public static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Spacing and sizing.
    public struct Options: Sendable {
        /// Top-down (generations as rows) or left-right (as columns).
        public var direction: LayoutDirection
        /// Space between generations (between box edges).
        public var generationSpacing: Double
        /// Space between partners.
        public var partnerSpacing: Double
        /// Space between neighbouring family units in a layer.
        public var unitSpacing: Double
        /// Margin around the drawing.
        public var margin: Double
        /// Crossing-reduction rounds (each a down and an up sweep).
        public var sweeps: Int
        /// Coordinate-balancing rounds (each a down and an up pass).
        public var balancingPasses: Int
        /// Trees with at most this many members are laid out from several starting orders of the
        /// founders' trees, keeping the best drawing by crossings, line length, width and birth
        /// order (see `StartingOrderSearch`); 5,000 members take about a second.
        public var startingOrderBudget: Int
        /// The size of each member's box (width and height as drawn, whatever the direction).
        public var boxSize: @Sendable (Member) -> Size
        /// What each point costs by which a younger sibling in another layer stands left of an elder
        /// (see `SiblingsAcrossLayers.swift`); 0 leaves such pairs to the lines alone.
        var birthOrderAcrossLayersWeight = 64
        /// Width beyond `ratio` times the widest layer packed tight costs `weight` more a point (four
        /// times the base price): the chart may not drift into a parallelogram, each generation shifted
        /// from the one above, just because every line is a little shorter that way. Within the
        /// allowance the lines decide. Measured on 20 real trees (17 never tuned for): the Tudors 18,161
        /// -> 16,718 wide (dot: 16,987) for 6% more line, kennedy.ged 10,036 -> 9,590 for 2% more,
        /// and no tree fell behind dot on a measure where it had been ahead; 1.10 made two more trees'
        /// lines longer than dot's and 1.18 left the Tudors wider; weights 120 and 240 drew the same
        /// (see `ShortestLines.swift`).
        var widthAllowance = (ratio: 1.15, weight: 120)
        /// Whether the multi-start search skips an order it has placed before (see `StartingOrderSearch`).
        var skipsRepeatedOrders = true
        /// Up to this many family components and sibling groups, layers have the least total line
        /// length (network simplex); larger trees are layered by the linear-time demotion heuristic.
        public var optimalRankingLimit = Options.defaultOptimalRankingLimit
        /// Up to this many nodes in the shortest-lines problem (units, lines and the width), positions
        /// are solved exactly; larger trees keep the balanced positions.
        public var exactPlacementLimit = 60_000
        /// Whether every couple stands side by side. Off (the default), a couple whose partners both
        /// grew up in the tree may be drawn apart, each among their own brothers and sisters with a
        /// marriage line between them, where that removes more crossings than it costs (see
        /// `StartingOrderSearch.drawCouplesApart`); only trees within `startingOrderBudget` are tried.
        public var keepsCouplesTogether = false
        /// The last stage run: `.placement` (the default) is the full layout; an earlier stage draws
        /// what that stage decided, to see what each contributes (as Graphviz's `phase` attribute).
        public var lastStage = Stage.placement

        static let defaultOptimalRankingLimit = 40_000

        /// Options with the given spacing and search effort.
        public init(
            direction: LayoutDirection = .topDown, generationSpacing: Double = 64, partnerSpacing: Double = 24,
            unitSpacing: Double = 24, margin: Double = 20, sweeps: Int = 4, balancingPasses: Int = 8, startingOrderBudget: Int = 5_000,
            boxSize: @escaping @Sendable (Member) -> Size = { _ in Size(width: 150, height: 48) }
        ) {
            self.direction = direction
            self.generationSpacing = generationSpacing
            self.partnerSpacing = partnerSpacing
            self.unitSpacing = unitSpacing
            self.margin = margin
            self.sweeps = sweeps
            self.balancingPasses = balancingPasses
            self.startingOrderBudget = startingOrderBudget
            self.boxSize = boxSize
        }
    }

    /// The spacing and search effort used.
    public var options: Options

    /// A layout with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Places every member and union of `graph`: deterministic, no two boxes overlapping.
    public func place(_ graph: FamilyGraph) -> Layout {
        search(graph).best
    }

    /// Whether `place` searches several starting orders for `graph` (a tree within
    /// `startingOrderBudget`, laid out to the last stage) rather than drawing the first one only.
    public func searches(_ graph: FamilyGraph) -> Bool {
        options.lastStage == .placement && graph.members.count <= options.startingOrderBudget
    }

    /// The search's first start drawn, a quick drawing with nearly the final shape, and the way on
    /// from it: `finish()` gives exactly `place(graph)` without making the first start again. `nil`
    /// where `place` does not search (its full layout costs no more than a sketch).
    public func sketch(_ graph: FamilyGraph) -> LayoutSketch? {
        guard searches(graph) else { return nil }
        let firstStart = search(graph, running: false)
        return LayoutSketch(firstStart.best) {
            var search = firstStart
            search.run()
            return search.best
        }
    }

    /// The multi-start search on `graph`, run (unless `running` is false) when the tree is within
    /// `startingOrderBudget`.
    func search(_ graph: FamilyGraph, running: Bool = true) -> StartingOrderSearch {
        let options = self.options
        // Ranking.
        let layering = Layering(graph: graph, optimalLimit: options.optimalRankingLimit)
        // The ordering graph.
        let compact = CompactGraph(graph.topology, memberCount: graph.members.count)
        let chains = LongEdgeChains(compact: compact, layering: layering, memberCount: graph.members.count)
        // Measuring labels is independent per member: on every core for a large tree.
        let boxSize = options.boxSize
        let sizes = Parallel.mapInChunks(graph.members.indices, chunkSize: 4_096) { boxSize(graph.members[$0]) }
        let nodeSizes = chains.placeholderCount == 0 ? sizes : sizes + Array(repeating: Size(width: 0, height: 0), count: chains.placeholderCount)
        // Ordering: a first order for a start, then crossing reduction from it.
        let units = Arrangement.Units(graph: graph, compact: chains.compact, nodeLayers: chains.nodeLayers)
        let arrange: @Sendable (Arrangement.StartingOrder) -> Arrangement = { start in
            Arrangement(graph: graph, compact: chains.compact, nodeLayers: chains.nodeLayers, units: units, start: start)
        }
        let reduce: @Sendable (Arrangement) -> Arrangement = { first in
            var ordering = first
            if options.lastStage >= .ordering { ordering.reduceCrossings(sweeps: options.sweeps) }
            return ordering
        }
        // Placement, then the geometry drawn from it.
        let layout: @Sendable (Arrangement) -> Layout = { ordering in
            // Placeholders take room too (no width, spacing on both sides): long lines get a
            // corridor, and a child drawn far below its siblings is pulled under its line.
            var placement = Placement(arrangement: ordering, sizes: nodeSizes, options: options)
            if options.lastStage >= .placement {
                // Balanced positions first: the exact solution starts near them (half the exchanges).
                placement.balance(passes: options.balancingPasses)
                placement.shortenLines(maximumNodes: options.exactPlacementLimit)
            }
            return LayoutGeometry(graph: graph, placement: placement, options: options, chains: chains).build()
        }
        var search = StartingOrderSearch(
            graph: graph, layering: layering, arrange: arrange, reduce: reduce, layout: layout, skipsRepeatedOrders: options.skipsRepeatedOrders,
            drawsCouplesApart: !options.keepsCouplesTogether
        )
        // A stage stopped early shows that stage's work on the first start, not the search's choice.
        guard running, searches(graph) else { return search }
        search.run()
        return search
    }
}
