import FamilyTree
import Testing
@testable import FamilyTreeContacts

@Suite struct VCardParserTests {
    func parse(_ text: String) -> (cards: [VCard], warnings: [VCardWarning]) {
        var parser = VCardParser()
        let cards = parser.parse(Array(text.utf8))
        return (cards, parser.warnings)
    }

    @Test func unfoldsLinesAndKeepsTheSpaceAfterTheFoldingOne() {
        let (cards, warnings) = parse("BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:operational 0800 to 1715\r\n  EST\\, Mon-Fri.\r\nFN:Ann\r\n\tBerg\r\nEND:VCARD\r\n")
        #expect(warnings.isEmpty)
        #expect(cards.count == 1)
        #expect(cards[0].version == "3.0")
        #expect(cards[0].first("NOTE")?.text == "operational 0800 to 1715 EST, Mon-Fri.")
        #expect(cards[0].first("FN")?.text == "AnnBerg")
    }

    @Test func decodesQuotedPrintableAcrossSoftLineBreaksInTheDeclaredCharset() {
        let bytes: [UInt8] = Array("BEGIN:VCARD\nVERSION:2.1\nNOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:V=E4ster=\n=E5s\nN;CHARSET=UTF-8;QUOTED-PRINTABLE:M=C3=B6ller;J=C3=B6rg\nEND:VCARD\n".utf8)
        var parser = VCardParser()
        let card = parser.parse(bytes)[0]
        #expect(card.first("NOTE")?.text == "Västerås")
        #expect(card.first("N")?.components == ["Möller", "Jörg"])
    }

    @Test func readsBareParametersGroupsAndQuotedParameterLists() {
        let (cards, _) = parse("""
        BEGIN:VCARD
        VERSION:4.0
        TEL;CELL;PREF:+46 70 1
        item1.TEL:+46 70 2
        item1.X-ABLabel:_$!<Mobile>!$_
        TEL;VALUE=uri;TYPE="work,voice";PREF=1:tel:+1-418-656-9254;ext=102
        END:VCARD
        """)
        let phones = cards[0].properties("TEL")
        #expect(phones[0].types == ["cell", "pref"])
        #expect(phones[1].group == "item1")
        #expect(cards[0].label(of: phones[1]) == "Mobile")
        #expect(phones[2].types == ["work", "voice"])
        #expect(phones[2].parameter("PREF") == ["1"])
        #expect(phones[2].text == "tel:+1-418-656-9254;ext=102")
    }

    @Test func splitsStructuredValuesOnlyAtUnescapedSeparators() {
        let (cards, _) = parse("BEGIN:VCARD\nN:Doe;John;Richter\\, James;Mr.;Sr.\nNICKNAME:Johnny,JQP\nNOTE:a\\;b\\\\c\\nd\nEND:VCARD\n")
        #expect(cards[0].first("N")?.components == ["Doe", "John", "Richter, James", "Mr.", "Sr."])
        #expect(cards[0].first("NICKNAME")?.list == ["Johnny", "JQP"])
        #expect(cards[0].first("NOTE")?.text == "a;b\\c\nd")
    }

    @Test func readsUTF16FilesAndLatin1FallbackWithoutACharset() {
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "BEGIN:VCARD\r\nFN:Åsa Öberg\r\nEND:VCARD\r\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        var parser = VCardParser()
        #expect(VCardParser.looksLikeVCard(utf16))
        #expect(parser.parse(utf16).first?.first("FN")?.text == "Åsa Öberg")
        // Not valid UTF-8 and no charset: Windows-1252, as old exporters wrote it.
        let latin: [UInt8] = Array("BEGIN:VCARD\nFN:J".utf8) + [0xF6] + Array("rg\nEND:VCARD\n".utf8)
        #expect(parser.parse(latin).first?.first("FN")?.text == "Jörg")
    }

    @Test func keepsBase64AsWrittenWithoutFoldingSpaces() {
        let (cards, _) = parse("BEGIN:VCARD\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\n SkZJRg==\nEND:VCARD\n")
        #expect(cards[0].first("PHOTO")?.rawValue == "/9j/4AAQSkZJRg==")
    }

    @Test func reportsWhatItSkipsWithLineNumbers() {
        let (cards, warnings) = parse("FN:Stray\nBEGIN:VCARD\nFN:A\nno colon here\nAGENT:\nBEGIN:VCARD\nFN:Embedded agent\nEND:VCARD\nEND:VCARD\nBEGIN:VCARD\nFN:B\n")
        #expect(cards.map { $0.first("FN")?.text } == ["A", "B"])
        #expect(warnings.map(\.line) == [1, 4, 10])
        #expect(warnings[2].message.contains("no END:VCARD"))
    }

    @Test(arguments: [
        ("1985-04-15", nil, "1985-04-15"), ("19850415", nil, "1985-04-15"), ("--0415", nil, "--04-15"), ("--04-15", nil, "--04-15"),
        ("1604-04-15", "1604", "--04-15"), ("1985-04", nil, "1985-04"), ("1985", nil, "1985"),
        ("20090808T1430-0500", nil, "2009-08-08"), ("1985-04-15T00:00:00Z", nil, "1985-04-15"),
    ] as [(String, String?, String)])
    func readsEveryBirthdayForm(written: String, omittedYear: String?, expected: String) {
        #expect(VCardDate.parse(written, omittedYear: omittedYear)?.description == expected)
    }

    @Test func refusesDatesItCannotPlace() {
        #expect(VCardDate.parse("---15") == nil)
        #expect(VCardDate.parse("circa 1900") == nil)
        #expect(VCardDate.parse("1985-02-30") == nil)
    }
}
