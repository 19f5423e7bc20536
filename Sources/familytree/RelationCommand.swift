import ArgumentParser
import FamilyTree
import Foundation

struct RelationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relation",
        abstract: "Say how two people are related.",
        discussion: """
        Prints how B is related to A: parent, grandparent, sibling, half-sibling, aunt, niece, first \
        cousin 1x removed, double first cousin, spouse or former spouse, in-laws, step relations, and \
        "(by adoption)" where the line passes an adopted or foster child. Under pedigree collapse \
        people are related in several ways: the closest is printed and the others counted; --all lists \
        each with its common ancestors and the people in between. People joined only through several \
        marriages (or step families) are connected, not related: the shortest chain is printed \
        ("sister-in-law's husband"), and --all lists its links and everyone on its way. Not related \
        is an answer (exit 0).

        Examples:
          familytree relation "Ada Lovelace" "Lord Byron" --tree family.json
          familytree relation victoria albert --tree royal92.ged --all
          familytree relation a b --format json
          familytree relation --all-from "Ada Lovelace" --tree family.json > relatives.jsonl
        """
    )

    @Argument(help: "A (an id or a unique name).") var first: String?
    @Argument(help: "B, whose relationship to A is said.") var second: String?
    @Option(help: "Everyone's closest relationship to this person, as JSON lines (id, name, relationship).") var allFrom: String?
    @Option(help: "The tree file (tree.json, GEDCOM or vCard).") var tree: String = "tree.json"
    @OptionGroup var reading: ReadingOptions
    @Flag(help: "Every distinct relationship, closest first, with common ancestors and path.") var all = false
    @Option(help: "text or json.") var format: String = "text"
    @OptionGroup var privacy: PrivacyOptions
    @Option(help: "With --private living: the day the living are judged on, YYYY-MM-DD (default: today).") var today: String?

    func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
        guard (first != nil && second != nil) != (allFrom != nil) else { throw ValidationError("give two people, A and B, or --all-from A") }
    }

    func run() throws {
        let graph = try TreeFiles.loadGraph(tree, surnameCase: reading.surnameCase)
        // People are found in the tree as it is, then related and shown as --private hides them
        // (the same people at the same places: the living as "Living", with ids and relationship
        // words that say nothing of them, "grandchild" rather than "grandson").
        let shown = privacy.apply(to: graph, today: try Today.dayNumber(today)).graph
        if let allFrom {
            let home = try graph.resolveMember(allFrom)
            var lines = ""
            for (index, closest) in RelationshipCalculator(shown).closestRelationships(from: home, toEach: Array(shown.members.indices)).enumerated() {
                guard let closest else { continue }
                lines += JSONWriter.compactString(from: .object([
                    "id": .string(shown.members[index].id), "name": .string(shown.members[index].fullName), "relationship": .string(closest.english),
                ])) + "\n"
            }
            Console.output(lines)
            return
        }
        guard let first, let second else { return }
        let (a, b) = (try graph.resolveMember(first), try graph.resolveMember(second))
        let calculator = RelationshipCalculator(shown)
        let (found, searchedWhole) = calculator.search(from: a, to: b)
        // Only where a whole search found nothing closer: a chain through several marriages.
        let connection = found.isEmpty && searchedWhole ? calculator.connection(from: a, to: b) : nil
        func name(_ index: Int) -> String { shown.members[index].fullName.isEmpty ? shown.members[index].id : shown.members[index].fullName }
        if format == "json" {
            let list = (all ? found : Array(found.prefix(1))).map { relationship -> JSONValue in
                .object([
                    "relationship": .string(relationship.english), "half": .bool(relationship.isHalf), "double": .bool(relationship.isDouble),
                    "byAdoption": .bool(relationship.isByAdoption),
                    "commonAncestors": .array(relationship.commonAncestors.map { .string(shown.members[$0].id) }),
                    "path": .array(relationship.path.map { .string(shown.members[$0].id) }),
                ])
            }
            var object: [String: JSONValue] = [
                "from": .string(shown.members[a].id), "to": .string(shown.members[b].id), "relationships": .array(list), "count": .number(String(found.count)),
                "complete": .bool(searchedWhole),
            ]
            if let connection {
                let joins = connection.joins
                object["connection"] = .object([
                    "words": .string(connection.english), "marriages": .number(String(joins.marriages)),
                    "stepFamilies": .number(String(joins.stepFamilies)), "childrensParents": .number(String(joins.childrensParents)),
                    "links": .array(connection.links.map { .object(["id": .string(shown.members[$0.member].id), "relationship": .string($0.relationship.english)]) }),
                    "path": .array(connection.path.map { .string(shown.members[$0].id) }),
                ])
            }
            Console.output(JSONWriter.string(from: .object(object)))
            return
        }
        if let connection {
            var lines = ["\(name(b)) is \(name(a))'s \(connection.english) (connected through \(connection.joins.english), not by blood)"]
            if all {
                // Each link from the person before it, then everyone on the way.
                let before = [a] + connection.links.map(\.member)
                lines.append("  links: " + zip(before, connection.links).map { "\(name($1.member)) (\(name($0))'s \($1.relationship.english))" }.joined(separator: " → "))
                lines.append("  path: " + connection.path.map(name).joined(separator: " → "))
            }
            Console.say(lines.joined(separator: "\n") + "\n")
            return
        }
        guard let closest = found.first else {
            guard searchedWhole else {
                // Only a tree whose lines rejoin at nearly every generation gets here.
                Console.say("\(name(b)) and \(name(a)): no relationship found, but their ancestries in \(tree) rejoin too often to be searched whole (over \(RelationshipCalculator.ancestryBudget) ancestors counted once per generation), so they may be related\n")
                return
            }
            Console.say("\(name(b)) and \(name(a)) are not related in \(tree)\n")
            return
        }
        if !all {
            let more = found.count > 1 ? " (and related \(found.count - 1) more way\(found.count == 2 ? "" : "s"): --all lists them)" : ""
            // A search cut by its budget may have missed a closer way.
            let cut = searchedWhole ? "" : " (their ancestries rejoin too often to be searched whole: a closer way may be missed)"
            Console.say("\(name(b)) is \(name(a))'s \(closest.english)\(more)\(cut)\n")
            return
        }
        var lines: [String] = []
        for relationship in found {
            lines.append("\(name(b)) is \(name(a))'s \(relationship.english)")
            if !relationship.commonAncestors.isEmpty {
                lines.append("  common ancestors: " + relationship.commonAncestors.map(name).joined(separator: " and "))
                lines.append("  path: " + relationship.path.map(name).joined(separator: " → "))
            }
        }
        if !searchedWhole { lines.append("(their ancestries rejoin too often to be searched whole: other ways may be missed)") }
        Console.say(lines.joined(separator: "\n") + "\n")
    }
}
