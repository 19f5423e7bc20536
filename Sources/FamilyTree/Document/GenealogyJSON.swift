// tree.json's form of events, places, citations, sources and structures kept as written:
//
//   "events": [{"kind": "burial", "date": "1799-12-18", "place": {"name": "Mount Vernon, Virginia"},
//               "notes": ["..."], "citations": [{"source": "S1", "page": "p. 4", "quality": 3}]}]
//   "gedcom": [{"tag": "_UID", "value": "4F2A..."}, {"tag": "OBJE", "value": "@M1@"}]
//
// Empty lists and absent fields are left out, so a tree without them grows by nothing.

extension RecordedStructure {
    /// The structure's tree.json object: `tag`, and `xref`, `value` and `children` when present.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = ["tag": .string(tag)]
        if let xref { fields["xref"] = .string(xref) }
        if let value { fields["value"] = .string(value) }
        if !children.isEmpty { fields["children"] = .array(children.map(\.jsonValue)) }
        return .object(fields)
    }
}

extension Place {
    /// The place's tree.json object.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = ["name": .string(name)]
        for case let (key, value?) in [("form", form), ("latitude", latitude), ("longitude", longitude)] { fields[key] = .string(value) }
        GenealogyJSON.add(recorded, to: &fields)
        return .object(fields)
    }
}

extension Citation {
    /// The citation's tree.json object.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = [:]
        for case let (key, value?) in [("source", source), ("description", description), ("page", page), ("text", text)] { fields[key] = .string(value) }
        if let quality { fields["quality"] = .number(String(quality)) }
        GenealogyJSON.add(recorded, to: &fields)
        return .object(fields)
    }
}

extension LifeEvent {
    /// The event's tree.json object.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = ["kind": .string(kind.word)]
        for case let (key, value?) in [("type", type), ("value", value), ("date", date?.description), ("datePhrase", datePhrase)] { fields[key] = .string(value) }
        if let place { fields["place"] = place.jsonValue }
        if !notes.isEmpty { fields["notes"] = .array(notes.map(JSONValue.string)) }
        if !citations.isEmpty { fields["citations"] = .array(citations.map(\.jsonValue)) }
        GenealogyJSON.add(recorded, to: &fields)
        return .object(fields)
    }
}

extension Source {
    /// The source's tree.json object.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = ["id": .string(id)]
        for case let (key, value?) in [("title", title), ("author", author), ("publication", publication), ("text", text)] { fields[key] = .string(value) }
        GenealogyJSON.add(recorded, to: &fields)
        return .object(fields)
    }
}

extension GenealogyFile {
    /// The file's tree.json object (`version`, `header`, `records`).
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = [:]
        if let version { fields["version"] = .string(version) }
        if !header.isEmpty { fields["header"] = .array(header.map(\.jsonValue)) }
        if !records.isEmpty { fields["records"] = .array(records.map(\.jsonValue)) }
        return .object(fields)
    }
}

enum GenealogyJSON {
    /// Structures kept as written go under `gedcom`.
    static func add(_ recorded: [RecordedStructure], to fields: inout [String: JSONValue]) {
        if !recorded.isEmpty { fields["gedcom"] = .array(recorded.map(\.jsonValue)) }
    }

    /// A member's or union's events, citations and kept structures, into `fields`.
    static func add(events: [LifeEvent], citations: [Citation], recorded: [RecordedStructure], to fields: inout [String: JSONValue]) {
        if !events.isEmpty { fields["events"] = .array(events.map(\.jsonValue)) }
        if !citations.isEmpty { fields["citations"] = .array(citations.map(\.jsonValue)) }
        add(recorded, to: &fields)
    }
}

/// Structures deeper than this are refused: a hostile file cannot exhaust the stack.
let maximumRecordedDepth = 64

