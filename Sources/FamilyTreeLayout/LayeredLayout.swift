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

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    public func place(_ graph: FamilyGraph) -> Layout {
        let layering = Layering(graph: graph)
        let compact = CompactGraph(graph.topology, memberCount: graph.members.count)
        let sizes = graph.members.map(options.boxSize)
        func layout(from start: Arrangement.StartingOrder) -> Layout {
            var arrangement = Arrangement(graph: graph, compact: compact, layering: layering, start: start)
            arrangement.reduceCrossings(sweeps: options.sweeps)
            var placement = Placement(arrangement: arrangement, sizes: sizes, options: options)
            placement.balance(passes: options.balancingPasses)
            return LayoutGeometry(graph: graph, placement: placement, options: options).build()
        }
        var best = layout(from: .arranged)
        // Which founders' tree stands next to which decides much of the crossing count, and no
        // estimate predicts it well. Small trees can afford to try other starts and keep the best.
        guard graph.members.count <= options.startingOrderBudget else { return best }
        var fewest = LayoutMetrics.measure(best, of: graph).crossings
        let roots: [Arrangement.StartingOrder.Roots] = [.arranged, .mirrored] + (1...12).map { .shuffled($0) }
        let starts = roots.map { Arrangement.StartingOrder(roots: $0, host: .firstReached) }
            + [.firstPartner, .lastPartner].flatMap { host in [.arranged, .mirrored].map { Arrangement.StartingOrder(roots: $0, host: host) } }
        for start in starts.dropFirst() where fewest > 0 {
            let candidate = layout(from: start)
            let crossings = LayoutMetrics.measure(candidate, of: graph).crossings
            if crossings < fewest {
                best = candidate
                fewest = crossings
            }
        }
        return best
    }
}
