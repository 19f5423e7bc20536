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
    /// The reduced order of the best layout: couples are drawn apart from it one at a time.
    private var bestOrder: Arrangement
    private var bestScore = 0.0
    private var fewestInOrder = 0
    /// The first order, and its drawing's score (measured when the search runs).
    private let first: Arrangement
    private var base = Score(crossings: 0, lineLength: 0, width: 0, birthOrderPercent: 0)
    /// Orders already placed: another start often ends in the same order (most host trials change
    /// nothing), and the same order draws the same, so it is not placed again. Neither is a first
    /// order reduced again (`reduced`). `skipsRepeatedOrders` off does both anyway, and tries the
    /// later shuffled starts however the first few did: only tests use it, to show the result is
    /// the same.
    private var placed: Set<PlacedOrder> = []
    private let skipsRepeatedOrders: Bool
    /// Whether couples may be drawn apart (`LayeredLayout.Options.keepsCouplesTogether` off).
    private let drawsCouplesApart: Bool
    /// Whether the later shuffled starts were tried (see `run`).
    private(set) var triedEveryStart = true
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
    /// First orders already made, by start (host trials are made ahead of time, see `run`).
    private var prepared: [Arrangement.StartingOrder: Arrangement] = [:]
    private let layout: @Sendable (Arrangement) -> Layout

    /// How many more layouts the host search may try (royal trees have hundreds of such couples).
    static let hostTrials = 30
    /// How many couples may be tried drawn apart (see `couplesToDrawApart`).
    static let apartTrials = 60
    /// Shuffled orders of the founders' trees tried besides the arranged and mirrored ones.
    static let shuffledStarts: UInt64 = 24
    /// Shuffled starts always tried; the others only where one of these, or another start, came
    /// near the first order (see `run`).
    static let shuffledStartsFirst: UInt64 = 6
    /// How many times the fewest crossings of any order so far a start's order may cross and still
    /// be placed (and, for the first starts, have the later shuffled ones tried).
    static let startSlack = 1.2
    /// Of a batch of orders, how many (those that cross least) are placed and measured: placing is
    /// the costly half, and placing only four changed no result on the real trees measured.
    static let placedPerBatch = 4
    /// How many pairs of host trials are ordered ahead of time (see `run`).
    static let pairsReducedAhead = 4

    /// Starts with the layout of the arranged order (all that trees above the search's budget get).
    init(
        graph: FamilyGraph, layering: Layering,
        arrange: @escaping @Sendable (Arrangement.StartingOrder) -> Arrangement,
        reduce: @escaping @Sendable (Arrangement) -> Arrangement, layout: @escaping @Sendable (Arrangement) -> Layout,
        skipsRepeatedOrders: Bool = true, drawsCouplesApart: Bool = true
    ) {
        self.skipsRepeatedOrders = skipsRepeatedOrders
        self.drawsCouplesApart = drawsCouplesApart
        self.graph = graph
        self.layering = layering
        self.arrange = arrange
        self.reduce = reduce
        self.layout = layout
        let start = arrange(.arranged)
        first = reduce(start)
        bestOrder = first
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
        /// How far apart the couples drawn apart stand (`Arrangement.spanOfCouplesApart`).
        var spanApart = 0
        /// Lines that marriage lines cross: as drawn (`MarriageLineCrossings`) for a layout, as
        /// estimated (`Arrangement.marriageLineCrossings`) for an order not placed yet.
        var marriageLineCrossings = 0
        /// Readers look for partners side by side, and follow a short marriage line more easily than
        /// a long one: a couple drawn apart counts as a quarter crossing for each step from one
        /// partner to the other. With one person between (two steps) it is drawn apart where that
        /// removes a crossing; with seven between, where it removes more than two.
        static let crossingsPerStepApart = 0.25

        /// Crossings, those of marriage lines included, and couples apart as crossings.
        var weightedCrossings: Double {
            Double(crossings + marriageLineCrossings) + Self.crossingsPerStepApart * Double(spanApart)
        }

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
            marriageLineCrossings = MarriageLineCrossings.count(in: layout)
        }

        /// Crossings (counted twice), line length, width and families out of birth order, each
        /// relative to `base` (the first layout's). Birth order across layers is a soft rule of the
        /// placement, so an order can cross less by leaving more families out of order (Queen.ged:
        /// 15% fewer crossings for 2.8% more families out of order); that is not a better drawing.
        func relative(to base: Score) -> Double {
            2 * (weightedCrossings + 1) / Double(base.crossings + 1)
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
            // Moving in-law families crosses less before reduction but can cost line length after it.
            + [.arranged, .mirrored].map { Arrangement.StartingOrder(roots: $0, host: .firstReached, movesInLawFamilies: false) }
        // The later shuffled starts are reduced only where an earlier start came near the first
        // order's crossings: where none of the first few did, the founders' order is not where the
        // drawing's crossings come from (washington.ged: 14 reductions instead of 32; no drawing of
        // the 23 public trees changed). The orders are placed in the starts' order, as before.
        let candidates = Array(starts.dropFirst())
        let isLater = candidates.map { start in
            guard case .shuffled(let seed) = start.roots else { return false }
            return seed > Self.shuffledStartsFirst && start.host == .firstReached
        }
        var orders = [Arrangement?](repeating: nil, count: candidates.count)
        func reduceStarts(where later: Bool) {
            let indices = candidates.indices.filter { isLater[$0] == later }
            for (index, order) in zip(indices, ordered(indices.map { candidates[$0] })) { orders[index] = order }
        }
        reduceStarts(where: false)
        let nearFirst = Double(fewestInOrder) * Self.startSlack
        triedEveryStart = !skipsRepeatedOrders || orders.contains { $0.map { Double($0.countCrossings()) <= nearFirst } ?? false }
        if triedEveryStart { reduceStarts(where: true) }
        let tried = candidates.indices.filter { orders[$0] != nil }
        place(tried.map { orders[$0]! }, of: tried.map { candidates[$0] }, slack: Self.startSlack)

        // A couple whose partners both grew up in the tree hangs under one family, and its line to
        // the other family runs across the chart. Try the other family for each such couple in
        // turn, two at a time, keeping a choice when the drawing improves.
        var trials: [(unit: Int, host: Int)] = []
        for (unit, candidates) in Self.couplesFromTwoFamilies(graph, layering: layering) {
            for candidate in candidates where trials.count < Self.hostTrials { trials.append((unit, candidate)) }
        }
        func trialStarts(_ pair: Int) -> [Arrangement.StartingOrder] {
            trials[pair..<min(pair + 2, trials.count)].compactMap { trial in
                guard bestStart.hostOfUnit[trial.unit] != trial.host else { return nil }
                var start = bestStart
                start.hostOfUnit[trial.unit] = trial.host
                return start
            }
        }
        // The trials are taken two at a time, each pair from the best start so far. One of a
        // couple's two trials usually repeats the order already found, so a pair alone would keep
        // one core idle: the orders of the next few pairs are made and reduced together ahead of
        // time, assuming the best start stays, and made again when it changes.
        var speculatedUpTo = 0
        for pair in stride(from: 0, to: trials.count, by: 2) {
            if pair >= speculatedUpTo, skipsRepeatedOrders {
                speculatedUpTo = min(pair + 2 * Self.pairsReducedAhead, trials.count)
                prepare(stride(from: pair, to: speculatedUpTo, by: 2).flatMap(trialStarts))
            }
            let before = bestStart
            // Only an order that crosses no more than the best one is worth placing here.
            consider(trialStarts(pair), slack: 1.0)
            if bestStart != before {
                // The orders made ahead assumed the old best start: none is asked for again.
                speculatedUpTo = pair + 2
                prepared.removeAll()
            }
        }

        // A middle child married to someone who grew up in the tree: side by side, one partner's
        // line from their parents crosses the lines to the other's younger (or elder) siblings.
        // Each such couple is tried drawn apart, each partner among their own siblings and a
        // marriage line between them, and kept where the order then crosses less by more than a
        // couple apart costs (`Score.crossingsPerStepApart`, and the lines its marriage line
        // crosses). Orders only, two at a time (placing each would double the search's time); the
        // couples kept are then placed once and kept if the drawing is better.
        if drawsCouplesApart { drawCouplesApart() }
    }

    private mutating func drawCouplesApart() {
        var trials = Array(Self.couplesToDrawApart(graph, layering: layering).prefix(Self.apartTrials))
        guard !trials.isEmpty else { return }
        @Sendable func cost(_ order: Arrangement) -> Double {
            var score = Score(crossings: order.countCrossings(), lineLength: 0, width: 0, birthOrderPercent: 0)
            score.marriageLineCrossings = order.marriageLineCrossings()
            score.spanApart = order.spanOfCouplesApart()
            return score.weightedCrossings
        }
        var current = bestOrder
        var currentCost = cost(current)
        // Where both of two pay, the one not kept is tried again from the new order (a bounded number of times).
        var trialsLeft = trials.count + trials.count / 2
        while !trials.isEmpty, trialsLeft > 0 {
            trialsLeft -= 1
            let unions = Array(trials.prefix(2))
            trials.removeFirst(unions.count)
            let previous = current
            // The order is reduced already: only the couple's layer and what its change reaches.
            let measured = Parallel.map(unions) { union -> (Arrangement, Double) in
                var order = Arrangement(drawingApart: union, from: previous)
                order.improveLocally(passes: 2, window: 16, startingAt: order.nodeLayers.layerOfNode[previous.compact.firstPartner[union]])
                return (order, cost(order))
            }
            let paying = measured.indices.filter { measured[$0].1 < currentCost }
            guard let kept = paying.min(by: { (measured[$0].1, $0) < (measured[$1].1, $1) }) else { continue }
            (current, currentCost) = measured[kept]
            for index in paying where index != kept { trials.insert(unions[index], at: 0) }
        }
        guard !current.couplesDrawnApart.isEmpty else { return }
        // With the couples apart, a whole reduction may move their families further: both are placed.
        let swept = reduce(current)
        let orders = PlacedOrder(swept) == PlacedOrder(current) ? [current] : [current, swept]
        place(orders, of: orders.map { _ in bestStart }, slack: .infinity)
    }

    /// Couples whose partners both grew up in the tree and stand in one layer as a unit of their
    /// own, one of them with brothers or sisters in that layer: the unions, those whose siblings
    /// stand most on both sides first (a middle child's couple costs crossings whichever way the
    /// families stand), then those with the most siblings.
    static func couplesToDrawApart(_ graph: FamilyGraph, layering: Layering) -> [Int] {
        let topology = graph.topology
        let layerOf = layering.layerOfMember
        var membersOfComponent = [Int: Int]()
        for component in layering.componentOfMember { membersOfComponent[component, default: 0] += 1 }
        // A member's elder and younger siblings in its layer.
        func siblings(of member: Int) -> (elder: Int, younger: Int) {
            let family = topology.primaryParentUnion[member]
            guard family >= 0 else { return (0, 0) }
            let siblings = topology.children[family].filter { layerOf[$0] == layerOf[member] && topology.primaryParentUnion[$0] == family }
            guard let position = siblings.firstIndex(of: member) else { return (0, 0) }
            return (position, siblings.count - 1 - position)
        }
        var candidates: [(union: Int, bothSides: Int, all: Int)] = []
        for (union, partners) in topology.partners.enumerated() where partners.count == 2 {
            let (first, second) = (partners[0], partners[1])
            guard topology.primaryParentUnion[first] >= 0, topology.primaryParentUnion[second] >= 0,
                  layerOf[first] == layerOf[second], layering.componentOfMember[first] == layering.componentOfMember[second],
                  membersOfComponent[layering.componentOfMember[first]] == 2 else { continue }
            let (one, other) = (siblings(of: first), siblings(of: second))
            let all = one.elder + one.younger + other.elder + other.younger
            if all > 0 { candidates.append((union, min(one.elder, one.younger) + min(other.elder, other.younger), all)) }
        }
        return candidates.sorted { ($0.bothSides, $0.all, $1.union) > ($1.bothSides, $1.all, $0.union) }.map(\.union)
    }

    /// Lays out `starts` (in parallel) and keeps the best, the earliest among equals.
    private mutating func consider(_ starts: [Arrangement.StartingOrder], slack: Double = StartingOrderSearch.startSlack) {
        guard !starts.isEmpty else { return }
        place(ordered(starts), of: starts, slack: slack)
    }

    /// Places and measures the reduced `orders` of `starts` that cross least, keeping the best
    /// (`slack` infinite: every order is placed, however it crosses).
    private mutating func place(_ orders: [Arrangement], of starts: [Arrangement.StartingOrder], slack: Double) {
        let inOrder = orders.map { $0.countCrossings() }
        // The order's own count (lines between neighbouring layers, long lines through their
        // placeholders) is close to the drawing's: an order `slack` times worse than the best is
        // not worth placing and measuring, and of the rest the few that cross least are placed.
        let limit = slack.isInfinite ? slack : Double(min(fewestInOrder, inOrder.min()!)) * slack
        let kept = orders.indices.filter { Double(inOrder[$0]) <= limit }
            .sorted { (inOrder[$0], $0) < (inOrder[$1], $1) }.prefix(Self.placedPerBatch).sorted()
            .filter { placed.insert(PlacedOrder(orders[$0])).inserted || !skipsRepeatedOrders }
        placements += kept.count
        let (graph, layout) = (self.graph, self.layout)
        let measured = Parallel.map(kept.map { orders[$0] }) { order in
            let candidate = layout(order)
            var score = Score(candidate, of: graph)
            score.spanApart = order.spanOfCouplesApart()
            return (candidate, score)
        }
        for (index, (candidate, measured)) in zip(kept, measured) {
            let candidateScore = score(measured)
            guard candidateScore < bestScore else { continue }
            best = candidate
            bestScore = candidateScore
            bestStart = starts[index]
            bestOrder = orders[index]
            fewestInOrder = min(fewestInOrder, inOrder[index])
        }
    }

    /// The reduced order of each start: its first order made (or taken from `prepared`) and, the
    /// first time that order comes up, reduced once; repeats are taken from `reduced`.
    private mutating func ordered(_ starts: [Arrangement.StartingOrder]) -> [Arrangement] {
        guard skipsRepeatedOrders else {
            reductions += starts.count
            return Parallel.map(firstOrders(of: starts), reduce)
        }
        return madeAndReduced(starts).map { reduced[PlacedOrder($0)]! }
    }

    /// Makes and reduces the orders of `starts` ahead of time, and keeps their first orders (only
    /// these: a whole search's would hold dozens of copies of the tree).
    private mutating func prepare(_ starts: [Arrangement.StartingOrder]) {
        for (start, order) in zip(starts, madeAndReduced(starts)) { prepared[start] = order }
    }

    /// The first order of each start: made before (`prepared`), or now, in parallel.
    private func firstOrders(of starts: [Arrangement.StartingOrder]) -> [Arrangement] {
        let missing = starts.indices.filter { prepared[starts[$0]] == nil }
        var orders = starts.map { prepared[$0] }
        for (index, order) in zip(missing, Parallel.map(missing.map { starts[$0] }, arrange)) { orders[index] = order }
        return orders.map { $0! }
    }

    /// The first order of each start (made now unless `prepared` has it), each first order not
    /// reduced before reduced once, into `reduced`. One task per start on every core, making and
    /// then reducing: starts cost very different times (an arranged start several times a
    /// shuffled one), and a batch of makings, then one of reductions, left a core idle at the end
    /// of each. The first task to come to an order reduces it; which one that is changes nothing,
    /// as reduction is deterministic.
    private mutating func madeAndReduced(_ starts: [Arrangement.StartingOrder]) -> [Arrangement] {
        let (prepared, known, arrange, reduce) = (self.prepared, self.reduced, self.arrange, self.reduce)
        let claims = Claims()
        let made = Parallel.map(starts) { start -> (first: Arrangement, reduced: Arrangement?) in
            let first = prepared[start] ?? arrange(start)
            let key = PlacedOrder(first)
            guard known[key] == nil, claims.claim(key) else { return (first, nil) }
            return (first, reduce(first))
        }
        for (first, order) in made {
            guard let order else { continue }
            reduced[PlacedOrder(first)] = order
            reductions += 1
        }
        return made.map(\.first)
    }

    /// Orders claimed by the tasks of one batch, so each is reduced once.
    private final class Claims: @unchecked Sendable {
        private let queue = DispatchQueue(label: "familytree.starting-order-claims")
        private var claimed: Set<PlacedOrder> = []

        /// Whether `order` was not claimed yet (it is now).
        func claim(_ order: PlacedOrder) -> Bool { queue.sync { claimed.insert(order).inserted } }
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
