/// Edits of a tree file that keep everything else in it as it was.
public enum TreeEditing {
    /// `root` with `connection` appended to its `crossBloodlineConnections` array (created if absent).
    ///
    /// Works on the raw JSON so that fields familytree does not know survive the edit.
    public static func adding(_ connection: CrossBloodlineConnection, to root: JSONValue) throws(FamilyTreeError) -> JSONValue {
        guard case .object(var fields) = root else {
            throw .invalidTree(file: nil, [TreeProblem(.invalidField, "a tree file must be a JSON object", at: TreeLocation(path: "$"))])
        }
        var list: [JSONValue] = []
        switch fields["crossBloodlineConnections"] {
        case .array(let existing)?: list = existing
        case nil, .null?: break
        case let other?:
            throw .invalidTree(file: nil, [TreeProblem(.invalidField, "expected an array, found \(other.kindDescription)", at: TreeLocation(path: "crossBloodlineConnections"))])
        }
        list.append(.object(["id": .string(connection.id), "fromChild": .string(connection.fromChild), "toNewParent": .string(connection.toNewParent)]))
        fields["crossBloodlineConnections"] = .array(list)
        return .object(fields)
    }
}
