import ArgumentParser
import FamilyTree
import Foundation

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Record that a child also belongs to a parent in another bloodline.",
        discussion: """
        Adds a cross-bloodline connection {id, fromChild, toNewParent} to the tree file. CHILD and
        PARENT are ids or unique names (full name, "first last", or nickname); an unknown or ambiguous
        name lists the candidates. A link that would make someone their own ancestor, or that repeats
        an existing parent, is refused. The file is rewritten atomically with sorted keys and a
        two-space indent; every other field in it is kept as it was.

        Examples:
          familytree link "Ada Byron" "Mary Somerville"
          familytree link 5E0C1A2B-0000-4000-8000-000000000007 "Anna Müller" --tree family.json
        """
    )

    @Argument(help: "The child (an id or a unique name).")
    var child: String

    @Argument(help: "The new parent (an id or a unique name).")
    var parent: String

    @Option(help: "The tree file.")
    var tree: String = "tree.json"

    @Option(help: "The new connection's id (default: a new UUID).")
    var id: String?

    func run() throws {
        let bytes = try TreeFiles.read(tree)
        let graph = try FamilyGraph(json: bytes, file: tree)
        let childIndex = try graph.resolveMember(child)
        let parentIndex = try graph.resolveMember(parent)
        let connection = CrossBloodlineConnection(
            id: id ?? UUID().uuidString, fromChild: graph.members[childIndex].id, toNewParent: graph.members[parentIndex].id
        )
        let edited: JSONValue
        do {
            edited = try TreeEditing.adding(connection, to: try JSONParser.parse(bytes).root)
            // The edited tree goes through the same validation as any file.
            _ = try FamilyGraph(json: Array(JSONWriter.string(from: edited).utf8), file: tree)
        } catch FamilyTreeError.invalidTree(_, let problems) {
            throw CLIError.linkRefused(reason: problems.map(\.message).joined(separator: "; "))
        }
        try TreeFiles.write(JSONWriter.string(from: edited), to: tree)
        let (childName, parentName) = (graph.members[childIndex].fullName, graph.members[parentIndex].fullName)
        Console.say("linked \(childName) (\(connection.fromChild)) as a child of \(parentName) (\(connection.toNewParent)) in \(tree)\n")
    }
}
