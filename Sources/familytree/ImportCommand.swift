import ArgumentParser
import FamilyTree
import FamilyTreeContacts
import FamilyTreeFiles
import FamilyTreeGEDCOM
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a GEDCOM file or vCard contacts into a tree.json.",
        discussion: """
        GEDCOM: reads GEDCOM 5.5.1, 7.0 and older files in UTF-8 (with or without BOM), UTF-16, ANSEL, ASCII or \
        Windows-1252, with CR, LF or CRLF lines. People, names, sex, birth and death dates, families with \
        their partners, children in order, marriage and divorce dates, and adopted/foster/step children \
        are imported; links that disagree are repaired with a warning. Dates familytree cannot place \
        (other calendars, free text) are kept as written.

        vCard (.vcf, 2.1, 3.0 and 4.0, from iPhone, macOS, Google, Outlook or a CardDAV server): one \
        member per card, with names, birthday (also without a year), gender, photo, labelled phones, \
        e-mails and addresses; relations (RELATED, Apple's and Google's related names, spouse fields) \
        become unions. Related names are matched to cards by full name, then nickname, then first \
        name; a name that matches no card or several is reported (--report), never guessed. \
        --into merges into an existing tree as a sync: matched by the card's UID, changed cards \
        update their member, new cards are added, members whose card is gone are marked removed \
        (kept in the file, hidden from charts); members that did not come from contacts are untouched.

        Examples:
          familytree import family.ged -o tree.json
          familytree import family.ged -o tree.json --report
          familytree import family.ged --strict -o tree.json     # any warning is an error
          familytree render family.ged -o family.svg              # render imports on the fly
          familytree import contacts.vcf -o tree.json --report
          familytree import contacts.vcf --into tree.json         # re-import: add, update, mark removed
          familytree import contacts.vcf --into tree.json --complete-years   # asks each missing birth year
          familytree import contacts.vcf --into tree.json --year "Amara Okafor=1990"
          familytree render contacts.vcf -o family.svg
        """
    )

    @Argument(help: "The GEDCOM or vCard file, or - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "The tree.json to write, or - for standard output (with --into: that file).")
    var output: String?

    @Option(help: "Merge vCard contacts into this tree.json (written back to it unless -o says otherwise).")
    var into: String?

    @Option(help: "GEDCOM surnames written in capitals: as-is, or title (KENNEDY becomes Kennedy).")
    var surnameCase: SurnameCase = .asIs

    @Flag(help: "Treat every warning as an error: write nothing and exit 1.")
    var strict = false

    @Flag(help: "List every warning with its line number.")
    var report = false

    @OptionGroup(title: "Birthdays without a year (vCard)")
    var years: YearCompletionOptions

    func run() throws {
        let bytes = try TreeFiles.read(file)
        let name = file == "-" ? "<stdin>" : file
        if FamilyFile.kind(path: file, bytes: bytes) == .vCard {
            try importContacts(bytes, name: name)
            return
        }
        guard into == nil else { throw ValidationError("--into merges vCard contacts only; \(name) is not a vCard file") }
        guard !years.isRequested else { throw ValidationError("--complete-years and --year complete contacts' birthdays; \(name) is not a vCard file (use `familytree edit`)") }
        let output = self.output ?? "-"
        let imported = try FamilyFile.gedcom(bytes, name: name, surnameCase: surnameCase)
        if report || strict {
            for warning in imported.warnings { Console.error("\(name): \(warning.kind.rawValue): \(warning)") }
        }
        if strict, !imported.warnings.isEmpty {
            throw CLIError.fileAccess(path: name, reason: "\(imported.warnings.count) warning\(imported.warnings.count == 1 ? "" : "s") and --strict: nothing written")
        }
        let graph = try FamilyGraph(document: imported.document, file: name)
        try TreeFiles.write(JSONWriter.string(from: graph.document.jsonValue), to: output)
        var counts: [GEDCOMWarning.Kind: Int] = [:]
        for warning in imported.warnings { counts[warning.kind, default: 0] += 1 }
        let byKind = GEDCOMWarning.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
        Console.error("imported \(imported.peopleCount) people and \(imported.familyCount) families from \(name) (\(imported.encoding)\(imported.version.map { ", GEDCOM \($0)" } ?? "")); \(imported.warnings.count) warnings\(byKind.isEmpty ? "" : ": \(byKind)")")
    }
}

extension ImportCommand {
    private func importContacts(_ bytes: [UInt8], name: String) throws {
        // The tree --into names is read, merged and written under its lock.
        try TreeFileLock.holding(into ?? output ?? "-") { try mergeContacts(bytes, name: name) }
    }

    private func mergeContacts(_ bytes: [UInt8], name: String) throws {
        let imported = ContactsImport(bytes: bytes)
        let base = try into.map { path throws in try TreeFile(json: try TreeFiles.read(path), file: path) } ?? TreeFile.empty(file: name)
        let merged = try ContactsMerge.merge(imported, into: base)
        let report = imported.report + merged.report
        if self.report || strict {
            for warning in imported.warnings { Console.error("\(name): \(warning)") }
            for entry in report { Console.error("\(name): \(entry)") }
        }
        if strict, !(imported.warnings.isEmpty && report.isEmpty) {
            let count = imported.warnings.count + report.count
            throw CLIError.fileAccess(path: name, reason: "\(count) warning\(count == 1 ? "" : "s") and --strict: nothing written")
        }
        // The edits were validated together: the merged tree is a valid tree.
        let completion = try years.complete(merged.tree, today: try Today.dayNumber(nil))
        try TreeFiles.write(completion.tree.text, to: output ?? into ?? "-")
        for line in completion.completed { Console.error("completed \(line)") }
        let toCheck = report.isEmpty ? "" : "; relations: \(ContactsReportEntry.counts(of: report))\(self.report ? "" : " (--report lists them)")"
        Console.error("imported \(imported.cardCount) card\(imported.cardCount == 1 ? "" : "s") from \(name): \(merged.summary)\(toCheck)")
    }
}

extension SurnameCase: ExpressibleByArgument {}
