import FamilyTree

/// A tree.json as documents, and back: each member, union and cross-bloodline connection is one
/// document whose body is its JSON object with sorted keys. Fields familytree does not know travel too.
public enum TreeMirror {
    /// The documents of a tree file's root object.
    public static func documents(of root: JSONValue) throws(SyncError) -> [DocumentKey: String] {
        try records(of: root).mapValues { JSONWriter.compactString(from: $0) }
    }

    /// The records of a tree file's root object by the document each is, checked as
    /// `documents(of:)` checks them, but not written as text: comparing two trees' records finds
    /// the documents an edit changed without writing every record of a large tree out.
    public static func records(of root: JSONValue) throws(SyncError) -> [DocumentKey: JSONValue] {
        var records: [DocumentKey: JSONValue] = [:]
        for (field, collection) in fields {
            let list = root[field]?.arrayValue ?? []
            records.reserveCapacity(records.count + list.count)
            for (position, record) in list.enumerated() {
                guard case .object = record, let id = identifier(of: record) else {
                    throw .invalidDocument(nil, "\(field)[\(position)] is no record with an id, so it cannot be a document")
                }
                let key = DocumentKey(collection, id)
                guard records.updateValue(record, forKey: key) == nil else { throw .invalidDocument(key, "\(field)[\(position)] repeats the id \"\(id)\"") }
            }
        }
        return records
    }

    /// `root` with each list's records in the order `tree(from:)` gives them (by id), so a tree
    /// changed by edits (which add records at the end) reads as the store's documents would.
    /// `nil` when they are in that order already.
    public static func inDocumentOrder(_ root: JSONValue) -> JSONValue? {
        guard case .object(var object) = root else { return nil }
        var changed = false
        for (field, _) in fields {
            guard let records = object[field]?.arrayValue else { continue }
            let ids = records.map { identifier(of: $0) ?? "" }
            guard zip(ids, ids.dropFirst()).contains(where: { !($0 < $1) }) else { continue }
            let order = records.indices.sorted { ids[$0] < ids[$1] }
            object[field] = .array(order.map { records[$0] })
            changed = true
        }
        return changed ? .object(object) : nil
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
        let keys = documents.keys.sorted()
        // Parsed on every core (a large tree is 100,000 documents); the first error in key order is thrown.
        let parsed = Parallel.mapInChunks(keys.indices, chunkSize: 2_048) { index in
            Result { () throws(SyncError) in try record(documents[keys[index]]!, of: keys[index]) }
        }
        var lists: [SyncCollection: [JSONValue]] = [:]
        for (key, record) in zip(keys, parsed) {
            lists[key.collection, default: []].append(try record.get())
        }
        return .object(Dictionary(uniqueKeysWithValues: fields.map { field, collection in (field, .array(lists[collection] ?? [])) }))
    }
}
