import FamilyTree

/// Turns a placement into the public `Layout`: boxes, union points and edge polylines.
struct LayoutGeometry {
    /// Room kept round a union point at the drawing's edge (its dot has a radius of 3).
    static let unionDotRoom = 4.0

    let graph: FamilyGraph
    let placement: Placement
    let options: LayeredLayout.Options
    /// The placeholders the placement made room for: long lines pass through them.
    let chains: LongEdgeChains

    /// A couple drawn apart has its union point anywhere between the partners (where the lines
    /// were shortest), and a couple not side by side within one unit (a person with several
    /// partners) between them; it moves, within that reach, to the nearest place a step or more
    /// from every other union's point and every long line passing its layer, so its lines never run
    /// down beside another family's.
    private func keepApartUnionsClear(_ unionAlongs: inout [Double], unionLayers: [Int], marriageDrops: [Int: [Int: Double]], centre: (Int) -> Double) {
        let topology = graph.topology
        let layerOfNode = placement.arrangement.nodeLayers.layerOfNode
        let apart = placement.unionsApart + topology.partners.indices.filter { union in
            let partners = topology.partners[union]
            return partners.count == 2 && layerOfNode[partners[0]] == layerOfNode[partners[1]]
                && placement.arrangement.unitOfMember[partners[0]] == placement.arrangement.unitOfMember[partners[1]]
                && !placement.partnersAreAdjacent(union)
        }
        guard !apart.isEmpty else { return }
        let isApart = Set(apart)
        // What is in the way, per layer, sorted along: other unions' points, and the placeholders
        // where long lines pass the layer (and run on down beside the union's drop).
        var othersOfLayer: [Int: [Double]] = [:]
        for union in topology.partners.indices where !isApart.contains(union) { othersOfLayer[unionLayers[union], default: []].append(unionAlongs[union]) }
        for node in graph.members.count..<layerOfNode.count { othersOfLayer[layerOfNode[node], default: []].append(centre(node)) }
        // Other marriages' lines coming down from their partners' boxes (a union's own may run on
        // straight into its drop: they meet, they do not run beside each other).
        // A partner generations above the union's layer drops its line in the gap below its own layer.
        for drops in marriageDrops.values {
            for (partner, drop) in drops { othersOfLayer[layerOfNode[partner], default: []].append(drop) }
        }
        for layer in othersOfLayer.keys { othersOfLayer[layer]!.sort() }
        let step = LineSeparation.minimumGap
        for union in apart {
            let partners = topology.partners[union].map(centre)
            let (low, high) = (partners.min()!, partners.max()!)
            let layer = unionLayers[union]
            // The layer's others but this union's own marriage lines: those are read past, not
            // removed from a copy (a king with 6,000 wives copied 6,000 points 6,000 times).
            let all = othersOfLayer[layer, default: []]
            var own: [Double: Int] = [:]
            for value in marriageDrops[union].map({ Array($0.values) }) ?? [] { own[value, default: 0] += 1 }
            for (value, count) in own { own[value] = min(count, all.partitioningIndex { $0 > value } - all.partitioningIndex { $0 >= value }) }
            /// The first of `others` beyond `along - step`.
            func firstNear(_ along: Double, in others: [Double]) -> Int { others.partitioningIndex { $0 > along - step } }
            /// Whether no other stands within a step of `along` (the sorted points' runs of one
            /// value, less those that are this union's own).
            func isClear(_ along: Double) -> Bool {
                var index = firstNear(along, in: all)
                while index < all.count, all[index] < along + step {
                    var run = index
                    while run < all.count, all[run] == all[index] { run += 1 }
                    if run - index > own[all[index], default: 0] { return false }
                    index = run
                }
                return true
            }
            let solved = unionAlongs[union]
            let reach = Int(((high - low) / step).rounded(.up))
            /// The places tried in turn: where the lines were shortest, a step further each way
            /// at a time, the partners' own.
            func candidate(_ number: Int) -> Double {
                if number == 0 { return solved }
                let steps = max(1, reach)
                if number <= 2 * steps { return solved + (number % 2 == 1 ? -1 : 1) * Double((number + 1) / 2) * step }
                return number == 2 * steps + 1 ? low : high
            }
            let candidateCount = 2 * max(1, reach) + 3
            if let clear = (0..<candidateCount).lazy.map(candidate).first(where: { $0 >= low && $0 <= high && isClear($0) }) {
                unionAlongs[union] = clear
            } else {
                // No place a whole step clear (a king's many wives between the partners): the one
                // farthest from the others, so no two lines run on top of each other.
                var others = all
                for (value, count) in own { for _ in 0..<count { others.remove(at: others.firstIndex(of: value)!) } }
                /// How far the nearest of `others` is.
                func clearance(_ along: Double) -> Double {
                    let index = firstNear(along, in: others)
                    let next = index < others.count ? others[index] - along : .infinity
                    let previous = index > 0 ? along - others[index - 1] : .infinity
                    return min(abs(next), previous)
                }
                let candidates = (0..<candidateCount).map(candidate).filter { $0 >= low && $0 <= high }
                if let roomiest = candidates.max(by: { clearance($0) < clearance($1) }), clearance(roomiest) > clearance(solved) {
                    unionAlongs[union] = roomiest
                }
            }
            let placed = unionAlongs[union]
            othersOfLayer[layer, default: []].insert(placed, at: all.firstIndex { $0 >= placed } ?? all.count)
        }
    }

