/// Names as people type them: case, accents and spacing do not matter, so "zoe o briain" finds
/// "Zoë Ó Briain". One rule for every place a name is looked up (the command line's member
/// arguments, the editing commands, contacts' related names).
public enum NameKey {
    /// `name` lower-cased, with Latin accents and ligatures folded to their letters (ä to a, ß to
    /// ss, Ł to l), combining marks dropped, and runs of white space made one space.
    public static func normalized(_ name: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in name.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            // Combining diacritical marks (a name typed in decomposed form).
            if (0x0300...0x036F).contains(scalar.value) { continue }
            if pendingSpace {
                result += " "
                pendingSpace = false
            }
            result += folded(scalar)
        }
        return result
    }

    /// Latin Extended-A (U+0100 to U+017F), lower-cased and folded, one letter each.
    private static let extendedA = Array(
        "aaaaaa" + "cccccccc" + "dddd" + "eeeeeeeeee" + "gggggggg" + "hhhh" + "iiiiiiiiii" + "ii" + "jj" + "kkk"
            + "llllllllll" + "nnnnnnnnn" + "oooooooo" + "rrrrrr" + "ssssssss" + "tttttt" + "uuuuuuuuuuuu" + "ww" + "yyy" + "zzzzzz" + "s"
    )

    private static func folded(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0xE0...0xE5: "a"
        case 0xE6: "ae"
        case 0xE7: "c"
        case 0xE8...0xEB: "e"
        case 0xEC...0xEF: "i"
        case 0xF0: "d"
        case 0xF1: "n"
        case 0xF2...0xF6, 0xF8: "o"
        case 0xF9...0xFC: "u"
        case 0xFD, 0xFF: "y"
        case 0xFE: "th"
        case 0xDF: "ss"
        case 0x0153: "oe"
        case 0x0100...0x017F: String(extendedA[Int(scalar.value - 0x0100)])
        default: String(scalar)
        }
    }
}

/// The members' names, indexed for lookups in tiers: full name (or first and last), then
/// nickname, then first name. A name is read in the first tier where it matches anyone.
public struct NameIndex: Sendable {
    private var fullNames: [String: [Int]] = [:]
    private var nicknames: [String: [Int]] = [:]
    private var firstNames: [String: [Int]] = [:]

    /// Indexes `members`; `otherNames` adds names a member is also known by (a contact card's
    /// formatted name), by member position.
    public init(_ members: [Member], otherNames: [Int: [String]] = [:]) {
        func add(_ name: String, _ index: Int, to table: inout [String: [Int]]) {
            let key = NameKey.normalized(name)
            guard !key.isEmpty, table[key]?.last != index else { return }
            table[key, default: []].append(index)
        }
        for (index, member) in members.enumerated() {
            add(member.fullName, index, to: &fullNames)
            add([member.firstName, member.lastName ?? ""].joined(separator: " "), index, to: &fullNames)
            for name in otherNames[index] ?? [] { add(name, index, to: &fullNames) }
            if let nickname = member.nickname { add(nickname, index, to: &nicknames) }
            add(member.firstName, index, to: &firstNames)
        }
    }

    /// The members `name` names in each tier, in member order: full name, nickname, first name.
    public func tiers(for name: String) -> [[Int]] {
        let key = NameKey.normalized(name)
        return [fullNames[key] ?? [], nicknames[key] ?? [], firstNames[key] ?? []]
    }

    /// The members `name` names in its first tier that names anyone (`excluding` one member, such
    /// as the card that mentions the name); several means the name is ambiguous.
    public func matches(for name: String, excluding excluded: Int? = nil) -> [Int] {
        for tier in tiers(for: name) {
            let matches = excluded.map { excluded in tier.filter { $0 != excluded } } ?? tier
            if !matches.isEmpty { return matches }
        }
        return []
    }
}
