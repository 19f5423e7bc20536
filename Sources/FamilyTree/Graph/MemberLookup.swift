/// How a member reference given on the command line resolved.
public enum MemberLookup: Sendable, Hashable {
    case found(Int)
    case notFound
    /// Several members match; their indices in file order.
    case ambiguous([Int])
}

extension FamilyGraph {
    /// Finds a member by id, else by full name, "first last", or nickname (case-insensitive).
    public func lookUp(_ reference: String) -> MemberLookup {
        if let index = index(of: reference) { return .found(index) }
        let wanted = reference.lowercased()
        let matches = members.indices.filter { index in
            let member = members[index]
            let firstLast = [member.firstName, member.lastName ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
            return member.fullName.lowercased() == wanted || firstLast.lowercased() == wanted || member.nickname?.lowercased() == wanted
        }
        switch matches.count {
        case 0: return .notFound
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    /// Members whose names contain `fragment`, to suggest when a lookup fails.
    public func candidates(for fragment: String, limit: Int = 10) -> [Int] {
        let wanted = fragment.lowercased()
        let words = wanted.split(separator: " ")
        return Array(members.indices.filter { index in
            let name = (members[index].fullName + " " + (members[index].nickname ?? "")).lowercased()
            return words.contains { name.contains($0) }
        }.prefix(limit))
    }
}
