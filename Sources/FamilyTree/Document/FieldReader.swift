/// Reads typed fields from one JSON object, collecting a problem for each field it cannot read.
struct FieldReader<Node: JSONNode> {
    private let fields: Node?
    /// Which keys may be there; most optional fields are absent, and are known to be at once.
    private let keys: UInt64
    private let location: TreeLocation
    private(set) var problems: [TreeProblem] = []

    init(_ value: Node, at location: TreeLocation) {
        fields = value.isObject ? value : nil
        keys = value.isObject ? value.keySignature : 0
        self.location = location
    }

    var isObject: Bool { fields != nil }

    private mutating func wrongType(_ key: String, expected: String, found value: Node) {
        problems.append(TreeProblem(.invalidField, "\"\(key)\" must be \(expected), found \(value.kindDescription)", at: location.appending(key)))
    }

    /// The value of `key`, treating `null` as absent.
    private func value(_ key: String) -> Node? {
        guard keys & KeySignature.bit(of: key) != 0, let value = fields?[key], !value.isNull else { return nil }
        return value
    }

    mutating func string(_ key: String) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { wrongType(key, expected: "a string", found: value); return nil }
        return text
    }

    mutating func bool(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { wrongType(key, expected: "true or false", found: value); return nil }
        return flag
    }

    mutating func array(_ key: String) -> [Node]? {
        guard let value = value(key) else { return nil }
        guard let elements = value.elements else { wrongType(key, expected: "an array", found: value); return nil }
        return elements
    }

    /// An object's fields, read by a reader that reports at the object's own location.
    mutating func object(_ key: String) -> FieldReader? {
        guard let value = value(key) else { return nil }
        guard value.isObject else { wrongType(key, expected: "an object", found: value); return nil }
        return FieldReader(value, at: location.appending(key))
    }

    /// A list of `{"label": ..., "value": ...}` objects; entries that are not are reported and left out.
    mutating func labeledValues(_ key: String) -> [LabeledValue] {
        var result: [LabeledValue] = []
        for (position, element) in (array(key) ?? []).enumerated() {
            if element.isObject, let value = element["value"]?.stringValue {
                result.append(LabeledValue(label: element["label"]?.stringValue ?? "", value: value))
            } else {
                problems.append(TreeProblem(.invalidField, "expected {\"label\": ..., \"value\": ...}, found \(element.kindDescription)", at: location.appending("\(key)[\(position)]")))
            }
        }
        return result
    }

    mutating func absorb(_ other: FieldReader) { problems += other.problems }

    /// Records a problem with `key` of this object.
    mutating func report(_ message: String, at key: String) {
        problems.append(TreeProblem(.invalidField, message, at: location.appending(key)))
    }

    /// Where `key` of this object stands.
    func locationOf(_ key: String) -> TreeLocation { location.appending(key) }

    /// A number's literal, or a string's text (a number written as a string).
    mutating func numeral(_ key: String) -> String? {
        guard let value = value(key) else { return nil }
        if let literal = value.numberLiteral { return literal }
        if let text = value.stringValue { return text }
        wrongType(key, expected: "a number", found: value)
        return nil
    }

    /// A non-empty id string (numbers are accepted and kept as their text).
    mutating func id(_ key: String, required: Bool = true) -> String? {
        guard let value = value(key) else {
            if required { problems.append(TreeProblem(.invalidField, "missing \"\(key)\"", at: location.appending(key))) }
            return nil
        }
        if let text = value.stringValue, !text.isEmpty { return text }
        if let literal = value.numberLiteral { return literal }
        wrongType(key, expected: "a non-empty id string", found: value)
        return nil
    }

    /// An id, or an object carrying `id` (the seed app may embed the spouse).
    mutating func reference(_ key: String) -> String? {
        if let nested = value(key), nested.isObject {
            var nestedReader = FieldReader(nested, at: location.appending(key))
            let id = nestedReader.id("id")
            problems += nestedReader.problems
            return id
        }
        return id(key, required: false)
    }

    mutating func idList(_ key: String) -> [String] {
        guard let elements = array(key) else { return [] }
        var ids: [String] = []
        for (position, element) in elements.enumerated() {
            guard let id = element.stringValue, !id.isEmpty else {
                problems.append(TreeProblem(.invalidField, "expected a member id, found \(element.kindDescription)", at: location.appending("\(key)[\(position)]")))
                continue
            }
            ids.append(id)
        }
        return ids
    }

    /// A partial date: our text forms, or what Swift and Firestore write for a `Date`
    /// (seconds since 2001-01-01, or `{"seconds": ..., "nanoseconds": ...}` since 1970).
    mutating func date(_ key: String) -> PartialDate? {
        guard let value = value(key) else { return nil }
        if let text = value.stringValue {
            if let date = PartialDate(text) { return date }
            if text.allSatisfy(\.isWhitespace) { return nil }
            problems.append(TreeProblem(.invalidField, "\"\(key)\": \"\(text)\" is not a date (use 1850, 1850-03, 1850-03-02, --03-02, about 1850, before 1850, after 1850, between 1850 and 1860)", at: location.appending(key)))
            return nil
        }
        if let literal = value.numberLiteral {
            let epoch = CalendarDate.dayNumber(year: 2001, month: 1, day: 1)
            guard let date = Double(literal).flatMap({ PartialDate.fromSeconds($0, sinceDayNumber: epoch) }) else {
                problems.append(TreeProblem(.invalidField, "\"\(key)\": \(literal) seconds since 2001 is no date between the years 1 and 9999", at: location.appending(key)))
                return nil
            }
            return date
        }
        if value.isObject {
            if let seconds = (value["seconds"] ?? value["_seconds"])?.numberValue {
                guard let date = PartialDate.fromSeconds(seconds, sinceDayNumber: 0) else {
                    problems.append(TreeProblem(.invalidField, "\"\(key)\": a timestamp of \(seconds) seconds is no date between the years 1 and 9999", at: location.appending(key)))
                    return nil
                }
                return date
            }
        }
        wrongType(key, expected: "a date string", found: value)
        return nil
    }

    mutating func sex(_ key: String) -> Sex? {
        guard let text = string(key) else { return nil }
        switch text.lowercased() {
        case "male", "m": return .male
        case "female", "f": return .female
        case "other", "x": return .other
        case "unknown", "u", "": return .unknown
        default:
            problems.append(TreeProblem(.invalidField, "\"\(key)\": \"\(text)\" is not one of male, female, other, unknown", at: location.appending(key)))
            return nil
        }
    }

    mutating func childKind(_ key: String) -> ChildKind? {
        guard let text = string(key) else { return nil }
        guard let kind = ChildKind(rawValue: text.lowercased()) else {
            problems.append(TreeProblem(.invalidField, "\"\(key)\": \"\(text)\" is not one of birth, adopted, step, foster", at: location.appending(key)))
            return nil
        }
        return kind
    }

    /// A colour safe to put in a style attribute: `#rgb`, `#rrggbb`, or a name of letters.
    mutating func color(_ key: String) -> String? {
        guard let text = string(key) else { return nil }
        let hexDigits = text.dropFirst().allSatisfy(\.isHexDigit)
        let isHex = text.hasPrefix("#") && [4, 7, 9].contains(text.count) && hexDigits
        let isName = !text.isEmpty && text.count <= 30 && text.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
        guard isHex || isName else {
            problems.append(TreeProblem(.invalidField, "\"\(key)\": \"\(text)\" is not a colour (use #rgb, #rrggbb or a colour name)", at: location.appending(key)))
            return nil
        }
        return text
    }
}

extension PartialDate {
    /// The calendar day (UTC) of a timestamp.
    static func fromSeconds(_ seconds: Double, sinceDayNumber epoch: Int) -> PartialDate? {
        guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        let day = epoch + Int((seconds / 86_400).rounded(.down))
        let date = CalendarDate.date(fromDayNumber: day)
        return PartialDate(year: date.year, month: date.month, day: date.day)
    }
}
