/// A structure of a genealogy file kept as written: a GEDCOM line (tag, optional xref and value)
/// with its substructures. familytree keeps what it does not model this way (vendor tags such as
/// `_UID`, LDS ordinances, records it has no type for) and writes it back where it stood.
public struct RecordedStructure: Sendable, Hashable {
    /// The tag, in capitals (`_UID`, `OBJE`).
    public var tag: String
    /// The record's own xref (`@S1@` gives `S1`), for level-0 records.
    public var xref: String?
    /// The line's value as written (pointers with their `@`s), `nil` when the line has none.
    public var value: String?
    /// The substructures, in file order.
    public var children: [RecordedStructure]

    /// A structure with `tag`, `value` and `children`.
    public init(tag: String, xref: String? = nil, value: String? = nil, children: [RecordedStructure] = []) {
        self.tag = tag
        self.xref = xref
        self.value = value
        self.children = children
    }

    /// The first substructure with `tag`.
    public func first(_ tag: String) -> RecordedStructure? { children.first { $0.tag == tag } }
}

/// Where an event happened: the place as written (its jurisdictions from the smallest, separated
/// by commas), how the jurisdictions are named, and its coordinates when given.
public struct Place: Sendable, Hashable {
    /// The place as written: "Mount Vernon, Fairfax, Virginia, USA".
    public var name: String
    /// What each jurisdiction is ("City, County, State, Country"), GEDCOM's `FORM`.
    public var form: String?
    /// Latitude as GEDCOM writes it ("N38.7083").
    public var latitude: String?
    /// Longitude as GEDCOM writes it ("W77.0861").
    public var longitude: String?
    /// The rest of the place's structure, kept as written (translations, notes, ids).
    public var recorded: [RecordedStructure]

    /// A place named `name`.
    public init(name: String, form: String? = nil, latitude: String? = nil, longitude: String? = nil, recorded: [RecordedStructure] = []) {
        self.name = name
        self.form = form
        self.latitude = latitude
        self.longitude = longitude
        self.recorded = recorded
    }

    /// The jurisdictions from the smallest ("Mount Vernon", "Fairfax", ...), empty ones left out.
    public var jurisdictions: [String] {
        name.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// The place in a few words for a label: its first two jurisdictions.
    public var shortName: String { jurisdictions.prefix(2).joined(separator: ", ") }
}

/// Where a fact comes from: a source record, and where in it.
public struct Citation: Sendable, Hashable {
    /// The source record's id (`S1`), or `nil` for a source described in place (GEDCOM 5.5.1's
    /// `SOUR text`, kept in `description`).
    public var source: String?
    /// A source described in place, with no record of its own.
    public var description: String?
    /// Where in the source: a page, an entry, a film and frame.
    public var page: String?
    /// How sure the evidence is, 0 (unreliable) to 3 (primary), GEDCOM's `QUAY`.
    public var quality: Int?
    /// The words of the source, as transcribed (`DATA.TEXT`).
    public var text: String?
    /// The rest of the citation, kept as written.
    public var recorded: [RecordedStructure]

    /// A citation of `source` (a source record's id).
    public init(source: String?, description: String? = nil, page: String? = nil, quality: Int? = nil, text: String? = nil, recorded: [RecordedStructure] = []) {
        self.source = source
        self.description = description
        self.page = page
        self.quality = quality
        self.text = text
        self.recorded = recorded
    }
}

/// Something that happened in a life or a family, or a fact about a person: a burial, a
/// residence, an occupation; with its date, place, notes and sources.
public struct LifeEvent: Sendable, Hashable {
    /// What kind of event or fact (`burial`, `occupation`; `event` and `fact` for custom ones).
    public var kind: EventKind
    /// A custom event's or fact's own name, and for others a finer kind (GEDCOM's `TYPE`).
    public var type: String?
    /// The fact itself, for facts that have one ("Farmer" for an occupation).
    public var value: String?
    /// When, possibly partial. A person's first birth and death take theirs from the member's
    /// `birthday` and `deathDate`, and a family's first marriage and divorce from the union's.
    public var date: PartialDate?
    /// The date as written when it is no date familytree can place.
    public var datePhrase: String?
    /// Where.
    public var place: Place?
    /// Notes, in order.
    public var notes: [String]
    /// The sources that say so.
    public var citations: [Citation]
    /// The rest of the event's structure, kept as written (age, cause, address, media, ...).
    public var recorded: [RecordedStructure]

    /// An event of `kind`.
    public init(
        _ kind: EventKind, type: String? = nil, value: String? = nil, date: PartialDate? = nil, datePhrase: String? = nil,
        place: Place? = nil, notes: [String] = [], citations: [Citation] = [], recorded: [RecordedStructure] = []
    ) {
        self.kind = kind
        self.type = type
        self.value = value
        self.date = date
        self.datePhrase = datePhrase
        self.place = place
        self.notes = notes
        self.citations = citations
        self.recorded = recorded
    }
}

/// A kind of event or fact, by its GEDCOM tag and named in words.
public struct EventKind: Sendable, Hashable, CustomStringConvertible {
    /// The GEDCOM tag (`BURI`, `OCCU`, or an extension tag such as `_MILT`).
    public var tag: String

