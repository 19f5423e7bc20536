/// Checks a `TreeDocument` and builds the topology, collecting every problem instead of stopping.
struct GraphValidator {
    let document: TreeDocument
    private(set) var problems: [TreeProblem]

    init(document: TreeDocument) {
        self.document = document
        self.problems = document.problems
    }

    struct Result {
        var unions: [Union]
        var topology: Topology
        var indexByID: [Member.ID: Int]
    }

    mutating func run() -> Result {
        let members = document.members
        var indexByID: [Member.ID: Int] = [:]
        indexByID.reserveCapacity(members.count)
        // By index: a `Member` is large, and copying each one costs more than the lookup.
        for position in members.indices {
            let id = members[position].id
            if let first = indexByID.updateValue(position, forKey: id) {
                indexByID[id] = first
                problems.append(TreeProblem(.duplicateID, "duplicate member id \"\(id)\" (first used at \(document.location(ofMember: first)))", ids: [id], at: document.location(ofMember: position)))
            }
        }
        func describe(_ index: Int) -> String { "\(members[index].fullName.isEmpty ? "(no name)" : members[index].fullName) (\(members[index].id))" }

        // A repeated union id is found in file order; each union is then resolved on its own (on
        // every core for a large tree), and the results joined in file order.
        var unionIDs: [Union.ID: Int] = [:]
        unionIDs.reserveCapacity(document.unions.count)
        var firstWithID = Array(repeating: -1, count: document.unions.count)
        for position in document.unions.indices {
            let id = document.unions[position].id
            if let first = unionIDs.updateValue(position, forKey: id) {
                unionIDs[id] = first
                firstWithID[position] = first
            }
        }
        let resolved = Parallel.mapInChunks(document.unions.indices, chunkSize: 4_096) { [self, indexByID, firstWithID] position in
            resolveUnion(at: position, firstWithID: firstWithID[position], indexByID: indexByID)
        }
        var unions: [Union] = []
        var partners: [[Int]] = []
        var children: [[Int]] = []
        var childKinds: [[ChildKind]] = []
        unions.reserveCapacity(resolved.count)
        partners.reserveCapacity(resolved.count)
        children.reserveCapacity(resolved.count)
        childKinds.reserveCapacity(resolved.count)
        for result in resolved {
            problems += result.problems
            guard let union = result.union else { continue }
            unions.append(union)
            partners.append(result.partners)
            children.append(result.children)
            childKinds.append(result.childKinds)
        }

        var unionsOfMember = Array(repeating: [Int](), count: members.count)
        var parentUnions = Array(repeating: [Int](), count: members.count)
        var primaryParentUnion = Array(repeating: -1, count: members.count)
        for (union, partnerIndices) in partners.enumerated() {
            for partner in partnerIndices { unionsOfMember[partner].append(union) }
        }
        for (union, childIndices) in children.enumerated() {
            for (slot, child) in childIndices.enumerated() {
                parentUnions[child].append(union)
                let isBirth = childKinds[union][slot] == .birth
                if primaryParentUnion[child] == -1 || (isBirth && childKinds[primaryParentUnion[child]][children[primaryParentUnion[child]].firstIndex(of: child)!] != .birth) {
                    primaryParentUnion[child] = union
                }
            }
        }
        for member in unionsOfMember.indices where unionsOfMember[member].count > 1 {
            unionsOfMember[member] = SiblingOrder.sorted(unionsOfMember[member]) { unions[$0].marriage }
        }

        // More than two birth parents.
        for member in members.indices where parentUnions[member].count > 1 {
            var birthParents: [Int] = []
            for union in parentUnions[member] {
                let slot = children[union].firstIndex(of: member)!
                guard childKinds[union][slot] == .birth else { continue }
                for partner in partners[union] where !birthParents.contains(partner) { birthParents.append(partner) }
            }
            if birthParents.count > 2 {
                problems.append(TreeProblem(.tooManyBirthParents, "\(describe(member)) has \(birthParents.count) birth parents: \(birthParents.map(describe).joined(separator: ", ")); mark the others adopted, step or foster", ids: [members[member].id] + birthParents.map { members[$0].id }, at: document.location(ofMember: member)))
            }
        }

        // Cross-bloodline connections.
        var crossLinks: [Topology.CrossLink] = []
        var seenLinks: Set<Topology.CrossLink> = []
        for (position, connection) in document.crossBloodlineConnections.enumerated() {
            let location = document.location(ofConnection: position)
            let child = indexByID[connection.fromChild]
            let parent = indexByID[connection.toNewParent]
            if child == nil {
                problems.append(TreeProblem(.unknownReference, "unknown member id \"\(connection.fromChild)\" in fromChild of connection \"\(connection.id)\"", ids: [connection.fromChild, connection.id], at: location.appending("fromChild")))
            }
            if parent == nil {
                problems.append(TreeProblem(.unknownReference, "unknown member id \"\(connection.toNewParent)\" in toNewParent of connection \"\(connection.id)\"", ids: [connection.toNewParent, connection.id], at: location.appending("toNewParent")))
            }
            guard let child, let parent else { continue }
            let link = Topology.CrossLink(child: child, parent: parent)
            if parentUnions[child].contains(where: { partners[$0].contains(parent) }) || child == parent {
                problems.append(TreeProblem(.repeatedParent, "connection \"\(connection.id)\" makes \(describe(parent)) a parent of \(describe(child)), who is already their \(child == parent ? "own self" : "child")", ids: [connection.id, connection.fromChild, connection.toNewParent], at: location))
            } else if !seenLinks.insert(link).inserted {
                problems.append(TreeProblem(.repeatedParent, "connection \"\(connection.id)\" repeats an earlier connection from \(describe(child)) to \(describe(parent))", ids: [connection.id, connection.fromChild, connection.toNewParent], at: location))
            } else {
                crossLinks.append(link)
            }
        }

        let topology = Topology(
            partners: partners, children: children, unionsOfMember: unionsOfMember, parentUnions: parentUnions,
            primaryParentUnion: primaryParentUnion, crossLinks: crossLinks
        )
        for cycle in AncestryCycles.find(in: topology, memberCount: members.count) {
            let path = (cycle + [cycle[0]]).map(describe).joined(separator: " → ")
            problems.append(TreeProblem(.ancestryCycle, "a person cannot be their own ancestor: \(path)", ids: cycle.map { members[$0].id }, at: document.location(ofMember: cycle[0])))
        }
        return Result(unions: unions, topology: topology, indexByID: indexByID)
    }
    /// One union checked against the members: its partners' and children's indices (children in
    /// sibling order, with their kinds), or `nil` for a union left out, and its problems.
    private struct ResolvedUnion: Sendable {
        var union: Union?
        var partners: [Int] = []
        var children: [Int] = []
        var childKinds: [ChildKind] = []
        var problems: [TreeProblem] = []
    }

