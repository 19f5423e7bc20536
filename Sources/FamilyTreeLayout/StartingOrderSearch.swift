import Dispatch
import FamilyTree

/// The multi-start search: which founders' tree stands next to which, and which family takes in a
/// couple whose partners both grew up in the tree, decide much of a drawing's quality, and no
/// estimate predicts it well. Small trees can afford to lay out several starting orders and keep
/// the best.
///
/// Candidates are compared on crossings (counted twice), line length, width and birth order, each
/// relative to the first layout's, so a layout a little more crossed but much narrower can win.
/// Candidates are laid out two at a time on separate threads; which one wins depends only on the
/// scores and the candidates' fixed order, never on timing or the number of cores.
struct StartingOrderSearch {
    /// The best layout found so far.
    private(set) var best: Layout
    private var bestStart = Arrangement.StartingOrder.arranged
    private var bestScore = 0.0
    private var fewestInOrder = 0
    /// The first order, and its drawing's score (measured when the search runs).
    private let first: Arrangement
    private var base = Score(crossings: 0, lineLength: 0, width: 0, birthOrderPercent: 0)
    /// Orders already placed: another start often ends in the same order (most host trials change
    /// nothing), and the same order draws the same, so it is not placed again. Neither is a first
    /// order reduced again (`reduced`). `skipsRepeatedOrders` off does both anyway: only tests use
    /// it, to show the result is the same.
    private var placed: Set<PlacedOrder> = []
    private let skipsRepeatedOrders: Bool
    /// Orders placed and measured, and crossing reductions run, the first ones included.
    private(set) var placements = 1
    private(set) var reductions = 1
    private struct PlacedOrder: Hashable {
        let layers: [[Int]]
        let unitMembers: [Int]

        init(_ order: Arrangement) {
            layers = order.layers
            unitMembers = order.unitMemberList
        }
    }
    private let graph: FamilyGraph
    private let layering: Layering
    /// The first order of a start, and crossing reduction from it.
    private let arrange: @Sendable (Arrangement.StartingOrder) -> Arrangement
    private let reduce: @Sendable (Arrangement) -> Arrangement
    /// Crossing reduction is deterministic, so a start whose first order was reduced before (a host
    /// trial that changes nothing) takes the reduced order from here.
    private var reduced: [PlacedOrder: Arrangement] = [:]
    private let layout: @Sendable (Arrangement) -> Layout

    /// How many more layouts the host search may try (royal trees have hundreds of such couples).
    static let hostTrials = 30
    /// Shuffled orders of the founders' trees tried besides the arranged and mirrored ones.
    static let shuffledStarts: UInt64 = 24
    /// Of a batch of orders, how many (those that cross least) are placed and measured: placing is
    /// the costly half, and placing only four changed no result on the real trees measured.
    static let placedPerBatch = 4

    /// Starts with the layout of the arranged order (all that trees above the search's budget get).
    init(
        graph: FamilyGraph, layering: Layering,
        arrange: @escaping @Sendable (Arrangement.StartingOrder) -> Arrangement,
        reduce: @escaping @Sendable (Arrangement) -> Arrangement, layout: @escaping @Sendable (Arrangement) -> Layout,
        skipsRepeatedOrders: Bool = true
    ) {
        self.skipsRepeatedOrders = skipsRepeatedOrders
        self.graph = graph
        self.layering = layering
        self.arrange = arrange
        self.reduce = reduce
        self.layout = layout
        let start = arrange(.arranged)
        first = reduce(start)
        reduced[PlacedOrder(start)] = first
        best = layout(first)
    }

    /// What the search compares drawings on: crossings, line length, width and families in birth
    /// order. Its own type, not the benchmark's `LayoutMetrics`, so what the benchmark reports can
    /// change without changing which drawing wins.
    struct Score {
        var crossings: Int
        var lineLength: Double
        var width: Double
        var birthOrderPercent: Double

        init(crossings: Int, lineLength: Double, width: Double, birthOrderPercent: Double) {
            self.crossings = crossings
            self.lineLength = lineLength
            self.width = width
            self.birthOrderPercent = birthOrderPercent
        }

        /// Measures a candidate layout of `graph`.
        init(_ layout: Layout, of graph: FamilyGraph) {
            let measures = DrawingMeasures(FamilyDrawing(layout), of: graph, leftRight: layout.direction == .leftRight)
            self.init(crossings: measures.crossings, lineLength: measures.lineLength, width: measures.width, birthOrderPercent: measures.birthOrderPercent)
        }

