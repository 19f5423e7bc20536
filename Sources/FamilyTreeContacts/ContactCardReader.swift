import FamilyTree

/// How the other card is related to the card that names it: `parent` on A's card means the
/// other card is A's parent (RFC 6350's `RELATED;TYPE=`, Apple's and Google's labels).
enum RelationKind: String, Sendable, Hashable {
    case parent, child, sibling, spouse
}

/// Who a relation points at, as the card writes it.
enum RelationTarget: Sendable, Hashable {
    /// `urn:uuid:...` or another URI naming a card's `UID`.
    case uid(String)
    /// `mailto:` or a bare address: the card with that e-mail.
    case email(String)
    /// A name to match against the other cards.
    case name(String)
}

/// A relation written on a card.
struct CardRelation: Sendable, Hashable {
    var kind: RelationKind
    var target: RelationTarget
    /// What the other card's sex must be (`Mother`, `Son`), when the label says.
    var sexOfTarget: Sex?
    /// The label as written, for the report (`Mother`, `RELATED;TYPE=parent`).
    var label: String
    var line: Int
}

/// One card read into a member, with what the card says about its relatives.
struct ContactPerson: Sendable {
    var member: Member
    var relations: [CardRelation]
    /// Anniversaries written on the card, to put on its owner's union.
    var anniversaries: [(date: PartialDate, line: Int)]
    /// Other relations the card names but the tree cannot show (`kin`), for the report.
    var unplaced: [CardRelation]
    var line: Int
    /// The card's `UID`, lower case and without `urn:uuid:`, for `RELATED` URIs.
    var uidKey: String?
    var emails: [String]
    /// The card's `FN`, as written.
    var formattedName: String
}

/// Reads a member, its contact details and its relations off one card.
struct ContactCardReader {
    /// Apple's predefined relation labels, also written bare by Google and macOS.
    static let relationLabels: [String: (RelationKind, Sex?)] = [
        "mother": (.parent, .female), "father": (.parent, .male), "parent": (.parent, nil),
        "brother": (.sibling, .male), "sister": (.sibling, .female),
        "child": (.child, nil), "son": (.child, .male), "daughter": (.child, .female),
        "spouse": (.spouse, nil), "partner": (.spouse, nil), "domestic_partner": (.spouse, nil), "domestic partner": (.spouse, nil),
        "wife": (.spouse, .female), "husband": (.spouse, .male),
    ]

    /// Relatives the tree does not link directly (a grandparent, an aunt) whose label still says
    /// their sex: the relation is reported, not drawn, and the named card's sex is read off it.
    static let kinLabels: [String: Sex] = [
        "grandmother": .female, "grandma": .female, "granny": .female, "grandfather": .male, "grandpa": .male,
        "granddaughter": .female, "grandson": .male, "aunt": .female, "uncle": .male, "niece": .female, "nephew": .male,
        "stepmother": .female, "stepfather": .male, "stepdaughter": .female, "stepson": .male,
        "mother-in-law": .female, "father-in-law": .male, "daughter-in-law": .female, "son-in-law": .male,
        "sister-in-law": .female, "brother-in-law": .male,
    ]

    /// Spouse fields of Evolution, Outlook, KAddressBook and others: the value is the spouse's name.
    static let spouseNameProperties: Set<String> = ["X-EVOLUTION-SPOUSE", "X-MS-SPOUSE", "X-SPOUSE", "X-KADDRESSBOOK-X-SPOUSESNAME", "X-ASSISTANTNAME-SPOUSE"]

    /// Anniversary fields besides vCard 4's `ANNIVERSARY` and Apple's labelled `X-ABDATE`.
    static let anniversaryProperties: Set<String> = ["ANNIVERSARY", "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-MS-ANNIVERSARY", "X-KADDRESSBOOK-X-ANNIVERSARY"]

    let card: VCard

