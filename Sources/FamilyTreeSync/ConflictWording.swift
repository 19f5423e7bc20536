import FamilyTree

extension MergeConflict {
    /// The conflict in words a person can act on: whose value, which field, both values, and
    /// (when known) who wrote the value that was kept and when:
    /// `Peter Müller's nickname: kept "Pete" from bob (2026-11-25T14:02:11Z), yours was "Petey"`.
    ///
    /// `documents` are the tree's documents (the file's, or what the device last saw), used to
    /// name members; an unknown member is named by their id.
    public func described(documents: [DocumentKey: String], author: String? = nil, time: String? = nil) -> String {
        let whose = Self.owner(of: key, documents: documents)
        let what = Self.words(for: path, in: key.collection)
        let subject = whose.map { "\($0)'s \(what)" } ?? what
        let from = [author.map { "from \($0)" }, time.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        return "\(subject): kept \(Self.shown(storeValue))\(from.isEmpty ? "" : " " + from), yours was \(Self.shown(localValue))"
    }

    /// A value as the user reads it: a string without its JSON quotes, "nothing" for a removed one.
    private static func shown(_ value: String?) -> String {
        guard let value else { return "nothing" }
        if let text = (try? JSONParser.parse(value).root)?.stringValue { return "\"\(text)\"" }
        return value
    }

    /// Who a document is about: a member's name, "the family of A and B", "the link of A to B".
    static func owner(of key: DocumentKey, documents: [DocumentKey: String]) -> String? {
        func record(_ key: DocumentKey) -> JSONValue? { documents[key].flatMap { try? JSONParser.parse($0).root } }
        func name(_ id: String) -> String {
            guard let member = record(DocumentKey(.familyTree, id)) else { return id }
            let parts = [member["firstName"]?.stringValue, member["lastName"]?.stringValue].compactMap { $0 }.filter { !$0.isEmpty }
            return parts.isEmpty ? id : parts.joined(separator: " ")
        }
        switch key.collection {
        case .familyTree:
            return name(key.id)
        case .unions:
            let partners = (record(key)?["partners"]?.arrayValue ?? []).compactMap(\.stringValue).map(name)
            return partners.isEmpty ? "the family \(key.id)" : "the family of " + partners.joined(separator: " and ")
        case .crossBloodlineConnections:
            guard let link = record(key), let child = link["fromChild"]?.stringValue, let parent = link["toNewParent"]?.stringValue else {
                return "the link \(key.id)"
            }
            return "the link of \(name(child)) to \(name(parent))"
        }
    }

    /// A path in words: "nickname", "date of death", "phone numbers", "child mei's kind".
    static func words(for path: FieldPath, in collection: SyncCollection) -> String {
        guard !path.components.isEmpty else { return "whole record" }
        var words: [String] = []
        for component in path.components {
            switch component {
            case .field(let name): words.append(fieldWords[name] ?? name)
            case .item(let identity): words.append("entry \(identity)")
            }
        }
        return words.joined(separator: ", ")
    }

    private static let fieldWords: [String: String] = [
        "firstName": "first name", "middleName": "middle name", "lastName": "last name", "suffix": "name suffix",
        "nickname": "nickname", "sex": "sex", "birthday": "birthday", "birthPhrase": "birth date as written",
        "deathDate": "date of death", "deathPhrase": "date of death as written", "sortDate": "sort date",
        "photo": "photo", "photos": "photos", "color": "colour", "notes": "notes", "removed": "removed mark",
        "isTopOfBloodline": "top-of-bloodline mark", "isMarriedIntoFamily": "married-in mark", "contact": "contact card",
        "phones": "phone numbers", "emails": "e-mail addresses", "addresses": "addresses", "dates": "dates",
        "marriage": "marriage date", "divorce": "divorce date", "partners": "partners", "children": "children",
        "kind": "kind", "fromChild": "child", "toNewParent": "parent",
    ]
}
