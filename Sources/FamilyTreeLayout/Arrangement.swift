import FamilyTree

/// The left-to-right order of family units in every layer.
///
/// The ordering stage: its input is the ordering graph (`LongEdgeChains`: the compact graph and the
/// layer and unit of every node) and a starting order; its output, after `reduceCrossings`, the
/// units of each layer left to right (`layers`).
///
/// A unit is a family component in one layer: a couple, a person with all their partners, or
/// someone alone. Units are ordered as wholes, so partners stay side by side, and the children
/// of each union keep their sibling order as a hard constraint in every reordering.
struct Arrangement {
    let graph: FamilyGraph
    let compact: CompactGraph
    private(set) var nodeLayers: OrderingLayers
    /// Members of each unit, left to right: unit `u` is `unitMemberList[unitStart[u]..<unitStart[u + 1]]`.
    private(set) var unitStart: [Int]
    var unitMemberList: [Int]
    private(set) var unitLayer: [Int]
    private(set) var unitOfMember: [Int]
    /// Units of each layer, left to right.
    var layers: [[Int]]
    /// Each member's position among the members of its layer.
    var slot: [Int]
    /// For each unit, the units that must stand to its right (sibling order), all in its layer.
    private(set) var mustPrecede: CompactGraph.Rows
    /// The number of members in each layer.
    let layerSizes: [Int]
    /// Scratch: each unit's position in its layer while that layer is reordered.
    var rankInLayer: [Int]

    /// Where the first order starts from.
    struct StartingOrder: Hashable {
        /// How the founders' trees are ordered.
        enum Roots: Hashable {
            /// Trees joined by links next to each other (greedy insertion), repeated while it helps.
            case arranged
            /// The same arrangement, mirrored.
            case mirrored
            /// The trees in an order shuffled by a fixed seed, for a different start.
            case shuffled(UInt64)
        }

        /// Which family takes in a couple whose partners both have parents in the tree.
        enum Host: Hashable {
            /// The first family the depth-first walk reaches.
            case firstReached
            /// The family of the couple's first (or last) partner who has parents in the tree.
            case firstPartner, lastPartner
        }

        var roots: Roots
        var host: Host
        /// Couples whose host family is chosen, not ruled by `host`: the unit of the couple, and the
        /// partner whose family takes it in.
        var hostOfUnit: [Int: Int] = [:]
        /// Whether in-law families stand beside the family they married into, where that crosses
        /// less (`withInLawFamiliesBeside`).
        var movesInLawFamilies = true

        static let arranged = StartingOrder(roots: .arranged, host: .firstReached)
    }

    /// See `StartingOrder.Host` and `StartingOrder.hostOfUnit`.
    let host: StartingOrder.Host
    /// The chosen host of each unit, -1 where `host` rules (an array: looked up for every child visited).
    private(set) var hostOfUnit: [Int]
    /// The couples this order decided to draw apart (unions, ascending): each partner stands among
    /// their own siblings and a marriage line joins them (see `init(drawingApart:from:)`). A couple
    /// married twice is one decision; `unionsApart()` lists every union that ends up apart.
    private(set) var couplesDrawnApart: [Int] = []

    /// What every starting order shares: the units, their members in partnership order, their
    /// layers, the sibling-order constraints and the layer sizes. Made once per layout.
    struct Units {
        let unitStart: [Int]
        let unitMemberList: [Int]
        let unitLayer: [Int]
        let mustPrecede: CompactGraph.Rows
        let layerSizes: [Int]

        init(graph: FamilyGraph, compact: CompactGraph, nodeLayers: OrderingLayers) {
            // Members include any placeholders of long lines (see `LongEdgeChains`).
            let memberCount = nodeLayers.layerOfNode.count
            let unitCount = (nodeLayers.unitOfNode.max() ?? -1) + 1
            // Units are components; their members are ordered so partners are neighbours.
            var membersOfComponent = Array(repeating: [Int](), count: unitCount)
            for member in 0..<memberCount { membersOfComponent[nodeLayers.unitOfNode[member]].append(member) }
            let rows = CompactGraph.Rows(membersOfComponent.map { PartnerOrder.order(of: $0, graph: graph, unitOfMember: nodeLayers.unitOfNode) })
            unitStart = rows.start
            unitMemberList = rows.items
            let unitLayer = (0..<unitCount).map { nodeLayers.layerOfNode[rows.items[rows.start[$0]]] }
            self.unitLayer = unitLayer
            let unitOfMember = nodeLayers.unitOfNode
            mustPrecede = Units.siblingOrder(compact: compact, unitOfMember: unitOfMember, unitLayer: unitLayer)
            var sizes = Array(repeating: 0, count: nodeLayers.layerCount)
            for member in 0..<memberCount { sizes[nodeLayers.layerOfNode[member]] += 1 }
            layerSizes = sizes
        }
    }

