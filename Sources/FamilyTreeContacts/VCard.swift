/// One contact card as written: its properties in order, values decoded to text.
public struct VCard: Sendable, Hashable {
    /// `2.1`, `3.0`, `4.0`, or `nil` when the card has no `VERSION`.
    public var version: String?
    /// The card's properties in the order written.
    public var properties: [VCardProperty]
    /// The line of the card's `BEGIN:VCARD`.
    public var line: Int

    /// A card of `version` with `properties`, starting on `line`.
    public init(version: String? = nil, properties: [VCardProperty] = [], line: Int = 1) {
        self.version = version
        self.properties = properties
        self.line = line
    }

    /// The properties called `name` (upper case), in order.
    public func properties(_ name: String) -> [VCardProperty] { properties.filter { $0.name == name } }

    /// The first property called `name` (upper case).
    public func first(_ name: String) -> VCardProperty? { properties.first { $0.name == name } }

    /// The `X-ABLabel` of a property's group (Apple and Google give a grouped property its label
    /// this way), unwrapped: `_$!<Mother>!$_` is `Mother`.
    public func label(of property: VCardProperty) -> String? {
        guard let group = property.group else { return nil }
        guard let label = properties.first(where: { $0.group == group && $0.name == "X-ABLABEL" }) else { return nil }
        return VCardProperty.unwrappedAppleLabel(label.text)
    }
}

/// One property line: `item1.TEL;TYPE=CELL:+1 555 0100`.
public struct VCardProperty: Sendable, Hashable {
    /// The group before the dot (`item1`), if any.
    public var group: String?
    /// The property name, upper case (`TEL`).
    public var name: String
    /// Parameters in order, names upper case; vCard 2.1's bare `HOME` is `TYPE=HOME`, and
    /// `TYPE=work,voice` is split into its values.
    public var parameters: [VCardParameter]
    /// The value as text, still escaped (`\,` `\;` `\n`): quoted-printable and the charset decoded,
    /// base64 left as written (without its line breaks).
    public var rawValue: String
    /// The line the property starts on.
    public var line: Int

    /// A property as read: its group, name, parameters and value (still escaped), and its line.
    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], rawValue: String, line: Int = 0) {
        self.group = group
        self.name = name
        self.parameters = parameters
        self.rawValue = rawValue
        self.line = line
    }

    /// The values of parameter `name` (upper case).
    public func parameter(_ name: String) -> [String] { parameters.filter { $0.name == name }.map(\.value) }

    /// The `TYPE` values, lower case (`cell`, `home`, `pref`).
    public var types: [String] { parameter("TYPE").map { $0.lowercased() } }

    /// The value unescaped: `\n` is a line break, `\,` `\;` `\:` `\\` the character itself.
    public var text: String { Self.unescape(Substring(rawValue)) }

    /// The value split at unescaped `;` (N, ADR), each part unescaped.
    public var components: [String] { Self.split(rawValue, at: ";").map(Self.unescape) }

    /// The value split at unescaped `,` (NICKNAME, CATEGORIES), each part unescaped and trimmed.
    public var list: [String] {
        Self.split(rawValue, at: ",").map { Self.unescape($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    static func split(_ value: String, at separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == "\\" {
                index = value.index(after: index)
                if index < value.endIndex { index = value.index(after: index) }
                continue
            }
            if value[index] == separator {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        parts.append(value[start...])
        return parts
    }

    static func unescape(_ value: Substring) -> String {
        // A byte search: with Foundation in the module, `contains("\\")` would be its slow string search.
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return String(value) }
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }

    /// Apple's predefined labels are written `_$!<Mother>!$_`; custom labels are plain text.
    static func unwrappedAppleLabel(_ label: String) -> String {
        if label.hasPrefix("_$!<"), label.hasSuffix(">!$_"), label.count >= 8 {
            return String(label.dropFirst(4).dropLast(4))
        }
        return label
    }
}

/// One parameter value: `TYPE=CELL`, `CHARSET=UTF-8`.
public struct VCardParameter: Sendable, Hashable {
    /// Upper case.
    public var name: String
    /// The parameter's value, unquoted.
    public var value: String

    /// A parameter `name=value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

