import Foundation
import Testing
import FamilyTree
@testable import FamilyTreeContacts
import TestSupport

/// The tree as contact cards: what importing them gives back, and values that cannot break out.
@Suite struct VCardExportTests {
    static let root = TestPaths.packageRoot

    static func graph(_ example: String) throws -> FamilyGraph {
        let bytes = Array(try Data(contentsOf: root.appendingPathComponent("examples/\(example)")))
        if example.hasSuffix(".vcf") { return try FamilyGraph(document: ContactsImport(bytes: bytes).document) }
        return try FamilyGraph(document: TreeDocument(json: bytes))
    }

    /// Everyone by full name: their sex, their birthday where it has a month and a day, their
    /// parents' and partners' names.
    struct Family: Equatable {
        var sex: [String: Sex?] = [:]
        var birthday: [String: PartialDate] = [:]
        var parents: [String: Set<String>] = [:]
        var partners: Set<Set<String>> = []

        init(_ graph: FamilyGraph) {
            let name = { (index: Int) in graph.members[index].fullName }
            for (index, member) in graph.members.enumerated() {
                sex[member.fullName] = member.sex
                if case .exact(let day)? = member.birthday, day.month != nil, day.day != nil { birthday[member.fullName] = member.birthday }
                for union in graph.topology.parentUnions[index] { parents[name(index), default: []].formUnion(graph.topology.partners[union].map(name)) }
            }
            for partners in graph.topology.partners where partners.count == 2 { self.partners.insert(Set(partners.map(name))) }
        }
    }

    @Test(arguments: [VCardExport.Version.v4, .v3], ["family.json", "contacts.vcf"])
    func importingTheExportGivesBackThePeopleBirthdaysAndFamily(version: VCardExport.Version, example: String) throws {
        let graph = try Self.graph(example)
        let text = VCardExport(version: version).write(graph)
        let back = ContactsImport(bytes: Array(text.utf8))
        let reread = try FamilyGraph(document: back.document)
        #expect(reread.members.count == graph.members.count)
        #expect(Family(reread) == Family(graph))
        #expect(back.report.filter { $0.kind == .unmatched }.isEmpty, "\(back.report)")
        // Phones and e-mails come back with their labels.
        let phones = { (graph: FamilyGraph) in Set(graph.members.flatMap { ($0.contact?.phones ?? []).map { "\($0.label)=\($0.value)" } }) }
        #expect(phones(reread) == phones(graph))
        // Every line is at most 75 octets and ends in CRLF.
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") && !$0.contains("\r") })
    }

    @Test func aBirthdayWithoutAYearIsWrittenAsContactsAppsWriteIt() throws {
        let member = Member(id: "tom", firstName: "Tom", birthday: PartialDate("--07-14"))
        let graph = try FamilyGraph(members: [member], unions: [])
        #expect(VCardExport(version: .v4).write(graph).contains("\r\nBDAY:--0714\r\n"))
        #expect(VCardExport(version: .v3).write(graph).contains("\r\nBDAY;X-APPLE-OMIT-YEAR=1604:1604-07-14\r\n"))
    }

    @Test func hostileValuesStayInsideTheirProperty() throws {
        let hostile = "Eve\r\nEND:VCARD\r\nBEGIN:VCARD\nFN:Mallory;x,y\\z\u{0}\u{1B}[31m\u{2028}"
        var member = Member(id: "eve", firstName: hostile, lastName: "A;B", nickname: hostile, notes: hostile)
        member.contact = ContactDetails(uid: "u1", phones: [LabeledValue(label: "Home\r\nX-EVIL:1", value: "+1\n555")])
        let graph = try FamilyGraph(members: [member], unions: [])
        for version in VCardExport.Version.allCases {
            let text = VCardExport(version: version).write(graph)
            var parser = VCardParser()
            let cards = parser.parse(Array(text.utf8))
            #expect(cards.count == 1, "one card, whatever the values say")
            let names = Set(cards[0].properties.map(\.name))
            #expect(!names.contains("X-EVIL") && cards[0].properties("FN").count == 1 && cards[0].properties("END").isEmpty)
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\r" && $0 != "\n" })
            let reread = ContactsImport(bytes: Array(text.utf8)).document.members[0]
            #expect(reread.lastName == "A;B")
            #expect(reread.nickname?.hasPrefix("Eve") == true)
        }
    }

    @Test func uidsAreTheCardsOwnOrStableOnesMadeFromTheId() {
        var fromCard = Member(id: "x", firstName: "X")
        fromCard.contact = ContactDetails(uid: "9E1C1A52-0001")
        #expect(VCardExport.uid(of: fromCard) == "9E1C1A52-0001")
        let made = VCardExport.uid(of: Member(id: "heinrich", firstName: "Heinrich"))
        #expect(made == VCardExport.uid(of: Member(id: "heinrich", firstName: "Someone else")))
        #expect(made != VCardExport.uid(of: Member(id: "greta", firstName: "Heinrich")))
        #expect(made.range(of: "^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression) != nil)
    }
}
