import ArgumentParser
import FamilyTree
import FamilyTreeGEDCOM

extension GEDCOMExport.Version: ExpressibleByArgument {}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a tree as GEDCOM (7.0, or 5.5.1).",
        discussion: """
        Writes people (names, nickname, sex, birth and death dates, notes) and families (partners, \
        children in sibling order, adopted/foster/step children, marriage and divorce dates). Ids that are \
        not GEDCOM xrefs are numbered and kept in an _FTID extension, so importing the file gives them back. \
        Cross-bloodline connections, colours and photos have no GEDCOM form and are not written.

        Examples:
          familytree export tree.json -o family.ged
          familytree export tree.json --gedcom-version 5.5.1 -o family-551.ged
          familytree export tree.json --private living -o public.ged   # the living as RESN privacy records
        """
    )

    @Argument(help: "The tree file (tree.json or GEDCOM), or - for standard input.")
    var tree: String

    @OptionGroup var reading: ReadingOptions

    @Option(name: .shortAndLong, help: "The GEDCOM file to write, or - for standard output.")
    var output: String = "-"

    @Option(help: "7.0 or 5.5.1.")
    var gedcomVersion: GEDCOMExport.Version = .v7

    @OptionGroup var privacy: PrivacyOptions

    @Option(help: "With --private living: the day who is living is judged on, YYYY-MM-DD (default: today).")
    var today: String?

    func run() throws {
        let (graph, privateIDs) = privacy.apply(to: try TreeFiles.loadGraph(tree, surnameCase: reading.surnameCase), today: try Today.dayNumber(today))
        try TreeFiles.write(GEDCOMExport(version: gedcomVersion, privateMembers: privateIDs).write(graph), to: output)
    }
}
