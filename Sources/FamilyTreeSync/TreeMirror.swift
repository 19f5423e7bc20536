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

    /// The tree file for a set of documents: records in id order, so the same documents always
    /// give the same file. Every document must be a JSON object whose id is its key's.
    public static func tree(from documents: [DocumentKey: String]) throws(SyncError) -> JSONValue {
        var lists: [SyncCollection: [JSONValue]] = [:]
        for key in documents.keys.sorted() {
            let record: JSONValue
            do {
                record = try JSONParser.parse(documents[key]!).root
            } catch {
                throw .invalidDocument(key, "holds no valid JSON (\(error))")
            }
            guard case .object = record else { throw .invalidDocument(key, "holds \(record.kindDescription), not a record") }
            guard identifier(of: record) == key.id else {
                throw .invalidDocument(key, "its \"id\" is \(record["id"].map(JSONWriter.compactString) ?? "missing"), not \"\(key.id)\"")
            }
            lists[key.collection, default: []].append(record)
        }
        return .object(Dictionary(uniqueKeysWithValues: fields.map { field, collection in (field, .array(lists[collection] ?? [])) }))
    }
}

/// A value one side lost to the other in a merge: kept so the user can see and restore it.
public struct MergeConflict: Sendable, Hashable {
    /// The document both sides changed.
    public var key: DocumentKey
    /// The top-level field both sides changed; `nil` for the whole document.
    public var field: String?
    /// This device's value (compact JSON; `nil` when the field was removed here).
    public var localValue: String?
    /// The value the store had, which won.
    public var storeValue: String?
}

extension MergeConflict {
    /// The documents with this conflict's local value put back (the field, or the whole document),
    /// ready to be written to the tree and pushed. The document must still be in `documents`
    /// when only a field is restored.
    public func restoring(into documents: [DocumentKey: String]) throws(SyncError) -> [DocumentKey: String] {
        var documents = documents
        guard let field else {
            documents[key] = localValue
            return documents
        }
        guard let body = documents[key], case .object(var fields)? = try? JSONParser.parse(body).root else {
            throw .invalidDocument(key, "it is not in the tree, so its \(field) cannot be restored")
        }
        do {
            fields[field] = try localValue.map { try JSONParser.parse($0).root }
        } catch {
            throw .invalidDocument(key, "the kept value of \(field) is not JSON")
        }
        documents[key] = JSONWriter.compactString(from: .object(fields))
        return documents
    }
}

/// Three-way merge of one document, field by field against the version both sides started from.
public enum DocumentMerge {
    /// A merged document and what the merge set aside.
    public struct Result: Sendable, Hashable {
        /// The merged body, or `nil` when the document stays deleted.
        public var body: String?
        /// The values that lost, one for each field both sides changed.
        public var conflicts: [MergeConflict]
    }

    /// Merges `local` and `store` (either `nil` for deleted) against `base` (`nil` when this device
    /// never saw the document). On a field both changed, the store wins and the local value is
    /// returned as a conflict. An edit beats a delete; a copy identical to a deleted document's last
    /// body is stale and does not bring it back.
    public static func merge(key: DocumentKey, base: String?, local: String?, store: String?, storeTombstone: String? = nil) -> Result {
        switch (local, store) {
        case (nil, nil):
            return Result(body: nil, conflicts: [])
        case (let local?, nil):
            // Deleted in the store. Only an edit made here (against what this device last saw) survives.
            let edited = base.map { $0 != local } ?? (local != storeTombstone)
            return Result(body: edited ? local : nil, conflicts: [])
        case (nil, let store?):
            // Deleted here; an edit in the store since wins.
            let editedInStore = base.map { $0 != store } ?? true
            return Result(body: editedInStore ? store : nil, conflicts: [])
        case (let local?, let store?):
            if local == store { return Result(body: local, conflicts: []) }
            guard case .object(let localFields)? = try? JSONParser.parse(local).root,
                  case .object(let storeFields)? = try? JSONParser.parse(store).root else {
                return Result(body: store, conflicts: [MergeConflict(key: key, field: nil, localValue: local, storeValue: store)])
            }
            var baseFields: [String: JSONValue] = [:]
            if let base, case .object(let fields)? = try? JSONParser.parse(base).root { baseFields = fields }
            var merged: [String: JSONValue] = [:]
            var conflicts: [MergeConflict] = []
            for field in Set(localFields.keys).union(storeFields.keys).union(baseFields.keys).sorted() {
                let (mine, theirs, original) = (localFields[field], storeFields[field], baseFields[field])
                let chosen: JSONValue?
                if mine == original || mine == theirs {
                    chosen = theirs
                } else if theirs == original {
                    chosen = mine
                } else {
                    chosen = theirs
                    conflicts.append(MergeConflict(key: key, field: field, localValue: mine.map(JSONWriter.compactString), storeValue: theirs.map(JSONWriter.compactString)))
                }
                if let chosen { merged[field] = chosen }
            }
            return Result(body: JSONWriter.compactString(from: .object(merged)), conflicts: conflicts)
        }
    }
}