    func build() -> Layout {
        let arrangement = placement.arrangement
        let layerOf = arrangement.nodeLayers.layerOfNode
        let topology = graph.topology
        let gap = options.generationSpacing
        let layerCount = arrangement.layers.count

        // Along the layers first: where boxes, union points and the lines between them run. The
        // lines decide how much room each gap between generations needs, and so where layers stand.
        // Placeholders of long lines count for the extent: lines pass through them.
        let starts = placement.alongSize.indices.map(placement.start(of:))
        let alongShift = options.margin - (starts.min() ?? 0)
        let alongs = starts.map { $0 + alongShift }
        let alongSize = placement.alongSize
        let acrossSize = placement.acrossSize
        let topDown = options.direction == .topDown
        func along(_ member: Int) -> Double { alongs[member] }
        func centre(_ member: Int) -> Double { alongs[member] + alongSize[member] / 2 }
        var unionAlongs = topology.partners.indices.map { placement.unionAlong($0) + alongShift }
        // A parent of several families with no other parent known would drop all their lines from
        // one point: they leave the box a step apart instead.
        // So do a person's marriage lines to partners not beside them (each to its own union point).
        var dropsOfMember: [Int: [Int]] = [:]
        for (union, partners) in topology.partners.enumerated() {
            if partners.count == 1 {
                dropsOfMember[partners[0], default: []].append(union)
            } else if partners.count == 2, !placement.partnersAreAdjacent(union) {
                // Apart in one layer, or in two (Lot and his daughters): the upper partner's line
                // drops through the gap below it, beside the lines of its other families.
                for partner in partners { dropsOfMember[partner, default: []].append(union) }
            }
        }
        // A couple married more than once, side by side: each marriage's lines leave the line
        // between them a step apart, not all from its middle.
        var marriagesOfCouple: [[Int]: [Int]] = [:]
        for (union, partners) in topology.partners.enumerated() where partners.count == 2 && placement.partnersAreAdjacent(union) {
            marriagesOfCouple[partners.sorted(), default: []].append(union)
        }
        for unions in marriagesOfCouple.values where unions.count > 1 {
            let room = max(0, options.partnerSpacing / 2 - 2)
            for (index, union) in unions.enumerated() {
                unionAlongs[union] += max(-room, min(room, (Double(index) - Double(unions.count - 1) / 2) * BusRoom.step))
            }
        }
        // Where each partner's marriage line leaves their box, by union and partner. Where the box
        // has no room for them all a step apart (a king with six wives, generations left to right),
        // the marriage lines leave from the middle as one trunk, branching at their rows.
        var marriageDrop: [Int: [Int: Double]] = [:]
        for (member, var unions) in dropsOfMember {
            let room = max(0, alongSize[member] / 2 - 2)
            // The lines to partners on the left leave first, the nearest partner's leftmost; then
            // the families with no other parent, straight down, and the lines to partners in
            // another layer (which find their own way through the layers between); then the lines
            // to partners on the right, the farthest partner's leftmost. A longer line runs on a
            // lower row (see `MarriageRows`), so none drops across another's row.
            func side(_ union: Int) -> (side: Int, reach: Double) {
                guard let other = topology.partners[union].first(where: { $0 != member }), layerOf[other] == layerOf[member] else { return (1, 0) }
                let reach = centre(other) - centre(member)
                return reach < 0 ? (0, -reach) : reach > 0 ? (2, -reach) : (1, 0)
            }
            if unions.count > 1 { unions.sort { (side($0).side, side($0).reach, $0) < (side($1).side, side($1).reach, $1) } }
            // The trunk leaves a step from the lines of the families with no other parent: in the
            // place of the first marriage it carries where they all fit a step apart, else where
            // it is farthest from them.
            var trunk: [Int] = []
            var trunkHasNoSlot = false
            if Double(unions.count - 1) * BusRoom.step > 2 * room {
                trunk = unions.filter { topology.partners[$0].count == 2 }
                let withTrunk = unions.filter { topology.partners[$0].count == 1 || $0 == trunk.first }
                trunkHasNoSlot = Double(withTrunk.count - 1) * BusRoom.step > 2 * room
                unions = trunkHasNoSlot ? unions.filter { topology.partners[$0].count == 1 } : withTrunk
            }
            for (index, union) in unions.enumerated() {
                let offset = unions.count > 1 ? max(-room, min(room, (Double(index) - Double(unions.count - 1) / 2) * BusRoom.step)) : 0
                if topology.partners[union].count == 1 {
                    unionAlongs[union] += offset
                } else {
                    for marriage in union == trunk.first ? trunk : [union] { marriageDrop[marriage, default: [:]][member] = centre(member) + offset }
                }
            }
            if trunkHasNoSlot, !trunk.isEmpty {
                let lines = unions.filter { !topology.children[$0].isEmpty }.map { unionAlongs[$0] - centre(member) }
                func clearance(_ offset: Double) -> Double { lines.lazy.map { abs($0 - offset) }.min() ?? .infinity }
                let places = stride(from: 0, through: room, by: BusRoom.step / 4).flatMap { [$0, -$0] }
                let offset = clearance(0) >= BusRoom.step ? 0 : places.max { clearance($0) < clearance($1) } ?? 0
                for marriage in trunk { marriageDrop[marriage, default: [:]][member] = centre(member) + offset }
            }
        }
        let unionLayers = topology.partners.map { $0.map { layerOf[$0] }.max()! }
        // A marriage from a partner generations above whose point stands under the lower partner
        // within a step of the line of another of their marriages (between two of them, its
        // children's lines would run down beside one): the point goes onto the partner's own line.
        // Each such partner's lines in order along, once (a grandson may marry thousands from above).
        var linesLeaving: [Int: [(along: Double, union: Int)]] = [:]
        var snapped: [Int: Double] = [:]
        for (union, partners) in topology.partners.enumerated() where partners.count == 2 && layerOf[partners[0]] != layerOf[partners[1]] {
            let lower = layerOf[partners[0]] > layerOf[partners[1]] ? partners[0] : partners[1]
            guard let drop = marriageDrop[union]?[lower], abs(unionAlongs[union] - centre(lower)) < alongSize[lower] / 2 else { continue }
            if linesLeaving[lower] == nil {
                linesLeaving[lower] = (dropsOfMember[lower] ?? []).compactMap { other in
                    let along = topology.partners[other].count == 1 ? unionAlongs[other] : marriageDrop[other]?[lower]
                    return along.map { ($0, other) }
                }.sorted { ($0.along, $0.union) < ($1.along, $1.union) }
            }
            let lines = linesLeaving[lower]!
            /// Whether a line of another marriage leaves within `reach` of `along` (the scan stops
            /// at the first: a trunk holds thousands on one place).
            func another(near along: Double, within reach: Double) -> Bool {
                lines[lines.partitioningIndex { $0.along > along - reach }...].lazy.prefix { $0.along < along + reach }.contains { $0.union != union }
            }
            // Not onto a line the partner's other marriages share (a trunk runs on down past it).
            if another(near: unionAlongs[union], within: BusRoom.step), !another(near: drop, within: LayerRows.onTop) { snapped[union] = drop }
        }
        for (union, along) in snapped { unionAlongs[union] = along }
        keepApartUnionsClear(&unionAlongs, unionLayers: unionLayers, marriageDrops: marriageDrop, centre: centre)
        let memberLayers = arrangement.layers.map { $0.flatMap { arrangement.members(of: $0) }.filter { $0 < graph.members.count } }
        // Partners generations apart: the upper one's marriage line passes the layers between.
        let marriagesFromAbove = topology.partners.indices.compactMap { union -> ChildLines.MarriageFromAbove? in
            let partners = topology.partners[union]
            guard partners.count == 2, let upper = partners.min(by: { layerOf[$0] < layerOf[$1] }), layerOf[upper] < unionLayers[union] else { return nil }
            let lower = partners[0] == upper ? partners[1] : partners[0]
            return .init(union: union, partner: upper, drop: marriageDrop[union]?[upper] ?? centre(upper),
                         otherDrop: marriageDrop[union]?[lower] ?? centre(lower))
        }
        let lines = ChildLines(graph: graph, placement: placement, chains: chains, options: options, layerOf: layerOf,
                               alongs: alongs, alongShift: alongShift, unionAlongs: unionAlongs, unionLayers: unionLayers, memberLayers: memberLayers,
                               marriagesFromAbove: marriagesFromAbove)
        // Such a line reaches the union's row where it came through the union's layer.
        var marriageArrival = marriageDrop
        var legsOfMarriage: [Int: [ChildLines.Leg]] = [:]
        for (marriage, legs) in zip(marriagesFromAbove, lines.marriageLegs) {
            legsOfMarriage[marriage.union] = legs
            if let last = legs.last { marriageArrival[marriage.union, default: [:]][marriage.partner] = last.to }
        }

        let marriageRows = MarriageRows(graph: graph, layerOf: layerOf, layerCount: layerCount, unionAlongs: unionAlongs, drops: marriageArrival)

        // Across: each layer as deep as its deepest box, each gap tall enough for its tracks.
        var layerDepth = Array(repeating: 0.0, count: layerCount)
        for member in graph.members.indices { layerDepth[layerOf[member]] = max(layerDepth[layerOf[member]], placement.acrossSize[member]) }
        let rooms = (0..<layerCount).map {
            BusRoom(tracks: lines.tracksAbove(layer: $0), generationGap: gap, unionRows: $0 > 0 ? marriageRows.rowsBelow(layer: $0 - 1) : 1)
        }
        var layerTop: [Double] = []
        var across = options.margin + max(0, rooms.first.map { $0.height - gap } ?? 0)
        for (layer, depth) in layerDepth.enumerated() {
            if layer > 0 { across += rooms[layer].height }
            layerTop.append(across)
            across += depth
        }
        // A box shallower than its layer (a name on one line beside one wrapped onto two) stands
        // in the layer's middle, so a generation's boxes share one centre line, and partners' line.
        func top(_ member: Int) -> Double { layerTop[layerOf[member]] + (layerDepth[layerOf[member]] - acrossSize[member]) / 2 }
        func bottom(_ member: Int) -> Double { top(member) + acrossSize[member] }
        func point(_ along: Double, _ across: Double) -> Point {
            topDown ? Point(x: along, y: across) : Point(x: across, y: along)
        }
        /// Where a track of the gap above `layer` runs.
        func trackAcross(_ track: Int, aboveLayer layer: Int) -> Double {
            layerTop[layer] - rooms[layer].height + rooms[layer].offset(ofTrack: track)
        }

        var boxes: [Layout.MemberBox] = []
        boxes.reserveCapacity(graph.members.count)
        var farAlong = (graph.members.count..<starts.count).map { starts[$0] + alongShift }.max() ?? 0
        var farAcross = 0.0
        for member in graph.members.indices {
            let corner = point(along(member), top(member))
            let size = point(alongSize[member], acrossSize[member])
            boxes.append(Layout.MemberBox(member: member, x: corner.x, y: corner.y, width: size.x, height: size.y, layer: layerOf[member]))
            farAlong = max(farAlong, along(member) + alongSize[member])
            farAcross = max(farAcross, bottom(member))
        }

        // Sized up front: at a million members, growth by doubling would hold a spare copy of each.
        var unionPoints: [Layout.UnionPoint] = []
        unionPoints.reserveCapacity(topology.partners.count)
        var edges: [Layout.Edge] = []
        edges.reserveCapacity(lines.lines.count + 2 * topology.partners.count)
        // Where each union's lines to its children start, across.
        var lineStartOfUnion: [Double] = []
        lineStartOfUnion.reserveCapacity(topology.partners.count)
        for (union, partners) in topology.partners.enumerated() {
            let ordered = partners.count == 2 && along(partners[1]) < along(partners[0]) ? [partners[1], partners[0]] : partners
            let unionAlong = unionAlongs[union]
            // Every union of a layer stands on one row a quarter of the gap below the layer, so
            // its lines to children all start one generation gap above them.
            let partnersLayer = unionLayers[union]
            let unionRow = layerTop[partnersLayer] + layerDepth[partnersLayer] + gap / 4 + Double(marriageRows.row(of: union)) * BusRoom.step
            var unionAcross = unionRow
            var marker: Point?
            let lineStart: Double
            if partners.count == 1 {
                lineStart = bottom(partners[0])
            } else if placement.partnersAreAdjacent(union) {
                // The line between the partners is the union's mark; a childless couple's point is on it.
                lineStart = layerTop[partnersLayer] + layerDepth[partnersLayer] / 2
                if topology.children[union].isEmpty { unionAcross = lineStart }
                marker = point(unionAlong, lineStart)
                edges.append(Layout.Edge(kind: .partner, from: .member(ordered[0]), to: .member(ordered[1]), points: [
                    point(along(ordered[0]) + alongSize[ordered[0]], lineStart), point(along(ordered[1]), lineStart),
                ], union: union))
            } else {
                lineStart = unionRow
                for partner in ordered {
                    let drop = marriageDrop[union]?[partner] ?? centre(partner)
                    var points = [point(drop, bottom(partner))]
                    var along = drop
                    if layerOf[partner] < partnersLayer, let legs = legsOfMarriage[union] {
                        for leg in legs {
                            let row = trackAcross(lines.track(of: leg.bus), aboveLayer: leg.layer)
                            points.append(point(along, row))
                            if leg.to != along { points.append(point(leg.to, row)) }
                            along = leg.to
                        }
                    }
                    points.append(point(along, unionRow))
                    points.append(point(unionAlong, unionRow))
                    edges.append(Layout.Edge(kind: .partner, from: .member(partner), to: .union(union), points: points))
                }
            }
            lineStartOfUnion.append(lineStart)
            // The rows of marriage lines under the last generation are in the drawing too (a
            // company with 120 acquisitions drawn as its partners ran 1,400 units past its edge):
            // a union point a dot's width inside the margin.
            farAcross = max(farAcross, unionAcross + Self.unionDotRoom - options.margin)
            var drawn = topology.children[union].filter { topology.primaryParentUnion[$0] == union }
            // Siblings in one layer are already in order; only children in several layers need sorting.
            if zip(drawn, drawn.dropFirst()).contains(where: { along($0) > along($1) }) { drawn.sort { along($0) < along($1) } }
            let position = point(unionAlong, unionAcross)
            unionPoints.append(Layout.UnionPoint(union: union, x: position.x, y: position.y, partners: ordered, children: drawn, marker: marker))
        }

        // Each line runs down from its start to a track in the gap above each layer it passes
        // (through the layer at its placeholder), along that track, and finally along its track
        // above the child's layer to where it enters the child's box.
        for line in lines.lines {
            let startAcross: Double
            switch line.from {
            case .union(let union): startAcross = lineStartOfUnion[union]
            case .member(let parent): startAcross = bottom(parent)
            }
            var points = [point(line.startAlong, startAcross)]
            var along = line.startAlong
            for leg in line.legs {
                let row = trackAcross(lines.track(of: leg.bus), aboveLayer: leg.layer)
                if row != startAcross || points.count > 1 { points.append(point(along, row)) }
                if leg.to != along { points.append(point(leg.to, row)) }
                along = leg.to
            }
            points.append(point(along, top(line.child)))
            edges.append(Layout.Edge(kind: line.kind, from: line.from, to: .member(line.child), points: points))
        }

        let extent = point(farAlong + options.margin, farAcross + options.margin)
        return Layout(boxes: boxes, unions: unionPoints, edges: edges, width: extent.x, height: extent.y,
                      layerCount: layerCount, direction: options.direction, layers: memberLayers)
    }
}

