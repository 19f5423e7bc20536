import FamilyTree
import Foundation
import Testing
@testable import FamilyTreeContacts
import TestSupport

enum ContactFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let sharedData = TestPaths.shared("vcard")

    static func fixture(_ name: String) throws -> ContactsImport {
        ContactsImport(bytes: Array(try Data(contentsOf: directory.appendingPathComponent(name))))
    }

    static func shared(_ path: String) throws -> ContactsImport {
        ContactsImport(bytes: Array(try Data(contentsOf: sharedData.appendingPathComponent(path))))
    }

}

extension ContactsImport {
    func member(named name: String) -> Member? { document.members.first { $0.fullName == name } }
}

@Suite struct ContactsImportTests {
    @Test func aFamilyOfFiveLinkedByRelatedBecomesOneCoupleWithThreeChildren() throws {
        let imported = try ContactFixtures.fixture("family-related.vcf")
        let graph = try FamilyGraph(document: imported.document)
        #expect(graph.members.count == 5)
        #expect(graph.unions.count == 1)
        let union = graph.unions[0]
        #expect(Set(union.partners.compactMap { graph.member($0)?.firstName }) == ["Robert", "Maria"])
        #expect(union.marriage?.description == "1984-06-23")
        // RELATED by urn:uuid (Robert's children), by text (Maria's "Sofia Lindqvist"), a sibling by first name
        // (Erik's "Anna"), in birth order; Anna has no birth year and keeps her place.
        #expect(union.children.compactMap { graph.member($0.member)?.firstName } == ["Sofia", "Erik", "Anna"])
        #expect(graph.member("00000000-0000-4000-8000-000000000001")?.nickname == "Dad")
        #expect(graph.member("00000000-0000-4000-8000-000000000002")?.birthday?.description == "1960-11")
        #expect(graph.member("00000000-0000-4000-8000-000000000005")?.birthday?.description == "--09-05")
        let robert = try #require(imported.member(named: "Robert Lindqvist"))
        #expect(robert.contact?.uid == "urn:uuid:00000000-0000-4000-8000-000000000001")
        #expect(robert.contact?.revision == "20260101T120000Z")
        #expect(robert.contact?.phones == [LabeledValue(label: "Mobile", value: "+46 70 123 45 67")])
        #expect(robert.contact?.emails == [LabeledValue(label: "Home", value: "robert@example.se")])
        // Erik names only Robert; Robert's one spouse is taken as the other parent, and the report says so.
        #expect(imported.report.filter { $0.kind == .inferred }.map(\.card) == ["Erik Lindqvist", "Anna Lindqvist"])
    }

    @Test func appleLabelsNicknamesAndTheNoYearBirthday() throws {
        let imported = try ContactFixtures.fixture("apple-family.vcf")
        let graph = try FamilyGraph(document: imported.document)
        let karin = try #require(imported.member(named: "Karin Berg"))
        #expect(karin.birthday?.description == "--04-15")
        #expect(karin.contact?.phones == [LabeledValue(label: "Mobile", value: "+46 8 123 456")])
        let parents = graph.parents(ofMemberAt: try #require(graph.index(of: karin.id))).map { graph.members[$0].fullName }
        // "Father: Lars Berg" by full name, "Mother: Mormor" by Greta's nickname.
        #expect(Set(parents) == ["Lars Berg", "Greta Berg"])
        #expect(imported.member(named: "Lars Berg")?.sex == .male)
        #expect(imported.member(named: "Greta Berg")?.sex == .female)
        #expect(imported.member(named: "Lars Berg")?.notes == "Bor i Västerås.")
        #expect(imported.member(named: "Lars Berg")?.contact?.phones == [LabeledValue(label: "Mobile", value: "+46 70 555 01 01")])
        // Greta's X-ABDATE anniversary goes on her marriage to Lars (his card's bare "Spouse" label).
        #expect(graph.unions.count == 1)
        #expect(graph.unions[0].marriage?.description == "1965-05-01")
        // "Olle" matches two cards by first name and "Nobody Here" none: both reported, neither linked;
        // the Friend, the custom "Godmother" and the unlabelled related name are no relations.
        let report = imported.report.map { "\($0.kind.rawValue) \($0.line)" }
        #expect(report == ["ambiguous 11", "unmatched 15"])
        #expect(imported.report[0].message.contains("Olle Berg (line 42), Olle Svensson (line 47)"))
        #expect(graph.unions[0].children.map(\.member) == [karin.id])
    }

    @Test func relationsThatWouldCloseACycleOrGiveAThirdParentAreReportedAndLeftOut() {
        let text = """
        BEGIN:VCARD\nFN:A One\nN:One;A;;;\nRELATED;TYPE=parent;VALUE=text:B Two\nEND:VCARD
        BEGIN:VCARD\nFN:B Two\nN:Two;B;;;\nRELATED;TYPE=parent;VALUE=text:A One\nEND:VCARD
        BEGIN:VCARD\nFN:C\nN:;C;;;\nRELATED;TYPE=parent;VALUE=text:A One\nRELATED;TYPE=parent;VALUE=text:B Two\nRELATED;TYPE=parent;VALUE=text:D\nEND:VCARD
        BEGIN:VCARD\nFN:D\nN:;D;;;\nRELATED;TYPE=kin;VALUE=text:C\nEND:VCARD
        """
        let imported = ContactsImport(bytes: Array(text.utf8))
        #expect(throws: Never.self) { try FamilyGraph(document: imported.document) }
        #expect(imported.report.map(\.kind) == [.unplaced, .conflict, .conflict])
    }

    @Test func aCardWithoutNameStructureOrUIDStillBecomesAMember() {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:Cher\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Jean Paul Sartre\nEND:VCARD\nBEGIN:VCARD\nFN:Cher\nEND:VCARD\n"
        let imported = ContactsImport(bytes: Array(text.utf8))
        #expect(imported.document.members.map(\.id) == ["contact-cher", "contact-jean-paul-sartre"])
        #expect(imported.document.members[1].firstName == "Jean Paul")
        #expect(imported.document.members[1].lastName == "Sartre")
        // The second "Cher" card has the same name key: the same contact, reported and skipped.
        #expect(imported.report.map(\.kind) == [.duplicate])
    }
}

@Suite(.requiresSharedData("vcard"))
struct RealExportTests {
    @Test func iPhoneExport() throws {
        let imported = try ContactFixtures.shared("ez-vcard/John_Doe_IPHONE.vcf")
        let john = try #require(imported.document.members.first)
        #expect((john.firstName, john.middleName, john.lastName, john.nickname) == ("John", "Richter James", "Doe", "Johny"))
        #expect(john.birthday?.description == "2012-06-06")
        #expect(john.photo?.hasPrefix("data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/4QBYRXhpZgAATU0AKgAAAAgAAgESAAMAAAABAAEAAIdp") == true)
        #expect(john.contact?.phones.map(\.label) == ["Mobile", "Home", "Work", "Home Fax", "Work Fax", "Pager", "AssistantPhone"])
        #expect(john.contact?.addresses.first == LabeledValue(label: "Home", value: "Silicon Alley 5, New York, New York, 12345, United States of America"))
        #expect(john.contact?.addresses.last?.value == "Street4, Building 6, Floor 8, New York, 12345, USA")
    }