extension FieldReader {
    /// `key`'s list of objects, each read by `read` (which reports its own problems); entries that
    /// are not objects are reported and left out.
    mutating func objects<Value>(_ key: String, _ read: (inout FieldReader) -> Value?) -> [Value] {
        var result: [Value] = []
        for (position, element) in (array(key) ?? []).enumerated() {
            var reader = FieldReader(element, at: locationOf("\(key)[\(position)]"))
            if !reader.isObject {
                report("expected an object, found \(element.kindDescription)", at: "\(key)[\(position)]")
                continue
            }
            if let value = read(&reader) { result.append(value) }
            absorb(reader)
        }
        return result
    }

    /// A list of strings; other entries are reported and left out.
    mutating func strings(_ key: String) -> [String] {
        var result: [String] = []
        for (position, element) in (array(key) ?? []).enumerated() {
            guard let text = element.stringValue else {
                report("expected a string, found \(element.kindDescription)", at: "\(key)[\(position)]")
                continue
            }
            result.append(text)
        }
        return result
    }

    /// The structures kept as written under `gedcom`.
    mutating func recorded(_ key: String = "gedcom", depth: Int = 0) -> [RecordedStructure] {
        objects(key) { reader in
            guard let tag = reader.string("tag"), (1...31).contains(tag.utf8.count),
                  tag.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }) else {
                reader.report("a kept GEDCOM structure needs a \"tag\" of letters, digits and _ (at most 31)", at: "tag")
                return nil
            }
            guard depth < maximumRecordedDepth else {
                reader.report("kept GEDCOM structures nest more than \(maximumRecordedDepth) deep", at: "children")
                return nil
            }
            return RecordedStructure(tag: tag, xref: reader.string("xref"), value: reader.string("value"), children: reader.recorded("children", depth: depth + 1))
        }
    }

    mutating func place(_ key: String) -> Place? {
        guard var reader = object(key) else { return nil }
        defer { absorb(reader) }
        guard let name = reader.string("name") else {
            reader.report("a place needs a \"name\"", at: "name")
            return nil
        }
        return Place(name: name, form: reader.string("form"), latitude: reader.string("latitude"), longitude: reader.string("longitude"), recorded: reader.recorded())
    }

    mutating func citations(_ key: String = "citations") -> [Citation] {
        objects(key) { reader in
            Citation(
                source: reader.string("source"), description: reader.string("description"), page: reader.string("page"),
                quality: reader.smallInteger("quality", in: 0...3), text: reader.string("text"), recorded: reader.recorded()
            )
        }
    }

    mutating func events(_ key: String = "events") -> [LifeEvent] {
        objects(key) { reader in
            guard let word = reader.string("kind") else {
                reader.report("an event needs a \"kind\" (birth, burial, occupation, ...)", at: "kind")
                return nil
            }
            guard let kind = EventKind(word: word) else {
                reader.report("\"\(word)\" is no kind of event familytree knows (birth, burial, occupation, ..., or an extension tag like _MILT)", at: "kind")
                return nil
            }
            return LifeEvent(
                kind, type: reader.string("type"), value: reader.string("value"), date: reader.date("date"), datePhrase: reader.string("datePhrase"),
                place: reader.place("place"), notes: reader.strings("notes"), citations: reader.citations(), recorded: reader.recorded()
            )
        }
    }

    mutating func sources(_ key: String = "sources") -> [Source] {
        objects(key) { reader in
            guard let id = reader.id("id") else { return nil }
            return Source(
                id: id, title: reader.string("title"), author: reader.string("author"), publication: reader.string("publication"),
                text: reader.string("text"), recorded: reader.recorded()
            )
        }
    }

    mutating func genealogyFile(_ key: String = "gedcom") -> GenealogyFile? {
        guard var reader = object(key) else { return nil }
        defer { absorb(reader) }
        let file = GenealogyFile(version: reader.string("version"), header: reader.recorded("header"), records: reader.recorded("records"))
        return file.isEmpty ? nil : file
    }

    /// A whole number in `range`, written as a number or a numeral string.
    mutating func smallInteger(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = numeral(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            report("\"\(key)\": \(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)", at: key)
            return nil
        }
        return number
    }
}