        /// Crossings (counted twice), line length, width and families out of birth order, each
        /// relative to `base` (the first layout's). Birth order across layers is a soft rule of the
        /// placement, so an order can cross less by leaving more families out of order (Queen.ged:
        /// 15% fewer crossings for 2.8% more families out of order); that is not a better drawing.
        func relative(to base: Score) -> Double {
            2 * Double(crossings + 1) / Double(base.crossings + 1)
                + lineLength / max(1, base.lineLength) + width / max(1, base.width)
                + (101 - birthOrderPercent) / (101 - base.birthOrderPercent)
        }
    }

    private func score(_ measured: Score) -> Double { measured.relative(to: base) }

    /// Tries the other starting orders, then, for each couple from two families, the other family.
    mutating func run() {
        base = Score(best, of: graph)
        placed.insert(PlacedOrder(first))
        fewestInOrder = first.countCrossings()
        bestScore = score(base)
        let roots: [Arrangement.StartingOrder.Roots] = [.arranged, .mirrored] + (1...Self.shuffledStarts).map { .shuffled($0) }
        let starts = roots.map { Arrangement.StartingOrder(roots: $0, host: .firstReached) }
            + [.firstPartner, .lastPartner].flatMap { host in [.arranged, .mirrored].map { Arrangement.StartingOrder(roots: $0, host: host) } }
        consider(Array(starts.dropFirst()))

        // A couple whose partners both grew up in the tree hangs under one family, and its line to
        // the other family runs across the chart. Try the other family for each such couple in
        // turn, two at a time, keeping a choice when the drawing improves.
        var trials: [(unit: Int, host: Int)] = []
        for (unit, candidates) in Self.couplesFromTwoFamilies(graph, layering: layering) {
            for candidate in candidates where trials.count < Self.hostTrials { trials.append((unit, candidate)) }
        }
        for pair in stride(from: 0, to: trials.count, by: 2) {
            let batch = trials[pair..<min(pair + 2, trials.count)].compactMap { trial -> Arrangement.StartingOrder? in
                guard bestStart.hostOfUnit[trial.unit] != trial.host else { return nil }
                var start = bestStart
                start.hostOfUnit[trial.unit] = trial.host
                return start
            }
            // Only an order that crosses no more than the best one is worth placing here.
            consider(batch, slack: 1.0)
        }
    }

    /// Lays out `starts` (in parallel) and keeps the best, the earliest among equals.
    private mutating func consider(_ starts: [Arrangement.StartingOrder], slack: Double = 1.2) {
        guard !starts.isEmpty else { return }
        let orders = ordered(starts)
        let inOrder = orders.map { $0.countCrossings() }
        // The order's own count (lines between neighbouring layers, long lines through their
        // placeholders) is close to the drawing's: an order `slack` times worse than the best is
        // not worth placing and measuring, and of the rest the few that cross least are placed.
        let limit = Double(min(fewestInOrder, inOrder.min()!)) * slack
        let kept = orders.indices.filter { Double(inOrder[$0]) <= limit }
            .sorted { (inOrder[$0], $0) < (inOrder[$1], $1) }.prefix(Self.placedPerBatch).sorted()
            .filter { placed.insert(PlacedOrder(orders[$0])).inserted || !skipsRepeatedOrders }
        placements += kept.count
        let (graph, layout) = (self.graph, self.layout)
        let measured = Parallel.map(kept.map { orders[$0] }) { order in
            let candidate = layout(order)
            return (candidate, Score(candidate, of: graph))
        }
        for (index, (candidate, measured)) in zip(kept, measured) {
            let candidateScore = score(measured)
            guard candidateScore < bestScore else { continue }
            best = candidate
            bestScore = candidateScore
            bestStart = starts[index]
            fewestInOrder = min(fewestInOrder, inOrder[index])
        }
    }

    /// The reduced order of each start: first orders made in parallel, each new one reduced (in
    /// parallel) once, repeats taken from `reduced`.
    private mutating func ordered(_ starts: [Arrangement.StartingOrder]) -> [Arrangement] {
        let firstOrders = Parallel.map(starts, arrange)
        let keys = firstOrders.map(PlacedOrder.init)
        var new: [Int] = []
        var seen: Set<PlacedOrder> = []
        guard skipsRepeatedOrders else {
            reductions += starts.count
            return Parallel.map(firstOrders, reduce)
        }
        for (index, key) in keys.enumerated() where reduced[key] == nil && seen.insert(key).inserted { new.append(index) }
        for (index, order) in zip(new, Parallel.map(new.map { firstOrders[$0] }, reduce)) { reduced[keys[index]] = order }
        reductions += new.count
        return keys.map { reduced[$0]! }
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
