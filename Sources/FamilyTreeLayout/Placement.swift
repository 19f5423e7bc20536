import FamilyTree

/// The placement stage: its input is an ordering (`Arrangement`) and the nodes' box sizes, its
/// output a position along the layer (x when top-down) for each family unit.
///
/// Positions start packed left, are balanced (`balance`: children pulled under their union points
/// and union points over their children, each layer solved exactly by isotonic regression so units
/// keep their order and spacing and move as little as they can), and are then replaced by the exact
/// shortest-lines solution (`shortenLines`, ShortestLines.swift) where the problem is small enough.
struct Placement {
    let arrangement: Arrangement
    let options: LayeredLayout.Options
    /// Box extent along the layer and across it, per member.
    let alongSize: [Double]
    let acrossSize: [Double]
    /// Offset of each member from its unit's left edge.
    private(set) var offsetInUnit: [Double]
    private(set) var unitWidth: [Double]
    var unitStart: [Double]
    /// Where the union point of a couple drawn apart (partners in two units of one layer) stands,
    /// once the shortest-lines solution has put it between them; the partners' midpoint until then.
    var apartUnionAlong: [Int: Double] = [:]
    /// The unions whose partners stand in one layer but in two units (`Arrangement.unionsApart`).
    let unionsApart: [Int]
    /// Scratch per unit: the sum and count of the shifts it is asked for in the current pass.
    private var shiftSum: [Double]
    private var shiftCount: [Int]

    init(arrangement: Arrangement, sizes: [Size], options: LayeredLayout.Options) {
        self.arrangement = arrangement
        self.options = options
        unionsApart = arrangement.unionsApart()
        let topDown = options.direction == .topDown
        alongSize = sizes.map { topDown ? $0.width : $0.height }
        acrossSize = sizes.map { topDown ? $0.height : $0.width }
        offsetInUnit = Array(repeating: 0, count: sizes.count)
        unitWidth = Array(repeating: 0, count: arrangement.unitCount)
        unitStart = Array(repeating: 0, count: arrangement.unitCount)
        shiftSum = Array(repeating: 0, count: arrangement.unitCount)
        shiftCount = Array(repeating: 0, count: arrangement.unitCount)
        for unit in 0..<arrangement.unitCount {
            var offset = 0.0
            for index in arrangement.unitRange(unit) {
                let member = arrangement.unitMemberList[index]
                offsetInUnit[member] = offset
                offset += alongSize[member] + options.partnerSpacing
            }
            unitWidth[unit] = offset - options.partnerSpacing
        }
        for layer in arrangement.layers {
            var start = 0.0
            for unit in layer {
                unitStart[unit] = start
                start += unitWidth[unit] + options.unitSpacing
            }
        }
    }

    private var compact: CompactGraph { arrangement.compact }
    /// How much more a child drawn below their siblings is pulled under its own line (its
    /// placeholders, which stand among the siblings) than under its spouse's parents: the
    /// child's box then keeps its place in the sibling order more often (kennedy.ged: 95% of
    /// families in birth order instead of 90%).
    private let chainWeight = 3

    @inline(__always) func start(of member: Int) -> Double { unitStart[arrangement.unitOfMember[member]] + offsetInUnit[member] }
    @inline(__always) func centre(of member: Int) -> Double { start(of: member) + alongSize[member] / 2 }

    /// Whether the union's two partners stand next to each other in one unit.
    func partnersAreAdjacent(_ union: Int) -> Bool {
        let (first, second) = (compact.firstPartner[union], compact.secondPartner[union])
        guard second >= 0 else { return false }
        return arrangement.unitOfMember[first] == arrangement.unitOfMember[second] && abs(arrangement.slot[first] - arrangement.slot[second]) == 1
    }

    /// Where along the layer a union's lines meet.
    func unionAlong(_ union: Int) -> Double {
        let (first, second) = (compact.firstPartner[union], compact.secondPartner[union])
        guard second >= 0 else { return centre(of: first) }
        if partnersAreAdjacent(union) {
            let (left, right) = start(of: first) < start(of: second) ? (first, second) : (second, first)
            return (start(of: left) + alongSize[left] + start(of: right)) / 2
        }
        if let along = apartUnionAlong[union] { return along }
        return (centre(of: first) + centre(of: second)) / 2
    }

