import FamilyTree

/// A tree as contact cards, one per member, that `ContactsImport` (and contacts apps) read back.
///
/// Each card has `N`, `FN`, `NICKNAME`, `BDAY` (a birthday without a year as `--MMDD` in 4.0 and with
/// Apple's `X-APPLE-OMIT-YEAR` in 3.0), the sex (`GENDER`, or `X-GENDER` in 3.0), an embedded photo,
/// `NOTE`, the labelled phones, e-mails and addresses the member came with, the first marriage's
/// date as the anniversary, `UID` (the card's own when
/// the member came from one, else one made from the member's id) and `REV`. The family is written as
/// `RELATED` (parent, child, spouse) in 4.0 and as Apple's related names with predefined labels
/// (Mother, Father, Parent, Son, Daughter, Child, Spouse) in 3.0. Every value is escaped (`\\`, `,`,
/// `;`, line breaks) and lines are folded at 75 octets, so no value can start a property of its own.
public struct VCardExport: Sendable {
    /// The vCard version written.
    public enum Version: String, Sendable, CaseIterable {
        case v4 = "4.0"
        case v3 = "3.0"
    }

    /// The version written.
    public var version: Version

    /// An exporter writing `version`.
    public init(version: Version = .v4) {
        self.version = version
    }

    /// The cards of every member of `graph`, in member order, with CRLF line ends.
    public func write(_ graph: FamilyGraph) -> String {
        cards(of: graph).joined()
    }

    /// One card a member, in member order.
    func cards(of graph: FamilyGraph) -> [String] {
        let uids = graph.members.map(Self.uid(of:))
        let topology = graph.topology
        var output: [String] = []
        for (index, member) in graph.members.enumerated() {
            var card = Card(version: version)
            card.add("BEGIN", "VCARD", escaping: false)
            card.add("VERSION", version.rawValue, escaping: false)
            card.add("UID", uids[index], escaping: false)
            if let revision = member.contact?.revision { card.add("REV", revision) }
            card.add("FN", member.fullName.isEmpty ? member.id : member.fullName)
            let name = [member.lastName ?? "", member.firstName, member.middleName ?? "", "", member.suffix ?? ""]
            card.addStructured("N", name)
            if let nickname = member.nickname, !nickname.isEmpty { card.add("NICKNAME", nickname) }
            if let birthday = member.birthday { card.addBirthday(birthday) }
            card.addSex(member.sex)
            if let photo = member.photo { card.addPhoto(photo) }
            if let notes = member.notes, !notes.isEmpty { card.add("NOTE", notes) }
            for phone in member.contact?.phones ?? [] { card.addLabelled("TEL", phone) }
            for email in member.contact?.emails ?? [] { card.addLabelled("EMAIL", email) }
            for address in member.contact?.addresses ?? [] { card.addLabelled("ADR", address, structuredAsStreet: true) }
            // The family: parents, children and partners, each once.
            var seen = Set<Int>()
            func relate(_ other: Int, _ kind: RelationWord) {
                guard other != index, seen.insert(other).inserted else { return }
                card.addRelation(kind, sex: graph.members[other].sex, uid: uids[other], name: graph.members[other].fullName)
            }
            for union in topology.parentUnions[index] { for parent in topology.partners[union] { relate(parent, .parent) } }
            for union in topology.unionsOfMember[index] {
                for partner in topology.partners[union] { relate(partner, .spouse) }
            }
            for union in topology.unionsOfMember[index] { for child in topology.children[union] { relate(child, .child) } }
            // The first marriage with a full date, as the card's anniversary.
            if let marriage = topology.unionsOfMember[index].lazy.compactMap({ graph.unions[$0].marriage }).first(where: Self.isFullDate) {
                card.addAnniversary(marriage)
            }
            card.add("END", "VCARD", escaping: false)
            output.append(card.text)
        }
        return output
    }

    /// The tree as cards written onto `original`, the contacts file it came from: a card of a
    /// member takes back the names, nickname, birthday, notes and sex the tree changed and keeps
    /// every other line as written (other apps' fields, photos, labels, its family as it names it);
    /// a card whose member is not in the tree stays as it is; members that came from no card of
    /// `original` get new cards (as `write(_:)` makes them) after the others.
    public func write(_ graph: FamilyGraph, onto original: [UInt8]) -> String {
        let text = String(decoding: original, as: UTF8.self)
        let base = ContactsImport(bytes: original)
        var baseOfUID: [String: Member] = [:]
        for member in base.document.members {
            if let uid = member.contact?.uid, baseOfUID[uid] == nil { baseOfUID[uid] = member }
        }
        var indexOfUID: [String: Int] = [:]
        for (index, member) in graph.members.enumerated() where !member.isRemoved {
            if let uid = member.contact?.uid, baseOfUID[uid] != nil, indexOfUID[uid] == nil { indexOfUID[uid] = index }
        }
        var output = ""
        var written = Set<Int>()
        for card in VCardRewrite.cards(in: text) {
            // The UID as an import keys the card (a card without one is keyed by its name).
            let uid = ContactsImport(bytes: Array(card.utf8)).document.members.first?.contact?.uid
            guard let uid, let index = indexOfUID[uid], let before = baseOfUID[uid], written.insert(index).inserted else {
                output += card
                continue
            }
            let member = graph.members[index]
            let fields = VCardRewrite.changedFields(of: member, since: before, sexFromLabels: base.membersWithHintedSex.contains(before.id))
            output += fields.isEmpty ? card : VCardRewrite.card(card, replacing: Set(fields), from: member)
        }
        for (index, card) in cards(of: graph).enumerated() where !written.contains(index) && !graph.members[index].isRemoved {
            output += card
        }
        return output
    }