    /// The kind with GEDCOM tag `tag`.
    public init(tag: String) { self.tag = tag }

    /// The kind named `word` as tree.json writes it (`burial`), or an extension tag written as is.
    public init?(word: String) {
        if let tag = EventKind.tagOfWord[word] {
            self.tag = tag
        } else if word.hasPrefix("_"), word.count > 1, word.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }) {
            self.tag = word
        } else {
            return nil
        }
    }

    /// The word tree.json writes (`burial`); an extension tag as is.
    public var word: String { EventKind.wordOfTag[tag] ?? tag }

    /// The kind in words for people ("burial", "first communion").
    public var description: String { word.replacing("-", with: " ") }

    /// Whether this is a fact about a person with a value (an occupation, a title) rather than
    /// something that happened.
    public var isAttribute: Bool { EventKind.attributeTags.contains(tag) }

    public static let birth = EventKind(tag: "BIRT")
    public static let death = EventKind(tag: "DEAT")
    public static let burial = EventKind(tag: "BURI")
    public static let marriage = EventKind(tag: "MARR")
    public static let divorce = EventKind(tag: "DIV")
    public static let occupation = EventKind(tag: "OCCU")
    public static let residence = EventKind(tag: "RESI")

    /// The GEDCOM 7 individual and family events and attributes, with their words.
    static let words: [(tag: String, word: String)] = [
        ("BIRT", "birth"), ("CHR", "christening"), ("DEAT", "death"), ("BURI", "burial"), ("CREM", "cremation"),
        ("ADOP", "adoption"), ("BAPM", "baptism"), ("BARM", "bar-mitzvah"), ("BASM", "bat-mitzvah"), ("BLES", "blessing"),
        ("CHRA", "adult-christening"), ("CONF", "confirmation"), ("FCOM", "first-communion"), ("ORDN", "ordination"),
        ("NATU", "naturalization"), ("EMIG", "emigration"), ("IMMI", "immigration"), ("CENS", "census"), ("PROB", "probate"),
        ("WILL", "will"), ("GRAD", "graduation"), ("RETI", "retirement"), ("EVEN", "event"),
        ("CAST", "caste"), ("DSCR", "description"), ("EDUC", "education"), ("IDNO", "identifier"), ("NATI", "nationality"),
        ("NCHI", "children-count"), ("NMR", "marriage-count"), ("OCCU", "occupation"), ("PROP", "property"), ("RELI", "religion"),
        ("RESI", "residence"), ("SSN", "social-security-number"), ("TITL", "title"), ("FACT", "fact"),
        ("ANUL", "annulment"), ("DIV", "divorce"), ("DIVF", "divorce-filing"), ("ENGA", "engagement"), ("MARB", "marriage-banns"),
        ("MARC", "marriage-contract"), ("MARL", "marriage-licence"), ("MARR", "marriage"), ("MARS", "marriage-settlement"),
    ]
    static let wordOfTag = Dictionary(uniqueKeysWithValues: words.map { ($0.tag, $0.word) })
    static let tagOfWord = Dictionary(uniqueKeysWithValues: words.map { ($0.word, $0.tag) })
    static let attributeTags: Set<String> = ["CAST", "DSCR", "EDUC", "IDNO", "NATI", "NCHI", "NMR", "OCCU", "PROP", "RELI", "RESI", "SSN", "TITL", "FACT"]

    /// Whether `tag` is an event or attribute familytree models (extension tags are not).
    public static func isKnown(_ tag: String) -> Bool { wordOfTag[tag] != nil }
}

/// A source record: a book, a register, a census, a web page that facts are cited from.
public struct Source: Sendable, Hashable, Identifiable {
    /// The source's id, which citations name (`S1`).
    public var id: String
    /// Its title.
    public var title: String?
    /// Who wrote or made it.
    public var author: String?
    /// Where and when it was published.
    public var publication: String?
    /// A transcript of it, or of a part of it.
    public var text: String?
    /// The rest of the record, kept as written (repositories, media, notes, ids).
    public var recorded: [RecordedStructure]

    /// A source with id `id`.
    public init(id: String, title: String? = nil, author: String? = nil, publication: String? = nil, text: String? = nil, recorded: [RecordedStructure] = []) {
        self.id = id
        self.title = title
        self.author = author
        self.publication = publication
        self.text = text
        self.recorded = recorded
    }
}

