/// How a member reference given on the command line resolved.
package enum MemberLookup: Sendable, Hashable {
    case found(Int)
    case notFound
    /// Several members match; their indices in file order.
    case ambiguous([Int])
}

extension FamilyGraph {
    /// Finds a member by id, else by name as `NameIndex` reads it (full name or first and last,
    /// then nickname, then a first name only one member has; case and accents do not matter),
    /// else by id in any case. Several matches in the first tier that has any are ambiguous.
    package func lookUp(_ reference: String) -> MemberLookup {
        if let index = index(of: reference) { return .found(index) }
        var matches = NameIndex(members).matches(for: reference)
        if matches.isEmpty {
            let wanted = reference.lowercased()
            matches = members.indices.filter { members[$0].id.lowercased() == wanted }
        }
        switch matches.count {
        case 0: return .notFound
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    /// Members whose names contain `fragment`, to suggest when a lookup fails.
    public func candidates(for fragment: String, limit: Int = 10) -> [Int] {
        let wanted = NameKey.normalized(fragment)
        let words = wanted.split(separator: " ")
        return Array(members.indices.filter { index in
            let name = NameKey.normalized(members[index].fullName + " " + (members[index].nickname ?? ""))
            return words.contains { name.contains($0) }
        }.prefix(limit))
    }
}
