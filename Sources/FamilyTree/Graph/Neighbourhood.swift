extension FamilyGraph {
    /// The part of the tree around one person: ancestors up to `generations` generations up,
    /// descendants up to `generations` down (following cross-bloodline connections too), the
    /// person's brothers and sisters unless `includingSiblings` is false, and the partners of
    /// everyone included.
    public func neighbourhood(ofMemberAt root: Int, generations: Int, includingSiblings: Bool = true) -> FamilyGraph {
        var included = Array(repeating: false, count: members.count)
        included[root] = true
        for lists in [parentLists(), childLists()] {
            for relative in reached(from: root, generations: generations, by: lists) { included[relative] = true }
        }
        // The root's brothers and sisters, half-siblings too (every union of each parent), with their partners.
        if includingSiblings, generations > 0 {
            for parentUnion in topology.parentUnions[root] {
                for parent in topology.partners[parentUnion] {
                    for union in topology.unionsOfMember[parent] {
                        for sibling in topology.children[union] { included[sibling] = true }
                    }
                }
            }
        }
        for member in members.indices where included[member] {
            for partner in partners(ofMemberAt: member) { included[partner] = true }
        }
        return subgraph(keeping: included)
    }

    /// About `count` of the people nearest one person by family ties (parents, children and
    /// partners, cross-bloodline links both ways), with the partners of everyone kept: rings of
    /// people equally many ties away are taken whole, nearest first, while they fit, and the
    /// person's own ring always. What is around someone in the whole chart, for a first picture
    /// of a tree too large to lay out at once.
    public func nearestRelatives(ofMemberAt root: Int, count: Int) -> FamilyGraph {
        let parents = parentLists(), children = childLists()
        var included = Array(repeating: false, count: members.count)
        included[root] = true
        var kept = 1, ring = [root], distance = 0
        while !ring.isEmpty {
            var following: [Int] = []
            for member in ring {
                for relative in parents[member] + children[member] + partners(ofMemberAt: member) where !included[relative] {
                    included[relative] = true
                    following.append(relative)
                }
            }
            distance += 1
            if distance > 1, kept + following.count > count {
                for member in following { included[member] = false }
                break
            }
            kept += following.count
            ring = following
        }
        // Partners of those kept, not partners of partners (whatever order the members come in).
        let withoutPartners = included
        for member in members.indices where withoutPartners[member] {
            for partner in partners(ofMemberAt: member) { included[partner] = true }
        }
        return subgraph(keeping: included)
    }

    /// The graph restricted to the members where `keep` is true; unions lose absent partners and
    /// children, and with `droppingLoneFamilies` a union left with one partner and no child goes.
    public func subgraph(keeping keep: [Bool], droppingLoneFamilies: Bool = false) -> FamilyGraph {
        let keptIDs = Set(members.indices.filter { keep[$0] }.map { members[$0].id })
        var document = TreeDocument(
            members: members.filter { keptIDs.contains($0.id) },
            unions: unions.compactMap { union in
                var kept = union
                kept.partners = union.partners.filter(keptIDs.contains)
                kept.children = union.children.filter { keptIDs.contains($0.member) }
                let isLone = kept.partners.count < 2 && kept.children.isEmpty
                return kept.partners.isEmpty || (droppingLoneFamilies && isLone) ? nil : kept
            },
            crossBloodlineConnections: crossBloodlineConnections.filter { keptIDs.contains($0.fromChild) && keptIDs.contains($0.toNewParent) }
        )
        document.memberLocations = members.indices.filter { keep[$0] }.map(location(ofMemberAt:))
        document.sources = sources
        // A subgraph of a valid graph is valid.
        return try! FamilyGraph(document: document)
    }
}
