/// The arrays of records at the top of a tree.json, by their keys.
public enum TreeRecordList: String, Sendable, Hashable, CaseIterable {
    case members, unions, crossBloodlineConnections
}

extension TreeFile {
    /// The tree without references a merge left pointing at members no longer in it (another
    /// device deleted them): unions lose those partners and children (and go when no partner is
    /// left), connections to them go. Each repair is described, for the user.
    public static func droppingDanglingReferences(_ tree: JSONValue) -> (root: JSONValue, repairs: [String]) {
        guard case .object(var root) = tree else { return (tree, []) }
        let members = Set((root[TreeRecordList.members.rawValue]?.arrayValue ?? []).compactMap(RawTree.id(of:)))
        func reference(_ value: JSONValue) -> String? {
            value.stringValue ?? (value["id"]?.stringValue) ?? (value["member"]?.stringValue)
        }
        var repairs: [String] = []
        var unions: [JSONValue] = []
        for union in root[TreeRecordList.unions.rawValue]?.arrayValue ?? [] {
            guard case .object(var fields) = union else { unions.append(union); continue }
            let id = RawTree.id(of: union) ?? "?"
            var missing: [String] = []
            for field in ["partners", "children"] {
                guard let list = fields[field]?.arrayValue else { continue }
                let kept = list.filter { entry in
                    guard let member = reference(entry), !members.contains(member) else { return true }
                    missing.append(member)
                    return false
                }
                fields[field] = .array(kept)
            }
            guard !missing.isEmpty else { unions.append(union); continue }
            if fields["partners"]?.arrayValue?.isEmpty ?? true {
                repairs.append("union \(id) named only members no longer in the tree (\(missing.joined(separator: ", "))); left out")
            } else {
                repairs.append("union \(id) named members no longer in the tree: \(missing.joined(separator: ", ")); they are left out of it")
                unions.append(.object(fields))
            }
        }
        root[TreeRecordList.unions.rawValue] = .array(unions)
        root[TreeRecordList.crossBloodlineConnections.rawValue] = .array((root[TreeRecordList.crossBloodlineConnections.rawValue]?.arrayValue ?? []).filter { connection in
            let ends = [connection["fromChild"]?.stringValue, connection["toNewParent"]?.stringValue]
            guard ends.contains(where: { $0.map { !members.contains($0) } ?? false }) else { return true }
            repairs.append("cross-bloodline connection \(RawTree.id(of: connection) ?? "?") points at a member no longer in the tree; left out")
            return false
        })
        return (.object(root), repairs)
    }
}
