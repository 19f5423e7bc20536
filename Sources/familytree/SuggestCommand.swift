import ArgumentParser
import FamilyTree
import FamilyTreeContacts
import FamilyTreeFiles
import Foundation

struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Rank contact cards by how likely each is family, with the reasons.",
        discussion: """
        Points for related names with a predefined label (Father, Mother, Parent, Brother, Sister, \
        Child, Son, Daughter, Spouse, Partner; custom labels never count), a family word in the name, \
        nickname or note (mom, dad, grandma, oma, abuela, nonna, tía, ...), a surname shared with the \
        tree or with --surname, a photo, several phones or e-mails; a job title or organisation counts \
        against. Up to --limit confident suggestions come first, then the rest by score. Cards already \
        in the tree (same UID or name) are marked (added).

        Examples:
          familytree suggest contacts.vcf
          familytree suggest contacts.vcf --tree tree.json --surname Okafor --format json
        """
    )

    @Argument(help: "The contacts (.vcf), or - for standard input.")
    var contacts: String

    @Option(help: "A tree whose members are marked (added) and whose surnames count.")
    var tree: String?

    @Option(help: "Your own surname, which counts like the tree's.")
    var surname: String?

    @Option(help: "The most confident suggestions listed first.")
    var limit: Int = 6

    @Option(help: "table or json.")
    var format: SuggestionFormat = .table

    enum SuggestionFormat: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        let bytes = try TreeFiles.read(contacts)
        var parser = VCardParser()
        let cards = parser.parse(bytes)
        let name = contacts == "-" ? "<stdin>" : contacts
        guard !cards.isEmpty else { throw FamilyFileError(file: name, reason: "has no contact cards (BEGIN:VCARD ... END:VCARD)") }
        let document = try tree.map { path in try FamilyFile.document(try TreeFiles.read(path), path: path, name: path).document }
        let ranked = FamilySuggestions.rank(cards, tree: document, userSurname: surname, limit: limit)
        switch format {
        case .json:
            Console.output(JSONWriter.string(from: .array(ranked.map { suggestion in
                .object([
                    "name": .string(suggestion.name), "line": .number("\(suggestion.line)"), "score": .number("\(suggestion.score)"),
                    "reasons": .array(suggestion.reasons.map(JSONValue.string)), "added": .bool(suggestion.alreadyInTree),
                    "suggested": .bool(suggestion.isConfident),
                ])
            })))
        case .table:
            var lines = ["    SCORE  NAME  (REASONS)"]
            for suggestion in ranked {
                let mark = suggestion.isConfident ? "*" : " "
                let added = suggestion.alreadyInTree ? " (added)" : ""
                let reasons = suggestion.reasons.isEmpty ? "" : "  (\(suggestion.reasons.joined(separator: "; ")))"
                let score = String(suggestion.score)
                lines.append("\(mark) " + String(repeating: " ", count: max(0, 7 - score.count)) + score + "  "
                    + SafeText.terminalSafe(suggestion.name + added + reasons))
            }
            let confident = ranked.filter(\.isConfident).count
            lines.append("\(confident) suggested (*) of \(ranked.count) cards")
            Console.output(lines.joined(separator: "\n") + "\n")
        }
    }
}
