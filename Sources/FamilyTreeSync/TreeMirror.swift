import FamilyTree

/// A tree.json as documents, and back: each member, union and cross-bloodline connection is one
/// document whose body is its JSON object with sorted keys. Fields familytree does not know travel too.
public enum TreeMirror {
    /// The documents of a tree file's root object.
    public static func documents(of root: JSONValue) throws(SyncError) -> [DocumentKey: String] {
        var documents: [DocumentKey: String] = [:]
        for (field, collection) in fields {
            for (position, record) in (root[field]?.arrayValue ?? []).enumerated() {
                guard case .object = record, let id = identifier(of: record) else {
                    throw .invalidDocument(nil, "\(field)[\(position)] is no record with an id, so it cannot be a document")
                }
                let key = DocumentKey(collection, id)
                guard documents[key] == nil else { throw .invalidDocument(key, "\(field)[\(position)] repeats the id \"\(id)\"") }
                documents[key] = JSONWriter.compactString(from: record)
            }
        }
        return documents
    }

    private static let fields: [(String, SyncCollection)] = [
        (TreeRecordList.members.rawValue, .familyTree), (TreeRecordList.unions.rawValue, .unions),
        (TreeRecordList.crossBloodlineConnections.rawValue, .crossBloodlineConnections),
    ]

    private static func identifier(of record: JSONValue) -> String? {
        switch record["id"] {
        case .string(let id)? where !id.isEmpty: id
        case .number(let literal)?: literal
        default: nil
        }
    }

    /// Checks that `body` is a record of `key`: valid JSON, an object, whose id is the key's.
    /// Returns the record.
    @discardableResult
    public static func record(_ body: String, of key: DocumentKey) throws(SyncError) -> JSONValue {
        let record: JSONValue
        do {
            record = try JSONParser.parse(body).root
        } catch {
            throw .invalidDocument(key, "holds no valid JSON (\(error))")
        }
        guard case .object = record else { throw .invalidDocument(key, "holds \(record.kindDescription), not a record") }
        guard identifier(of: record) == key.id else {
            throw .invalidDocument(key, "its \"id\" is \(record["id"].map(JSONWriter.compactString) ?? "missing"), not \"\(key.id)\"")
        }
        return record
    }

    /// The tree file for a set of documents: records in id order, so the same documents always
    /// give the same file. Every document must be a JSON object whose id is its key's.
    public static func tree(from documents: [DocumentKey: String]) throws(SyncError) -> JSONValue {
        var lists: [SyncCollection: [JSONValue]] = [:]
        for key in documents.keys.sorted() {
            lists[key.collection, default: []].append(try record(documents[key]!, of: key))
        }
        return .object(Dictionary(uniqueKeysWithValues: fields.map { field, collection in (field, .array(lists[collection] ?? [])) }))
    }
}
