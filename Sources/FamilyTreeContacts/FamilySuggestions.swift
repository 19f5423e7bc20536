import FamilyTree
import Foundation

/// One contact card ranked by how likely it is family, with the reasons.
public struct FamilySuggestion: Sendable, Hashable {
    /// The card's formatted name (`FN`), or its `N` parts.
    public var name: String
    /// The line of the card's `BEGIN:VCARD`.
    public var line: Int
    /// The sum of the signals' points (see `FamilySuggestions.Signal`).
    public var score: Int
    /// Each signal that counted, in words, in the order of `FamilySuggestions.Signal`.
    public var reasons: [String]
    /// Whether a member of the tree came from this card (same `UID`) or has its name.
    public var alreadyInTree: Bool
    /// Whether the score reaches `FamilySuggestions.confidentScore`.
    public var isConfident: Bool
}

/// Which contacts are probably family: a small scoring function over what a card says.
///
/// Signals and their points (`Signal`): related names with a predefined label (+40 for the first,
/// +10 for each of the next two; Apple's `_$!<Mother>!$_`, vCard 4's `RELATED;TYPE=parent`; custom labels never
/// count), a family word in the name, nickname or note (+30; `familyWords`, per language), a
/// surname shared with the tree or the user (+20), a photo (+5), several phones or e-mails (+5),
/// and a job title or organisation (-15). A card scoring `confidentScore` or more is a confident
/// suggestion.
public enum FamilySuggestions {
    /// What counts for or against a card, with its points.
    public enum Signal: String, Sendable, CaseIterable {
        case relatedNames, familyWord, sharedSurname, photo, severalWaysToReach, work

        /// The points the signal adds (negative: takes away).
        public var points: Int {
            switch self {
            case .relatedNames: 40
            case .familyWord: 30
            case .sharedSurname: 20
            case .photo, .severalWaysToReach: 5
            case .work: -15
            }
        }
    }

    /// The score from which a card is a confident suggestion.
    public static let confidentScore = 40

    /// Predefined relation labels that count (lower case): Apple's and Google's label names and
    /// vCard 4's `RELATED` types.
    public static let relationLabels: Set<String> = [
        "father", "mother", "parent", "brother", "sister", "sibling", "child", "son", "daughter", "spouse", "partner",
    ]

    /// Words that name a relative, per language, lower case and without accents; matched as whole
    /// words of a name, nickname or note, ignoring case and accents.
    public static let familyWords: [(language: String, words: [String])] = [
        ("English", ["mom", "mum", "mommy", "mummy", "mother", "dad", "daddy", "father", "grandma", "grandpa", "granny",
                     "grandmother", "grandfather", "nana", "aunt", "auntie", "uncle", "cousin", "sis", "bro", "brother",
                     "sister", "son", "daughter", "wife", "husband", "stepmom", "stepdad"]),
        ("German", ["mama", "papa", "mutti", "vati", "oma", "opa", "tante", "onkel", "bruder", "schwester", "cousine",
                    "sohn", "tochter", "schwiegermutter", "schwiegervater"]),
        ("Spanish", ["mama", "papa", "abuela", "abuelo", "tia", "tio", "hermano", "hermana", "primo", "prima", "hijo", "hija",
                     "suegra", "suegro"]),
        ("Italian", ["mamma", "papa", "nonna", "nonno", "zia", "zio", "fratello", "sorella", "cugino", "cugina", "figlio", "figlia"]),
        ("French", ["maman", "papa", "mamie", "papi", "papy", "grand-mere", "grand-pere", "tante", "oncle", "frere", "soeur",
                    "cousin", "cousine", "fils", "fille"]),
        ("Portuguese", ["mae", "pai", "avo", "vovo", "tia", "tio", "irmao", "irma", "primo", "prima", "filho", "filha"]),
        ("Dutch", ["mam", "pap", "oma", "opa", "tante", "oom", "broer", "zus", "zoon", "dochter"]),
    ]

    private static let wordSet: Set<String> = Set(familyWords.flatMap(\.words))

