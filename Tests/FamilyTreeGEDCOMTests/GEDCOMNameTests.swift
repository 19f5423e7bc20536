import Testing
import FamilyTree
@testable import FamilyTreeGEDCOM

/// Names as real files write them: GIVN and SURN as comma lists, suffixes in NSFX or after the
/// surname, nicknames in quotes, surnames in capitals; NAME and its parts reconciled.
@Suite struct GEDCOMNameTests {
    static func people(_ records: String, surnameCase: SurnameCase = .asIs) throws -> (members: [Member.ID: Member], warnings: [GEDCOMWarning]) {
        let text = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n" + records + "0 TRLR\n"
        let imported = try GEDCOMImport(bytes: Array(text.utf8), surnameCase: surnameCase)
        return (Dictionary(uniqueKeysWithValues: imported.document.members.map { ($0.id, $0) }), imported.warnings)
    }

    @Test func commaListsSuffixesAndQuotedNicknames() throws {
        let (people, warnings) = try Self.people("""
        0 @JFK@ INDI
        1 NAME John Fitzgerald /KENNEDY/
        2 GIVN John, Fitzgerald
        2 SURN KENNEDY
        0 @JR@ INDI
        1 NAME John Fitzgerald /Kennedy/ Jr.
        2 GIVN John, Fitzgerald
        2 NSFX Jr.
        0 @III@ INDI
        1 NAME Joseph Patrick /Kennedy/ III
        0 @KICK@ INDI
        1 NAME Kathleen "Kick" /Kennedy/
        2 GIVN Kathleen, "Kick"
        0 @TWO@ INDI
        1 NAME María /García López/
        2 SURN García, López

        """)
        #expect(people["JFK"]?.fullName == "John Fitzgerald KENNEDY")
        #expect(people["JFK"]?.firstName == "John" && people["JFK"]?.middleName == "Fitzgerald")
        #expect(people["JR"]?.lastName == "Kennedy" && people["JR"]?.suffix == "Jr.")
        #expect(people["JR"]?.fullName == "John Fitzgerald Kennedy Jr.")
        #expect(people["III"]?.lastName == "Kennedy" && people["III"]?.suffix == "III", "a suffix after the surname on the NAME line")
        #expect(people["KICK"]?.firstName == "Kathleen" && people["KICK"]?.middleName == nil && people["KICK"]?.nickname == "Kick")
        #expect(people["TWO"]?.lastName == "García López")
        #expect(warnings.filter { $0.kind == .name }.isEmpty, "the pieces agree with the NAME lines")
    }

    @Test func surnamesInCapitalsAsTheUserChooses() throws {
        let records = "0 @A@ INDI\n1 NAME Sean /O'BRIEN-SMITH/\n0 @B@ INDI\n1 NAME Ann /McDonald/\n0 @C@ INDI\n1 NAME Eve /ÅSTRÖM/\n"
        let asIs = try Self.people(records).members
        #expect(asIs["A"]?.lastName == "O'BRIEN-SMITH")
        let title = try Self.people(records, surnameCase: .title).members
        #expect(title["A"]?.lastName == "O'Brien-Smith")
        #expect(title["B"]?.lastName == "McDonald", "mixed case is left as written")
        #expect(title["C"]?.lastName == "Åström")
    }

    @Test func partsThatDisagreeWithTheNameLineAreWarnedAbout() throws {
        let (people, warnings) = try Self.people("0 @X@ INDI\n1 NAME Jon /Smith/\n2 GIVN Jonathan\n")
        #expect(people["X"]?.firstName == "Jonathan")
        let warning = try #require(warnings.first { $0.kind == .name })
        #expect(warning.line == 6 && warning.message.contains("GIVN \"Jonathan\"") && warning.message.contains("\"Jon\""))
    }

    @Test func theSuffixTravelsThroughExportAndTreeJSON() throws {
        var member = Member(id: "jr", firstName: "John", middleName: "Fitzgerald", lastName: "Kennedy")
        member.suffix = "Jr."
        let graph = try FamilyGraph(document: TreeDocument(members: [member]))
        for version in GEDCOMExport.Version.allCases {
            let text = GEDCOMExport(version: version).write(graph)
            #expect(text.contains("1 NAME John Fitzgerald /Kennedy/ Jr.\n") && text.contains("2 NSFX Jr.\n"))
            let back = try GEDCOMImport(bytes: Array(text.utf8)).document.members.first
            #expect(back?.lastName == "Kennedy" && back?.suffix == "Jr.")
        }
        let json = JSONWriter.string(from: graph.document.jsonValue)
        #expect(json.contains("\"suffix\": \"Jr.\""))
        #expect(try FamilyGraph(json: Array(json.utf8)).members.first?.suffix == "Jr.")
    }

