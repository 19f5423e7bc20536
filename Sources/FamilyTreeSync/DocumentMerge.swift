import FamilyTree

/// Where in a document a value sits: fields from the top, and items of the lists merged as sets.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down into a document.
    public enum Component: Sendable, Hashable {
        /// A field of an object.
        case field(String)
        /// The item of a list with this identity (a member id, or the item's JSON for a labelled value).
        case item(String)
    }

    /// The steps from the document's top; none for the whole document.
    public var components: [Component]

    /// A path of these steps.
    public init(_ components: [Component] = []) { self.components = components }

    /// The path one step further down.
    public func appending(_ component: Component) -> FieldPath { FieldPath(components + [component]) }

    /// The top-level field the path starts with, if any.
    public var topField: String? {
        if case .field(let name)? = components.first { return name }
        return nil
    }

    /// The field names alone, without list items (`contact.phones`).
    var fieldNames: [String] {
        components.compactMap { if case .field(let name) = $0 { name } else { nil } }
    }

    /// `contact.phones`, `children[mei].kind`.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .field(let name): text += (text.isEmpty ? "" : ".") + name
            case .item(let identity): text += "[\(identity)]"
            }
        }
        return text
    }

    /// The path as JSON (fields as strings, items as `{"item": ...}`), as the device state keeps it.
    public var jsonValue: JSONValue {
        .array(components.map { component in
            switch component {
            case .field(let name): .string(name)
            case .item(let identity): .object(["item": .string(identity)])
            }
        })
    }

    /// The path `jsonValue` wrote; `nil` for anything else.
    public init?(jsonValue: JSONValue) {
        guard let steps = jsonValue.arrayValue else { return nil }
        var components: [Component] = []
        for step in steps {
            if let name = step.stringValue {
                components.append(.field(name))
            } else if let identity = step["item"]?.stringValue {
                components.append(.item(identity))
            } else {
                return nil
            }
        }
        self.components = components
    }
}

/// A value one side lost to the other in a merge: kept so the user can see and restore it.
public struct MergeConflict: Sendable, Hashable {
    /// The document both sides changed.
    public var key: DocumentKey
    /// Where in the document both sides changed one value; empty for the whole document.
    public var path: FieldPath
    /// This device's value (compact JSON; `nil` when it was removed here).
    public var localValue: String?
    /// The value the store had, which won (`nil` when it was removed there).
    public var storeValue: String?
    /// The store's version of the document that won, to find who wrote it and when.
    public var storeVersion: Int64?

    /// A conflict at `path` of `key`.
    public init(key: DocumentKey, path: FieldPath, localValue: String?, storeValue: String?, storeVersion: Int64? = nil) {
        self.key = key
        self.path = path
        self.localValue = localValue
        self.storeValue = storeValue
        self.storeVersion = storeVersion
    }

    /// The top-level field both sides changed; `nil` for the whole document.
    public var field: String? { path.topField }
}

extension MergeConflict {
    /// The documents with this conflict's local value put back at its path (the whole document
    /// when the path is empty): a new edit of the tree, which a push merges like any other. The
    /// document must still be in `documents` when only part of it is restored.
    public func restoring(into documents: [DocumentKey: String]) throws(SyncError) -> [DocumentKey: String] {
        var documents = documents
        guard !path.components.isEmpty else {
            documents[key] = localValue
            return documents
        }
        guard let body = documents[key], let root = try? JSONParser.parse(body).root, case .object = root else {
            throw .invalidDocument(key, "it is not in the tree, so its \(path) cannot be restored")
        }
        let value: JSONValue?
        do {
            value = try localValue.map { try JSONParser.parse($0).root }
        } catch {
            throw .invalidDocument(key, "the kept value of \(path) is not JSON")
        }
        let collection = key.collection
        let rule = { (fields: [String]) in ListRules.identity(for: collection, at: fields) }
        guard let restored = Self.setting(value, at: path.components[...], in: root, fieldNames: [], rule: rule) else {
            throw .invalidDocument(key, "\(path) is no longer where it was, so it cannot be restored")
        }
        documents[key] = JSONWriter.compactString(from: restored)
        return documents
    }

