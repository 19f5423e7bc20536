import FamilyTree

/// A contact card with some of its fields replaced by a member's, every other line kept exactly as
/// written: other apps' fields, groups, labels, photos and properties familytree does not read
/// travel back to the address book untouched.
public enum VCardRewrite {
    /// The member fields a card can take back, with the properties each one replaces.
    public static let writableFields: [MemberField: Set<String>] = [
        .firstName: ["N", "FN"], .middleName: ["N", "FN"], .lastName: ["N", "FN"], .suffix: ["N", "FN"],
        .nickname: ["NICKNAME"], .birthday: ["BDAY"], .notes: ["NOTE"], .sex: ["GENDER", "X-GENDER"],
    ]

    /// The writable fields in which `member` differs from `original` (the member as its card made
    /// it), in a fixed order; `sexFromLabels`: the card's sex came from another card's label, not
    /// from the card, so it is not the card's to change.
    public static func changedFields(of member: Member, since original: Member, sexFromLabels: Bool = false) -> [MemberField] {
        let now = member.jsonValue, then = original.jsonValue
        return fieldOrder.filter { field in
            if field == .sex, sexFromLabels { return false }
            return now[field.rawValue] != then[field.rawValue]
        }
    }

    /// The fields a card takes back, in the order they are reported.
    public static let fieldOrder: [MemberField] = [.firstName, .middleName, .lastName, .suffix, .nickname, .birthday, .notes, .sex]

    /// The cards of a vCard file's text, each from its `BEGIN:VCARD` to its `END:VCARD` line as
    /// written (a file's stray lines between cards are not cards).
    public static func cards(in text: String) -> [String] {
        var cards: [String] = []
        var current: [Substring]?
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:VCARD") { current = [] }
            current?.append(line)
            if upper.hasPrefix("END:VCARD"), let lines = current {
                cards.append(lines.joined(separator: "\r\n") + "\r\n")
                current = nil
            }
        }
        return cards
    }

    /// `card` (one `BEGIN:VCARD` ... `END:VCARD`) with `fields` written from `member`; `revision`
    /// replaces `REV` when given. Lines end in CRLF; new lines are folded at 75 octets.
    public static func card(_ card: String, replacing fields: Set<MemberField>, from member: Member, revision: String? = nil) -> String {
        var replaced = Set(fields.flatMap { writableFields[$0] ?? [] })
        if revision != nil { replaced.insert("REV") }
        let lines = logicalLines(card)
        let isVersion4 = lines.contains { name(of: $0) == "VERSION" && value(of: $0).hasPrefix("4") }
        // The name's prefix (`Dr.`) is not a member field: keep it.
        let oldName = lines.first { name(of: $0) == "N" }.map { VCardProperty.split(value(of: $0), at: ";").map(String.init) } ?? []

        var output = ""
        var new = VCardExport.Card(version: isVersion4 ? .v4 : .v3)
        new.legacy = lines.contains { name(of: $0) == "VERSION" && value(of: $0).hasPrefix("2") }
        if replaced.contains("FN") { new.add("FN", member.fullName.isEmpty ? member.id : member.fullName) }
        if replaced.contains("N") {
            let prefix = oldName.count > 3 ? VCardProperty.unescape(Substring(oldName[3])) : ""
            new.addStructured("N", [member.lastName ?? "", member.firstName, member.middleName ?? "", prefix, member.suffix ?? ""])
        }
        if fields.contains(.nickname), let nickname = member.nickname, !nickname.isEmpty { new.add("NICKNAME", nickname) }
        if fields.contains(.birthday), let birthday = member.birthday { new.addBirthday(birthday) }
        if fields.contains(.notes), let notes = member.notes, !notes.isEmpty { new.add("NOTE", notes) }
        if fields.contains(.sex) { new.addSex(member.sex) }
        if let revision { new.add("REV", revision, escaping: false) }

        for line in lines {
            let property = name(of: line)
            if property == "END" { output += new.text }
            if replaced.contains(property) { continue }
            // Apple keeps a birthday without a year as a parameter of BDAY, which is replaced above.
            output += line.joined(separator: "\r\n") + "\r\n"
        }
        return output
    }

    /// The card's logical lines, each as its physical lines (a folded line's continuations, and a
    /// quoted-printable value's soft line breaks, stay with it).
    static func logicalLines(_ card: String) -> [[Substring]] {
        var lines: [[Substring]] = []
        var continuesQuotedPrintable = false
        for physical in card.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let isFolded = physical.first == " " || physical.first == "\t"
            if !lines.isEmpty, isFolded || continuesQuotedPrintable {
                lines[lines.count - 1].append(physical)
            } else {
                lines.append([physical])
            }
            let head = lines[lines.count - 1][0]
            continuesQuotedPrintable = physical.hasSuffix("=") && head.uppercased().contains("QUOTED-PRINTABLE")
        }
        return lines
    }

    /// The property name of a logical line, upper case, without its group: `item1.TEL;TYPE=CELL:...` is `TEL`.
    static func name(of line: [Substring]) -> String {
        guard let first = line.first else { return "" }
        let head = first.prefix { $0 != ":" && $0 != ";" }
        let name = head.split(separator: ".", omittingEmptySubsequences: false).last ?? head
        return name.uppercased()
    }

    /// The value of a logical line, unfolded.
    static func value(of line: [Substring]) -> String {
        let unfolded = line.enumerated().map { $0.offset == 0 ? String($0.element) : String($0.element.dropFirst()) }.joined()
        guard let colon = VCardParser.splitOutsideQuotes(unfolded, at: ":").first.map({ $0.count }) else { return "" }
        return String(unfolded.dropFirst(colon + 1))
    }
}