    @Test func gmailAndMacExportsNameASpouseThatIsNotInTheFile() throws {
        for file in ["ez-vcard/John_Doe_GMAIL.vcf", "ez-vcard/John_Doe_MAC_ADDRESS_BOOK.vcf"] {
            let imported = try ContactFixtures.shared(file)
            #expect(imported.document.members.count == 1)
            #expect(imported.report.map(\.message) == ["Spouse \"Jenny\" matches no card"])
        }
        let gmail = try ContactFixtures.shared("ez-vcard/John_Doe_GMAIL.vcf")
        // No spouse card to put it on: the anniversary stays on the card.
        #expect(gmail.document.members[0].contact?.dates == [LabeledValue(label: "Anniversary", value: "1975-03-01")])
        #expect(gmail.document.members[0].notes?.hasPrefix("THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS \"AS IS\"") == true)
    }

    @Test func googleLabelsPredefinedOnesAreRelationsCustomOnesAreNot() throws {
        let imported = try ContactFixtures.shared("ez-vcard/gmail-single2.vcf")
        let labels = imported.report.map { $0.message.split(separator: " ")[0] }
        #expect(labels == ["Spouse", "Child", "Mother", "Father", "Parent", "Brother", "Sister", "Partner", "DOMESTIC_PARTNER"])
        let dates = imported.document.members[0].contact?.dates ?? []
        #expect(dates.contains(LabeledValue(label: "CustomDateCategory", value: "2000-09-12")))
        #expect(dates.contains(LabeledValue(label: "Anniversary", value: "1930-03-20")))
    }

    @Test func vCard4Examples() throws {
        let simon = try #require(try ContactFixtures.shared("ez-vcard/rfc6350-example.vcf").document.members.first)
        #expect(simon.birthday?.description == "--02-03")
        #expect(simon.sex == .male)
        #expect(simon.contact?.phones.first == LabeledValue(label: "Work", value: "+1-418-656-9254 ext. 102"))
        #expect(simon.contact?.dates == [LabeledValue(label: "Anniversary", value: "2009-08-08")])

        let full = try ContactFixtures.shared("vobject/vcard40_full.vcf")
        let john = try #require(full.document.members.first)
        #expect(john.contact?.uid == "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
        #expect(john.contact?.revision == "20231215T120000Z")
        #expect(john.contact?.photoURL == "http://www.example.com/pub/photos/jqpublic.gif")
        #expect(john.notes == "This is a note about John.\nHe likes vCards.")
        #expect(full.report.map(\.kind) == [.unmatched])

        let fullContact = try ContactFixtures.shared("ez-vcard/fullcontact.vcf")
        #expect(fullContact.document.members[0].birthday?.description == "2016-08-01")
        // FullContact hex-encodes Apple's labels in the property name; custom ones (Friend, Fiance) are no relations.
        #expect(fullContact.report.count == 8)
        #expect(fullContact.document.members[0].contact?.dates.contains(LabeledValue(label: "Anniversary", value: "2016-08-02")) == true)
    }

    @Test func vCard3FromDAVx5WithCharsetsAndGroups() throws {
        let imported = try ContactFixtures.shared("vcard4android/allfields-vcard3.vcf")
        let member = try #require(imported.document.members.first)
        #expect(member.contact?.addresses.last == LabeledValue(label: "Monkey Tree", value: "Postfach 314, vorne hinten, Teststraße 22, Mönchspfaffingen, 4043, Klöster-Reich"))
        #expect(member.contact?.emails.map(\.label) == ["Home", "@work"])
        // RELATED by e-mail URI: no card has that address.
        #expect(imported.report.map(\.message) == ["RELATED;TYPE=parent \"muuum@example.com\" matches no card"])
    }

    @Test func everyExportImportsIntoAValidTree() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: ContactFixtures.sharedData.path).filter { $0.hasSuffix(".vcf") }.sorted()
        #expect(files.count >= 9)
        for file in files {
            let imported = try ContactFixtures.shared(file)
            #expect(imported.document.members.count == imported.cardCount, "\(file)")
            #expect(throws: Never.self) { try FamilyGraph(document: imported.document) }
        }
    }
}