/// The gap above a layer: tall enough that its tracks stand `LineSeparation.minimumGap` apart,
/// clear of the union row (a quarter of the generation gap down) and of the boxes below.
struct BusRoom {
    /// How many tracks run in the gap.
    let tracks: Int
    /// The gap's height.
    let height: Double
    /// How far below the gap's top its first track runs.
    private let firstTrack: Double

    static let step = LineSeparation.minimumGap

    init(tracks: Int, generationGap gap: Double, unionRows: Int = 1) {
        self.tracks = tracks
        let band = Double(max(0, tracks - 1)) * Self.step
        // Below the union rows (the first a quarter gap down, each next a step below it) and above
        // the boxes by a step each.
        let highest = gap / 4 + Double(max(1, unionRows) - 1) * Self.step + Self.step
        let clearanceBelow = Self.step
        height = max(gap, highest + band + clearanceBelow)
        // A single track (most gaps) runs a little below the middle, where it always has.
        let preferredCentre = gap * 0.55
        let centre = min(max(preferredCentre, highest + band / 2), height - clearanceBelow - band / 2)
        firstTrack = centre - band / 2
    }

    func offset(ofTrack track: Int) -> Double { firstTrack + Double(track) * Self.step }
}

/// The rows the marriage lines of partners who do not stand side by side run along, under their
/// layer: the union row, and where two such lines would overlap, the longer takes a row further
/// down, a step apart (a person between several spouses, a couple drawn apart), so no two run on
/// top of each other.
struct MarriageRows {
    private var rowOfUnion: [Int: Int] = [:]
    private var rowsOfLayer: [Int]

