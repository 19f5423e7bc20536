import FamilyTree

/// A tree.json as documents, and back: each member, union and cross-bloodline connection is one
/// document whose body is its JSON object with sorted keys. Fields familytree does not know travel too.
public enum TreeMirror {
    /// The documents of a tree file's root object.
    public static func documents(of root: JSONValue) throws(SyncError) -> [DocumentKey: String] {
        var documents: [DocumentKey: String] = [:]
        let collections: [(String, SyncCollection)] = [("members", .familyTree), ("unions", .unions), ("crossBloodlineConnections", .crossBloodlineConnections)]
        for (field, collection) in collections {
            for (position, record) in (root[field]?.arrayValue ?? []).enumerated() {
                guard let id = record["id"]?.stringValue ?? record["id"].flatMap(numberText), !id.isEmpty else {
                    throw .store("\(field)[\(position)] has no id, so it cannot be a document")
                }
                documents[DocumentKey(collection, id)] = JSONWriter.compactString(from: record)
            }
        }
        return documents
    }

    private static func numberText(_ value: JSONValue) -> String? {
        if case .number(let literal) = value { return literal }
        return nil
    }

    /// The tree file for a set of documents: records in id order, so the same documents always give the same file.
    public static func tree(from documents: [DocumentKey: String]) throws(SyncError) -> JSONValue {
        var lists: [SyncCollection: [JSONValue]] = [:]
        for key in documents.keys.sorted() {
            do {
                lists[key.collection, default: []].append(try JSONParser.parse(documents[key]!).root)
            } catch {
                throw .store("\(key) holds no valid JSON: \(error)")
            }
        }
        return .object([
            "members": .array(lists[.familyTree] ?? []),
            "unions": .array(lists[.unions] ?? []),
            "crossBloodlineConnections": .array(lists[.crossBloodlineConnections] ?? []),
        ])
    }
}

/// A value one side lost to the other in a merge: kept so the user can see and restore it.
public struct MergeConflict: Sendable, Hashable {
    public var key: DocumentKey
    /// The top-level field both sides changed; `nil` for the whole document.
    public var field: String?
    /// This device's value (compact JSON; `nil` when the field was removed here).
    public var localValue: String?
    /// The value the store had, which won.
    public var storeValue: String?
}

/// Three-way merge of one document, field by field against the version both sides started from.
public enum DocumentMerge {
    public struct Result: Sendable, Hashable {
        /// The merged body, or `nil` when the document stays deleted.
        public var body: String?
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
