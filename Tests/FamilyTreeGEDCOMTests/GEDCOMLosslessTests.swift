import Foundation
import TestSupport
import Testing
import FamilyTree
@testable import FamilyTreeGEDCOM

/// What a genealogist entered survives import and export: every structure of the file read in
/// comes out again (same tag under the same tags, same value), in the same GEDCOM version.
///
/// Allowed differences, none of them a loss: the header's program, version and character set are
/// familytree's; xrefs may be renumbered (pointers are compared as pointers); dates are compared
/// by meaning; a NAME line is rebuilt from its parts; structures may come in another order; lines
/// may be added (GIVN and SURN beside a name, a pedigree for an adoption); links the importer
/// repaired or dropped with a warning (a pointer to a record that does not exist) differ as the
/// warning says.
enum GEDCOMRoundTrip {
    /// One structure as compared: the tags from its record down, and its value.
    static func signatures(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        func walk(_ record: GEDCOMRecord, path: String) {
            let here = path.isEmpty ? record.tag : path + "/" + record.tag
            // The header's own program, version and character set are the writer's.
            if ["HEAD/GEDC", "HEAD/CHAR", "HEAD/SOUR"].contains(where: { here.hasPrefix($0) }) { return }
            counts["\(here) \(normalized(record, path: here))", default: 0] += 1
            for child in record.children { walk(child, path: here) }
        }
        for record in GEDCOMParser.parse(text).records where record.tag != "TRLR" { walk(record, path: "") }
        return counts
    }

    static func normalized(_ record: GEDCOMRecord, path: String) -> String {
        let value = record.value.trimmingSpaces
        if record.pointer != nil || value.uppercased() == "@VOID@" { return "@pointer@" }
        switch record.tag {
        case "NAME" where !path.contains("/PLAC"): return ""
        case "DATE", "SDATE":
            let text = GEDCOMTreeBuilder.dateText(record)
            return GEDCOMDate.parse(text)?.description ?? text.uppercased()
        case "SEX": return String(value.uppercased().prefix(1))
        // A value compared by its words: spacing at line joins is the writer's.
        default: return value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }

    /// The structures of `original` that its round trip lacks, with how many of each.
    static func lost(from original: [UInt8], version: GEDCOMExport.Version) throws -> (lost: [String: Int], exported: String) {
        let imported = try GEDCOMImport(bytes: original)
        let graph = try FamilyGraph(document: imported.document)
        let exported = GEDCOMExport(version: version).write(graph)
        let before = signatures(GEDCOMEncoding.decode(original).text)
        let after = signatures(exported)
        var lost: [String: Int] = [:]
        for (signature, count) in before where (after[signature] ?? 0) < count { lost[signature] = count - (after[signature] ?? 0) }
        return (lost, exported)
    }
}

@Suite struct GEDCOMLosslessTests {
    /// A 5.5.1 file with what genealogists record: events with places (with a map), notes and
    /// sources, a shared note, media, a repository, vendor tags, LDS ordinances and a custom event.
    static let researched551 = """
    0 HEAD
    1 SOUR PAF
    2 VERS 5.01
    1 GEDC
    2 VERS 5.5.1
    2 FORM LINEAGE-LINKED
    1 CHAR UTF-8
    1 SUBM @U1@
    1 FILE family.ged
    1 _HME @I1@
    0 @U1@ SUBM
    1 NAME Mary Historian
    0 @I1@ INDI
    1 NAME George /Washington/
    2 NPFX Gen.
    2 _MARNM Washington
    1 SEX M
    1 BIRT
    2 DATE 22 FEB 1732
    2 PLAC Popes Creek, Westmoreland, Virginia
    3 MAP
    4 LATI N38.1858
    4 LONG W76.9225
    2 SOUR @S1@
    3 PAGE p. 12
    3 QUAY 3
    3 DATA
    4 TEXT Born the 11th of February 1731/2
    1 DEAT
    2 DATE 14 DEC 1799
    2 PLAC Mount Vernon, Fairfax, Virginia
    2 CAUS Epiglottitis
    1 BURI
    2 DATE 18 DEC 1799
    2 PLAC Mount Vernon, Fairfax, Virginia
    3 MAP
    4 _ZOOM 12
    2 NOTE Family vault
    1 OCCU Planter
    2 DATE FROM 1752 TO 1799
    1 EVEN
    2 TYPE Presidency
    2 DATE FROM 30 APR 1789 TO 4 MAR 1797
    1 _MILT Continental Army
    2 DATE 1775
    1 BAPL
    2 DATE 1 JAN 1900
    2 TEMP SLAKE
    1 FAMS @F1@
    2 _PRIMARY Y
    1 NOTE First President of the United States
    2 CONT of America.
    1 NOTE @N1@
    1 OBJE
    2 FILE portrait.jpg
    3 FORM jpg
    3 TITL Portrait by Stuart
    1 _UID 4F2A9B1C
    1 CHAN
    2 DATE 1 JAN 2020
    3 TIME 12:00:00
    0 @I2@ INDI
    1 NAME Martha /Dandridge/
    1 SEX F
    1 BIRT
    2 DATE 2 JUN 1731
    1 FAMS @F1@
    1 OBJE @M1@
    1 SOUR Martha's family bible
    2 PAGE inside cover
    0 @F1@ FAM
    1 HUSB @I1@
    1 WIFE @I2@
    1 MARR
    2 DATE 6 JAN 1759
    2 PLAC White House Plantation, New Kent, Virginia
    1 ENGA
    2 DATE 1758
    1 NOTE Married at her home
    1 _STAT Married
    0 @S1@ SOUR
    1 TITL Washington family bible
    1 AUTH Augustine Washington
    1 REPO @R1@
    2 CALN 1732.WB
    0 @R1@ REPO
    1 NAME Library of Virginia
    0 @N1@ NOTE Shared note about the Washingtons
    0 @M1@ OBJE
    1 FILE mountvernon.jpg
    2 FORM jpg
    0 @X1@ _EVENT_DEFINITION
    1 TYPE Presidency
    0 TRLR
    """

