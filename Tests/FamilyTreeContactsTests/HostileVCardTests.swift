import Testing
import FamilyTree
@testable import FamilyTreeContacts

/// vCard files an attacker would write: they must cost linear time and a bounded report.
@Suite struct HostileVCardTests {
    @Test func thousandsOfFoldedLinesAreJoinedInOnePass() {
        // 200,000 continuation lines of one quoted-printable value and one folded one: before,
        // each line copied the value so far (1.6 MB took 24 s).
        let qp = "NOTE;ENCODING=QUOTED-PRINTABLE:" + String(repeating: "=41=\r\n", count: 200_000) + "B\r\n"
        let folded = "X-LONG:" + String(repeating: "\r\n a", count: 200_000) + "\r\n"
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Ann\r\n" + qp + folded + "END:VCARD\r\n"
        let clock = ContinuousClock()
        let started = clock.now
        var parser = VCardParser()
        let cards = parser.parse(Array(text.utf8))
        let elapsed = clock.now - started
        #expect(cards.count == 1)
        #expect(cards[0].first("NOTE")?.text == String(repeating: "A", count: 200_000) + "B")
        #expect(cards[0].first("X-LONG")?.text.count == 200_000)
        // A guard against the quadratic join coming back (minutes in a debug build), not a speed claim.
        #expect(elapsed < .seconds(30))
    }

    @Test func manyCardsSharingARelatedNameGiveABoundedReport() {
        let count = 3_000
        var text = ""
        for index in 0..<count {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Smith;Sam;;;\r\nFN:Sam Smith\r\nUID:card-\(index)\r\nitem1.X-ABRELATEDNAMES:Sam Smith\r\nitem1.X-ABLabel:_$!<Mother>!$_\r\nEND:VCARD\r\n"
        }
        let imported = ContactsImport(bytes: Array(text.utf8))
        #expect(imported.cardCount == count)
        let ambiguous = imported.report.filter { $0.kind == .ambiguous }
        #expect(ambiguous.count == count)
        // Each entry names five cards and counts the rest.
        let message = ambiguous[0].message
        #expect(message.contains("matches \(count - 1) cards"))
        #expect(message.contains("and \(count - 1 - 5) more"))
        #expect(imported.report.map(\.description.utf8.count).reduce(0, +) < 1_000 * count)
        #expect(imported.document.unions.isEmpty)
    }

    @Test func aCardLargerThanTheLimitIsCutWithAWarning() {
        let photo = String(repeating: "A", count: InputLimits.vCardBytes + 10)
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nPHOTO;ENCODING=b:" + photo + "\r\nNOTE:after\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:Bob\r\nEND:VCARD\r\n"
        var parser = VCardParser()
        let cards = parser.parse(Array(text.utf8))
        #expect(cards.count == 2)
        #expect(cards[0].first("PHOTO") == nil && cards[0].first("NOTE") == nil)
        #expect(cards[1].first("FN")?.text == "Bob")
        #expect(parser.warnings.contains { $0.message.contains("larger than 32 MiB") })
    }
}

@Suite struct KinLabelTests {
    @Test func aGrandmaLabelSaysTheNamedCardsSexWithoutDrawingALink() {
        let text = """
        BEGIN:VCARD\r\nVERSION:3.0\r\nN:Berg;Ann;;;\r\nFN:Ann Berg\r\nitem1.X-ABRELATEDNAMES:Ingrid Berg\r\nitem1.X-ABLabel:Grandma\r\nitem2.X-ABRELATEDNAMES:Olof Berg\r\nitem2.X-ABLabel:grandpa\r\nEND:VCARD\r\n
        BEGIN:VCARD\r\nVERSION:3.0\r\nN:Berg;Ingrid;;;\r\nFN:Ingrid Berg\r\nEND:VCARD\r\n
        BEGIN:VCARD\r\nVERSION:3.0\r\nN:Berg;Olof;;;\r\nFN:Olof Berg\r\nEND:VCARD\r\n
        """
        let imported = ContactsImport(bytes: Array(text.utf8))
        let sexes = Dictionary(uniqueKeysWithValues: imported.document.members.map { ($0.firstName, $0.sex) })
        #expect(sexes["Ingrid"] == .female && sexes["Olof"] == .male && sexes["Ann"] == .some(nil))
        #expect(imported.document.unions.isEmpty)
        #expect(imported.report.filter { $0.kind == .unplaced }.count == 2)
    }
}
