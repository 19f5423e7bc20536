import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeContacts
import TestSupport

/// Which cards are family: one test per signal, then the ranking on real exports.
@Suite struct FamilySuggestionsTests {
    static func card(_ lines: [String]) -> VCard {
        var parser = VCardParser()
        let text = (["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
        return parser.parse(Array(text.utf8))[0]
    }

    @Test func relatedNamesCountOnlyWithPredefinedLabels() {
        let apple = Self.card(["FN:Ann Lee", "item1.X-ABRELATEDNAMES:Bo Lee", "item1.X-ABLabel:_$!<Mother>!$_"])
        #expect(FamilySuggestions.score(apple).score == 40)
        let custom = Self.card(["FN:Ann Lee", "item1.X-ABRELATEDNAMES:Bo Lee", "item1.X-ABLabel:Mother"])
        #expect(FamilySuggestions.score(custom).score == 0, "a custom label never counts, even one spelled like a predefined one")
        let other = Self.card(["FN:Ann Lee", "item1.X-ABRELATEDNAMES:Bo Lee", "item1.X-ABLabel:_$!<Manager>!$_"])
        #expect(FamilySuggestions.score(other).score == 0)
        let four = Self.card(["FN:Ann Lee", "RELATED;TYPE=parent;VALUE=text:Bo Lee", "RELATED;TYPE=sibling;VALUE=text:Cy Lee"])
        let (score, reasons) = FamilySuggestions.score(four)
        #expect(score == 50 && reasons == ["related names: parent, sibling"])
    }

    @Test func familyWordsCountInNamesNicknamesAndNotesAsWholeWords() {
        #expect(FamilySuggestions.score(Self.card(["FN:Mom"])).score == 30)
        #expect(FamilySuggestions.score(Self.card(["FN:Rosa", "NICKNAME:Tía Rosa"])).reasons == ["family word \"tia\""])
        #expect(FamilySuggestions.score(Self.card(["FN:Greta", "NOTE:meine OMA"])).score == 30)
        #expect(FamilySuggestions.score(Self.card(["FN:Nonna Lucia"])).score == 30)
        #expect(FamilySuggestions.score(Self.card(["FN:Ted Thompson", "NOTE:Madison's grandmotherly neighbour"])).score == 0,
                "son in Thompson and grandmother in grandmotherly are not words of their own")
    }

    @Test func aSurnameSharedWithTheTreeOrTheUserCounts() {
        let card = Self.card(["FN:Ama Okafor", "N:Okafor;Ama;;;"])
        #expect(FamilySuggestions.score(card, surnames: ["okafor"]).score == 20)
        #expect(FamilySuggestions.score(card, surnames: ["mensah"]).score == 0)
        let tree = TreeDocument(members: [Member(id: "g", firstName: "Grace", lastName: "OKAFOR")])
        #expect(FamilySuggestions.rank([card], tree: tree)[0].score == 20, "case does not matter")
        #expect(FamilySuggestions.rank([card], userSurname: "Okafor")[0].score == 20)
    }

    @Test func aPhotoAndSeveralWaysToReachAddALittle() {
        #expect(FamilySuggestions.score(Self.card(["FN:A", "PHOTO;ENCODING=b;TYPE=JPEG:AAAA"])).score == 5)
        #expect(FamilySuggestions.score(Self.card(["FN:A", "TEL:1"])).score == 0)
        #expect(FamilySuggestions.score(Self.card(["FN:A", "TEL:1", "EMAIL:a@b.c"])).score == 5)
    }

    @Test func aJobTitleOrOrganisationCountsAgainst() {
        let (score, reasons) = FamilySuggestions.score(Self.card(["FN:Dr Who", "ORG:ACME;Sales", "TITLE:Manager"]))
        #expect(score == -15 && reasons == ["work contact (ACME, Sales)"])
    }

    @Test func confidentSuggestionsComeFirstUpToTheLimitAndKnownCardsAreMarked() {
        let cards = [
            Self.card(["FN:Colleague", "ORG:ACME"]),
            Self.card(["FN:Dad", "UID:urn:uuid:D1"]),
            Self.card(["FN:Mum"]),
            Self.card(["FN:Grandma"]),
            Self.card(["FN:Ann Lee", "item1.X-ABRELATEDNAMES:Bo", "item1.X-ABLabel:_$!<Son>!$_", "NICKNAME:Mom"]),
        ]
        var dad = Member(id: "dad", firstName: "Dad")
        dad.contact = ContactDetails(uid: "d1")
        let ranked = FamilySuggestions.rank(cards, tree: TreeDocument(members: [dad]), limit: 1)
        #expect(ranked.map(\.name) == ["Ann Lee", "Dad", "Mum", "Grandma", "Colleague"], "by score, then file order")
        #expect(ranked.map(\.isConfident) == [true, false, false, false, false], "only the limit is suggested")
        #expect(ranked.map(\.alreadyInTree) == [false, true, false, false, false])
    }

    @Test(.requiresSharedData("vcard")) func theExampleAndVendorExportsRankSensibly() throws {
        let root = TestPaths.packageRoot
        var parser = VCardParser()
        let example = parser.parse(Array(try Data(contentsOf: root.appendingPathComponent("examples/contacts.vcf"))))
        let ranked = FamilySuggestions.rank(example)
        #expect(ranked.count == 9)
        #expect(ranked.first?.name == "Grace Okafor")
        #expect(ranked.filter(\.isConfident).count == 5)
        let folder = root.appendingPathComponent("../shared/data/vcard")
        let files = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".vcf") }
        try #require(files.count >= 9, "../shared/data/vcard is part of the test set-up")
        for file in files {
            var parser = VCardParser()
            let cards = parser.parse(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
            let ranked = FamilySuggestions.rank(cards)
            #expect(ranked.count == cards.count, "\(file)")
            // Vendor test cards are work contacts with every field filled: none has a family word.
            #expect(ranked.allSatisfy { !$0.reasons.contains { $0.hasPrefix("family word") } }, "\(file)")
        }
    }
}
