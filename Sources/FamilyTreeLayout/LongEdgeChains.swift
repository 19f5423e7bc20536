import FamilyTree

/// The ordering graph: the family graph with every line from a union to a child that skips layers
/// replaced by a chain of placeholders, one per layer it passes, so crossing reduction sees (and
/// untangles) long lines too. Such lines come from a child who married into a later generation.
/// Cross-bloodline lines are left as they are: chained, they pulled children toward far families and
/// cost more crossings than they saved (measured on generated trees).
///
/// A placeholder is an extra member index (from the real member count up), alone in its unit, with
/// the layer it stands in. It is linked to the next one down by a single-parent union of its own, so
/// the whole crossing machinery (barycenters, transposition, counting, sibling order) treats chains
/// like any family line. The first placeholder of a child's line takes the child's place among its
/// siblings, so sibling order holds along the layer the line starts in.
struct LongEdgeChains {
    let compact: CompactGraph
    /// The layer and unit of every node, placeholders included (the ranking's `Layering` has the
    /// real members only).
    let nodeLayers: OrderingLayers
    /// Members below this index are real; the rest are placeholders.
    let realMemberCount: Int
    /// The placeholders of each long line from a union to a child, top down.
    let placeholdersOfLine: [UnionChild: [Int]]

    struct UnionChild: Hashable {
        var union: Int
        var child: Int
    }

    init(compact original: CompactGraph, layering: Layering, memberCount: Int) {
        realMemberCount = memberCount
        let realUnits = (layering.componentOfMember.max() ?? -1) + 1
        let realUnionCount = original.unionCount
        let layerOfReal = layering.layerOfMember
        func unionLayer(_ union: Int) -> Int {
            let second = original.secondPartner[union]
            return max(layerOfReal[original.firstPartner[union]], second >= 0 ? layerOfReal[second] : 0)
        }

        // Placeholders and their unions are numbered after the real ones, line by line, top down:
        // placeholder k of the whole graph is the partner of extra union k.
        func unionOf(placeholder: Int) -> Int { realUnionCount + placeholder - memberCount }
        var layerOf = layerOfReal
        var lines: [UnionChild: [Int]] = [:]
        var childItems = original.children.items
        var primary = original.primaryParentUnion
        for union in 0..<realUnionCount {
            let layer = unionLayer(union)
            for entry in original.children.range(union) where layerOfReal[original.children.items[entry]] > layer + 1 {
                let child = original.children.items[entry]
                let first = layerOf.count
                for placeholderLayer in (layer + 1)..<layerOfReal[child] { layerOf.append(placeholderLayer) }
                lines[UnionChild(union: union, child: child)] = Array(first..<layerOf.count)
                childItems[entry] = first
                // The first placeholder hangs from the real union, each next one from the union of
                // the one above, and the child from the union of the last.
                primary += (first..<layerOf.count).map { $0 == first ? union : unionOf(placeholder: $0 - 1) }
                if primary[child] == union { primary[child] = unionOf(placeholder: layerOf.count - 1) }
            }
        }
        placeholdersOfLine = lines
        let placeholders = layerOf.count - memberCount
        guard placeholders > 0 else {
            compact = original
            nodeLayers = OrderingLayers(layering)
            return
        }

        // The union of placeholder k has one child: the next placeholder of its line, or the line's child.
        var nextOfPlaceholder = Array(repeating: -1, count: placeholders)
        for (line, chain) in lines {
            for (index, placeholder) in chain.enumerated() {
                nextOfPlaceholder[placeholder - memberCount] = index + 1 < chain.count ? chain[index + 1] : line.child
            }
        }
        var parentItems: [Int] = []
        var parentStart = [0]
        parentItems.reserveCapacity(original.parentUnions.items.count + placeholders)
        parentStart.reserveCapacity(layerOf.count + 1)
        for member in 0..<memberCount {
            for entry in original.parentUnions.range(member) {
                let union = original.parentUnions.items[entry]
                let line = lines[UnionChild(union: union, child: member)]
                parentItems.append(line.map { unionOf(placeholder: $0.last!) } ?? union)
            }
            parentStart.append(parentItems.count)
        }
        for placeholder in memberCount..<layerOf.count {
            parentItems.append(primary[placeholder])
            parentStart.append(parentItems.count)
        }
        let extraUnions = Array(memberCount..<layerOf.count)
        compact = CompactGraph(
            firstPartner: original.firstPartner + extraUnions,
            secondPartner: original.secondPartner + Array(repeating: -1, count: placeholders),
            children: CompactGraph.Rows(
                start: original.children.start + (1...placeholders).map { original.children.items.count + $0 },
                items: childItems + nextOfPlaceholder
            ),
            unionsOfMember: CompactGraph.Rows(
                start: original.unionsOfMember.start + (1...placeholders).map { original.unionsOfMember.items.count + $0 },
                items: original.unionsOfMember.items + (memberCount..<layerOf.count).map(unionOf(placeholder:))
            ),
            parentUnions: CompactGraph.Rows(start: parentStart, items: parentItems),
            primaryParentUnion: primary,
            crossParents: original.crossParents.padded(to: layerOf.count), crossChildren: original.crossChildren.padded(to: layerOf.count)
        )
        nodeLayers = OrderingLayers(
            layerOfNode: layerOf,
            unitOfNode: layering.componentOfMember + (0..<placeholders).map { realUnits + $0 },
            layerCount: layering.layerCount
        )
    }

    var placeholderCount: Int { nodeLayers.nodeCount - realMemberCount }
}

/// The layer and family unit of every node crossing reduction orders: the members (indices below
/// the member count), then the placeholders of long lines, each alone in a unit of its own.
struct OrderingLayers {
    /// The layer of each node.
    let layerOfNode: [Int]
    /// The unit of each node: a member's family component, or a placeholder's own.
    let unitOfNode: [Int]
    let layerCount: Int

    init(layerOfNode: [Int], unitOfNode: [Int], layerCount: Int) {
        self.layerOfNode = layerOfNode
        self.unitOfNode = unitOfNode
        self.layerCount = layerCount
    }

    /// The members' layers and components, with no placeholders.
    init(_ layering: Layering) {
        self.init(layerOfNode: layering.layerOfMember, unitOfNode: layering.componentOfMember, layerCount: layering.layerCount)
    }

    var nodeCount: Int { layerOfNode.count }
}