    /// `drops`: for each union whose partners do not stand side by side, where each partner's line
    /// leaves their box. The rows are under the lower partner's layer (the union's).
    init(graph: FamilyGraph, layerOf: [Int], layerCount: Int, unionAlongs: [Double], drops: [Int: [Int: Double]]) {
        rowsOfLayer = Array(repeating: 1, count: layerCount)
        var spansOfLayer: [Int: [(low: Double, high: Double, union: Int)]] = [:]
        for (union, ofPartner) in drops {
            let ends = Array(ofPartner.values) + [unionAlongs[union]]
            spansOfLayer[graph.topology.partners[union].map { layerOf[$0] }.max()!, default: []].append((ends.min()!, ends.max()!, union))
        }
        for (layer, spans) in spansOfLayer {
            // Shortest first, each on the first row free by a step: a line between partners who
            // stand further apart runs below the nearer ones it spans, so its ends drop past them
            // outside them, and only the inner line's union point drops across it.
            var rows: [[Span]] = []
            for span in spans.sorted(by: { ($0.high - $0.low, $0.low, $0.union) < ($1.high - $1.low, $1.low, $1.union) }) {
                let free = rows.indices.lazy.compactMap { row in Self.index(of: (span.low, span.high), fittingIn: rows[row]).map { (row, $0) } }.first
                let (row, index) = free ?? (rows.count, 0)
                if row == rows.count { rows.append([]) }
                rows[row].insert((span.low, span.high), at: index)
                rowOfUnion[span.union] = row
            }
            rowsOfLayer[layer] = max(1, rows.count)
        }
    }

    /// Where a marriage line runs along its row.
    private typealias Span = (low: Double, high: Double)

    /// Where `span` goes in `row` (its spans in order along it, each a step or more from the next)
    /// if it stands a step clear of its neighbours there, found by halving; nil if it does not.
    private static func index(of span: Span, fittingIn row: [Span]) -> Int? {
        let lower = row.partitioningIndex { $0.low >= span.low }
        let clearBefore = lower == 0 || row[lower - 1].high + BusRoom.step <= span.low
        let clearAfter = lower == row.count || span.high + BusRoom.step <= row[lower].low
        return clearBefore && clearAfter ? lower : nil
    }

    /// The row of a union's lines under its layer: 0 is the union row.
    func row(of union: Int) -> Int { rowOfUnion[union] ?? 0 }