    init(graph: FamilyGraph, compact: CompactGraph, nodeLayers: OrderingLayers, start: StartingOrder = .arranged) {
        self.init(graph: graph, compact: compact, nodeLayers: nodeLayers, units: Units(graph: graph, compact: compact, nodeLayers: nodeLayers), start: start)
    }

    init(graph: FamilyGraph, compact: CompactGraph, nodeLayers: OrderingLayers, units: Units, start: StartingOrder = .arranged) {
        self.graph = graph
        self.compact = compact
        self.nodeLayers = nodeLayers
        self.host = start.host
        var hostOfUnit = Array(repeating: -1, count: units.unitLayer.count)
        for (unit, member) in start.hostOfUnit { hostOfUnit[unit] = member }
        self.hostOfUnit = hostOfUnit
        unitStart = units.unitStart
        unitMemberList = units.unitMemberList
        unitOfMember = nodeLayers.unitOfNode
        unitLayer = units.unitLayer
        mustPrecede = units.mustPrecede
        layerSizes = units.layerSizes
        rankInLayer = Array(repeating: 0, count: units.unitLayer.count)
        layers = Array(repeating: [], count: nodeLayers.layerCount)
        slot = Array(repeating: 0, count: nodeLayers.layerOfNode.count)
        layers = initialOrder(start)
        for layer in layers.indices { enforceConstraints(layer: layer) }
        updateSlots()
    }

    /// `previous` with one more couple drawn apart: the same order, the couple's second partner a
    /// unit of its own standing where it stood, so crossing reduction from here starts from the
    /// drawing with the couple side by side and moves a partner only where that crosses less.
    /// Only a couple that is a unit by itself in one layer is taken apart (else `previous` as it is).
    init(drawingApart union: Int, from previous: Arrangement) {
        self = previous
        let (first, second) = (compact.firstPartner[union], compact.secondPartner[union])
        let couple = previous.unitOfMember[first]
        guard second >= 0, previous.unitOfMember[second] == couple, previous.unitRange(couple).count == 2 else { return }
        let apartUnit = previous.unitCount
        var unitOfNode = previous.unitOfMember
        unitOfNode[second] = apartUnit
        nodeLayers = OrderingLayers(layerOfNode: previous.nodeLayers.layerOfNode, unitOfNode: unitOfNode, layerCount: previous.nodeLayers.layerCount)
        unitOfMember = unitOfNode
        couplesDrawnApart = (previous.couplesDrawnApart + [union]).sorted()
        hostOfUnit = previous.hostOfUnit + [-1]
        // The second partner leaves the couple's members and is listed last, as the new unit.
        var memberList = previous.unitMemberList
        memberList.remove(at: memberList[previous.unitRange(couple)].firstIndex(of: second)!)
        memberList.append(second)
        unitMemberList = memberList
        unitStart = previous.unitStart.enumerated().map { $0.offset > couple ? $0.element - 1 : $0.element } + [memberList.count]
        unitLayer = previous.unitLayer + [previous.unitLayer[couple]]
        mustPrecede = Units.siblingOrder(compact: compact, unitOfMember: unitOfNode, unitLayer: unitLayer)
        rankInLayer.append(0)
        let layer = unitLayer[couple]
        let index = layers[layer].firstIndex(of: couple)!
        layers[layer].insert(apartUnit, at: slot[second] < slot[first] ? index : index + 1)
    }

    var unitCount: Int { unitStart.count - 1 }

    @inline(__always) func unitRange(_ unit: Int) -> Range<Int> { unitStart[unit]..<unitStart[unit + 1] }
    @inline(__always) func firstMember(_ unit: Int) -> Int { unitMemberList[unitStart[unit]] }
    @inline(__always) func lastMember(_ unit: Int) -> Int { unitMemberList[unitStart[unit + 1] - 1] }

    /// Members of `unit`, left to right (allocates: not for hot loops).
    func members(of unit: Int) -> [Int] { Array(unitMemberList[unitRange(unit)]) }

    mutating func updateSlots() {
        for layer in layers.indices { updateSlots(layer: layer) }
    }

