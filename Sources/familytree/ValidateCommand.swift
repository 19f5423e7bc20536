import ArgumentParser
import FamilyTree

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a tree file and print every problem found.",
        discussion: """
        Reports malformed JSON with its line and column, and every problem in the tree at once, each \
        with the ids involved and where it is in the file: duplicate ids, unknown ids, people who are \
        their own ancestors (with the cycle), more than two birth parents, self-marriage, and \
        cross-bloodline links that repeat an existing parent. Exits 1 if there is any problem.

        Examples:
          familytree validate tree.json
          cat tree.json | familytree validate -
        """
    )

    @Argument(help: "The tree file, or - for standard input.")
    var tree: String

    @OptionGroup var reading: ReadingOptions

    func run() throws {
        let graph = try TreeFiles.loadGraph(tree, includingRemoved: true, surnameCase: reading.surnameCase)
        Console.say("\(tree): valid: \(graph.members.count) members, \(graph.unions.count) unions, \(graph.crossBloodlineConnections.count) cross-bloodline connections\n")
    }
}