    /// `root` with `value` at `path` (removed when `nil`); `nil` when the path does not lead anywhere.
    private static func setting(
        _ value: JSONValue?, at path: ArraySlice<FieldPath.Component>, in root: JSONValue?, fieldNames: [String],
        rule: ([String]) -> ListRules.Rule?
    ) -> JSONValue? {
        guard let step = path.first else { return value }
        switch step {
        case .field(let name):
            var fields: [String: JSONValue] = [:]
            if let root {
                guard case .object(let existing) = root else { return nil }
                fields = existing
            }
            let inner = setting(value, at: path.dropFirst(), in: fields[name], fieldNames: fieldNames + [name], rule: rule)
            if inner == nil, path.count > 1 { return nil }
            fields[name] = inner
            return .object(fields)
        case .item(let identity):
            guard let listRule = rule(fieldNames) else { return nil }
            var items = root?.arrayValue ?? []
            let position = items.firstIndex { listRule.identity($0) == identity }
            let current = position.map { items[$0] }
            let inner = setting(value, at: path.dropFirst(), in: current, fieldNames: fieldNames, rule: rule)
            switch (position, inner) {
            case (let position?, let inner?): items[position] = inner
            case (let position?, nil): items.remove(at: position)
            case (nil, let inner?): items.append(inner)
            case (nil, nil): break
            }
            return .array(items)
        }
    }
}

/// The lists familytree knows, merged item by item as sets; every other list is one value.
enum ListRules {
    /// How a list's items are told apart, and how many it may hold.
    struct Rule {
        /// The item's identity: equal identities are the same item, perhaps edited.
        var identity: (JSONValue) -> String
        /// The most items a valid list holds (a union's partners); a merge past it is a conflict.
        var maximumCount = Int.max
    }

    /// The rule for the list at `fields` (field names from the document's top) in `collection`.
    static func identity(for collection: SyncCollection, at fields: [String]) -> Rule? {
        switch (collection, fields) {
        case (.unions, ["partners"]): Rule(identity: reference, maximumCount: 2)
        case (.unions, ["children"]), (.familyTree, ["children"]): Rule(identity: reference)
        case (.familyTree, ["contact", "phones"]), (.familyTree, ["contact", "emails"]),
             (.familyTree, ["contact", "addresses"]), (.familyTree, ["contact", "dates"]),
             (.familyTree, ["photos"]),
             // A person's and a family's events and citations: an event edited on one side is the
             // old one removed and the new one added; both sides' new events are kept.
             (.familyTree, ["events"]), (.familyTree, ["citations"]), (.unions, ["events"]), (.unions, ["citations"]):
            Rule(identity: JSONWriter.compactString(from:))
        default: nil
        }
    }

    /// A member reference: the id itself, or the `id` of `{"id": ..., "kind": ...}`.
    static func reference(_ item: JSONValue) -> String {
        item.stringValue ?? item["id"]?.stringValue ?? JSONWriter.compactString(from: item)
    }
}

/// Three-way merge of one document against the version both sides started from: objects field by
/// field, known lists item by item as sets, and only a value both sides changed is a conflict.
public enum DocumentMerge {
    /// A merged document and what the merge set aside.
    public struct Result: Sendable, Hashable {
        /// The merged body, or `nil` when the document stays deleted.
        public var body: String?
        /// The values that lost, one for each value both sides changed.
        public var conflicts: [MergeConflict]
    }

    /// Merges `local` and `store` (either `nil` for deleted) against `base` (`nil` when this device
    /// never saw the document). On a value both changed, the store wins and the local value is
    /// returned as a conflict. An edit beats a delete; a copy identical to a deleted document's last
    /// body is stale and does not bring it back.
    public static func merge(
        key: DocumentKey, base: String?, local: String?, store: String?, storeTombstone: String? = nil, storeVersion: Int64? = nil
    ) -> Result {
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
            guard let localRoot = try? JSONParser.parse(local).root, case .object = localRoot,
                  let storeRoot = try? JSONParser.parse(store).root, case .object = storeRoot else {
                return Result(body: store, conflicts: [MergeConflict(key: key, path: FieldPath(), localValue: local, storeValue: store, storeVersion: storeVersion)])
            }
            var baseRoot: JSONValue?
            if let base, let root = try? JSONParser.parse(base).root, case .object = root { baseRoot = root }
            var merger = ValueMerger(key: key, storeVersion: storeVersion)
            let merged = merger.merge(base: baseRoot, local: localRoot, store: storeRoot, at: FieldPath(), fields: [])
            return Result(body: merged.map(JSONWriter.compactString(from:)) ?? store, conflicts: merger.conflicts)
        }
    }
}

