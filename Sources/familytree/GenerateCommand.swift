import ArgumentParser
import FamilyTree
import FamilyTreeRender

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a realistic generated family tree, for trying things out and benchmarks.",
        discussion: """
        The same members and seed always give the same tree: founders, people marrying in, remarriages, \
        cousin marriages, cross-bloodline links, and birthdays in every partial form.

        Examples:
          familytree generate --members 10000 --seed 7 -o big.json
          familytree generate --members 1000 -o big.dot     # the same graph as structure DOT
        """
    )

    @Option(help: "How many members.")
    var members: Int = 100

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: "Output file (.json, or .dot for structure DOT); - for standard output.")
    var output: String = "-"

    func validate() throws {
        guard members > 0 else { throw ValidationError("--members must be at least 1") }
    }

    func run() throws {
        let document = TreeGenerator(memberCount: members, seed: seed).generate()
        if output.hasSuffix(".dot") {
            try TreeFiles.write(DOTWriter().structure(try FamilyGraph(document: document)), to: output)
        } else {
            try TreeFiles.write(JSONWriter.string(from: document.jsonValue), to: output)
        }
    }
}
