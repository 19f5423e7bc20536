import FamilyTree
import Testing
@testable import FamilyTreeContacts

/// What a CardDAV push and the pull after it rely on: a card rewritten with a member's fields keeps
/// every other line, and a three-way merge keeps the tree's edits the card did not touch.
@Suite struct WriteBackTests {
    static let amara = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        PRODID:-//Apple Inc.//iPhone OS 17.0//EN\r
        N:Okafor;Amara;;Dr.;\r
        FN:Amara Okafor\r
        BDAY;X-APPLE-OMIT-YEAR=1604:1604-12-02\r
        item1.TEL;type=CELL;type=VOICE;type=pref:+44 7700 900123\r
        item1.X-ABLabel:_$!<Mobile>!$_\r
        NOTE;ENCODING=QUOTED-PRINTABLE:Loves=20gardening=0D=0Aand=20=\r
        tea\r
        X-SOCIALPROFILE;type=twitter:x-apple:amara\r
        PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHR\r
         oaHx4dGhwcICQuJyAiLCMcHCg3KSwwMTQ0NB8nOT04MjwuMzQy\r
        UID:9E1C1A52-0004\r
        REV:2024-01-01T00:00:00Z\r
        END:VCARD\r

        """

    func member(from card: String) throws -> Member {
        try #require(ContactsImport(bytes: Array(card.utf8)).document.members.first)
    }

    @Test func aCompletedBirthdayReplacesOnlyTheBirthdayAndTheRevision() throws {
        var member = try member(from: Self.amara)
        member.birthday = PartialDate("1990-12-02")
        let written = VCardRewrite.card(Self.amara, replacing: [.birthday], from: member, revision: "2026-11-25T10:00:00Z")
        #expect(written.contains("BDAY:1990-12-02\r\n"))
        #expect(!written.contains("X-APPLE-OMIT-YEAR"))
        #expect(written.contains("REV:2026-11-25T10:00:00Z\r\n") && !written.contains("REV:2024"))
        // Every other line, folded ones and quoted-printable ones too, exactly as it was.
        let kept = Self.amara.components(separatedBy: "\r\n").filter { !$0.hasPrefix("BDAY") && !$0.hasPrefix("REV") && !$0.isEmpty }
        for line in kept { #expect(written.contains(line + "\r\n"), "kept: \(line)") }
        #expect(written.hasSuffix("END:VCARD\r\n"))
        // Read back, it is the same person with the year.
        let reread = try self.member(from: written)
        #expect(reread.birthday == PartialDate("1990-12-02"))
        #expect(reread.fullName == "Amara Okafor")
        #expect(reread.notes == (try self.member(from: Self.amara)).notes)
        #expect(reread.contact?.phones.first?.label == "Mobile")
    }

    @Test func aChangedNameKeepsTheTitleAndAClearedNicknameIsGone() throws {
        let card = Self.amara.replacingOccurrences(of: "UID:", with: "NICKNAME:Mara\r\nUID:")
        var member = try member(from: card)
        member.lastName = "Okafor-Mensah"
        member.nickname = nil
        let written = VCardRewrite.card(card, replacing: [.lastName, .nickname], from: member)
        #expect(written.contains("N:Okafor-Mensah;Amara;;Dr.;\r\n"))
        #expect(written.contains("FN:Amara Okafor-Mensah\r\n"))
        #expect(!written.contains("NICKNAME"))
        #expect(written.contains("REV:2024-01-01T00:00:00Z"), "no revision given: REV is kept")
    }

    /// A name or note that carries line breaks and vCard syntax stays inside its own property.
    @Test func hostileValuesStayInTheirProperty() throws {
        var member = try member(from: Self.amara)
        member.firstName = "Eve\r\nEMAIL:evil@example.org\r\nEND:VCARD"
        member.notes = "a;b,c\\d\nBEGIN:VCARD\u{1B}[31m"
        let written = VCardRewrite.card(Self.amara, replacing: [.firstName, .notes], from: member)
        let cards = ContactsImport(bytes: Array(written.utf8))
        #expect(cards.cardCount == 1)
        let reread = try #require(cards.document.members.first)
        #expect(reread.contact?.emails.isEmpty ?? true)
        #expect(reread.firstName == "Eve\nEMAIL:evil@example.org\nEND:VCARD" || reread.firstName.contains("EMAIL:evil"), "the name came back as a name")
        #expect(reread.notes == "a;b,c\\d\nBEGIN:VCARD[31m")
        for line in written.components(separatedBy: "\r\n") {
            #expect(!line.hasPrefix("EMAIL"), "no property was injected: \(line)")
            if line.hasPrefix("N:") || line.hasPrefix("FN:") || line.hasPrefix("NOTE:") || line.hasPrefix(" ") && !line.hasPrefix(" oaHx") {
                #expect(line.utf8.count <= 75, "folded: \(line)")
            }
        }
    }

    // MARK: Three-way merge

    func tree(from card: String) throws -> TreeFile {
        try ContactsMerge.merge(ContactsImport(bytes: Array(card.utf8)), into: TreeFile.empty()).tree
    }

    @Test func aFieldTheCardDidNotChangeKeepsTheTreesEdit() throws {
        var tree = try tree(from: Self.amara)
        let id = tree.graph.members[0].id
        try tree.apply(.editMember(id, MemberChanges(birthday: .set(PartialDate("1990-12-02")!))))
        // On the phone meanwhile: a nickname, and the card's revision moves on.
        let phone = Self.amara.replacingOccurrences(of: "UID:", with: "NICKNAME:Mara\r\nUID:").replacingOccurrences(of: "REV:2024", with: "REV:2025")
        let base = ContactsImport(bytes: Array(Self.amara.utf8))

        let threeWay = try ContactsMerge.merge(ContactsImport(bytes: Array(phone.utf8)), into: tree, base: base)
        let merged = threeWay.tree.graph.members[0]
        #expect(merged.nickname == "Mara")
        #expect(merged.birthday == PartialDate("1990-12-02"), "the tree's year survives")
        #expect(threeWay.report.isEmpty)
        #expect(threeWay.summary.updated == 1)

        // Without the base the card's fields win, as a file re-import always did.
        let twoWay = try ContactsMerge.merge(ContactsImport(bytes: Array(phone.utf8)), into: tree)
        #expect(twoWay.tree.graph.members[0].birthday == PartialDate("--12-02"))
    }

    @Test func aFieldChangedOnBothSidesTakesTheCardsAndSaysSo() throws {
        var tree = try tree(from: Self.amara)
        let id = tree.graph.members[0].id
        try tree.apply(.editMember(id, MemberChanges(birthday: .set(PartialDate("1990-12-02")!))))
        let phone = Self.amara.replacingOccurrences(of: "BDAY;X-APPLE-OMIT-YEAR=1604:1604-12-02", with: "BDAY:1991-12-02")
            .replacingOccurrences(of: "REV:2024", with: "REV:2025")
        let merged = try ContactsMerge.merge(ContactsImport(bytes: Array(phone.utf8)), into: tree, base: ContactsImport(bytes: Array(Self.amara.utf8)))
        #expect(merged.tree.graph.members[0].birthday == PartialDate("1991-12-02"))
        let entry = try #require(merged.report.first)
        #expect(entry.kind == .overwritten)
        #expect(entry.message.contains("birthday changed both in the tree (\"1990-12-02\") and on the card (\"1991-12-02\")"))
    }
}

/// The structured name by the RFC: `;` parts the five components, an unescaped `,` lists values in
/// one of them (from 3.0 on), an escaped `\,` is a comma.
@Suite struct StructuredNameTests {
    func member(_ card: String) throws -> Member {
        try #require(ContactsImport(bytes: Array(card.utf8)).document.members.first)
    }

    @Test func anEscapedCommaIsACommaAndTheSuffixIsKept() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Smith\\, Esq;John;Paul,Peter;Dr.;Jr.\r\nFN:Dr. John Smith\\, Esq Jr.\r\nEND:VCARD\r\n"
        let read = try member(card)
        #expect(read.lastName == "Smith, Esq")
        #expect(read.firstName == "John")
        #expect(read.middleName == "Paul Peter", "a list of additional names")
        #expect(read.suffix == "Jr.")
        // Exported and read again, in both versions: the same name.
        let graph = try FamilyGraph(document: ContactsImport(bytes: Array(card.utf8)).document)
        for version in VCardExport.Version.allCases {
            let written = VCardExport(version: version).write(graph)
            #expect(written.contains("N:Smith\\, Esq;John;Paul Peter;;Jr.\r\n"), "\(written)")
            let again = try member(written)
            #expect([again.lastName, again.firstName, again.middleName, again.suffix] == ["Smith, Esq", "John", "Paul Peter", "Jr."])
        }
    }

    @Test func vCard21HasNoValueLists() throws {
        let read = try member("BEGIN:VCARD\r\nVERSION:2.1\r\nN:Smith, Esq;John;;;III\r\nEND:VCARD\r\n")
        #expect(read.lastName == "Smith, Esq")
        #expect(read.suffix == "III")
    }

    /// A 2.1 card rewritten (`export --onto`, a CardDAV push) stays 2.1: a name or note that is not
    /// plain ASCII is quoted-printable UTF-8 and says so, with no 3.0 escapes.
    @Test func aRewritten21CardDeclaresItsCharsetAndEncoding() throws {
        let card = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Muller;Jurgen;;;\r\nFN:Jurgen Muller\r\nTEL;HOME:+49 30 1234\r\nEND:VCARD\r\n"
        var changed = try member(card)
        changed.lastName = "Müller; von"
        changed.firstName = "Jürgen"
        changed.notes = "Line one\nLine two, with a comma = and an equals sign " + String(repeating: "ä", count: 40)
        let written = VCardRewrite.card(card, replacing: [.lastName, .firstName, .notes], from: changed)
        #expect(written.utf8.allSatisfy { $0 < 0x80 }, "no raw UTF-8 in a 2.1 card: \(written)")
        #expect(written.contains("N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller\\; von;J=C3=BCrgen;;;\r\n"), "\(written)")
        #expect(written.contains("NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Line one=0D=0ALine two, with a"))
        #expect(written.contains("=3D and an equals sign =C3=A4"))
        #expect(!written.contains("\\n") && !written.contains("\\,"))
        #expect(written.contains("TEL;HOME:+49 30 1234\r\n"))
        for line in written.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 76, "\(line)") }
        let again = try member(written)
        #expect(again.lastName == "Müller; von")
        #expect(again.firstName == "Jürgen")
        #expect(again.notes == changed.notes)
    }
}
