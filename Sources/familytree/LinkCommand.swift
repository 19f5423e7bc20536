import ArgumentParser
import FamilyTree
import Foundation

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Record that a child also belongs to a parent in another bloodline.",
        discussion: """
        Adds a cross-bloodline connection {id, fromChild, toNewParent} to the tree file. CHILD and \
        PARENT are ids or unique names (full name, "first last", or nickname); an unknown or ambiguous \
        name lists the candidates. A link that would make someone their own ancestor, or that repeats \
        an existing parent, is refused. The file is rewritten atomically with sorted keys and a \
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
        var names = ("", "")
        var connection: CrossBloodlineConnection?
        do {
            _ = try TreeFileEditing.edit(tree) { file in
                let graph = file.graph
                let (childIndex, parentIndex) = (try graph.resolveMember(child), try graph.resolveMember(parent))
                names = (graph.members[childIndex].fullName, graph.members[parentIndex].fullName)
                let new = CrossBloodlineConnection(id: id ?? UUID().uuidString, fromChild: graph.members[childIndex].id, toNewParent: graph.members[parentIndex].id)
                connection = new
                return [.link(new)]
            }
        } catch FamilyTreeError.invalidTree(_, let problems) where connection != nil {
            // The tree was valid before: these problems are the link's.
            throw CLIError.linkRefused(reason: problems.map(\.message).joined(separator: "; "))
        }
        guard let connection else { return }
        Console.say("linked \(names.0) (\(connection.fromChild)) as a child of \(names.1) (\(connection.toNewParent)) in \(tree)\n")
    }
}
