import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeGEDCOM
import TestSupport

enum GEDCOMFixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    /// `../shared/data` beside the package, where CI puts the real files.
    static let sharedData = TestPaths.sharedData
}

@Suite struct GEDCOMImportTests {
    /// A large file is parsed in parts on several cores: records, values, lines and warnings are
    /// those of one pass, whatever ends the lines and whatever stands where a part begins.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func aLargeFileParsedInPartsIsParsedAsInOnePass(lineEnd: String) throws {
        var lines = ["0 HEAD", "1 GEDC", "2 VERS 5.5.1"]
        var person = 0
        while lines.count < 40_000 {
            person += 1
            lines += ["0 @I\(person)@ INDI", "1 NAME Person\(person) /Family/", "1 NOTE a note that goes on", "2 CONC  and on", "2 CONT over lines"]
            // Lines that depend on what came before them: no line, a skipped level, a level-0 CONC, blanks.
            if person % 97 == 0 { lines += ["garbage", "", "3 DATE skipped", "0 CONC orphan", "   "] }
            if person % 89 == 0 { lines += ["1 EVEN", "2 PLAC value with @@ in it"] }
        }
        lines.append("0 TRLR")
        let text = lines.joined(separator: lineEnd)
        var copy = text
        let starts = copy.withUTF8 { GEDCOMParser.partStarts($0, everyAtDoubled: true) }
        #expect(starts.count == 8, "\(text.utf8.count) bytes are parsed in eight parts")
        let parts = GEDCOMParser.parse(text)
        let whole = copy.withUTF8 { GEDCOMParser.parseLines($0, everyAtDoubled: true) }
        func flat(_ records: [GEDCOMRecord]) -> [String] {
            records.flatMap { ["\($0.line) \($0.xref ?? "-") \($0.tag) \($0.value) \($0.isEscapedText)"] + flat($0.children) }
        }
        #expect(parts.records.count == whole.parsed.records.count && parts.records.count > person)
        #expect(flat(parts.records) == flat(whole.parsed.records))
        #expect(parts.warnings.map { "\($0.line) \($0.message)" } == whole.parsed.warnings.map { "\($0.line) \($0.message)" })
        #expect(parts.warnings.count == 2 * (person / 97), "each garbage line and skipped level once")
        #expect(flat(parts.records).last == "\(whole.lines) - TRLR  false")
    }

    /// A file that is one long record has no level-0 line to start a part at: it is parsed in
    /// one part, as one pass reads it.
    @Test func oneLongRecordIsParsedInOnePart() throws {
        let lines = ["0 HEAD", "0 @N1@ NOTE the start"] + Array(repeating: "1 CONT a line of a very long note", count: 20_000) + ["0 TRLR"]
        var text = lines.joined(separator: "\n")
        let starts = text.withUTF8 { GEDCOMParser.partStarts($0, everyAtDoubled: true) }
        #expect(starts.count == 2, "the TRLR line is the only level-0 line after the first share: \(starts)")
        let parsed = GEDCOMParser.parse(text)
        #expect(parsed.records.map(\.tag) == ["HEAD", "NOTE", "TRLR"])
        #expect(parsed.records[1].value.split(separator: "\n").count == 20_001 && parsed.records[2].line == 20_003)
    }

    @Test func tagsInSmallLettersReadAsCapitals() throws {
        let text = "0 head\n1 Gedc\n2 vers 5.5.1\n0 @I1@ indi\n1 name Ada /Lovelace/\n1 Sex F\n1 birt\n2 date 10 DEC 1815\n0 trlr"
        let imported = try GEDCOMImport(bytes: Array(text.utf8))
        let ada = try #require(imported.document.members.first)
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace" && ada.sex == .female && ada.birthday == PartialDate("1815-12-10"))
        #expect(imported.version == "5.5.1")
    }

    /// People are read on several cores in a file this large: what each says, and each warning
    /// in the place its record has in the file, come out as one core would read them.
    @Test func aLargeFileReadsInFileOrderWithItsWarningsInPlace() throws {
        var lines = ["0 HEAD", "1 GEDC", "2 VERS 5.5.1", "1 CHAR UTF-8"]
        for person in 1...300 {
            lines += ["0 @I\(person)@ INDI", "1 NAME Person\(person) /Family\(person % 7)/", "1 SEX \(person % 5 == 0 ? "Q" : "F")"]
            if person % 3 == 0 { lines += ["1 BIRT", "2 DATE in the year of the comet \(person)"] }
            if person % 100 == 0 { lines += ["0 @I\(person - 1)@ INDI", "1 NAME Again /Twice/"] }
            if person % 150 == 0 { lines += ["0 @F1@ FAM", "1 HUSB @I\(person)@"] }
        }
        lines.append("0 TRLR")
        let imported = try GEDCOMImport(bytes: Array(lines.joined(separator: "\n").utf8))
        #expect(imported.document.members.map(\.id) == (1...300).map { "I\($0)" })
        #expect(imported.document.members[41].firstName == "Person42" && imported.document.members[41].birthPhrase == "in the year of the comet 42")
        let read = imported.warnings.filter { [.sex, .date, .reference].contains($0.kind) }
        // 60 odd sexes, 100 dates no calendar places, 3 second people and 1 second family.
        #expect(read.count == 60 + 100 + 3 + 1)
        #expect(read.compactMap(\.line) == read.compactMap(\.line).sorted(), "warnings in the order of their lines")
        #expect(read.filter { $0.message.contains("a second record") }.count == 4)
    }

    @Test func namesDatesFamiliesAndRepairs() throws {
        let imported = try GEDCOMImport(bytes: try GEDCOMFixtures.bytes("tudors.ged"))
        #expect(imported.version == "5.5.1" && imported.encoding == "UTF-8")
        let graph = try FamilyGraph(document: imported.document)
        let henry = try #require(graph.member("I1"))
        #expect(henry.firstName == "Henry VIII" && henry.lastName == "Tudor" && henry.sex == .male)
        #expect(henry.deathDate == PartialDate("1547-01-28"), "dual year 1546/47 is 1547")
        #expect(graph.member("I2")?.lastName == "of Aragon" && graph.member("I2")?.birthday == PartialDate("about 1485"))
        let charlemagne = try #require(graph.member("I6"))
        #expect(charlemagne.lastName == nil && charlemagne.nickname == "Carolus" && charlemagne.sex == .unknown)
        #expect(charlemagne.birthday == PartialDate("between 0742 and 0748"))
        let ward = try #require(graph.member("I7"))
        #expect(ward.birthday == PartialDate("about 1540"), "INT with a phrase")
        #expect(ward.deathPhrase == "@#DHEBREW@ 5 TSH 5300" && ward.lifeSpan == "c. 1540–@#DHEBREW@ 5 TSH 5300", "dates we cannot place are kept as written, and shown")
        // Henry's two marriages, each with its own child; Ward added to F2 from his FAMC, as a foster child.
        #expect(graph.topology.unionsOfMember[graph.index(of: "I1")!].count == 2)
        let second = try #require(graph.unions.first { $0.id == "F2" })
        #expect(second.children == [ChildLink("I5"), ChildLink("I7", kind: .foster)])
        #expect(second.partners == ["I1", "I3"], "@VOID@ is no partner")
        let first = try #require(graph.unions.first { $0.id == "F1" })
        #expect(first.marriage == PartialDate("1509-06-11") && first.divorce == PartialDate("1533"))
        let kinds = imported.warnings.map(\.kind)
        #expect(kinds.contains(.sex) && kinds.contains(.date) && kinds.contains(.reference) && kinds.contains(.link))
        #expect(imported.warnings.first { $0.kind == .reference }?.line == 70)
    }

    @Test(arguments: [
        ("12 JAN 1850", "1850-01-12"), ("JAN 1850", "1850-01"), ("1850", "1850"), ("ABT 1850", "about 1850"),
        ("CAL 1850", "about 1850"), ("EST MAR 1850", "about 1850-03"), ("BEF 1850", "before 1850"), ("AFT 2 FEB 1850", "after 1850-02-02"),
        ("BET 1850 AND 1860", "between 1850 and 1860"), ("FROM 1850 TO 1860", "between 1850 and 1860"), ("FROM 1850", "after 1850"),
        ("TO 1860", "before 1860"), ("INT 1850 (about then)", "about 1850"), ("1731/32", "1732"), ("1815/1816", "1816"),
        ("1699/00", "1700"), ("@#DGREGORIAN@ 1 JAN 1900", "1900-01-01"), ("@#DJULIAN@ 1 JAN 1700", "about 1700-01-01"),
        ("JULIAN 1 JAN 1700", "about 1700-01-01"), ("10 JAN", "--01-10"), ("abt 1850", "about 1850"),
        ("28 Jan 1546-1547", "1547-01-28"), ("Bef 8 Jan 1512-1513", "before 1513-01-08"), ("29 December 1812", "1812-12-29"),
    ])
    func dates(text: String, expected: String) {
        #expect(GEDCOMDate.parse(text)?.description == expected)
    }

    @Test(arguments: ["@#DHEBREW@ 5 TSH 5300", "44 B.C.", "Christmas 1850", "31 FEB 1850", "BET 1860 AND 1850", "", "13 XYZ 1850", "1850-1860", "Y"])
    func textThatIsNotADate(text: String) {
        #expect(GEDCOMDate.parse(text) == nil)
    }

    @Test func encodings() throws {
        let body = "0 HEAD\n1 CHAR %@\n0 @I1@ INDI\n1 NAME %@ /Müller/\n0 TRLR\n"
        func file(_ charset: String, name: String) -> String {
            body.replacingOccurrences(of: "1 CHAR %@", with: "1 CHAR \(charset)").replacingOccurrences(of: "%@", with: name)
        }
        // UTF-16 LE with and without BOM, BE with BOM.
        let utf16 = Array(file("UNICODE", name: "Zoë").utf16)
        let little = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [[0xFF, 0xFE] + little, little, [0xFE, 0xFF] + big] {
            let imported = try GEDCOMImport(bytes: bytes)
            #expect(imported.document.members.first?.firstName == "Zoë")
            #expect(imported.document.members.first?.lastName == "Müller")
        }
        // ANSEL: the diaeresis (0xE8) comes before its letter.
        var ansel = Array("0 HEAD\r1 CHAR ANSEL\r0 @I1@ INDI\r1 NAME Zo".utf8) + [0xE8] + Array("e /M".utf8) + [0xE8] + Array("uller/\r0 TRLR\r".utf8)
        var imported = try GEDCOMImport(bytes: ansel)
        #expect(imported.document.members.first?.firstName == "Zoë" && imported.document.members.first?.lastName == "Müller")
        #expect(imported.encoding == "ANSEL")
        // Windows-1252, and a file that says UTF-8 but is not.
        ansel = Array("0 HEAD\n1 CHAR ANSI\n0 @I1@ INDI\n1 NAME Zo".utf8) + [0xEB] + Array(" /M".utf8) + [0xFC] + Array("ller/\n0 TRLR\n".utf8)
        imported = try GEDCOMImport(bytes: ansel)
        #expect(imported.document.members.first?.firstName == "Zoë")
        let wrong = Array("0 HEAD\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Zo".utf8) + [0xEB] + Array(" /X/\n0 TRLR\n".utf8)
        imported = try GEDCOMImport(bytes: wrong)
        #expect(imported.document.members.first?.firstName == "Zoë" && imported.warnings.contains { $0.kind == .encoding })
    }

    @Test func brokenInputNeverCrashes() throws {
        #expect(throws: GEDCOMError.self) { _ = try GEDCOMImport(bytes: Array("hello".utf8)) }
        #expect(throws: GEDCOMError.self) { _ = try GEDCOMImport(bytes: []) }
        let odd = "0 HEAD\n1 CHAR UTF-8\nnonsense line\n3 DEEP jump\n0 @I1@ INDI\n1 FAMC @F1@\n1 FAMS @F1@\n0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @I1@\n0 @F2@ FAM\n1 CHIL @I1@\n0 TRLR"
        let imported = try GEDCOMImport(bytes: Array(odd.utf8))
        // Someone who is their own parent: the link is dropped, the person kept.
        _ = try FamilyGraph(document: imported.document)
        #expect(imported.warnings.contains { $0.kind == .syntax && $0.line == 3 })
        #expect(imported.warnings.contains { $0.kind == .cycle })
        #expect(imported.warnings.contains { $0.kind == .family }, "a family with children and no parents")
    }
}