    private func resolveUnion(at position: Int, firstWithID: Int, indexByID: [Member.ID: Int]) -> ResolvedUnion {
        let members = document.members
        let union = document.unions[position]
        var result = ResolvedUnion(union: nil)
        func describe(_ index: Int) -> String { "\(members[index].fullName.isEmpty ? "(no name)" : members[index].fullName) (\(members[index].id))" }
        // Made only for a problem: most unions have none.
        var location: TreeLocation { document.location(ofUnion: position) }
        if firstWithID >= 0 {
            result.problems.append(TreeProblem(.duplicateID, "duplicate union id \"\(union.id)\" (first used at \(document.location(ofUnion: firstWithID)))", ids: [union.id], at: location))
            return result
        }
        var partnerIndices: [Int] = []
        for (slot, partner) in union.partners.enumerated() {
            guard let index = indexByID[partner] else {
                result.problems.append(TreeProblem(.unknownReference, "unknown member id \"\(partner)\" as a partner of union \"\(union.id)\"", ids: [partner, union.id], at: location.appending("partners[\(slot)]")))
                continue
            }
            partnerIndices.append(index)
        }
        if union.partners.isEmpty {
            result.problems.append(TreeProblem(.invalidField, "union \"\(union.id)\" has no partners", ids: [union.id], at: location))
            return result
        }
        if partnerIndices.count == 2, partnerIndices[0] == partnerIndices[1] {
            result.problems.append(TreeProblem(.selfMarriage, "\(describe(partnerIndices[0])) is married to themselves", ids: [members[partnerIndices[0]].id], at: location))
            partnerIndices.removeLast()
        }
        if union.partners.count > 2 {
            result.problems.append(TreeProblem(.tooManyPartners, "union \"\(union.id)\" has \(union.partners.count) partners; a union is a couple or a single parent", ids: [union.id] + union.partners, at: location))
            partnerIndices = Array(partnerIndices.prefix(2))
        }
        var childIndices: [Int] = []
        var kinds: [ChildKind] = []
        var links: [ChildLink] = []
        // A child listed twice counts once: a few are compared in turn, a large family's by a set
        // (30,000 children compared each with all before took seconds).
        var listed = Set<Int>()
        let usesSet = union.children.count > 32
        for (slot, link) in union.children.enumerated() {
            guard let index = indexByID[link.member] else {
                result.problems.append(TreeProblem(.unknownReference, "unknown member id \"\(link.member)\" as a child of union \"\(union.id)\"", ids: [link.member, union.id], at: location.appending("children[\(slot)]")))
                continue
            }
            guard usesSet ? listed.insert(index).inserted : !childIndices.contains(index) else { continue }
            childIndices.append(index)
            kinds.append(link.kind)
            links.append(link)
        }
        var sortedUnion = union
        result.partners = partnerIndices
        if childIndices.count > 1 {
            // Children in sibling order, kept together with their kinds.
            let order = SiblingOrder.sorted(Array(childIndices.indices)) { members[childIndices[$0]].siblingOrderDate }
            sortedUnion.children = order.map { links[$0] }
            result.children = order.map { childIndices[$0] }
            result.childKinds = order.map { kinds[$0] }
        } else {
            sortedUnion.children = links
            result.children = childIndices
            result.childKinds = kinds
        }
        result.union = sortedUnion
        return result
    }
}
