import FamilyTree
import FamilyTreeLayout

/// What a member's box says.
public enum LabelFormat: String, Sendable, Hashable, CaseIterable {
    /// The full name, then the life span: "Ada Lovelace" / "1815–1852".
    case nameYears = "name-years"
    /// A birthday list's style: nickname or first name and age, "Dad • 45", then the birthday.
    case nameAge = "name-age"
    /// The full name only.
    case name
    /// The full name, then the relationship to a home person: "Aunt", "2nd cousin 1x removed".
    case relation
    /// The full name, the life span, and where the person was born: "Popes Creek, Westmoreland".
    case nameYearsPlace = "name-years-place"
    /// The full name, the life span, and the occupation: "Planter".
    case nameOccupation = "name-occupation"
}

/// Produces the lines of text for each member's box, and the box size that fits them.
public struct Labeler: Sendable {
    /// What a label says.
    public var format: LabelFormat
    /// The day ages are computed on, as a `CalendarDate` day number; required for `.nameAge`.
    public var today: Int?
    /// Each member's relationship to the home person, by member id; required for `.relation`.
    public var relations: [Member.ID: String]
    /// Members whose names are never cut (the outlined person): wrapped onto as many lines as
    /// they need, up to `unabridgedNameLines`.
    public var unabridged: Set<Member.ID> = []

    /// The widest a box may grow; a longer name wraps, a longer detail is shortened with an ellipsis.
    public static let maximumWidth = 260.0
    /// The narrowest box, in points.
    public static let minimumWidth = 120.0

    /// A labeler in `format`; `today` (a day number) gives ages, `relations` the words for `.relation`.
    public init(format: LabelFormat = .nameYears, today: Int? = nil, relations: [Member.ID: String] = [:]) {
        self.format = format
        self.today = today
        self.relations = relations
    }

    /// Labels naming each member's relationship to `home` (the closest one, capitalised: "Aunt");
    /// of the members with the ids in `only` when given (the people a chart draws), else of everyone.
    ///
    /// With `byBloodFirst` (a relationship chart, which draws the lines of blood through common
    /// ancestors) a relative by blood is named by the closest blood relationship, and by a closer
    /// one by marriage after it: "First cousin (husband)", where the closest alone would say
    /// "Husband" under a drawing of the two as cousins; and someone joined to `home` only through
    /// several marriages, by the chain ("Wife's sister's husband").
    public static func relations(to home: Int, in graph: FamilyGraph, only: [Member.ID]? = nil, byBloodFirst: Bool = false) -> [Member.ID: String] {
        let members = only.map { $0.compactMap(graph.index(of:)) } ?? Array(graph.members.indices)
        let calculator = RelationshipCalculator(graph)
        // One budget for the closest relationships and the chains of those they leave unrelated.
        var budget = RelationshipCalculator.everyoneBudget
        let closest = calculator.closestRelationships(from: home, toEach: members, budgetLeft: &budget)
        var named = closest.map { $0?.english }
        if byBloodFirst {
            // Every way is looked for only where the closest is by marriage (a royal pedigree has
            // thousands of ways to each relative).
            let byMarriage = closest.indices.filter { closest[$0].map { !$0.isByBlood } ?? false }
            for (position, ways) in zip(byMarriage, calculator.relationships(from: home, toEach: byMarriage.map { members[$0] })) {
                if let blood = ways.first(where: \.isByBlood), let words = named[position] { named[position] = "\(blood.english) (\(words))" }
            }
            // Connected through several marriages: the chain ("sister-in-law's husband").
            let unrelated = named.indices.filter { named[$0] == nil }
            if !unrelated.isEmpty {
                let words = calculator.connectionWords(from: home, toEach: unrelated.map { members[$0] }, maximumLinks: maximumChainLinks, budgetLeft: &budget)
                for (position, words) in zip(unrelated, words) { named[position] = words }
            }
        }
        var result: [Member.ID: String] = [:]
        for (index, words) in zip(members, named) {
            guard let words else { continue }
            let shown = index == home ? "Home person" : words
            result[graph.members[index].id] = shown.prefix(1).uppercased() + shown.dropFirst()
        }
        return result
    }