/// Every GEDCOM file in ../shared/data imports, and the counts match its README.
@Suite(.requiresSharedData("royal92/royal92.ged"))
struct GEDCOMCorpusTests {
    @Test func everyFileImportsIntoAValidGraph() throws {
        let files = FileManager.default.enumerator(atPath: GEDCOMFixtures.sharedData.path)!.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".ged") }.sorted()
        #expect(files.count >= 100)
        var failures: [String] = []
        for file in files {
            let bytes = Array(try Data(contentsOf: GEDCOMFixtures.sharedData.appendingPathComponent(file)))
            do {
                _ = try FamilyGraph(document: try GEDCOMImport(bytes: bytes).document)
            } catch {
                failures.append("\(file): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test(arguments: [
        ("royal92/royal92.ged", 3010, 1422), ("gedcom-samples/bronte.ged", 14, 4), ("gedcom-samples/shakespeare.ged", 31, 11),
        ("gedcom-samples/bach.ged", 33, 14), ("gedcom-samples/kennedy.ged", 208, 75), ("gedcom-samples/EnglishTudorRoyalFamily.ged", 347, 200),
        ("gramps-example/sample.ged", 42, 15), ("torture-tgc55/TGC551.ged", 15, 7), ("torture-tgc55/TGC55CLF.ged", 15, 7),
    ])
    func countsMatchTheREADME(file: String, people: Int, families: Int) throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: GEDCOMFixtures.sharedData.appendingPathComponent(file))))
        #expect(imported.peopleCount == people)
        #expect(imported.familyCount == families)
    }
}