    mutating func updateSlots(layer: Int) {
        var position = 0
        for unit in layers[layer] {
            for index in unitRange(unit) {
                slot[unitMemberList[index]] = position
                position += 1
            }
        }
    }

    /// A union's position doubled (the sum of its partners' slots), so it stays a whole number.
    @inline(__always) func doubledUnionPosition(_ union: Int, slot: [Int]) -> Int {
        let second = compact.secondPartner[union]
        return second >= 0 ? slot[compact.firstPartner[union]] + slot[second] : 2 * slot[compact.firstPartner[union]]
    }

    // MARK: Crossing reduction

    /// Alternating barycenter sweeps over units, each round followed by transposition, keeping the
    /// order with the fewest crossings seen after any half-sweep.
    mutating func reduceCrossings(sweeps: Int) {
        guard layers.count > 1 else { return }
        // Local improvement of the first order, before any sweep can move it away.
        improveLocally(passes: 4, window: 64)
        var best = (layers: layers, units: unitMemberList, crossings: countCrossings())
        var roundsWithoutGain = 0
        for _ in 0..<sweeps {
            var gained = false
            for towardParents in [true, false] {
                if towardParents {
                    for layer in 1..<layers.count { reorder(layer: layer, towardParents: true) }
                } else {
                    for layer in stride(from: layers.count - 2, through: 0, by: -1) { reorder(layer: layer, towardParents: false) }
                    improveLocally(passes: 4, window: 64)
                }
                let crossings = countCrossings()
                if crossings < best.crossings {
                    best = (layers, unitMemberList, crossings)
                    gained = true
                }
            }
            roundsWithoutGain = gained ? 0 : roundsWithoutGain + 1
            if roundsWithoutGain == 1 { break }
        }
        layers = best.layers
        unitMemberList = best.units
        updateSlots()
    }

    /// A member's position within its layer scaled to 0...1, so layers of different sizes compare.
    @inline(__always) private func relativePosition(_ member: Int) -> Double {
        let count = layerSizes[nodeLayers.layerOfNode[member]]
        return count > 1 ? Double(slot[member]) / Double(count - 1) : 0.5
    }

    /// Sorts a layer's units by the mean position of their parents (or children), within sibling order.
    private mutating func reorder(layer: Int, towardParents: Bool) {
        let units = layers[layer]
        var key = Array(repeating: Double.nan, count: units.count)
        for (index, unit) in units.enumerated() {
            var sum = 0.0
            var count = 0
            var orientation = 0.0
            let centre = (relativePosition(firstMember(unit)) + relativePosition(lastMember(unit))) / 2
            for memberIndex in unitRange(unit) {
                let member = unitMemberList[memberIndex]
                if towardParents {
                    for entry in compact.parentUnions.range(member) {
                        let union = compact.parentUnions.items[entry]
                        let second = compact.secondPartner[union]
                        let first = relativePosition(compact.firstPartner[union])
                        let position = second >= 0 ? (first + relativePosition(second)) / 2 : first
                        sum += position
                        count += 1
                        orientation += (position - centre) * (relativePosition(member) - centre)
                    }
                } else {
                    for entry in compact.unionsOfMember.range(member) {
                        let union = compact.unionsOfMember.items[entry]
                        for childEntry in compact.children.range(union) {
                            let child = compact.children.items[childEntry]
                            guard nodeLayers.layerOfNode[child] > layer else { continue }
                            sum += relativePosition(child)
                            count += 1
                        }
                    }
                }
            }
            // Turn a couple round when each partner's family stands on the other side.
            if orientation < 0 { unitMemberList[unitRange(unit)].reverse() }
            if count > 0 { key[index] = sum / Double(count) }
        }
        layers[layer] = orderedByKeys(units, key: key, layer: layer)
        enforceConstraints(layer: layer)
        updateSlots(layer: layer)
    }