    /// How many rows the layer's unions use under it.
    func rowsBelow(layer: Int) -> Int { rowsOfLayer[layer] }
}

/// The lines from unions (and cross-bloodline parents) to children, along the layers: where each
/// starts, the gaps it runs along and the track it takes in each, and where it enters its child.
///
/// Different families' lines never share a segment nor run side by side closer than
/// `LineSeparation.minimumGap`: buses that overlap take different tracks (the gap grows to hold
/// them, see `BusRoom`), several lines into one child enter it side by side, and a line that would
/// leave its track (into its child, or through a layer) right beside another family's line coming
/// down past that track moves a step to the side: within the child's box, or its placeholder's room.
struct ChildLines {
    /// One gap a line runs along: the gap above `layer`, on `bus`, to `to` along.
    struct Leg {
        var layer: Int
        var bus: Int
        var to: Double
        /// Where `to` may move: within the child's box, or the placeholder's room.
        var room: ClosedRange<Double>
    }

    struct Line {
        var kind: Layout.EdgeKind
        var from: Layout.Endpoint
        /// Lines of one family (one union) may share segments; others never.
        var family: Int
        var startAlong: Double
        var child: Int
        var legs: [Leg]
    }

    /// One leg of one line, by number.
    struct LegKey: Hashable {
        var line: Int
        var leg: Int
    }

    private(set) var lines: [Line] = []

    /// A marriage line from a partner in a layer above the union's: where it leaves that
    /// partner's box, and where the other partner's line leaves theirs.
    struct MarriageFromAbove {
        var union: Int
        var partner: Int
        var drop: Double
        var otherDrop: Double
    }
    /// The legs of each marriage line from a partner in a layer above the union's (see `init`), in
    /// the order given: through each layer down to the union's, at a place no box stands.
    private(set) var marriageLegs: [[Leg]] = []
    /// Where each of those lines leaves its partner's box.
    private let marriageDrops: [Double]
    private var trackOfBus: [Int] = []
    private var trackCounts: [Int] = []

    /// How far a line may come down beside the middle of what it enters (a box, or a placeholder's
    /// room) and still go straight in: less than half a step, the least gap between two lines.
    static let straightWithin = 5.5
    /// Where a line coming down at `along` enters what it would enter at `to`: at `along` itself
    /// where that is within `straightWithin` of `to` and inside `room`. A box of odd width has its
    /// middle half a unit off the whole positions the placement gives, and a tight layer may leave
    /// a child a few units beside its parents' point: a step that small just above the box is a
    /// kink a reader sees, while a line entering a box that far off its middle looks straight in.
    static func straight(to: Double, from along: Double, within room: ClosedRange<Double>) -> Double {
        abs(to - along) <= straightWithin && room.contains(along) ? along : to
    }