    func read(id: Member.ID, uid: String) -> ContactPerson {
        var member = Member(id: id, firstName: "")
        readNames(into: &member)
        member.sex = sex()
        var contact = ContactDetails(uid: uid, revision: card.first("REV")?.text.trimmingSpaces)
        readBirthday(into: &member)
        readPhoto(into: &member, contact: &contact)
        // Line breaks as the tree keeps them (quoted-printable notes carry CR LF).
        let notes = card.properties("NOTE").map { SafeText.lines($0.text).joined(separator: "\n") }.filter { !$0.trimmingSpaces.isEmpty }
        if !notes.isEmpty { member.notes = notes.joined(separator: "\n\n") }
        contact.phones = card.properties("TEL").compactMap { property in
            let value = phoneNumber(property.text)
            return value.isEmpty ? nil : LabeledValue(label: label(of: property, kinds: true), value: value)
        }
        contact.emails = card.properties("EMAIL").compactMap { property in
            var value = property.text.trimmingSpaces
            if value.lowercased().hasPrefix("mailto:") { value = String(value.dropFirst(7)) }
            return value.isEmpty ? nil : LabeledValue(label: label(of: property, kinds: false), value: value)
        }
        contact.addresses = card.properties("ADR").compactMap { property in
            let parts = property.components.map { component in
                component.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces.trimmingTrailingCommas }.filter { !$0.isEmpty }.joined(separator: ", ")
            }
            let value = parts.filter { !$0.isEmpty }.joined(separator: ", ")
            return value.isEmpty ? nil : LabeledValue(label: label(of: property, kinds: false), value: value)
        }
        var anniversaries: [(date: PartialDate, line: Int)] = []
        for property in card.properties where Self.anniversaryProperties.contains(property.name) || property.name == "X-ABDATE" {
            let labelText = property.name == "X-ABDATE" ? (card.label(of: property) ?? "Other") : "Anniversary"
            let omitted = property.parameter("X-APPLE-OMIT-YEAR").first
            if labelText.lowercased() == "anniversary", let date = VCardDate.parse(property.text, omittedYear: omitted) {
                anniversaries.append((date, property.line))
            } else {
                contact.dates.append(LabeledValue(label: labelText, value: VCardDate.parse(property.text, omittedYear: omitted)?.description ?? property.text))
            }
        }
        var relations: [CardRelation] = []
        var unplaced: [CardRelation] = []
        readRelations(into: &relations, unplaced: &unplaced, anniversaries: &anniversaries, dates: &contact.dates)
        member.contact = contact
        let rawUID = card.first("UID")?.text.trimmingSpaces
        return ContactPerson(
            member: member, relations: relations, anniversaries: anniversaries, unplaced: unplaced, line: card.line,
            uidKey: rawUID.flatMap { $0.isEmpty ? nil : Self.uidKey($0) }, emails: contact.emails.map { $0.value.lowercased() },
            formattedName: card.first("FN")?.text.trimmingSpaces ?? ""
        )
    }

    /// A UID as `RELATED` URIs compare it: lower case, without `urn:uuid:`.
    static func uidKey(_ uid: String) -> String {
        let lower = uid.trimmingSpaces.lowercased()
        return lower.hasPrefix("urn:uuid:") ? String(lower.dropFirst(9)) : lower
    }

    // MARK: Names

    private func readNames(into member: inout Member) {
        let formatted = card.first("FN")?.text.trimmingSpaces ?? ""
        if let name = card.first("N") {
            // Family; given; additional; prefixes; suffixes. From 3.0 on, a part may list several
            // values split at unescaped commas (`Richter,James`): they are joined with spaces, and an
            // escaped comma (`Smith\, Esq`) stays a comma. 2.1 has no such lists.
            let listsValues = !(card.version?.hasPrefix("2") ?? false)
            let parts = VCardProperty.split(name.rawValue, at: ";").map { part in
                (listsValues ? VCardProperty.split(String(part), at: ",") : [part])
                    .map { VCardProperty.unescape($0).trimmingSpaces }.filter { !$0.isEmpty }.joined(separator: " ")
            }
            member.lastName = parts.count > 0 && !parts[0].isEmpty ? parts[0] : nil
            member.firstName = parts.count > 1 ? parts[1] : ""
            member.middleName = parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil
            member.suffix = parts.count > 4 && !parts[4].isEmpty ? parts[4] : nil
        }
        if member.firstName.isEmpty, member.lastName == nil, !formatted.isEmpty {
            // No structured name: the last word of the display name is taken as the family name.
            let words = formatted.split(separator: " ").map(String.init)
            member.firstName = words.count > 1 ? words.dropLast().joined(separator: " ") : formatted
            member.lastName = words.count > 1 ? words.last : nil
        }
        if member.firstName.isEmpty, member.lastName == nil {
            member.firstName = card.first("ORG")?.components.first?.trimmingSpaces ?? ""
        }
        member.nickname = card.properties("NICKNAME").flatMap(\.list).first
    }

    private func sex() -> Sex? {
        if let gender = card.first("GENDER")?.components.first?.trimmingSpaces.uppercased(), let first = gender.first {
            switch first {
            case "M": return .male
            case "F": return .female
            case "O": return .other
            case "N", "U": return .unknown
            default: break
            }
        }
        switch card.first("X-GENDER")?.text.trimmingSpaces.lowercased() {
        case "male"?, "m"?: return .male
        case "female"?, "f"?: return .female
        default: return nil
        }
    }

    // MARK: Dates and photo

    private func readBirthday(into member: inout Member) {
        let birthdays = card.properties("BDAY")
        for property in birthdays {
            if let date = VCardDate.parse(property.text, omittedYear: property.parameter("X-APPLE-OMIT-YEAR").first) {
                member.birthday = date
                return
            }
        }
        if let written = birthdays.first?.text.trimmingSpaces, !written.isEmpty { member.birthPhrase = written }
    }

    private func readPhoto(into member: inout Member, contact: inout ContactDetails) {
        guard let photo = card.first("PHOTO") else { return }
        let value = photo.rawValue.trimmingSpaces
        let encoding = photo.parameter("ENCODING").first?.uppercased()
        if encoding == "B" || encoding == "BASE64" {
            let type = (photo.parameter("TYPE").first ?? photo.parameter("MEDIATYPE").first ?? "JPEG").lowercased()
            let mediaType = type.contains("/") ? type : "image/\(type == "jpg" ? "jpeg" : type)"
            member.photo = "data:\(mediaType);base64,\(value)"
        } else if value.lowercased().hasPrefix("data:") {
            member.photo = value
        } else if !value.isEmpty {
            contact.photoURL = value
        }
    }

    // MARK: Labels

    /// The label a contacts app shows: the group's `X-ABLabel`, else one made from the types
    /// (`Mobile`, `Home`, `Work Fax`), else `Other`.
    private func label(of property: VCardProperty, kinds: Bool) -> String {
        if let label = card.label(of: property), !label.isEmpty { return label }
        let types = Set(property.types)
        let places = [("home", "Home"), ("work", "Work"), ("school", "School"), ("other", "Other")].filter { types.contains($0.0) }.map(\.1)
        var words = places
        if kinds {
            let phoneKinds = [("iphone", "iPhone"), ("cell", "Mobile"), ("mobile", "Mobile"), ("main", "Main"), ("fax", "Fax"), ("pager", "Pager")]
            if let kind = phoneKinds.first(where: { types.contains($0.0) }) { words.append(kind.1) }
        }
        if words.isEmpty, let custom = property.types.first(where: { !["pref", "voice", "internet", "x400", "text", "video", "dom", "intl", "postal", "parcel"].contains($0) && !$0.hasPrefix("x-") }) {
            words = [custom.prefix(1).uppercased() + custom.dropFirst()]
        }
        return words.isEmpty ? "Other" : words.joined(separator: " ")
    }

    private func phoneNumber(_ text: String) -> String {
        var value = text.trimmingSpaces
        if value.lowercased().hasPrefix("tel:") { value = String(value.dropFirst(4)) }
        // RFC 3966's `tel:+1-418-656-9254;ext=102`.
        if let semicolon = value.firstIndex(of: ";") {
            let rest = value[value.index(after: semicolon)...]
            value = rest.lowercased().hasPrefix("ext=") ? value[..<semicolon] + " ext. " + rest.dropFirst(4) : String(value[..<semicolon])
        }
        return value
    }

    // MARK: Relations

    private func readRelations(
        into relations: inout [CardRelation], unplaced: inout [CardRelation],
        anniversaries: inout [(date: PartialDate, line: Int)], dates: inout [LabeledValue]
    ) {
        for property in card.properties {
            let value = property.text.trimmingSpaces
            guard !value.isEmpty else { continue }
            switch property.name {
            case "RELATED":
                let valueType = property.parameter("VALUE").first?.lowercased()
                let target = Self.target(value, isText: valueType == "text")
                let label = "RELATED;TYPE=\(property.types.joined(separator: ","))"
                if let kind = property.types.lazy.compactMap({ RelationKind(rawValue: $0) }).first {
                    relations.append(CardRelation(kind: kind, target: target, label: label, line: property.line))
                } else if property.types.contains("kin") {
                    unplaced.append(CardRelation(kind: .sibling, target: target, label: label, line: property.line))
                }
            case "X-ABRELATEDNAMES":
                guard let label = card.label(of: property) else { continue }
                if let (kind, sex) = Self.relationLabels[label.lowercased()] {
                    relations.append(CardRelation(kind: kind, target: .name(value), sexOfTarget: sex, label: label, line: property.line))
                } else if let sex = Self.kinLabels[label.lowercased()] {
                    unplaced.append(CardRelation(kind: .sibling, target: .name(value), sexOfTarget: sex, label: label, line: property.line))
                }
            case let name where Self.spouseNameProperties.contains(name):
                relations.append(CardRelation(kind: .spouse, target: .name(value), label: name, line: property.line))
            case let name where name.hasPrefix("X-FCENCODED-"):
                // FullContact hex-encodes the real property name: X-FC-RelatedNames:Mother, X-FC-OtherDates:Anniversary.
                guard let decoded = Self.hexDecoded(String(name.dropFirst(12))) else { continue }
                if decoded.hasPrefix("X-FC-RelatedNames:") {
                    let label = String(decoded.dropFirst(18))
                    guard let (kind, sex) = Self.relationLabels[label.lowercased()] else { continue }
                    relations.append(CardRelation(kind: kind, target: .name(value), sexOfTarget: sex, label: label, line: property.line))
                } else if decoded.hasPrefix("X-FC-OtherDates:") {
                    let label = String(decoded.dropFirst(16))
                    if label.lowercased() == "anniversary", let date = VCardDate.parse(value) {
                        anniversaries.append((date, property.line))
                    } else {
                        dates.append(LabeledValue(label: label, value: VCardDate.parse(value)?.description ?? value))
                    }
                }
            default:
                continue
            }
        }
    }

    static func target(_ value: String, isText: Bool) -> RelationTarget {
        let lower = value.lowercased()
        if !isText {
            if lower.hasPrefix("mailto:") { return .email(String(lower.dropFirst(7))) }
            if lower.hasPrefix("urn:") || lower.hasPrefix("http:") || lower.hasPrefix("https:") { return .uid(uidKey(value)) }
            if !lower.utf8.contains(UInt8(ascii: " ")), lower.utf8.contains(UInt8(ascii: "@")) { return .email(lower) }
        }
        return .name(value)
    }

    static func hexDecoded(_ hex: String) -> String? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = VCardParser.hexValue(digits[index]), let low = VCardParser.hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension String {
    var trimmingTrailingCommas: String {
        var result = self
        while result.last == "," || result.last == " " { result.removeLast() }
        return result
    }
}