    /// The most links of a chain of marriages a label words; a longer one says what joins it
    /// ("Connected through 9 marriages"), which is all a box could show of it.
    public static let maximumChainLinks = 6

    /// The most lines a name wraps onto; only a name longer still is cut, with an ellipsis.
    public static let maximumNameLines = 3
    /// The most lines an unabridged name wraps onto: every real name fits (about 600 letters); a
    /// name longer still is hostile input, and a box must stay a box.
    public static let unabridgedNameLines = 24

    /// What a member's box says: the name, wrapped onto as many lines as it needs (up to
    /// `maximumNameLines`), then the details, each shortened to fit the maximum width.
    public struct BoxText: Sendable, Hashable {
        /// The name's lines, drawn bold.
        public var name: [String]
        /// The lines under the name: years, an age, a place, a relationship.
        public var details: [String]
        /// Every line, the name's first.
        public var lines: [String] { name + details }
    }

    /// The lines shown in the member's box: the name's (wrapped) and the details, each fitting
    /// the maximum width.
    public func lines(for member: Member) -> [String] { text(for: member).lines }

    /// What the member's box says, the name wrapped rather than cut.
    public func text(for member: Member) -> BoxText {
        let fullName = member.fullName
        let name = fullName.allSatisfy(\.isWhitespace) ? "(no name)" : fullName
        let raw: [String]
        switch format {
        case .name:
            raw = [name]
        case .nameYears:
            raw = [name, member.lifeSpan].filter { !$0.isEmpty }
        case .nameAge:
            var first = member.shortName.isEmpty ? name : member.shortName
            if let age = age(of: member) { first += " • " + age }
            raw = [first, member.birthday.map(\.displayText) ?? ""].filter { !$0.isEmpty }
        case .relation:
            raw = [name, relations[member.id] ?? ""].filter { !$0.isEmpty }
        case .nameYearsPlace:
            raw = [name, member.lifeSpan, EventWording.birthPlace(of: member) ?? ""].filter { !$0.isEmpty }
        case .nameOccupation:
            raw = [name, member.lifeSpan, EventWording.occupation(of: member) ?? ""].filter { !$0.isEmpty }
        }
        let nameLines = unabridged.contains(member.id) ? Labeler.unabridgedNameLines : Labeler.maximumNameLines
        return BoxText(name: Labeler.wrapped(raw[0], fontSize: 13, maximumLines: nameLines), details: raw.dropFirst().map { Labeler.shortened($0, fontSize: 11) })
    }

    /// `text` on lines no wider than `limit`, broken between words (inside a word only when the
    /// word alone is wider), at most `maximumLines` of them, the last shortened if the rest
    /// still does not fit.
    static func wrapped(_ text: String, fontSize: Double, limit: Double = maximumWidth - 24, maximumLines: Int = maximumNameLines) -> [String] {
        // Most names are printable ASCII words one space apart, already as they would be joined
        // below: measured without splitting (a third of a large tree's labelling time).
        if Labeler.isPlainASCIIWords(text), textWidth(text, fontSize: fontSize) <= limit { return [text] }
        // One or two names per line in a box is the point: whitespace inside a name (a newline, a
        // tab) reads as one space.
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let single = words.joined(separator: " ")
        guard textWidth(single, fontSize: fontSize) > limit else { return [single] }
        var lines: [String] = []
        var current = ""
        var remaining = words[...]
        while let word = remaining.first, lines.count < maximumLines - 1 {
            let candidate = current.isEmpty ? word : current + " " + word
            if textWidth(candidate, fontSize: fontSize) <= limit {
                current = candidate
                remaining = remaining.dropFirst()
            } else if current.isEmpty {
                // A word wider than a line on its own: as much of it as fits, the rest next.
                var width = 0.0
                var fitted = ""
                for character in word {
                    let characterWidth = textWidth(String(character), fontSize: fontSize)
                    if width + characterWidth > limit, !fitted.isEmpty { break }
                    width += characterWidth
                    fitted.append(character)
                }
                lines.append(fitted)
                remaining = [String(word.dropFirst(fitted.count))] + remaining.dropFirst()
            } else {
                lines.append(current)
                current = ""
            }
        }
        let rest = ([current].filter { !$0.isEmpty } + remaining).joined(separator: " ")
        if !rest.isEmpty { lines.append(shortened(rest, fontSize: fontSize, limit: limit)) }
        return lines
    }