@Suite struct GEDCOMRoundTripTests {
    static func exampleFamily() throws -> FamilyGraph {
        let url = TestPaths.packageRoot.appendingPathComponent("examples/family.json")
        return try FamilyGraph(json: Array(try Data(contentsOf: url)))
    }

    /// What GEDCOM can carry of a member.
    struct Person: Equatable {
        var id, first: String
        var middle, last, nickname: String?
        var sex: Sex?
        var birthday, death: PartialDate?
        var notes: String?
    }

    static func people(_ graph: FamilyGraph) -> [Person] {
        graph.members.map { Person(id: $0.id, first: $0.firstName, middle: $0.middleName, last: $0.lastName, nickname: $0.nickname,
                                   sex: $0.sex, birthday: $0.birthday, death: $0.deathDate, notes: $0.notes) }
    }

    @Test(arguments: GEDCOMExport.Version.allCases)
    func importExportImportKeepsTheFamily(version: GEDCOMExport.Version) throws {
        let original = try Self.exampleFamily()
        let text = GEDCOMExport(version: version).write(original)
        #expect(text.hasPrefix("0 HEAD\n1 GEDC\n2 VERS \(version.rawValue)\n"))
        let imported = try GEDCOMImport(bytes: Array(text.utf8))
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
        let again = try FamilyGraph(document: imported.document)
        #expect(Self.people(again) == Self.people(original))
        #expect(again.unions.map(\.id) == original.unions.map(\.id))
        for (first, second) in zip(original.unions, again.unions) {
            #expect(first.partners == second.partners && first.marriage == second.marriage && first.divorce == second.divorce)
            #expect(first.children == second.children, "children, their order and kinds in \(first.id)")
        }
        // And once more: the second export is the first, byte for byte.
        #expect(GEDCOMExport(version: version).write(again) == text)
    }

