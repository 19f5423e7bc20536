/// A person in a family tree.
public struct Member: Sendable, Hashable, Identifiable {
    /// A stable identifier; the seed app's UUID strings are fine.
    public typealias ID = String

    /// A stable id, unique among members (the seed app's UUID strings are fine).
    public var id: ID
    /// First name; may be empty, never absent.
    public var firstName: String
    /// Middle name(s).
    public var middleName: String?
    /// Last name.
    public var lastName: String?
    /// Nickname, shown by name-age labels.
    public var nickname: String?
    /// Sex, when recorded.
    public var sex: Sex?
    /// Birthday, possibly partial (a year, a month and day without a year, about, between).
    public var birthday: PartialDate?
    /// Date of death, possibly partial.
    public var deathDate: PartialDate?
    /// A file path or a `data:` URL.
    public var photo: String? {
        get { self[rarelySet: \.photo] }
        set { self[rarelySet: \.photo] = newValue }
    }
    /// A CSS colour, `#rgb` or `#rrggbb`, or a colour name.
    public var color: String? {
        get { self[rarelySet: \.color] }
        set { self[rarelySet: \.color] = newValue }
    }
    /// Free-text notes.
    public var notes: String? {
        get { self[rarelySet: \.notes] }
        set { self[rarelySet: \.notes] = newValue }
    }
    /// Seed app flag: the person starts a bloodline.
    public var isTopOfBloodline: Bool
    /// Seed app flag: the person joined the family by marriage.
    public var isMarriedIntoFamily: Bool
    /// A date to order siblings by when the birthday itself cannot (GEDCOM 7's `SDATE`).
    public var sortDate: PartialDate? {
        get { self[rarelySet: \.sortDate] }
        set { self[rarelySet: \.sortDate] = newValue }
    }
    /// Birth and death dates as written when they are no date familytree can place ("5 TSH 5300",
    /// "44 B.C."): kept verbatim and shown in the life span.
    public var birthPhrase: String? {
        get { self[rarelySet: \.birthPhrase] }
        set { self[rarelySet: \.birthPhrase] = newValue }
    }
    /// The date of death as written when it is no date familytree can place.
    public var deathPhrase: String? {
        get { self[rarelySet: \.deathPhrase] }
        set { self[rarelySet: \.deathPhrase] = newValue }
    }
    /// A name suffix: "Jr.", "III", "Sr." (GEDCOM's NSFX); shown after the last name.
    public var suffix: String? {
        get { self[rarelySet: \.suffix] }
        set { self[rarelySet: \.suffix] = newValue }
    }
    /// The contact card the member was imported from, with its labelled details.
    public var contact: ContactDetails? {
        get { self[rarelySet: \.contact] }
        set { self[rarelySet: \.contact] = newValue }
    }
    /// What happened in the member's life and the facts about them (burial, residence, occupation,
    /// ...), each with date, place, notes and sources; the first birth and death take their dates
    /// from `birthday` and `deathDate`.
    public var events: [LifeEvent] {
        get { self[rarelySet: \.events] ?? [] }
        set { self[rarelySet: \.events] = newValue.isEmpty ? nil : newValue }
    }
    /// Sources for the person as a whole.
    public var citations: [Citation] {
        get { self[rarelySet: \.citations] ?? [] }
        set { self[rarelySet: \.citations] = newValue.isEmpty ? nil : newValue }
    }
    /// What the genealogy file the member came from said that familytree does not model, kept as
    /// written to be exported again (`_UID`, other names, media, LDS ordinances, ...).
    public var recorded: [RecordedStructure] {
        get { self[rarelySet: \.recorded] ?? [] }
        set { self[rarelySet: \.recorded] = newValue.isEmpty ? nil : newValue }
    }
    /// Soft-deleted: the member's contact card disappeared. Kept in the file, hidden from charts,
    /// restored when the card comes back (or by deleting the flag).
    public var isRemoved: Bool = false

    /// Fields most members of a large tree lack, kept out of line: a tree of a million members holds
    /// one pointer per member for them instead of their 200 bytes.
    private var rarelySet: RarelySet?