    init(graph: FamilyGraph, placement: Placement, chains: LongEdgeChains, options: LayeredLayout.Options, layerOf: [Int],
         alongs: [Double], alongShift: Double, unionAlongs: [Double], unionLayers: [Int], memberLayers: [[Int]],
         marriagesFromAbove: [MarriageFromAbove] = []) {
        let topology = graph.topology
        let alongSize = placement.alongSize
        marriageDrops = marriagesFromAbove.map(\.drop)
        func centre(_ member: Int) -> Double { alongs[member] + alongSize[member] / 2 }
        let lineCount = topology.children.reduce(0) { $0 + $1.count } + topology.crossLinks.count
        var lineCountInto = Array(repeating: 0, count: graph.members.count)
        for children in topology.children { for child in children { lineCountInto[child] += 1 } }
        for link in topology.crossLinks { lineCountInto[link.child] += 1 }
        let step = BusRoom.step

        // A line to a child more than one generation down passes each layer between through its
        // placeholder (see `LongEdgeChains`: room the placement kept, never drawn), or a
        // cross-bloodline line through the nearest gap between boxes; never through a box.
        var unionDrops = Array(repeating: [Double](), count: memberLayers.count)
        for (union, layer) in unionLayers.enumerated() where !topology.children[union].isEmpty { unionDrops[layer].append(unionAlongs[union]) }
        let rows = LayerRows(layers: memberLayers, along: alongs, size: alongSize, drops: unionDrops)
        // A marriage line from above comes down through a whole gap to each layer it passes, and on
        // to a track in the gap below, so it keeps clear of the lines dropping from the unions above
        // that layer too, of the long lines passing the layer at their placeholders, and of the
        // lines entering the boxes of the layer below.
        var passingLines = unionDrops
        // Of those, the lines such a line would surely run on where it took their place: the
        // layer's own unions' lines and the long lines passing it (see `LayerRows.freeAlong`).
        var surePassingLines = unionDrops
        if !marriagesFromAbove.isEmpty {
            for layer in passingLines.indices.dropFirst() { passingLines[layer] += unionDrops[layer - 1] }
            for layer in passingLines.indices.dropLast() { passingLines[layer] += memberLayers[layer + 1].map(centre) }
            for node in graph.members.count..<chains.nodeLayers.layerOfNode.count {
                let layer = chains.nodeLayers.layerOfNode[node]
                passingLines[layer].append(placement.start(of: node) + alongShift)
                surePassingLines[layer].append(placement.start(of: node) + alongShift)
            }
        }
        let rowsForMarriages = marriagesFromAbove.isEmpty
            ? rows : LayerRows(layers: memberLayers, along: alongs, size: alongSize, drops: passingLines, sureDrops: surePassingLines)
        func passages(from startAlong: Double, startLayer: Int, to endLayer: Int, placeholders: [Int]) -> [(layer: Int, along: Double)] {
            guard startLayer + 1 < endLayer else { return [] }
            var along = startAlong
            return ((startLayer + 1)..<endLayer).enumerated().map { index, layer in
                along = index < placeholders.count
                    ? placement.start(of: placeholders[index]) + alongShift
                    : rows.freeAlong(near: along, inLayer: layer, clearance: options.unitSpacing / 2)
                return (layer, along)
            }
        }

        /// Every line once, with the buses it runs on; `moved` says where legs leave their tracks
        /// where an earlier round found them beside another family's line.
        func route(moved: [LegKey: Double]) -> (lines: [Line], marriageLegs: [[Leg]], buses: BusTracks) {
            var routed: [Line] = []
            routed.reserveCapacity(lineCount)
            var buses = BusTracks()
            // Where each line enters its child: the middle of the box for the line from the child's
            // own parents; a second or third line into one child (another parent, a cross-bloodline
            // parent) a step to either side, so no two lines end on one segment.
            var linesInto: [Int: Int] = [:]
            func entry(into child: Int, isPrimary: Bool) -> Double {
                let room = max(0, alongSize[child] / 2 - 2)
                guard !isPrimary else { return centre(child) }
                linesInto[child, default: 0] += 1
                let count = linesInto[child]!
                let side = count % 2 == 1 ? 1.0 : -1.0
                return centre(child) + max(-room, min(room, side * Double((count + 1) / 2) * step))
            }
            // Each union's children in one layer share one bus; buses whose spans overlap get
            // separate tracks, so one family's line is never drawn on top of another's.
            func add(kind: Layout.EdgeKind, from: Layout.Endpoint, family: Int, startAlong: Double, startLayer: Int, child: Int,
                     placeholders: [Int], sharedBus: inout [Int: Int]) {
                let line = routed.count
                let through = passages(from: startAlong, startLayer: startLayer, to: layerOf[child], placeholders: placeholders)
                let boxRoom = max(0, alongSize[child] / 2 - 2)
                let entryRoom = (centre(child) - boxRoom)...(centre(child) + boxRoom)
                var legs: [Leg] = []
                var along = startAlong
                for (index, passage) in through.enumerated() {
                    // Within the placeholder's room: neighbours stand at least a unit spacing away.
                    let room = (passage.along - step)...(passage.along + step)
                    let to = (moved.isEmpty ? nil : moved[LegKey(line: line, leg: index)]) ?? Self.straight(to: passage.along, from: along, within: room)
                    legs.append(Leg(layer: passage.layer, bus: buses.add(layer: passage.layer, from: along, to: to), to: to, room: room))
                    along = to
                }
                // Straight in only where no other line enters the child: the lines into one box
                // enter a step apart, and moving one sideways would bring two closer.
                let entered = entry(into: child, isPrimary: kind == .child)
                let target = (moved.isEmpty ? nil : moved[LegKey(line: line, leg: through.count)])
                    ?? (lineCountInto[child] == 1 ? Self.straight(to: entered, from: along, within: entryRoom) : entered)
                let layer = layerOf[child]
                let bus: Int
                if legs.isEmpty, kind == .child, let shared = sharedBus[layer] {
                    bus = shared
                    buses.extend(bus, toInclude: target)
                } else {
                    bus = buses.add(layer: layer, from: along, to: target)
                    if legs.isEmpty, kind == .child { sharedBus[layer] = bus }
                }
                legs.append(Leg(layer: layer, bus: bus, to: target, room: entryRoom))
                routed.append(Line(kind: kind, from: from, family: family, startAlong: startAlong, child: child, legs: legs))
            }
            for (union, children) in topology.children.enumerated() {
                var sharedBus: [Int: Int] = [:]
                for child in children {
                    let placeholders = chains.placeholdersOfLine[LongEdgeChains.UnionChild(union: union, child: child)] ?? []
                    add(kind: topology.primaryParentUnion[child] == union ? .child : .otherParent, from: .union(union), family: union,
                        startAlong: unionAlongs[union], startLayer: unionLayers[union], child: child, placeholders: placeholders,
                        sharedBus: &sharedBus)
                }
            }
            for link in topology.crossLinks {
                var unshared: [Int: Int] = [:]
                add(kind: .crossBloodline, from: .member(link.parent), family: -1 - link.parent, startAlong: centre(link.parent),
                    startLayer: layerOf[link.parent], child: link.child, placeholders: [], sharedBus: &unshared)
            }
            // A marriage line from a partner generations above the union's layer (a king who
            // married his grandson's widow): down through each layer between, and the union's own,
            // where no box stands, on a track of each gap like a long line, never through a box.
            // Each marks its passages, so the next keeps a step from it.
            var rowsForMarriages = rowsForMarriages
            // One person's marriage lines are one family's (they may share a trunk): where an
            // earlier one passed a layer between, a later one passes with it, rather than taking
            // another gap (a queen married to a hundred of her grandsons ran out of gaps).
            var passageOfPartner: [Int: [Int: Double]] = [:]
            let marriageLegs = marriagesFromAbove.map { marriage in
                var along = marriage.drop
                let unionLayer = unionLayers[marriage.union]
                let unionAlong = unionAlongs[marriage.union]
                // Through the union's own layer on the side of the union point away from the other
                // partner's line, so the two meet at the point and do not run one on the other.
                let away = marriage.otherDrop <= unionAlong ? unionAlong...Double.infinity : -Double.infinity...unionAlong
                let last = rowsForMarriages.freeAlong(near: unionAlong, inLayer: unionLayer, clearance: options.unitSpacing / 2, gapsEachSide: 8, within: away)
                var between: [(layer: Int, along: Double)] = []
                var passing = marriage.drop
                for layer in (layerOf[marriage.partner] + 1)..<max(layerOf[marriage.partner] + 1, unionLayer) {
                    if let shared = passageOfPartner[marriage.partner]?[layer] {
                        passing = shared
                    } else {
                        passing = rowsForMarriages.freeAlong(near: passing, inLayer: layer, clearance: options.unitSpacing / 2)
                        passageOfPartner[marriage.partner, default: [:]][layer] = passing
                        rowsForMarriages.addDrop(passing, inLayer: layer)
                    }
                    between.append((layer, passing))
                }
                let through = between + [(unionLayer, last)]
                rowsForMarriages.addDrop(last, inLayer: unionLayer)
                return through.map { passage in
                    defer { along = passage.along }
                    return Leg(layer: passage.layer, bus: buses.add(layer: passage.layer, from: along, to: passage.along), to: passage.along,
                               room: passage.along...passage.along)
                }
            }
            return (routed, marriageLegs, buses)
        }

        var moved: [LegKey: Double] = [:]
        for round in 0..<4 {
            let (routed, marriages, buses) = route(moved: moved)
            (lines, marriageLegs, (trackOfBus, trackCounts)) = (routed, marriages, buses.tracks(layerCount: memberLayers.count))
            guard round < 3 else { break }
            let moves = legsBesideDrops()
            if moves.isEmpty { break }
            moved.merge(moves) { $1 }
        }
    }

