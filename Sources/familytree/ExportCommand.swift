import ArgumentParser
import FamilyTree
import FamilyTreeFiles
import FamilyTreeContacts
import FamilyTreeGEDCOM
import Foundation

extension GEDCOMExport.Version: ExpressibleByArgument {}
extension VCardExport.Version: ExpressibleByArgument {}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a tree as GEDCOM (7.0, or 5.5.1) or as contact cards (vCard 4.0 or 3.0).",
        discussion: """
        Writes people (names, nickname, sex, birth and death dates, notes) and families (partners, \
        children in sibling order, adopted/foster/step children, marriage and divorce dates). Ids that are \
        not GEDCOM xrefs are numbered and kept in an _FTID extension, so importing the file gives them back. \
        Cross-bloodline connections, colours and photos have no GEDCOM form and are not written. \
        With -o FILE.vcf (or --format vcard) each member becomes a contact card: names, birthday (one \
        without a year as contacts apps write it), sex, photo, notes, the phones, e-mails and addresses \
        it came with, and parents, children and partners as related names, which importing the file \
        gives back. --onto the contacts file the tree came from writes its cards back instead, each \
        with the names, birthday, nickname, notes and sex the tree changed and every other line as it \
        was; members from no card of it get new cards.

        Examples:
          familytree export tree.json -o family.ged
          familytree export tree.json --gedcom-version 5.5.1 -o family-551.ged
          familytree export tree.json --private living -o public.ged   # the living as RESN privacy records
          familytree export tree.json -o family.vcf --vcard-version 3.0  # for Apple Contacts
          familytree export tree.json -o family.vcf --onto contacts.vcf  # the phone's cards, with the tree's changes
        """
    )

    @Argument(help: "The tree file (tree.json or GEDCOM), or - for standard input.")
    var tree: String

    @OptionGroup var reading: ReadingOptions

    @Option(name: .shortAndLong, help: "The GEDCOM (or .vcf) file to write, or - for standard output.")
    var output: String = "-"

    @Option(help: "7.0 or 5.5.1.")
    var gedcomVersion: GEDCOMExport.Version = .v7

    @Option(help: "gedcom or vcard (by default: vcard for a .vcf output, else gedcom).")
    var format: ExportFormat?

    @Option(help: "With vCard: 4.0 or 3.0 (Apple Contacts reads 3.0's related names); with --onto, the original's by default, else 4.0.")
    var vcardVersion: VCardExport.Version?

    @Option(help: ArgumentHelp("With vCard: the contacts file the tree came from; its cards are written back with the tree's changes and every other field kept.", valueName: "CONTACTS.vcf"))
    var onto: String?

    enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
        case gedcom, vcard
    }

    @OptionGroup var privacy: PrivacyOptions

    @Option(help: "With --private living: the day who is living is judged on, YYYY-MM-DD (default: today).")
    var today: String?

    func validate() throws {
        if onto != nil, privacy.choice != nil {
            throw ValidationError("--onto writes the original cards back, which --private must not: leave one of them out")
        }
    }

    func run() throws {
        let (graph, privateIDs) = privacy.apply(to: try TreeFiles.loadGraph(tree, surnameCase: reading.surnameCase), today: try Today.dayNumber(today))
        let vCard = format == .vcard || (format == nil && ["vcf", "vcard"].contains(FileName.pathExtension(output).lowercased()))
        if vCard {
            guard let onto else {
                try TreeFiles.write(VCardExport(version: vcardVersion ?? .v4).write(graph), to: output)
                return
            }
            let original = try TreeFiles.read(onto)
            // New cards take the original's version (a phone's export is all 3.0).
            let version = vcardVersion ?? (VCardRewrite.cards(in: String(decoding: original, as: UTF8.self)).first?.contains("VERSION:4") == true ? .v4 : .v3)
            try TreeFiles.write(VCardExport(version: version).write(graph, onto: original), to: output)
        } else {
            let export = GEDCOMExport(version: gedcomVersion, privateMembers: privateIDs)
            try TreeFiles.write(export.write(graph), to: output)
            // What the other version's file held that this version has no tag for.
            for note in export.conversionNotes(for: graph) { Console.error("\(output): \(note)") }
        }
    }
}