    @inline(__always) private subscript<Value>(rarelySet field: WritableKeyPath<RarelySet.Values, Value?>) -> Value? {
        get { rarelySet?.values[keyPath: field] }
        set {
            // Clearing a field a member never had is the common case while reading: nothing to do.
            if newValue == nil, rarelySet == nil { return }
            var values = rarelySet?.values ?? RarelySet.Values()
            values[keyPath: field] = newValue
            rarelySet = RarelySet(values)
        }
    }

    /// The date siblings are ordered by: `sortDate` when there is one, else the birthday.
    public var siblingOrderDate: PartialDate? { sortDate ?? birthday }

    /// A member with the fields given; the rarely set ones (photo, notes, contact, ...) are properties.
    public init(
        id: ID, firstName: String, middleName: String? = nil, lastName: String? = nil, nickname: String? = nil,
        sex: Sex? = nil, birthday: PartialDate? = nil, deathDate: PartialDate? = nil, photo: String? = nil,
        color: String? = nil, notes: String? = nil, isTopOfBloodline: Bool = false, isMarriedIntoFamily: Bool = false
    ) {
        self.id = id
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.nickname = nickname
        self.sex = sex
        self.birthday = birthday
        self.deathDate = deathDate
        self.isTopOfBloodline = isTopOfBloodline
        self.isMarriedIntoFamily = isMarriedIntoFamily
        rarelySet = RarelySet(RarelySet.Values(photo: photo, color: color, notes: notes))
    }

    /// First, middle and last name and the suffix, joined by spaces.
    public var fullName: String {
        [firstName, middleName, lastName, suffix].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The initials of the first name and the surname ("GW" for George Washington, "TB" for Tomás
    /// Ó Briain: the surname's last capitalised word), never of a suffix or title; "?" for no name.
    public var initials: String {
        func capitalised(_ text: String?) -> [Substring] {
            (text ?? "").split(whereSeparator: { $0 == " " || $0 == "-" }).filter { $0.first.map { $0.isUppercase } ?? false }
        }
        let given = capitalised(firstName).first ?? capitalised(middleName).first
        let family = capitalised(lastName).last
        let letters = [given, family].compactMap { $0?.first }
        guard !letters.isEmpty else { return fullName.first.map { String($0).uppercased() } ?? "?" }
        return String(letters).uppercased()
    }

    /// The nickname if there is one, otherwise the first name (as a birthday list shows it: "Dad • 45").
    public var shortName: String {
        if let nickname, !nickname.isEmpty { return nickname }
        return firstName.isEmpty ? fullName : firstName
    }

    /// Birth and death years, `1815–1852`, `1815–`, `–1852`; empty when neither is known.
    public var lifeSpan: String {
        // A birthday without a year still says something: "b. Jul 14".
        let birth = birthday.flatMap { $0.anchor.year == nil ? $0.displayText : $0.yearText } ?? birthPhrase
        let death = deathDate?.yearText ?? deathPhrase
        let isDead = deathDate != nil || deathPhrase != nil
        switch (birth, death) {
        case (nil, nil): return isDead ? "†" : ""
        case (let birth?, nil): return isDead ? "\(birth)–" : "b. \(birth)"
        case (nil, let death?): return "d. \(death)"
        case (let birth?, let death?): return "\(birth)–\(death)"
        }
    }
}

/// An immutable box (members stay values: a change makes a new box).
private final class RarelySet: Sendable, Hashable {
    struct Values: Sendable, Hashable {
        var photo: String?
        var color: String?
        var notes: String?
        var sortDate: PartialDate?
        var birthPhrase: String?
        var deathPhrase: String?
        var contact: ContactDetails?
        var suffix: String?
        var events: [LifeEvent]?
        var citations: [Citation]?
        var recorded: [RecordedStructure]?
    }

    let values: Values

    /// `nil` when every field is empty, so a member without any holds no box.
    init?(_ values: Values) {
        guard values != Values() else { return nil }
        self.values = values
    }

    static func == (left: RarelySet, right: RarelySet) -> Bool { left.values == right.values }
    func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

/// A person's sex as recorded; `nil` on a member means not recorded.
public enum Sex: String, Sendable, Hashable, CaseIterable {
    case male, female, other, unknown
}
