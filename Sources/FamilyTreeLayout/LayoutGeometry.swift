import FamilyTree

/// Turns a placement into the public `Layout`: boxes, union points and edge polylines.
struct LayoutGeometry {
    let graph: FamilyGraph
    let placement: Placement
    let options: LayeredLayout.Options
    /// The placeholders the placement made room for: long lines pass through them.
    let chains: LongEdgeChains

    func build() -> Layout {
        let arrangement = placement.arrangement
        let layerOf = arrangement.nodeLayers.layerOfNode
        let topology = graph.topology
        let gap = options.generationSpacing

        // Across-axis position of each layer: its depth is its deepest box.
        var layerDepth = Array(repeating: 0.0, count: arrangement.layers.count)
        for member in graph.members.indices { layerDepth[layerOf[member]] = max(layerDepth[layerOf[member]], placement.acrossSize[member]) }
        var layerTop: [Double] = []
        var across = options.margin
        for depth in layerDepth {
            layerTop.append(across)
            across += depth + gap
        }
        // Plain arrays, so the helpers below capture values rather than the whole placement.
        // Placeholders of long lines count for the extent: lines pass through them.
        let starts = placement.alongSize.indices.map(placement.start(of:))
        let alongShift = options.margin - (starts.min() ?? 0)
        let alongs = starts.map { $0 + alongShift }
        let alongSize = placement.alongSize
        let acrossSize = placement.acrossSize
        let topDown = options.direction == .topDown
        func along(_ member: Int) -> Double { alongs[member] }
        func centre(_ member: Int) -> Double { alongs[member] + alongSize[member] / 2 }
        func top(_ member: Int) -> Double { layerTop[layerOf[member]] }
        func bottom(_ member: Int) -> Double { layerTop[layerOf[member]] + acrossSize[member] }
        func point(_ along: Double, _ across: Double) -> Point {
            topDown ? Point(x: along, y: across) : Point(x: across, y: along)
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
        let lineCount = topology.children.reduce(0) { $0 + $1.count } + topology.crossLinks.count
        var unionPoints: [Layout.UnionPoint] = []
        unionPoints.reserveCapacity(topology.partners.count)
        var edges: [Layout.Edge] = []
        edges.reserveCapacity(lineCount + 2 * topology.partners.count)
        // Where each union's lines to its children start.
        var lineStartOfUnion: [(along: Double, across: Double)] = []
        lineStartOfUnion.reserveCapacity(topology.partners.count)
        for (union, partners) in topology.partners.enumerated() {
            let ordered = partners.count == 2 && along(partners[1]) < along(partners[0]) ? [partners[1], partners[0]] : partners
            let unionAlong = placement.unionAlong(union) + alongShift
            // Every union of a layer stands on one row a quarter of the gap below the layer, so
            // its lines to children all start one generation gap above them.
            let partnersLayer = partners.map { layerOf[$0] }.max()!
            let unionRow = layerTop[partnersLayer] + layerDepth[partnersLayer] + gap / 4
            var unionAcross = unionRow
            var marker: Point?
            let lineStart: Double
            if partners.count == 1 {
                lineStart = bottom(partners[0])
            } else if placement.partnersAreAdjacent(union) {
                // The line between the partners is the union's mark; a childless couple's point is on it.
                lineStart = top(ordered[0]) + min(acrossSize[ordered[0]], acrossSize[ordered[1]]) / 2
                if topology.children[union].isEmpty { unionAcross = lineStart }
                marker = point(unionAlong, lineStart)
                edges.append(Layout.Edge(kind: .partner, from: .member(ordered[0]), to: .member(ordered[1]), points: [
                    point(along(ordered[0]) + alongSize[ordered[0]], lineStart), point(along(ordered[1]), lineStart),
                ], union: union))
            } else {
                lineStart = unionRow
                for partner in ordered {
                    edges.append(Layout.Edge(kind: .partner, from: .member(partner), to: .union(union), points: [
                        point(centre(partner), bottom(partner)), point(centre(partner), unionRow), point(unionAlong, unionRow),
                    ]))
                }
            }
            lineStartOfUnion.append((unionAlong, lineStart))
            var drawn = topology.children[union].filter { topology.primaryParentUnion[$0] == union }
            // Siblings in one layer are already in order; only children in several layers need sorting.
            if zip(drawn, drawn.dropFirst()).contains(where: { along($0) > along($1) }) { drawn.sort { along($0) < along($1) } }
            let position = point(unionAlong, unionAcross)
            unionPoints.append(Layout.UnionPoint(union: union, x: position.x, y: position.y, partners: ordered, children: drawn, marker: marker))
        }

        // Lines to children run down to a horizontal bus above the child's layer, then across and down.
        // Each union's children share one bus; buses whose spans overlap get separate tracks, so
        // one family's line is never drawn on top of another's.
        var buses = BusTracks()
        var pending: [(kind: Layout.EdgeKind, from: Layout.Endpoint, start: (along: Double, across: Double), startLayer: Int, child: Int, bus: Int, passages: [Int])] = []
        pending.reserveCapacity(lineCount)
        for (union, children) in topology.children.enumerated() {
            var busOfLayer: [Int: Int] = [:]
            for child in children {
                let isPrimary = topology.primaryParentUnion[child] == union
                let layer = layerOf[child]
                let bus: Int
                if isPrimary, let shared = busOfLayer[layer] {
                    bus = shared
                    buses.extend(bus, toInclude: centre(child))
                } else {
                    bus = buses.add(layer: layer, from: lineStartOfUnion[union].along, to: centre(child))
                    if isPrimary { busOfLayer[layer] = bus }
                }
                let passages = chains.placeholdersOfLine[LongEdgeChains.UnionChild(union: union, child: child)] ?? []
                pending.append((isPrimary ? .child : .otherParent, .union(union), lineStartOfUnion[union], topology.partners[union].map { layerOf[$0] }.max()!, child, bus, passages))
            }
        }
        for link in topology.crossLinks {
            let bus = buses.add(layer: layerOf[link.child], from: centre(link.parent), to: centre(link.child))
            pending.append((.crossBloodline, .member(link.parent), (centre(link.parent), bottom(link.parent)), layerOf[link.parent], link.child, bus, []))
        }
        let busOffsets = buses.offsets(spread: gap * 0.45, maximumStep: 8)
        // A line to a child more than one generation down passes each layer between through its
        // placeholder (see `LongEdgeChains`: room the placement kept, never drawn), or a
        // cross-bloodline line through the nearest gap between boxes; never through a box.
        let memberLayers = arrangement.layers.map { $0.flatMap { arrangement.members(of: $0) }.filter { $0 < graph.members.count } }
        let rows = LayerRows(layers: memberLayers, along: alongs, size: alongSize)
        for line in pending {
            let busAcross = top(line.child) - gap / 2 + gap * 0.05 + busOffsets[line.bus]
            var points = [point(line.start.along, line.start.across)]
            var along = line.start.along
            if line.startLayer + 1 < layerOf[line.child] {
                for (index, layer) in ((line.startLayer + 1)..<layerOf[line.child]).enumerated() {
                    // Through the line's own placeholder where it has one, else through the nearest gap.
                    let passage = index < line.passages.count
                        ? placement.start(of: line.passages[index]) + alongShift
                        : rows.freeAlong(near: along, inLayer: layer, clearance: options.unitSpacing / 2)
                    let above = layerTop[layer] - gap / 2 + gap * 0.05 + busOffsets[line.bus]
                    points.append(point(along, above))
                    if passage != along { points.append(point(passage, above)) }
                    along = passage
                }
            }
            if line.start.across < busAcross || points.count > 1 { points.append(point(along, busAcross)) }
            if centre(line.child) != along { points.append(point(centre(line.child), busAcross)) }
            points.append(point(centre(line.child), top(line.child)))
            edges.append(Layout.Edge(kind: line.kind, from: line.from, to: .member(line.child), points: points))
        }

        let extent = point(farAlong + options.margin, farAcross + options.margin)
        return Layout(boxes: boxes, unions: unionPoints, edges: edges, width: extent.x, height: extent.y,
                      layerCount: arrangement.layers.count, direction: options.direction, layers: memberLayers)
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

    /// Each bus's offset from the middle of the gap: greedy interval colouring per layer, in order of left end.
    func offsets(spread: Double, maximumStep: Double) -> [Double] {
        var result = Array(repeating: 0.0, count: low.count)
        var byLayer: [Int: [Int]] = [:]
        for bus in low.indices { byLayer[layer[bus], default: []].append(bus) }
        for (_, buses) in byLayer {
            let ordered = buses.sorted { (low[$0], high[$0], $0) < (low[$1], high[$1], $1) }
            var trackEnds: [Double] = []
            var trackOf: [Int: Int] = [:]
            for bus in ordered {
                if let track = trackEnds.firstIndex(where: { $0 + 4 < low[bus] }) {
                    trackEnds[track] = high[bus]
                    trackOf[bus] = track
                } else {
                    trackOf[bus] = trackEnds.count
                    trackEnds.append(high[bus])
                }
            }
            let step = trackEnds.count > 1 ? min(maximumStep, spread / Double(trackEnds.count - 1)) : 0
            for bus in buses { result[bus] = (Double(trackOf[bus]!) - Double(trackEnds.count - 1) / 2) * step }
        }
        return result
    }
}

/// The boxes of each layer as intervals along it, for finding a way through a layer.
struct LayerRows {
    private var low: [[Double]] = []
    private var high: [[Double]] = []

    init(layers: [[Int]], along: [Double], size: [Double]) {
        for members in layers {
            low.append(members.map { along[$0] })
            high.append(members.map { along[$0] + size[$0] })
        }
    }

    /// The position nearest to `position` where a line crosses `layer` without touching a box,
    /// keeping `clearance` from boxes where the gap allows.
    func freeAlong(near position: Double, inLayer layer: Int, clearance: Double) -> Double {
        let (lows, highs) = (low[layer], high[layer])
        guard !lows.isEmpty else { return position }
        // The first box whose right edge is not left of the position.
        var first = 0
        var last = highs.count
        while first < last {
            let middle = (first + last) / 2
            if highs[middle] + clearance < position { first = middle + 1 } else { last = middle }
        }
        guard first < lows.count, lows[first] - clearance <= position else { return position }
        // Inside (or too close to) box `first`: the middle of the gap on either side, whichever is nearer.
        let left = first == 0 ? lows[0] - clearance : (highs[first - 1] + lows[first]) / 2
        let right = first == lows.count - 1 ? highs[first] + clearance : (highs[first] + lows[first + 1]) / 2
        return position - left <= right - position ? left : right
    }
}