/// The recursive three-way merge of JSON values within one document.
struct ValueMerger {
    let key: DocumentKey
    let storeVersion: Int64?
    var conflicts: [MergeConflict] = []

    init(key: DocumentKey, storeVersion: Int64?) {
        self.key = key
        self.storeVersion = storeVersion
    }

    /// The merge of one value (`nil`: absent on that side). `fields` are the field names down to
    /// it, which pick the list rule.
    mutating func merge(base: JSONValue?, local: JSONValue?, store: JSONValue?, at path: FieldPath, fields: [String]) -> JSONValue? {
        if local == store || local == base { return store }
        if store == base { return local }
        switch (local, store) {
        case (.object(let mine)?, .object(let theirs)?):
            var original: [String: JSONValue] = [:]
            switch base {
            case .object(let fields)?: original = fields
            case nil: break
            default: return conflict(local, store, at: path)
            }
            var merged: [String: JSONValue] = [:]
            for name in Set(mine.keys).union(theirs.keys).union(original.keys).sorted() {
                let value = merge(base: original[name], local: mine[name], store: theirs[name], at: path.appending(.field(name)), fields: fields + [name])
                if let value { merged[name] = value }
            }
            return .object(merged)
        case (.array(let mine)?, .array(let theirs)?):
            guard let rule = ListRules.identity(for: key.collection, at: fields) else { return conflict(local, store, at: path) }
            let original: [JSONValue]
            switch base {
            case .array(let items)?: original = items
            case nil: original = []
            default: return conflict(local, store, at: path)
            }
            let merged = mergeSet(base: original, local: mine, store: theirs, rule: rule, at: path, fields: fields)
            guard merged.count <= rule.maximumCount else { return conflict(local, store, at: path) }
            return .array(merged)
        default:
            return conflict(local, store, at: path)
        }
    }

    /// The store's value, with the local one kept as a conflict.
    private mutating func conflict(_ local: JSONValue?, _ store: JSONValue?, at path: FieldPath) -> JSONValue? {
        conflicts.append(MergeConflict(
            key: key, path: path, localValue: local.map(JSONWriter.compactString(from:)),
            storeValue: store.map(JSONWriter.compactString(from:)), storeVersion: storeVersion
        ))
        return store
    }

    /// A list merged item by item: what either side added is in, what either side removed is out,
    /// an item removed on one side and edited on the other is kept. The store's order first, then
    /// local additions in their local order.
    private mutating func mergeSet(
        base: [JSONValue], local: [JSONValue], store: [JSONValue], rule: ListRules.Rule, at path: FieldPath, fields: [String]
    ) -> [JSONValue] {
        func keyed(_ items: [JSONValue]) -> (order: [String], items: [String: JSONValue]) {
            var order: [String] = []
            var byIdentity: [String: JSONValue] = [:]
            for item in items {
                let identity = rule.identity(item)
                guard byIdentity[identity] == nil else { continue }
                byIdentity[identity] = item
                order.append(identity)
            }
            return (order, byIdentity)
        }
        let (original, mine, theirs) = (keyed(base).items, keyed(local), keyed(store))
        var merged: [JSONValue] = []
        for identity in theirs.order {
            let storeItem = theirs.items[identity]!
            if let localItem = mine.items[identity] {
                let item = merge(base: original[identity], local: localItem, store: storeItem, at: path.appending(.item(identity)), fields: fields)
                if let item { merged.append(item) }
            } else if let originalItem = original[identity] {
                // Removed here: gone, unless the store edited it since.
                if storeItem != originalItem { merged.append(storeItem) }
            } else {
                merged.append(storeItem)
            }
        }
        for identity in mine.order where theirs.items[identity] == nil {
            let localItem = mine.items[identity]!
            if let originalItem = original[identity] {
                // Removed in the store: gone, unless edited here since.
                if localItem != originalItem { merged.append(localItem) }
            } else {
                merged.append(localItem)
            }
        }
        return merged
    }
}