    /// A comma inside one name ("of Wessex, Queen of Northumbria" in IvarKingOfDublin.ged) would
    /// be read back from a SURN as two names joined by a space: such a name is left to the NAME
    /// line, and comes back as it was; a comma list the file wrote ("García, López") stays.
    @Test func aNameWithACommaComesBackWithIt() throws {
        let (people, _) = try Self.people("""
        0 @W@ INDI
        1 NAME Eadflaed /of Wessex, Queen of Northumbria/
        0 @T@ INDI
        1 NAME Trehaian,
        0 @G@ INDI
        1 NAME María /García López/
        2 SURN García, López

        """)
        let graph = try FamilyGraph(document: TreeDocument(members: ["W", "T", "G"].map { people[$0]! }))
        for version in GEDCOMExport.Version.allCases {
            let text = GEDCOMExport(version: version).write(graph)
            #expect(!text.contains("SURN of Wessex") && text.contains("2 SURN García, López\n"), "\(version)")
            let back = Dictionary(uniqueKeysWithValues: try GEDCOMImport(bytes: Array(text.utf8)).document.members.map { ($0.id, $0) })
            #expect(back["W"]?.lastName == "of Wessex, Queen of Northumbria" && back["W"]?.firstName == "Eadflaed", "\(version)")
            #expect(back["T"]?.firstName == "Trehaian,", "\(version)")
            #expect(back["G"]?.lastName == "García López", "\(version)")
        }
    }

    /// PAF's underscores join the words of one given name; underscores alone (pres2020.ged:
    /// "____ /Mitchell/") stand for a name not known, not a name of four spaces.
    @Test func underscoresAloneAreNoName() throws {
        let (people, _) = try Self.people("0 @U@ INDI\n1 NAME ____ /Mitchell/\n0 @H@ INDI\n1 NAME Henry_VIII /Tudor/\n0 @M@ INDI\n1 NAME _Mary /Ball/\n")
        #expect(people["U"]?.firstName == "" && people["U"]?.middleName == nil && people["U"]?.lastName == "Mitchell")
        #expect(people["H"]?.firstName == "Henry VIII" && people["H"]?.middleName == nil)
        #expect(people["M"]?.firstName == "Mary")
    }

    /// A GIVN whose accent is written decomposed (e and a combining acute) differs from the NAME
    /// line's composed é in the names' keys, so it is said, as it always was: the shortcut past
    /// the keys takes only the same bytes (Swift's `==` holds the two equal).
    @Test func aDecomposedAccentInGIVNIsStillSaidToDiffer() throws {
        let (people, warnings) = try Self.people("0 @J@ INDI\n1 NAME Jos\u{E9} /Doe/\n2 GIVN Jose\u{301}\n")
        #expect(people["J"]?.firstName == "Jose\u{301}")
        #expect(warnings.contains { $0.message.contains("GIVN") && $0.message.contains("differs") })
    }

    /// The name helpers take shortcuts on bytes where a name allows (ASCII, already single-spaced,
    /// no underscore or quote): on awkward names they give what the character-by-character
    /// definitions give.
    @Test(arguments: [
        "John Fitzgerald", "  John   Fitzgerald ", "John\tFitzgerald", "Henry_VIII", "____", "Kathleen \"Kick\"",
        "María José", "Zoë  Ann", "a \u{301}b", "a \u{301}", " \u{301}a", "/\u{301}x/ y", "Jo\r\nAnn", "O'Brien-Smith 3rd",
        "Ægir", "ÉLISE", "x,\u{301}y", "García, López", "", " ", "/", "//", "a/b/c/d", "Anne /Boleyn/ Queen",
    ])
    func nameHelpersAgreeWithTheirDefinitions(_ name: String) {
        func words(_ text: Substring) -> String { text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
        let key = String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        #expect(GEDCOMTreeBuilder.nameKey(name) == key)
        #expect(GEDCOMTreeBuilder.underscoresAsSpaces(name) == name.replacing("_", with: " "))
        #expect(GEDCOMTreeBuilder.singleSpaced(name[...]).map { $0 == words(name[...]) } ?? true)
        let list = name.split(separator: ",").map { words($0) }.filter { !$0.isEmpty }.joined(separator: " ")
        #expect(GEDCOMTreeBuilder.nameList(name) == list)
        let pieces = name.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(words)
        let parts = GEDCOMTreeBuilder.nameParts(name)
        #expect([parts.given, parts.surname, parts.suffix].prefix(pieces.count) == pieces[...])
    }
}
