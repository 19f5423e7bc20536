import FamilyTree

/// familytree's own layered layout for families.
///
/// One layer per generation; partners side by side around their union point; each union's
/// children below it in sibling order, centred as far as neighbours allow. A person with
/// several partners sits between or beside them. Everyone is drawn once, even with cousin
/// marriages and cross-bloodline connections. Crossing reduction reorders whole family units
/// and never breaks a couple or a sibling order.
public struct LayeredLayout: LayoutEngine {
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
        /// founders' trees, keeping the one with the fewest crossings.
        public var startingOrderBudget: Int
        /// The size of each member's box (width and height as drawn, whatever the direction).
        public var boxSize: @Sendable (Member) -> Size

        /// Options with the given spacing and search effort.
        public init(
            direction: LayoutDirection = .topDown, generationSpacing: Double = 64, partnerSpacing: Double = 24,
            unitSpacing: Double = 32, margin: Double = 20, sweeps: Int = 4, balancingPasses: Int = 8, startingOrderBudget: Int = 3_000,
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
        let layering = Layering(graph: graph)
        let compact = CompactGraph(graph.topology, memberCount: graph.members.count)
        let sizes = graph.members.map(options.boxSize)
        let chains = LongEdgeChains(compact: compact, layering: layering, memberCount: graph.members.count)
        let orderingSizes = chains.placeholderCount == 0 ? sizes : sizes + Array(repeating: Size(width: 0, height: 0), count: chains.placeholderCount)
        func ordering(from start: Arrangement.StartingOrder) -> Arrangement {
            var ordering = Arrangement(graph: graph, compact: chains.compact, layering: chains.layering, start: start)
            ordering.reduceCrossings(sweeps: options.sweeps)
            return ordering
        }
        func layout(of ordering: Arrangement) -> Layout {
            // Placeholders take room too (no width, spacing on both sides): long lines get a
            // corridor, and a child drawn far below its siblings is pulled under its line.
            var placement = Placement(arrangement: ordering, sizes: orderingSizes, options: options)
            placement.balance(passes: options.balancingPasses)
            return LayoutGeometry(graph: graph, placement: placement, options: options, chains: chains).build()
        }
        let first = ordering(from: .arranged)
        var best = layout(of: first)
        // Which founders' tree stands next to which decides much of the crossing count, and no
        // estimate predicts it well. Small trees can afford to try other starts and keep the best.
        guard graph.members.count <= options.startingOrderBudget else { return best }
        var fewest = LayoutMetrics.measure(best, of: graph).crossings
        var fewestInOrder = first.countCrossings()
        var bestStart = Arrangement.StartingOrder.arranged
        func consider(_ start: Arrangement.StartingOrder) {
            guard fewest > 0 else { return }
            let candidateOrder = ordering(from: start)
            let inOrder = candidateOrder.countCrossings()
            // The order's own count (lines between neighbouring layers, long lines through their
            // placeholders) is close to the drawing's: an order 20% worse than the best is not
            // worth placing and measuring.
            guard Double(inOrder) <= Double(fewestInOrder) * 1.2 else { return }
            let candidate = layout(of: candidateOrder)
            let crossings = LayoutMetrics.measure(candidate, of: graph).crossings
            if crossings < fewest {
                best = candidate
                fewest = crossings
                bestStart = start
                fewestInOrder = inOrder
            }
        }
        let roots: [Arrangement.StartingOrder.Roots] = [.arranged, .mirrored] + (1...24).map { .shuffled($0) }
        let starts = roots.map { Arrangement.StartingOrder(roots: $0, host: .firstReached) }
            + [.firstPartner, .lastPartner].flatMap { host in [.arranged, .mirrored].map { Arrangement.StartingOrder(roots: $0, host: host) } }
        for start in starts.dropFirst() { consider(start) }

        // A couple whose partners both grew up in the tree hangs under one family, and its line to
        // the other family runs across the chart. Try the other family for each such couple in turn,
        // keeping a choice when it crosses less: at most 30 more layouts (royal trees have hundreds
        // of such couples, and each try costs a whole layout).
        var budget = 30
        for (unit, candidates) in LayeredLayout.couplesFromTwoFamilies(graph, layering: layering) {
            for candidate in candidates where budget > 0 && bestStart.hostOfUnit[unit] != candidate {
                budget -= 1
                var start = bestStart
                start.hostOfUnit[unit] = candidate
                consider(start)
            }
        }
        return best
    }

    /// Units in which two or more members have parents in the tree, each with those members, in
    /// member order.
    static func couplesFromTwoFamilies(_ graph: FamilyGraph, layering: Layering) -> [(unit: Int, members: [Int])] {
        var withParents: [Int: [Int]] = [:]
        for member in graph.members.indices where graph.topology.primaryParentUnion[member] >= 0 {
            withParents[layering.componentOfMember[member], default: []].append(member)
        }
        return withParents.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