    func track(of bus: Int) -> Int { trackOfBus[bus] }


    /// How many tracks the gap above `layer` holds.
    func tracksAbove(layer: Int) -> Int { trackCounts[layer] }

    /// Family numbers of the marriage lines from above, by their index in `marriageLegs`: below
    /// every union's (0 up) and every cross-bloodline parent's (-1 down).
    private static let marriageFamilies = -(1 << 40)

    /// Legs that leave their track (down into the child, or through the next layer) beside
    /// another family's line that also runs on down there: one coming down from above past the
    /// leg's track, or another leg leaving the same gap. Where each such leg goes instead: the
    /// place in its room nearest to where it was, a step from every such line. Legs of a gap are
    /// settled in line order, each against the others' places so far.
    private func legsBesideDrops() -> [LegKey: Double] {
        let step = BusRoom.step
        struct Drop { var along: Double; var track: Int; var family: Int }
        struct Leaving { var along: Double; var family: Int; var key: LegKey; var room: ClosedRange<Double>; var track: Int }
        // Indexed by layer: a dictionary's hashing showed at 100,000 people.
        var dropsOfGap = Array(repeating: [Drop](), count: trackCounts.count)
        var leavingsOfGap = Array(repeating: [Leaving](), count: trackCounts.count)
        for (index, line) in lines.enumerated() {
            var along = line.startAlong
            for (legIndex, leg) in line.legs.enumerated() {
                dropsOfGap[leg.layer].append(Drop(along: along, track: trackOfBus[leg.bus], family: line.family))
                leavingsOfGap[leg.layer].append(
                    Leaving(along: leg.to, family: line.family, key: LegKey(line: index, leg: legIndex), room: leg.room, track: trackOfBus[leg.bus]))
                along = leg.to
            }
        }
        // A marriage line from above comes down past the tracks of each gap it runs along; it does
        // not move (its passages keep clear of the drops they know), so lines beside it move.
        for (index, legs) in marriageLegs.enumerated() {
            var along = marriageDrops[index]
            for leg in legs {
                dropsOfGap[leg.layer].append(Drop(along: along, track: trackOfBus[leg.bus], family: Self.marriageFamilies - index))
                along = leg.to
            }
        }
        var moves: [LegKey: Double] = [:]
        // One list of blocked places for every leg (most legs are clear, and a list each was an
        // allocation each).
        var blocked: [Double] = []
        for (gap, unordered) in leavingsOfGap.enumerated() where !unordered.isEmpty {
            let drops = dropsOfGap[gap].sorted { $0.along < $1.along }
            var leavings = unordered.sorted { ($0.along, $0.key.line, $0.key.leg) < ($1.along, $1.key.line, $1.key.leg) }
            let reach = (leavings.map { $0.room.upperBound - $0.room.lowerBound }.max() ?? 0) + 2 * step
            for index in leavings.indices {
                let leaving = leavings[index]
                blocked.removeAll(keepingCapacity: true)
                for drop in drops[drops.partitioningIndex { $0.along >= leaving.along - reach }...].prefix(while: { $0.along < leaving.along + reach })
                where drop.family != leaving.family && drop.track > leaving.track { blocked.append(drop.along) }
                for other in leavings[leavings.partitioningIndex { $0.along >= leaving.along - 2 * reach }...].prefix(while: { $0.along < leaving.along + 2 * reach })
                where other.family != leaving.family { blocked.append(other.along) }
                // Sorted, so a place is checked against its nearest neighbours on either side only:
                // 3,000 cross-bloodline lines into one child compared every place with every line (26 s).
                blocked.sort()
                func isClear(_ along: Double) -> Bool {
                    let above = blocked.partitioningIndex { $0 >= along }
                    return (above == blocked.count || blocked[above] - along >= step - 0.001) && (above == 0 || along - blocked[above - 1] >= step - 0.001)
                }
                guard !isClear(leaving.along) else { continue }
                let candidates = [leaving.room.lowerBound, leaving.room.upperBound] + blocked.flatMap { [$0 - step, $0 + step] }
                guard let place = candidates.filter({ leaving.room.contains($0) && isClear($0) })
                    .min(by: { (abs($0 - leaving.along), $0) < (abs($1 - leaving.along), $1) }) else { continue }
                moves[leaving.key] = place
                // Later legs of this gap see it where it now goes (the order by along is kept
                // only roughly; the windows above are wide enough for a move within a room).
                leavings[index].along = place
            }
        }
        return moves
    }
}

/// Assigns horizontal buses above each layer to tracks so that overlapping spans never share a line.
struct BusTracks {
    private var layer: [Int] = []
    private var low: [Double] = []
    private var high: [Double] = []

    /// A new bus spanning `from`...`to` above `layer`; returns its number.
    mutating func add(layer: Int, from: Double, to: Double) -> Int {
        self.layer.append(layer)
        low.append(min(from, to))
        high.append(max(from, to))
        return low.count - 1
    }

    mutating func extend(_ bus: Int, toInclude position: Double) {
        low[bus] = min(low[bus], position)
        high[bus] = max(high[bus], position)
    }

    /// Each bus's track, and how many tracks each layer's gap holds: greedy interval colouring
    /// per layer, in order of left end. Two buses share a track only with a clear stretch between them.
    func tracks(layerCount: Int) -> (trackOfBus: [Int], tracksPerLayer: [Int]) {
        var trackOfBus = Array(repeating: 0, count: low.count)
        var tracksPerLayer = Array(repeating: 0, count: layerCount)
        var byLayer = Array(repeating: [Int](), count: layerCount)
        for bus in low.indices { byLayer[layer[bus]].append(bus) }
        for (layerIndex, buses) in byLayer.enumerated() where !buses.isEmpty {
            let ordered = buses.sorted { (low[$0], high[$0], $0) < (low[$1], high[$1], $1) }
            var trackEnds: [Double] = []
            for bus in ordered {
                if let track = trackEnds.firstIndex(where: { $0 + LineSeparation.minimumGap < low[bus] }) {
                    trackEnds[track] = high[bus]
                    trackOfBus[bus] = track
                } else {
                    trackOfBus[bus] = trackEnds.count
                    trackEnds.append(high[bus])
                }
            }
            tracksPerLayer[layerIndex] = trackEnds.count
        }
        return (trackOfBus, tracksPerLayer)
    }
}