    @Test func idsThatAreNoXrefsAreNumberedAndComeBack() throws {
        let graph = try FamilyGraph(
            members: [Member(id: "6a1f-uuid", firstName: "A", sex: .other), Member(id: "B", firstName: "B@home"), Member(id: "c", firstName: "C")],
            unions: [Union(id: "u-1", partners: ["6a1f-uuid", "B"], children: [ChildLink("c", kind: .step)])]
        )
        let text = GEDCOMExport().write(graph)
        #expect(text.contains("0 @I1@ INDI\n1 _FTID 6a1f-uuid\n") && text.contains("0 @B@ INDI"))
        #expect(text.contains("2 PEDI OTHER\n3 PHRASE step") && text.contains("1 SEX X"))
        let back = try FamilyGraph(document: try GEDCOMImport(bytes: Array(text.utf8)).document)
        #expect(back.members.map(\.id) == ["6a1f-uuid", "B", "c"] && back.member("B")?.firstName == "B@home")
        // Dates kept as written survive both versions.
        var phrased = graph.members
        phrased[2].birthPhrase = "44 B.C."
        var unions = graph.unions
        unions[0].marriagePhrase = "at harvest time"
        let withPhrase = try FamilyGraph(members: phrased, unions: unions)
        for version in GEDCOMExport.Version.allCases {
            let exported = GEDCOMExport(version: version).write(withPhrase)
            let reread = try FamilyGraph(document: try GEDCOMImport(bytes: Array(exported.utf8)).document)
            #expect(reread.member("c")?.birthPhrase == "44 B.C.", "\(version)")
            #expect(reread.unions.first?.marriagePhrase == "at harvest time", "\(version)")
        }
        #expect(back.unions.first?.children == [ChildLink("c", kind: .step)])
    }
}