/// What a genealogy file held besides its people, families and sources, kept to be written back:
/// the header's details and every other record (notes, media, repositories, submitters, records
/// of other programs).
public struct GenealogyFile: Sendable, Hashable {
    /// The GEDCOM version the file was written in ("5.5.1", "7.0").
    public var version: String?
    /// The header's substructures other than the version, the character set and the program.
    public var header: [RecordedStructure]
    /// The other records, in file order.
    public var records: [RecordedStructure]

    /// A file's kept parts.
    public init(version: String? = nil, header: [RecordedStructure] = [], records: [RecordedStructure] = []) {
        self.version = version
        self.header = header
        self.records = records
    }

    /// Whether there is nothing to keep.
    public var isEmpty: Bool { version == nil && header.isEmpty && records.isEmpty }
}

extension LifeEvent {
    /// An event as a person types it: its kind, then a date, then where (`burial 1799-12-18 Mount
    /// Vernon, Virginia`); a fact's value comes before the place, which then follows `in`
    /// (`occupation Planter in Mount Vernon`). `nil` when the kind is none familytree knows.
    public init?(describing text: String) {
        var words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        // Kinds of two words ("first communion") may be typed with a space.
        var kind = EventKind(word: words[0].lowercased()) ?? EventKind(word: words[0].uppercased())
        var used = 1
        if words.count > 1, let twoWords = EventKind(word: (words[0] + "-" + words[1]).lowercased()) {
            kind = twoWords
            used = 2
        }
        guard let kind else { return nil }
        words.removeFirst(used)
        self.init(kind)
        // The longest run of words from here that is a date (about 1850, between 1850 and 1860).
        for count in stride(from: min(4, words.count), through: 1, by: -1) {
            if let date = PartialDate(words.prefix(count).joined(separator: " ")) {
                self.date = date
                words.removeFirst(count)
                break
            }
        }
        var rest = words.joined(separator: " ")
        if kind.isAttribute || kind.tag == "EVEN" || kind.tag == "FACT" {
            // A fact's value (an occupation, a custom event's name) and, after "in", its place.
            let parts = rest.components(separatedBy: " in ")
            let value = rest.hasPrefix("in ") ? "" : parts[0]
            rest = rest.hasPrefix("in ") ? String(rest.dropFirst(3)) : parts.dropFirst().joined(separator: " in ")
            if !value.isEmpty {
                if kind.tag == "EVEN" || kind.tag == "FACT" { type = value } else { self.value = value }
            }
        } else if rest.hasPrefix("in ") {
            rest.removeFirst(3)
        }
        let place = rest.trimmingSpaces
        if !place.isEmpty { self.place = Place(name: place) }
    }
}

/// A picture, a scan or a document linked to a person: its file, format and title, read from the
/// media structures a genealogy file gave the person (in place, or a media record they point to).
public struct MediaLink: Sendable, Hashable {
    /// The file's path or URL as the genealogy file wrote it.
    public var file: String
    /// Its format, as written ("jpg", "image/jpeg").
    public var format: String?
    /// Its title.
    public var title: String?

    /// A link to `file`.
    public init(file: String, format: String? = nil, title: String? = nil) {
        self.file = file
        self.format = format
        self.title = title
    }

    /// The links an `OBJE` structure gives: one per `FILE`, with the format and title written
    /// under the file or beside it (5.5.1, 5.5 and 7.0 each put them somewhere else).
    static func links(in structure: RecordedStructure) -> [MediaLink] {
        let sharedTitle = structure.first("TITL")?.value
        let sharedFormat = structure.first("FORM")?.value
        return structure.children.filter { $0.tag == "FILE" }.compactMap { file in
            guard let path = file.value?.trimmingSpaces, !path.isEmpty else { return nil }
            let format = file.first("FORM")
            return MediaLink(file: path, format: format?.value ?? sharedFormat, title: file.first("TITL")?.value ?? format?.first("TITL")?.value ?? sharedTitle)
        }
    }
}

/// The media of every member of a graph, with the graph's media records indexed once (a chart
/// asks for each member's).
public struct MediaCatalog: Sendable {
    private let records: [String: RecordedStructure]

    /// The catalogue of `graph`'s media records.
    public init(_ graph: FamilyGraph) {
        var records: [String: RecordedStructure] = [:]
        for record in graph.genealogyFile?.records ?? [] where record.tag == "OBJE" {
            if let xref = record.xref, records["@\(xref)@"] == nil { records["@\(xref)@"] = record }
        }
        self.records = records
    }

    /// The media a genealogy file linked to `member`: those described in place and those of the
    /// media records the member points to, in the file's order.
    public func media(of member: Member) -> [MediaLink] {
        member.recorded.filter { $0.tag == "OBJE" }.flatMap { object -> [MediaLink] in
            if let pointer = object.value?.trimmingSpaces { return records[pointer].map(MediaLink.links(in:)) ?? [] }
            return MediaLink.links(in: object)
        }
    }
}