    /// The midpoint of the children drawn under a union in `layer` (in every layer when `layer` is -1).
    private func childrenMidpoint(_ union: Int, inLayer layer: Int) -> Double? {
        var low = Double.infinity
        var high = -Double.infinity
        for entry in compact.children.range(union) {
            let child = compact.children.items[entry]
            guard compact.primaryParentUnion[child] == union, layer < 0 || arrangement.nodeLayers.layerOfNode[child] == layer else { continue }
            let position = centre(of: child)
            low = min(low, position)
            high = max(high, position)
        }
        return low <= high ? (low + high) / 2 : nil
    }

    mutating func balance(passes: Int) {
        let layerCount = arrangement.layers.count
        for _ in 0..<passes {
            for layer in 1..<max(1, layerCount) { alignUnderParents(layer: layer) }
            for layer in stride(from: layerCount - 2, through: 0, by: -1) { alignOverChildren(layer: layer) }
        }
        if layerCount == 1 { alignOverChildren(layer: 0) }
    }

    /// Moves each unit of `layer` toward where its sibling blocks would be centred under their unions.
    private mutating func alignUnderParents(layer: Int) {
        for unit in arrangement.layers[layer] {
            for index in arrangement.unitRange(unit) {
                let member = arrangement.unitMemberList[index]
                let union = compact.primaryParentUnion[member]
                guard union >= 0 else { continue }
                // Each union is handled once: from its eldest child drawn in this layer.
                var eldest = -1
                for entry in compact.children.range(union) {
                    let child = compact.children.items[entry]
                    if compact.primaryParentUnion[child] == union, arrangement.nodeLayers.layerOfNode[child] == layer { eldest = child; break }
                }
                guard eldest == member, let middle = childrenMidpoint(union, inLayer: layer) else { continue }
                let wanted = unionAlong(union) - middle
                let weight = compact.firstPartner[union] >= arrangement.graph.members.count ? chainWeight : 1
                for entry in compact.children.range(union) {
                    let child = compact.children.items[entry]
                    guard compact.primaryParentUnion[child] == union, arrangement.nodeLayers.layerOfNode[child] == layer else { continue }
                    let childUnit = arrangement.unitOfMember[child]
                    shiftSum[childUnit] += wanted * Double(weight)
                    shiftCount[childUnit] += weight
                }
            }
        }
        settle(layer: layer)
    }

    /// Moves each unit of `layer` toward where its union points would be centred over their children.
    private mutating func alignOverChildren(layer: Int) {
        for unit in arrangement.layers[layer] {
            for index in arrangement.unitRange(unit) {
                let member = arrangement.unitMemberList[index]
                for entry in compact.unionsOfMember.range(member) {
                    let union = compact.unionsOfMember.items[entry]
                    // A union of two partners in this unit counts once, from its first partner.
                    let first = compact.firstPartner[union]
                    guard first == member || arrangement.unitOfMember[first] != unit,
                          let middle = childrenMidpoint(union, inLayer: -1) else { continue }
                    shiftSum[unit] += middle - unionAlong(union)
                    shiftCount[unit] += 1
                }
            }
        }
        settle(layer: layer)
    }

    /// Places the units of a layer as close as possible to their wished positions, in order and
    /// spaced, and clears the wishes.
    private mutating func settle(layer: Int) {
        let units = arrangement.layers[layer]
        guard !units.isEmpty else { return }
        // Isotonic regression (pool adjacent violators) on wish minus the packed offset.
        var blocks: [(mean: Double, weight: Double, count: Int)] = []
        var packedOffset = 0.0
        var offsets: [Double] = []
        offsets.reserveCapacity(units.count)
        for unit in units {
            let wish = unitStart[unit] + (shiftCount[unit] > 0 ? shiftSum[unit] / Double(shiftCount[unit]) : 0)
            shiftSum[unit] = 0
            shiftCount[unit] = 0
            offsets.append(packedOffset)
            var block = (mean: wish - packedOffset, weight: 1.0, count: 1)
            while let last = blocks.last, last.mean > block.mean {
                blocks.removeLast()
                let weight = last.weight + block.weight
                block = ((last.mean * last.weight + block.mean * block.weight) / weight, weight, last.count + block.count)
            }
            blocks.append(block)
            packedOffset += unitWidth[unit] + options.unitSpacing
        }
        var position = 0
        for block in blocks {
            for _ in 0..<block.count {
                unitStart[units[position]] = block.mean + offsets[position]
                position += 1
            }
        }
    }
}