    /// The member's card `UID`: the one it was imported with, else `urn:uuid:` and a UUID made from
    /// its id (the same id gives the same UUID).
    static func uid(of member: Member) -> String {
        if let uid = member.contact?.uid, !uid.isEmpty, !uid.hasPrefix("name:") { return uid }
        let high = StableHash.fnv1a64("familytree member " + member.id)
        let low = StableHash.fnv1a64(member.id + " familytree member")
        var hex = Array(high + low)
        hex[12] = "8" // version 8: a custom UUID
        hex[16] = ["8", "9", "a", "b"][Int(String(hex[16]), radix: 16)! % 4]
        let text = String(hex)
        func part(_ start: Int, _ length: Int) -> String {
            let from = text.index(text.startIndex, offsetBy: start)
            return String(text[from..<text.index(from, offsetBy: length)])
        }
        return "urn:uuid:\(part(0, 8))-\(part(8, 4))-\(part(12, 4))-\(part(16, 4))-\(part(20, 12))"
    }

    static func isFullDate(_ date: PartialDate) -> Bool {
        if case .exact(let day) = date { return day.year != nil && day.month != nil && day.day != nil }
        return false
    }

    enum RelationWord {
        case parent, child, spouse
    }

    /// One card being written.
    struct Card {
        let version: Version
        /// Lines for a vCard 2.1 card (a rewrite keeps a card's version): a value that is not plain
        /// ASCII on one line is written as quoted-printable UTF-8 and says so, as 2.1 readers need;
        /// 2.1 has no `\n` or `\,` escapes.
        var legacy = false
        var text = ""
        var group = 0

        /// `NAME:value`, the value escaped unless told otherwise, folded.
        mutating func add(_ name: String, _ value: String, parameters: String = "", escaping: Bool = true) {
            if legacy, escaping {
                addLegacy(name + parameters, Self.escapedLegacy(value, structured: false))
                return
            }
            fold(name + parameters + ":" + (escaping ? Self.escaped(value) : SafeText.singleLine(value)))
        }

        mutating func addStructured(_ name: String, _ parts: [String]) {
            if legacy {
                addLegacy(name, parts.map { Self.escapedLegacy($0, structured: true) }.joined(separator: ";"))
                return
            }
            fold(name + ":" + parts.map { Self.escaped($0) }.joined(separator: ";"))
        }