    /// Sorts units by key (`nan` for none; indexed like `units`) without tearing families apart.
    ///
    /// Units without a key take the key of the keyed unit before them (they keep their place among
    /// the keyed ones). Then, for each sibling group, keys are made non-decreasing in sibling order by
    /// isotonic regression (pooling adjacent violators), so one sibling pulled far away moves its
    /// group a little instead of dragging its younger siblings across the layer.
    private mutating func orderedByKeys(_ units: [Int], key: [Double], layer: Int) -> [Int] {
        guard let firstKey = key.first(where: { !$0.isNaN }) else { return units }
        var filled = key
        var previous = firstKey
        for index in filled.indices {
            if filled[index].isNaN { filled[index] = previous } else { previous = filled[index] }
        }
        for (index, unit) in units.enumerated() { rankInLayer[unit] = index }
        var group: [Int] = []
        var blocks: [(mean: Double, count: Int)] = []
        for unit in units {
            for memberIndex in unitRange(unit) {
                let member = unitMemberList[memberIndex]
                let union = compact.primaryParentUnion[member]
                guard union >= 0 else { continue }
                // Each sibling group is pooled once: from its eldest member drawn in this layer.
                group.removeAll(keepingCapacity: true)
                var isEldest = true
                for entry in compact.children.range(union) {
                    let child = compact.children.items[entry]
                    guard compact.primaryParentUnion[child] == union, unitLayer[unitOfMember[child]] == layer else { continue }
                    if group.isEmpty, child != member { isEldest = false; break }
                    let index = rankInLayer[unitOfMember[child]]
                    if !group.contains(index) { group.append(index) }
                }
                guard isEldest, group.count > 1 else { continue }
                blocks.removeAll(keepingCapacity: true)
                for index in group {
                    var block = (mean: filled[index], count: 1)
                    while let last = blocks.last, last.mean > block.mean {
                        blocks.removeLast()
                        let count = last.count + block.count
                        block = ((last.mean * Double(last.count) + block.mean * Double(block.count)) / Double(count), count)
                    }
                    blocks.append(block)
                }
                var position = 0
                for block in blocks {
                    for _ in 0..<block.count {
                        filled[group[position]] = block.mean
                        position += 1
                    }
                }
            }
        }
        let order = units.indices.sorted { filled[$0] != filled[$1] ? filled[$0] < filled[$1] : $0 < $1 }
        return order.map { units[$0] }
    }

    /// Reorders a layer minimally so every sibling-order constraint holds: a topological sort that
    /// always takes the earliest unit whose elder siblings' units are placed. A cycle of constraints
    /// (two sibling groups intermarried both ways) is broken by taking the earliest waiting unit.
    mutating func enforceConstraints(layer: Int) {
        let units = layers[layer]
        guard units.count > 1 else { return }
        // Constraints only join units of one layer, so positions in this layer index everything.
        for (position, unit) in units.enumerated() { rankInLayer[unit] = position }
        var waiting = Array(repeating: 0, count: units.count)
        var violated = false
        for (position, unit) in units.enumerated() {
            for entry in mustPrecede.range(unit) {
                let later = rankInLayer[mustPrecede.items[entry]]
                waiting[later] += 1
                if later < position { violated = true }
            }
        }
        // An order that keeps every constraint is its own earliest-first topological order.
        guard violated else { return }
        var ready = MinHeap<Int>()
        for position in units.indices where waiting[position] == 0 { ready.insert(position) }
        var placed = Array(repeating: false, count: units.count)
        var result: [Int] = []
        result.reserveCapacity(units.count)
        var scan = 0
        while result.count < units.count {
            let position: Int
            if let next = ready.popMin() {
                position = next
            } else {
                while placed[scan] { scan += 1 }
                position = scan
            }
            guard !placed[position] else { continue }
            placed[position] = true
            let unit = units[position]
            result.append(unit)
            for entry in mustPrecede.range(unit) {
                let laterRank = rankInLayer[mustPrecede.items[entry]]
                guard !placed[laterRank] else { continue }
                waiting[laterRank] -= 1
                if waiting[laterRank] == 0 { ready.insert(laterRank) }
            }
        }
        layers[layer] = result
    }

    /// The unions whose two partners stand in one layer but in two units: couples drawn apart (a
    /// couple married twice, both marriages), and partnerships unfused by the ranking that still
    /// share a layer. Derived from the units, so no list can fall out of step with them.
    func unionsApart() -> [Int] {
        (0..<compact.unionCount).filter { union in
            let (first, second) = (compact.firstPartner[union], compact.secondPartner[union])
            return second >= 0 && unitOfMember[first] != unitOfMember[second]
                && nodeLayers.layerOfNode[first] == nodeLayers.layerOfNode[second]
        }
    }

    /// How far apart the couples drawn apart stand, summed: for each, the steps from one partner to
    /// the other in their layer (2 with one person or line between).
    func spanOfCouplesApart() -> Int {
        couplesDrawnApart.reduce(0) { sum, union in sum + abs(slot[compact.firstPartner[union]] - slot[compact.secondPartner[union]]) }
    }