/// The boxes of each layer as intervals along it, and where unions below it drop their lines,
/// for finding a way through a layer that no other line takes.
struct LayerRows {
    private var low: [[Double]] = []
    private var high: [[Double]] = []
    /// Where lines leave each layer downward from its unions, in order.
    private var drops: [[Double]] = []
    /// Of `drops`, those a line passing the whole layer at their place would surely run on (the
    /// layer's own unions' lines, and other lines passing it), in order; the others (lines into the
    /// layer below, or from the layer above) may end before the passing line's track.
    private var sureDrops: [[Double]] = []

    init(layers: [[Int]], along: [Double], size: [Double], drops: [[Double]], sureDrops: [[Double]]? = nil) {
        for members in layers {
            low.append(members.map { along[$0] })
            high.append(members.map { along[$0] + size[$0] })
        }
        self.drops = drops.map { $0.sorted() }
        self.sureDrops = (sureDrops ?? drops).map { $0.sorted() }
    }

    /// How many gaps each side a line may go out to find one clear of every drop.
    static let farthestGaps = 16
    /// Lines closer than this are drawn on top of each other (half a unit: one pixel).
    static let onTop = 0.5

    /// Marks a line passing `layer` at `along`, so later lines keep a step from it.
    mutating func addDrop(_ along: Double, inLayer layer: Int) {
        drops[layer].insert(along, at: drops[layer].partitioningIndex { $0 > along })
        sureDrops[layer].insert(along, at: sureDrops[layer].partitioningIndex { $0 > along })
    }

    /// The position nearest to `position` where a line crosses `layer` without touching a box,
    /// keeping `clearance` from boxes where the gap allows, and a step from any union's drop
    /// where a gap within a few boxes allows: the middle of a gap, or where every gap's middle has
    /// a drop (partners' union points stand there), a place beside it in a gap wide enough.
    func freeAlong(near position: Double, inLayer layer: Int, clearance: Double, gapsEachSide: Int = 4, within allowed: ClosedRange<Double>? = nil) -> Double {
        let (lows, highs) = (low[layer], high[layer])
        guard !lows.isEmpty else { return position }
        // The first box whose right edge is not left of the position.
        let first = highs.partitioningIndex { $0 + clearance >= position }
        /// A place to pass, and how far it may move within its gap, `clearance` from the boxes.
        typealias Passage = (along: Double, room: ClosedRange<Double>)
        /// The middle of the gap left of box `index` (the open side beyond the row's ends).
        func gap(leftOf index: Int) -> Passage {
            // Beyond a row's ends, no further out: the drawing's margin ends there.
            if index == 0 { return (lows[0] - clearance, (lows[0] - clearance)...(lows[0] - clearance)) }
            if index == lows.count { return (highs[index - 1] + clearance, (highs[index - 1] + clearance)...(highs[index - 1] + clearance)) }
            let middle = (highs[index - 1] + lows[index]) / 2
            let (low, high) = (highs[index - 1] + clearance, lows[index] - clearance)
            return (middle, low <= high ? low...high : middle...middle)
        }
        // The position itself where no box is in the way; then the middles of the gaps around it,
        // outward on both sides (the gap it is in, or the two beside the box it is in, first).
        var candidates: [Passage] = []
        if first == lows.count || lows[first] - clearance > position { candidates.append((position, position...position)) }
        var left = first
        var right = first + 1
        for _ in 0..<gapsEachSide {
            if left >= 0 { candidates.append(gap(leftOf: left)) }
            if right <= lows.count { candidates.append(gap(leftOf: right)) }
            left -= 1
            right += 1
        }
        let inRange = allowed.map { range in candidates.filter { range.contains($0.along) } } ?? candidates
        let ordered = (inRange.isEmpty ? candidates : inRange).enumerated()
            .sorted { (abs($0.element.along - position), $0.offset) < (abs($1.element.along - position), $1.offset) }
            .map(\.element)
        let unionDrops = drops[layer]
        let step = LineSeparation.minimumGap
        func isClear(_ along: Double) -> Bool {
            let low = unionDrops.partitioningIndex { $0 > along - step }
            return low == unionDrops.count || unionDrops[low] >= along + step
        }
        if let clear = ordered.first(where: { isClear($0.along) }) { return clear.along }
        // Every middle has a drop: a step beside a drop, in the nearest gap with such a place.
        for passage in ordered where passage.room.lowerBound < passage.room.upperBound {
            let bounded = passage.room.clamped(to: (passage.along - 4 * step)...(passage.along + 4 * step))
            var places = [bounded.lowerBound, bounded.upperBound]
            // Each place with drops once (a hostile tree stacks thousands of lines on one).
            var index = unionDrops.partitioningIndex { $0 >= bounded.lowerBound - step }
            while index < unionDrops.count, unionDrops[index] <= bounded.upperBound + step, places.count < 64 {
                let drop = unionDrops[index]
                places += [drop - step, drop + step]
                index = unionDrops.partitioningIndex { $0 > drop }
            }
            if let place = places.filter({ bounded.contains($0) && (allowed?.contains($0) ?? true) && isClear($0) })
                .min(by: { (abs($0 - passage.along), $0) < (abs($1 - passage.along), $1) }) {
                return place
            }
        }
        // No place a step clear (a dense layer): the nearest not on a line it would surely run
        // on; where every one is on such a line (each gap a couple's union point), further out;
        // where none is clear even there, the one farthest from the drops.
        let sure = sureDrops[layer]
        func isOnSureDrop(_ along: Double) -> Bool {
            let index = sure.partitioningIndex { $0 > along - Self.onTop }
            return index < sure.count && sure[index] < along + Self.onTop
        }
        if let near = ordered.first(where: { !isOnSureDrop($0.along) }) { return near.along }
        guard gapsEachSide >= Self.farthestGaps else {
            return freeAlong(near: position, inLayer: layer, clearance: clearance, gapsEachSide: Self.farthestGaps, within: allowed)
        }
        func room(_ along: Double) -> Double {
            let above = unionDrops.partitioningIndex { $0 >= along }
            let next = above < unionDrops.count ? unionDrops[above] - along : .infinity
            return min(next, above > 0 ? along - unionDrops[above - 1] : .infinity)
        }
        return ordered.max { room($0.along) < room($1.along) }!.along
    }
}