    @Test func aResearched551FileLosesNothingThroughImportAndExport() throws {
        let (lost, exported) = try GEDCOMRoundTrip.lost(from: Array(Self.researched551.utf8), version: .v551)
        #expect(lost.isEmpty, "lost: \(lost.keys.sorted())\n\(exported)")
        // Events are in the model, not only kept as written.
        let member = try #require(try GEDCOMImport(bytes: Array(Self.researched551.utf8)).document.members.first)
        let burial = try #require(member.events.first { $0.kind == .burial })
        #expect(burial.place?.name == "Mount Vernon, Fairfax, Virginia" && burial.notes == ["Family vault"] && burial.date == PartialDate("1799-12-18"))
        let birth = try #require(member.events.first { $0.kind == .birth })
        #expect(birth.date == nil && member.birthday == PartialDate("1732-02-22"), "the first birth's date is the member's")
        #expect(birth.place?.latitude == "N38.1858" && birth.citations.first?.source == "S1" && birth.citations.first?.quality == 3)
        #expect(member.events.first { $0.kind == .occupation }?.value == "Planter")
        #expect(member.events.contains { $0.kind.tag == "_MILT" })
        #expect(member.recorded.contains { $0.tag == "_UID" && $0.value == "4F2A9B1C" })
        // Media: described in place, or a media record pointed to.
        let graph = try FamilyGraph(document: try GEDCOMImport(bytes: Array(Self.researched551.utf8)).document)
        #expect(MediaCatalog(graph).media(of: graph.members[0]) == [MediaLink(file: "portrait.jpg", format: "jpg", title: "Portrait by Stuart")])
        #expect(MediaCatalog(graph).media(of: graph.members[1]) == [MediaLink(file: "mountvernon.jpg", format: "jpg")])
    }

    @Test func exportedTwiceItIsTheSame() throws {
        // Import, export, import, export: the second file is the first, byte for byte.
        let first = try GEDCOMRoundTrip.lost(from: Array(Self.researched551.utf8), version: .v551).exported
        let second = try GEDCOMRoundTrip.lost(from: Array(first.utf8), version: .v551).exported
        #expect(first == second)
    }

    @Test func theTreeFileCarriesItAll() throws {
        // Through tree.json and back: what import made is what the file reads.
        let imported = try GEDCOMImport(bytes: Array(Self.researched551.utf8))
        let text = JSONWriter.string(from: imported.document.jsonValue)
        let read = try TreeDocument(json: Array(text.utf8), file: "tree.json")
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.members == imported.document.members)
        #expect(read.unions == imported.document.unions)
        #expect(read.sources == imported.document.sources)
        #expect(read.genealogyFile == imported.document.genealogyFile)
        let exported = GEDCOMExport(version: .v551).write(try FamilyGraph(document: read))
        #expect(exported == GEDCOMExport(version: .v551).write(try FamilyGraph(document: imported.document)))
    }