    /// Lines crossed by the marriage lines of couples drawn apart: each runs along the union row
    /// under the boxes between the partners, across every line leaving a union point there and
    /// every long line passing that layer. Crossings between layers do not count these.
    func marriageLineCrossings() -> Int {
        var crossed = 0
        for union in unionsApart() {
            let (first, second) = (compact.firstPartner[union], compact.secondPartner[union])
            let layer = nodeLayers.layerOfNode[first]
            let (low, high) = (min(slot[first], slot[second]), max(slot[first], slot[second]))
            var counted: Set<Int> = []
            for unit in layers[layer] {
                for index in unitRange(unit) {
                    let member = unitMemberList[index]
                    guard slot[member] > low, slot[member] < high else { continue }
                    if member >= graph.members.count { crossed += 1; continue }
                    for entry in compact.unionsOfMember.range(member) {
                        let other = compact.unionsOfMember.items[entry]
                        let position = doubledUnionPosition(other, slot: slot)
                        if !compact.children.range(other).isEmpty, position > 2 * low, position < 2 * high, counted.insert(other).inserted { crossed += 1 }
                    }
                }
            }
        }
        return crossed
    }

    /// Crossings between adjacent layers of the lines union -> child and new parent -> child, with a
    /// union at the mean of its partners (positions doubled to stay whole numbers).
    func countCrossings() -> Int { countCrossings(slot: slot) }

    /// Crossings of a candidate order of every layer.
    func crossings(of candidate: [[Int]]) -> Int {
        var candidateSlot = Array(repeating: 0, count: slot.count)
        for layer in candidate {
            var position = 0
            for unit in layer {
                for index in unitRange(unit) {
                    candidateSlot[unitMemberList[index]] = position
                    position += 1
                }
            }
        }
        return countCrossings(slot: candidateSlot)
    }

    private func countCrossings(slot: [Int]) -> Int {
        let layerOf = nodeLayers.layerOfNode
        // Each line as one number (its layer, then its upper end, then its lower end), so that a
        // plain integer sort groups the lines by layer in the order the counter needs: this runs
        // for every order the search tries.
        let bits = Int.bitWidth - (2 * (layerSizes.max() ?? 0) + 1).leadingZeroBitCount
        var keys: [Int] = []
        keys.reserveCapacity(slot.count)
        for union in 0..<compact.unionCount {
            let second = compact.secondPartner[union]
            let layer = max(layerOf[compact.firstPartner[union]], second >= 0 ? layerOf[second] : 0)
            let upper = doubledUnionPosition(union, slot: slot)
            for entry in compact.children.range(union) {
                let child = compact.children.items[entry]
                if layerOf[child] == layer + 1 { keys.append(layer << (2 * bits) | upper << bits | slot[child]) }
            }
        }
        for member in 0..<slot.count {
            for entry in compact.crossChildren.range(member) {
                let child = compact.crossChildren.items[entry]
                if layerOf[child] == layerOf[member] + 1 { keys.append(layerOf[member] << (2 * bits) | (2 * slot[member]) << bits | slot[child]) }
            }
        }
        keys.sort()
        return CrossingCounter.crossings(sortedKeys: keys, bits: bits)
    }
}

extension Arrangement.Units {
    /// For each unit, the units that must stand to its right: a younger sibling's unit right of
    /// an elder's, where both stand in one layer (rows built by counting, no list per unit).
    static func siblingOrder(compact: CompactGraph, unitOfMember: [Int], unitLayer: [Int]) -> CompactGraph.Rows {
        var pairs: [(first: Int, second: Int)] = []
        for union in 0..<compact.unionCount {
            let range = compact.children.range(union)
            for index in range.dropLast() {
                let (first, second) = (unitOfMember[compact.children.items[index]], unitOfMember[compact.children.items[index + 1]])
                if first != second, unitLayer[first] == unitLayer[second] { pairs.append((first, second)) }
            }
        }
        var start = Array(repeating: 0, count: unitLayer.count + 1)
        for pair in pairs { start[pair.first + 1] += 1 }
        for unit in 0..<unitLayer.count { start[unit + 1] += start[unit] }
        var next = start
        var items = Array(repeating: 0, count: pairs.count)
        for pair in pairs {
            items[next[pair.first]] = pair.second
            next[pair.first] += 1
        }
        return CompactGraph.Rows(start: start, items: items)
    }
}
