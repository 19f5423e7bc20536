import FamilyTree

/// Birth order between siblings drawn in different layers.
///
/// The order of each layer keeps siblings of one layer in birth order; a sibling whose marriage
/// put them a generation lower (or higher) is outside that rule, and could stand left of an elder
/// brother. The exact placement charges every point by which a younger sibling's centre is not
/// right of an elder's: a soft rule, so a sibling is moved where that is cheap and never at the
/// price of pulling a whole branch across the chart.
extension Placement {
    /// An elder sibling and the next younger one in another layer.
    struct SiblingPair {
        var elder: Int
        var younger: Int
    }

    /// Consecutive dated siblings (in sibling order) that stand in different layers.
    func siblingPairsAcrossLayers() -> [SiblingPair] {
        let graph = arrangement.graph
        let layerOf = arrangement.nodeLayers.layerOfNode
        var pairs: [SiblingPair] = []
        for children in graph.topology.children where children.count > 1 {
            var previous: Int?
            for child in children where graph.members[child].siblingOrderDate?.sortKey != nil {
                if let elder = previous, layerOf[elder] != layerOf[child], arrangement.unitOfMember[elder] != arrangement.unitOfMember[child] {
                    pairs.append(SiblingPair(elder: elder, younger: child))
                }
                previous = child
            }
        }
        return pairs
    }
}