    /// Whether `text` is printable ASCII words separated by single spaces, nothing before the first
    /// or after the last: what splitting on whitespace and joining with one space leaves unchanged.
    static func isPlainASCIIWords(_ text: String) -> Bool {
        var previousWasSpace = true
        for byte in text.utf8 {
            if byte == 0x20 {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else if byte > 0x20, byte < 0x7F {
                previousWasSpace = false
            } else {
                return false
            }
        }
        return !previousWasSpace
    }

    /// The age today, or "†80" (age at death) for the dead; nil when unknown.
    func age(of member: Member) -> String? {
        guard let birthday = member.birthday else { return nil }
        if let death = member.deathDate {
            return Age(birthday: birthday, death: death).map { "†\($0)" } ?? "†"
        }
        // Dead without a date, or born longer ago than anyone lives: no age today.
        if member.deathPhrase != nil { return "†" }
        guard let today, !LivingRule().isDead(member, on: today), let age = Age(birthday: birthday, on: today) else { return nil }
        return age.description
    }

    /// The box that fits the member's lines.
    public func boxSize(for member: Member) -> Size {
        let text = text(for: member)
        let widest = (text.name.map { Labeler.textWidth($0, fontSize: 13) } + text.details.map { Labeler.textWidth($0, fontSize: 11) }).max() ?? 0
        let photoWidth = Labeler.embeddablePhoto(member) == nil ? 0.0 : 40
        let width = min(Labeler.maximumWidth + photoWidth, max(Labeler.minimumWidth, widest + 24 + photoWidth))
        // Each line past the second (a wrapped name, a place, an occupation) makes the box a line taller.
        return Size(width: width.rounded(.up), height: 48 + 16 * Double(max(0, text.lines.count - 2)))
    }

    /// An estimate of the rendered width of `text` in a sans-serif font.
    static func textWidth(_ text: String, fontSize: Double) -> Double {
        var units = 0.0
        for scalar in text.unicodeScalars { units += unitWidth(scalar) }
        return units * fontSize
    }

    /// How wide `scalar` is, in font sizes (see `textWidth`).
    static func unitWidth(_ scalar: Unicode.Scalar) -> Double {
        switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200F: 0 // combining marks, zero-width
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x1F300...0x1FAFF: 1.0
        case 0x4D, 0x57: 0.85 // M W
        case 0x49: 0.3 // I
        case 0x41...0x5A: 0.68
        case 0x6D, 0x77: 0.82 // m w
        case 0x20, 0x2E, 0x2C, 0x69, 0x6A, 0x6C, 0x27, 0x3A, 0x3B, 0x21, 0x7C: 0.3
        case 0x28, 0x29, 0x2D, 0x5B, 0x5D, 0x2F, 0x66, 0x74, 0x72: 0.36 // ( ) - [ ] / f t r
        default: 0.55
        }
    }

    static func shortened(_ text: String, fontSize: Double, limit: Double = maximumWidth - 24) -> String {
        guard textWidth(text, fontSize: fontSize) > limit else { return text }
        // Widths add up character by character: one pass, however long the text.
        let ellipsis = textWidth("…", fontSize: fontSize)
        var result = ""
        var width = 0.0
        for character in text {
            let characterWidth = textWidth(String(character), fontSize: fontSize)
            if width + characterWidth + ellipsis > limit { break }
            width += characterWidth
            result.append(character)
        }
        return result + "…"
    }

    /// A photo the SVG can embed: only `data:image/...` URLs (an SVG with external references
    /// would not stand alone).
    static func embeddablePhoto(_ member: Member) -> String? {
        member.photo.flatMap { ImageData.validatedDataURL($0) }
    }
}

extension LayeredLayout {
    /// Our layout with boxes sized to fit `labeler`'s text.
    public init(labeler: Labeler, direction: LayoutDirection = .topDown) {
        self.init(options: .init(direction: direction, boxSize: { labeler.boxSize(for: $0) }))
    }
}
