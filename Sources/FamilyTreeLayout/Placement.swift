import FamilyTree

/// Positions along each layer (x when top-down), found by alternately pulling children under their
/// union points and union points over their children, each layer solved exactly by isotonic
/// regression so that units keep their order and spacing and move as little as they can.
struct Placement {
    let graph: FamilyGraph
    let arrangement: Arrangement
    let options: LayeredLayout.Options
    /// Box extent along the layer and across it, per member.
    let alongSize: [Double]
    let acrossSize: [Double]
    /// Offset of each member from its unit's left edge.
    private(set) var offsetInUnit: [Double]
    private(set) var unitWidth: [Double]
    private(set) var unitStart: [Double]

    init(graph: FamilyGraph, arrangement: Arrangement, sizes: [Size], options: LayeredLayout.Options) {
        self.graph = graph
        self.arrangement = arrangement
        self.options = options
        let topDown = options.direction == .topDown
        alongSize = sizes.map { topDown ? $0.width : $0.height }
        acrossSize = sizes.map { topDown ? $0.height : $0.width }
        offsetInUnit = Array(repeating: 0, count: sizes.count)
        unitWidth = Array(repeating: 0, count: arrangement.unitMembers.count)
        unitStart = Array(repeating: 0, count: arrangement.unitMembers.count)
        for (unit, members) in arrangement.unitMembers.enumerated() {
            var offset = 0.0
            for member in members {
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

    func start(of member: Int) -> Double { unitStart[arrangement.unitOfMember[member]] + offsetInUnit[member] }
    func centre(of member: Int) -> Double { start(of: member) + alongSize[member] / 2 }

    /// Whether the union's two partners stand next to each other in one unit.
    func partnersAreAdjacent(_ union: Int) -> Bool {
        let partners = graph.topology.partners[union]
        guard partners.count == 2 else { return false }
        let (first, second) = (partners[0], partners[1])
        return arrangement.unitOfMember[first] == arrangement.unitOfMember[second] && abs(arrangement.slot[first] - arrangement.slot[second]) == 1
    }

    /// Where along the layer a union's lines meet.
    func unionAlong(_ union: Int) -> Double {
        let partners = graph.topology.partners[union]
        if partners.count == 1 { return centre(of: partners[0]) }
        if partnersAreAdjacent(union) {
            let (left, right) = start(of: partners[0]) < start(of: partners[1]) ? (partners[0], partners[1]) : (partners[1], partners[0])
            return (start(of: left) + alongSize[left] + start(of: right)) / 2
        }
        return (centre(of: partners[0]) + centre(of: partners[1])) / 2
    }

    /// The midpoint of the children a union has in `layer` (all its drawn children when `layer` is nil).
    private func childrenMidpoint(_ union: Int, inLayer layer: Int?) -> Double? {
        var low = Double.infinity
        var high = -Double.infinity
        for child in graph.topology.children[union] where graph.topology.primaryParentUnion[child] == union {
            if let layer, arrangement.layering.layerOfMember[child] != layer { continue }
            low = min(low, centre(of: child))
            high = max(high, centre(of: child))
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
        var shift: [Int: (sum: Double, count: Int)] = [:]
        var seenUnions = Set<Int>()
        for unit in arrangement.layers[layer] {
            for member in arrangement.unitMembers[unit] {
                let union = graph.topology.primaryParentUnion[member]
                guard union >= 0, seenUnions.insert(union).inserted, let middle = childrenMidpoint(union, inLayer: layer) else { continue }
                let wanted = unionAlong(union) - middle
                for child in graph.topology.children[union] where graph.topology.primaryParentUnion[child] == union && arrangement.layering.layerOfMember[child] == layer {
                    let childUnit = arrangement.unitOfMember[child]
                    shift[childUnit, default: (0, 0)].sum += wanted
                    shift[childUnit, default: (0, 0)].count += 1
                }
            }
        }
        settle(layer: layer, shift: shift)
    }

    /// Moves each unit of `layer` toward where its union points would be centred over their children.
    private mutating func alignOverChildren(layer: Int) {
        var shift: [Int: (sum: Double, count: Int)] = [:]
        for unit in arrangement.layers[layer] {
            for member in arrangement.unitMembers[unit] {
                for union in graph.topology.unionsOfMember[member] where graph.topology.partners[union][0] == member || !arrangement.unitMembers[unit].contains(graph.topology.partners[union][0]) {
                    guard let middle = childrenMidpoint(union, inLayer: nil) else { continue }
                    shift[unit, default: (0, 0)].sum += middle - unionAlong(union)
                    shift[unit, default: (0, 0)].count += 1
                }
            }
        }
        settle(layer: layer, shift: shift)
    }

    /// Places the units of a layer as close as possible to their wished positions, in order and spaced.
    private mutating func settle(layer: Int, shift: [Int: (sum: Double, count: Int)]) {
        let units = arrangement.layers[layer]
        guard !units.isEmpty else { return }
        // Isotonic regression (pool adjacent violators) on wish minus the packed offset.
        var blocks: [(mean: Double, weight: Double, count: Int)] = []
        var packedOffset = 0.0
        var offsets: [Double] = []
        offsets.reserveCapacity(units.count)
        for unit in units {
            let wish = unitStart[unit] + (shift[unit].map { $0.sum / Double($0.count) } ?? 0)
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