@Suite struct SortDateTests {
    @Test func sdateWinsOverDateForSiblingOrder() throws {
        let text = """
        0 HEAD
        1 GEDC
        2 VERS 7.0
        0 @P@ INDI
        1 NAME Parent /X/
        1 FAMS @F@
        0 @A@ INDI
        1 NAME Ann /X/
        1 BIRT
        2 DATE 1900
        2 SDATE 1905
        1 FAMC @F@
        0 @B@ INDI
        1 NAME Bob /X/
        1 BIRT
        2 DATE 1903
        1 FAMC @F@
        0 @F@ FAM
        1 HUSB @P@
        1 CHIL @A@
        1 CHIL @B@
        0 TRLR
        """
        let graph = try FamilyGraph(document: try GEDCOMImport(bytes: Array(text.utf8)).document)
        #expect(graph.unions[0].children.map(\.member) == ["B", "A"])
        #expect(graph.member("A")?.birthday == PartialDate("1900") && graph.member("A")?.sortDate == PartialDate("1905"))
        let exported = GEDCOMExport().write(graph)
        #expect(exported.contains("1 BIRT\n2 DATE 1900\n2 SDATE 1905\n"))
        let again = try FamilyGraph(document: try GEDCOMImport(bytes: Array(exported.utf8)).document)
        #expect(again.unions[0].children.map(\.member) == ["B", "A"])
    }
}

@Suite struct SpouseOrderTests {
    @Test func aPersonsUnionsFollowTheirFAMSOrder() throws {
        // The FAM records stand in the opposite order to Henry's FAMS lines.
        let text = "0 HEAD\n0 @H@ INDI\n1 NAME Henry /T/\n1 FAMS @F1@\n1 FAMS @F2@\n0 @A@ INDI\n1 NAME Anne /B/\n1 FAMS @F2@\n0 @C@ INDI\n1 NAME Cath /A/\n1 FAMS @F1@\n0 @F2@ FAM\n1 HUSB @H@\n1 WIFE @A@\n0 @F1@ FAM\n1 HUSB @H@\n1 WIFE @C@\n0 TRLR\n"
        let graph = try FamilyGraph(document: try GEDCOMImport(bytes: Array(text.utf8)).document)
        let henry = try #require(graph.index(of: "H"))
        #expect(graph.topology.unionsOfMember[henry].map { graph.unions[$0].id } == ["F1", "F2"])
    }
}