    /// The cards ranked: confident suggestions first (at most `limit`), then the rest by score;
    /// equal scores keep the file's order. `tree` marks cards already in it and gives surnames;
    /// `userSurname` is the user's own.
    public static func rank(_ cards: [VCard], tree: TreeDocument? = nil, userSurname: String? = nil, limit: Int = 6) -> [FamilySuggestion] {
        let members = tree?.members ?? []
        var surnames = Set(members.compactMap { $0.lastName.map(folded) }.filter { !$0.isEmpty })
        if let userSurname, !userSurname.isEmpty { surnames.insert(folded(userSurname)) }
        let uids = Set(members.compactMap { $0.contact?.uid.lowercased() })
        let names = Set(members.map { folded($0.fullName) })
        let scored = cards.map { card -> FamilySuggestion in
            let (score, reasons) = self.score(card, surnames: surnames)
            let name = displayName(card)
            let uid = card.first("UID").map { $0.text.trimmingCharacters(in: .whitespaces).lowercased() }
            let known = (uid.map { uids.contains($0) || uids.contains(String($0.trimmingPrefix("urn:uuid:"))) } ?? false) || names.contains(folded(name))
            return FamilySuggestion(name: name, line: card.line, score: score, reasons: reasons, alreadyInTree: known, isConfident: score >= confidentScore)
        }
        let order = scored.indices.sorted { (scored[$0].score, -$0) > (scored[$1].score, -$1) }
        var confident: [FamilySuggestion] = []
        var rest: [FamilySuggestion] = []
        for index in order {
            var suggestion = scored[index]
            if suggestion.isConfident, confident.count < limit {
                confident.append(suggestion)
            } else {
                suggestion.isConfident = false
                rest.append(suggestion)
            }
        }
        return confident + rest
    }

    /// The card's score and the reasons, by `Signal`.
    public static func score(_ card: VCard, surnames: Set<String> = []) -> (score: Int, reasons: [String]) {
        var score = 0
        var reasons: [String] = []
        func add(_ signal: Signal, _ reason: String, extra: Int = 0) {
            score += signal.points + extra
            reasons.append(reason)
        }
        let related = relatedLabels(card)
        if !related.isEmpty {
            add(.relatedNames, "related names: \(related.joined(separator: ", "))", extra: 10 * min(2, related.count - 1))
        }
        let texts = [displayName(card)] + card.properties("NICKNAME").flatMap(\.list) + card.properties("NOTE").map(\.text)
        if let word = texts.lazy.compactMap(familyWord(in:)).first { add(.familyWord, "family word \"\(word)\"") }
        if let surname = card.first("N")?.components.first.map(folded), !surname.isEmpty, surnames.contains(surname) {
            add(.sharedSurname, "surname shared with the family")
        }
        if card.first("PHOTO") != nil { add(.photo, "has a photo") }
        let ways = card.properties("TEL").count + card.properties("EMAIL").count
        if ways >= 2 { add(.severalWaysToReach, "\(ways) phones and e-mails") }
        let organisation = card.first("ORG")?.components.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: ", ")
        let work = ([organisation] + ["TITLE", "ROLE"].map { card.first($0)?.text.trimmingCharacters(in: .whitespaces) })
            .compactMap { $0 }.filter { !$0.isEmpty }
        if let first = work.first { add(.work, "work contact (\(first))") }
        return (score, reasons)
    }

    /// The predefined relation labels on the card, in order (custom labels are left out).
    static func relatedLabels(_ card: VCard) -> [String] {
        var labels: [String] = []
        for property in card.properties {
            switch property.name {
            case "RELATED":
                labels += property.types.filter { relationLabels.contains($0) }
            case "X-ABRELATEDNAMES":
                // Apple writes a predefined label wrapped, `_$!<Mother>!$_`; a custom one plain.
                guard let group = property.group,
                      let label = card.properties.first(where: { $0.group == group && $0.name == "X-ABLABEL" })?.text,
                      label.hasPrefix("_$!<"), label.hasSuffix(">!$_") else { continue }
                let name = VCardProperty.unwrappedAppleLabel(label).lowercased()
                if relationLabels.contains(name) { labels.append(name) }
            default:
                continue
            }
        }
        return labels
    }

    /// The first family word in `text`, as written in `familyWords`.
    static func familyWord(in text: String) -> String? {
        let words = folded(text).split { !($0.isLetter || $0 == "-") }
        return words.first { wordSet.contains(String($0)) }.map(String.init)
    }

    static func displayName(_ card: VCard) -> String {
        if let name = card.first("FN")?.text.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        let parts = card.first("N")?.components ?? []
        let ordered = parts.count > 1 ? [parts[1], parts[0]] : parts
        return ordered.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Lower case, accents dropped.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