        /// A vCard 2.1 line: plain when the value is printable ASCII, else quoted-printable UTF-8
        /// (line breaks as `=0D=0A`), wrapped with soft line breaks within 76 octets.
        private mutating func addLegacy(_ head: String, _ value: String) {
            guard value.unicodeScalars.contains(where: { $0.value > 0x7E || $0.value < 0x20 }) else {
                fold(head + ":" + value)
                return
            }
            var line = head + ";CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:"
            var width = line.utf8.count
            let hex = Array("0123456789ABCDEF".utf8)
            let bytes = Array(value.utf8)
            for (index, byte) in bytes.enumerated() {
                func encoded() -> String { "=" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]], as: UTF8.self) }
                let plain = (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=") || (byte == 0x20 && index + 1 < bytes.count)
                var piece = plain ? String(UnicodeScalar(byte)) : encoded()
                if width + piece.count > 75 {
                    line += "=\r\n"
                    width = 0
                }
                // A space never starts a line: a reader unfolding 3.0-style would take it for a fold.
                if byte == 0x20, width == 0 { piece = encoded() }
                line += piece
                width += piece.count
            }
            text += line + "\r\n"
        }

        /// A value for vCard 2.1: a line break is CR LF (encoded by `addLegacy`), a structured
        /// part's `;` and any backslash escaped (2.1 has no `\,`); control characters dropped.
        static func escapedLegacy(_ value: String, structured: Bool) -> String {
            escaped(value, lineBreak: "\r\n", commas: false, semicolons: structured)
        }

        mutating func addBirthday(_ birthday: PartialDate) {
            let date: CalendarDate
            switch birthday {
            case .exact(let day), .about(let day), .before(let day), .after(let day): date = day
            case .between: return
            }
            func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
            switch (date.year, date.month, date.day) {
            case (let year?, let month?, let day?): add("BDAY", "\(Self.four(year))-\(two(month))-\(two(day))", escaping: false)
            case (let year?, let month?, nil): add("BDAY", "\(Self.four(year))-\(two(month))", escaping: false)
            case (let year?, nil, nil): add("BDAY", Self.four(year), escaping: false)
            case (nil, let month?, let day?):
                if version == .v4 {
                    add("BDAY", "--\(two(month))\(two(day))", escaping: false)
                } else {
                    // Apple's way: a leap year stands for "no year".
                    add("BDAY", "1604-\(two(month))-\(two(day))", parameters: ";X-APPLE-OMIT-YEAR=1604", escaping: false)
                }
            default:
                return
            }
        }

        mutating func addAnniversary(_ date: PartialDate) {
            guard case .exact(let day) = date, let year = day.year, let month = day.month, let dayOfMonth = day.day else { return }
            let text = "\(Self.four(year))-\(month < 10 ? "0" : "")\(month)-\(dayOfMonth < 10 ? "0" : "")\(dayOfMonth)"
            if version == .v4 {
                add("ANNIVERSARY", text, escaping: false)
            } else {
                group += 1
                fold("item\(group).X-ABDATE:" + text)
                fold("item\(group).X-ABLabel:_$!<Anniversary>!$_")
            }
        }

        mutating func addSex(_ sex: Sex?) {
            switch (version, sex) {
            case (.v4, .male?): add("GENDER", "M", escaping: false)
            case (.v4, .female?): add("GENDER", "F", escaping: false)
            case (.v4, .other?): add("GENDER", "O", escaping: false)
            case (.v3, .male?): add("X-GENDER", "Male", escaping: false)
            case (.v3, .female?): add("X-GENDER", "Female", escaping: false)
            default: return
            }
        }

        mutating func addPhoto(_ photo: String) {
            // Only an embedded image travels with the card; a file path means nothing elsewhere.
            guard let photo = ImageData.validatedDataURL(photo, maximumBytes: 10_000_000), let comma = photo.firstIndex(of: ",") else { return }
            let data = String(photo[photo.index(after: comma)...])
            if version == .v4 {
                fold("PHOTO:" + String(photo[..<comma]) + "," + data)
            } else {
                let type = photo.dropFirst(11).prefix { $0 != ";" }.uppercased().filter { $0.isLetter || $0.isNumber }
                fold("PHOTO;ENCODING=b;TYPE=\(type):" + data)
            }
        }

        /// A phone, e-mail or address with its label, as a group with Apple's `X-ABLabel`.
        mutating func addLabelled(_ name: String, _ value: LabeledValue, structuredAsStreet: Bool = false) {
            group += 1
            let item = "item\(group)."
            if structuredAsStreet {
                fold(item + name + ":;;" + Self.escaped(value.value) + ";;;;")
            } else {
                fold(item + name + ":" + Self.escaped(value.value))
            }
            fold(item + "X-ABLabel:" + Self.escaped(value.label))
        }

        mutating func addRelation(_ kind: RelationWord, sex: Sex?, uid: String, name: String) {
            if version == .v4 {
                let type = switch kind { case .parent: "parent"; case .child: "child"; case .spouse: "spouse" }
                // RELATED holds a URI: a UID that is not one is named as a urn:uuid.
                add("RELATED", uid.contains(":") ? uid : "urn:uuid:" + uid, parameters: ";TYPE=\(type)", escaping: false)
                return
            }
            guard !name.isEmpty else { return }
            let label: String
            switch (kind, sex) {
            case (.parent, .female?): label = "Mother"
            case (.parent, .male?): label = "Father"
            case (.parent, _): label = "Parent"
            case (.child, .female?): label = "Daughter"
            case (.child, .male?): label = "Son"
            case (.child, _): label = "Child"
            case (.spouse, _): label = "Spouse"
            }
            group += 1
            fold("item\(group).X-ABRELATEDNAMES:" + Self.escaped(name))
            fold("item\(group).X-ABLabel:_$!<\(label)>!$_")
        }

        /// The line, folded so no line is longer than 75 octets (never inside a character), CRLF-ended.
        mutating func fold(_ line: String) {
            var width = 0
            for character in line {
                let size = String(character).utf8.count
                if width + size > 75 {
                    text += "\r\n "
                    width = 1
                }
                text.append(character)
                width += size
            }
            text += "\r\n"
        }

        /// A text value escaped: `\\`, `,`, `;` and every line break (as `lineBreak`); control
        /// characters dropped.
        static func escaped(_ value: String, lineBreak: String = "\\n", commas: Bool = true, semicolons: Bool = true) -> String {
            var result = ""
            for line in SafeText.lines(value).enumerated() {
                if line.offset > 0 { result += lineBreak }
                for scalar in line.element.unicodeScalars {
                    switch scalar {
                    case "\\": result += "\\\\"
                    case "," where commas: result += "\\,"
                    case ";" where semicolons: result += "\\;"
                    default:
                        if SafeText.isTerminalControl(scalar) || !SafeText.isXMLCharacter(scalar) { continue }
                        result.unicodeScalars.append(scalar)
                    }
                }
            }
            return result
        }

        static func four(_ year: Int) -> String {
            let digits = String(year)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }
}