    @Test func convertingVersionsMapsSharedNotesAndSaysWhatItCannotCarry() throws {
        let seven = """
        0 HEAD
        1 GEDC
        2 VERS 7.0
        0 @I1@ INDI
        1 NAME Ada /Byron/
        1 UID 0f1e2d3c
        1 EXID 123
        2 TYPE https://example.org
        1 SNOTE @N1@
        1 BURI
        2 DATE 1852
        2 PLAC Hucknall
        3 TRAN Hucknall Torkard
        2 SOUR @VOID@
        3 PAGE Parish register
        0 @N1@ SNOTE A shared note
        0 TRLR
        """
        let graph = try FamilyGraph(document: try GEDCOMImport(bytes: Array(seven.utf8)).document)
        let export = GEDCOMExport(version: .v551)
        let text = export.write(graph)
        #expect(text.contains("1 NOTE @N1@") && text.contains("0 @N1@ NOTE A shared note") && !text.contains("SNOTE"))
        let notes = export.conversionNotes(for: graph)
        #expect(notes.count == 3 && notes.allSatisfy { $0.contains("GEDCOM 5.5.1 has no") })
        #expect(notes.contains { $0.hasPrefix("1 EXID") } && notes.contains { $0.hasPrefix("1 TRAN") } && notes.contains { $0.hasPrefix("1 UID") })
        // A void citation stays one, with no note made of its pointer.
        #expect(text.contains("2 SOUR @VOID@\n3 PAGE Parish register") && !text.contains("NOTE @@VOID@"))
        // Back to 7.0 it is what it was, with nothing to report.
        #expect(GEDCOMExport(version: .v7).conversionNotes(for: graph).isEmpty)
        #expect(try GEDCOMRoundTrip.lost(from: Array(seven.utf8), version: .v7).lost.isEmpty)
    }

    /// Every GEDCOM file beside the package, 5.5.1 and 7.0, every encoding, in its own version.
    @Test(.requiresSharedData())
    func everyRealFileLosesNothing() throws {
        let files = FileManager.default.enumerator(atPath: TestPaths.sharedData.path)?.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".ged") }.sorted() ?? []
        #expect(files.count > 20)
        var report: [String] = []
        for file in files {
            let bytes = Array(try Data(contentsOf: TestPaths.shared(file)))
            guard let imported = try? GEDCOMImport(bytes: bytes) else { continue }
            let version: GEDCOMExport.Version = imported.version?.hasPrefix("7") == true ? .v7 : .v551
            let (lost, _) = try GEDCOMRoundTrip.lost(from: bytes, version: version)
            let repaired = imported.warnings.filter { [.reference, .link, .family, .cycle].contains($0.kind) }.count
            // A link the importer repaired or dropped is said in a warning; nothing else may go.
            if lost.values.reduce(0, +) > repaired {
                report.append("\(file): \(lost.values.reduce(0, +)) lost (\(repaired) repairs): \(lost.keys.sorted().prefix(6))")
            }
        }
        #expect(report.isEmpty, "\(report.joined(separator: "\n"))")
    }
}

/// Gramps, the genealogy program people would otherwise use, reads our export of a real file with
/// the same numbers of people, families, places, sources, notes, media and events as the original.
@Suite(.requiresGramps, .requiresSharedData("gedcom-samples/kennedy.ged"), .timeLimit(.minutes(5)))
struct GrampsReadsOurExportTests {
    @Test(arguments: ["gedcom-samples/kennedy.ged", "gramps-example/sample.ged"])
    func grampsCountsTheSame(file: String) throws {
        let scratch = try ScratchFolder("gramps")
        let original = Array(try Data(contentsOf: TestPaths.shared(file)))
        let imported = try GEDCOMImport(bytes: original)
        let version: GEDCOMExport.Version = imported.version?.hasPrefix("7") == true ? .v7 : .v551
        try GEDCOMExport(version: version).write(try FamilyGraph(document: imported.document)).write(to: scratch.path("ours.ged"), atomically: true, encoding: .utf8)
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/gramps-check").path
        let result = try ChildProcess.run("python3", [script, "--pair", TestPaths.shared(file).path, scratch.path("ours.ged").path], timeLimit: 240)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr.suffix(2_000))")
        // Gramps read people at all (a table of two rows with counts).
        #expect(result.stdout.split(separator: "\n").count == 4)
    }
}

/// GEDCOM 5.5.1 lines hold at most 255 bytes: longer values go on in CONC lines that a reader
/// joins back into the same value; 7.0 has no such limit and no CONC.
@Suite struct GEDCOMLineLengthTests {
    @Test func aLongNoteIsCutIntoCONCLinesThatJoinBack() throws {
        let words = (1...120).map { "wörd\($0)" }.joined(separator: " ")
        var ann = Member(id: "I1", firstName: "Ann")
        ann.notes = words + " me@example.com @@start\n" + String(repeating: "é", count: 300)
        let graph = try FamilyGraph(members: [ann])
        let old = GEDCOMExport(version: .v551).write(graph)
        let lines = old.split(separator: "\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 255 }, "\(lines.map(\.utf8.count).max() ?? 0) bytes")
        #expect(lines.contains { $0.hasPrefix("2 CONC ") })
        // No cut falls next to a space.
        #expect(!lines.contains { $0.hasPrefix("2 CONC ") && $0.dropFirst(7).hasPrefix(" ") })
        let back = try GEDCOMImport(bytes: Array(old.utf8))
        #expect(back.document.members[0].notes == ann.notes)
        #expect(!GEDCOMExport(version: .v7).write(graph).contains("CONC"))
    }
}
