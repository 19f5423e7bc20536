import ArgumentParser
import FamilyTree
import FamilyTreeRemote
import FamilyTreeSync
import Foundation

extension TreeRole: ExpressibleByArgument {}

extension SyncOptions {
    /// The store, as one whose trees are shared in roles.
    func openSharedStore() async throws -> any SharedTreeStore {
        guard !user.isEmpty else { throw SyncError.missingUser }
        guard let store = try await openStore() as? any SharedTreeStore else { throw SyncError.unsupportedStore(storeURL) }
        return store
    }
}

struct SyncShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Give a user a role on a tree: admin, helper or viewer (an admin's or the owner's task).",
        discussion: """
        viewer: pull and read. helper: also create and edit members, unions and links; no deletes, \
        no sharing. admin: also delete, and share. The owner's role is handed on with `transfer`. \
        Sharing again changes the role; it takes effect on the user's next request.

        Examples:
          familytree sync share --user alice --with bob --role helper
          familytree sync share --user bob --tree alice --with carol --role viewer   # bob is alice's admin
          familytree sync share --store https://family.example.org --with dan --role viewer --hide-living
        """
    )

    @OptionGroup var options: SyncOptions

    @Option(help: "The user who gets the role.")
    var with: String

    @Option(help: "admin, helper or viewer.")
    var role: TreeRole

    @Flag(help: """
        With --role viewer on a server (familytree serve): living people are shown as "Living", with no dates, photo, \
        notes or contact details, and the tree's documents cannot be pulled. Sharing again without it lifts the rule.
        """)
    var hideLiving = false

    func validate() throws {
        if hideLiving, role != .viewer { throw ValidationError("--hide-living is for a viewer: a helper or admin edits what they see") }
    }

    func run() async throws {
        let store = try await options.openSharedStore()
        if let server = store as? ServerDocumentStore {
            try await server.share(tree: options.tree, as: options.user, with: with, role: role, hidingLiving: hideLiving)
        } else if hideLiving {
            throw ValidationError("--hide-living is a rule a server keeps: give --store https://HOST (a store reached directly shows its documents whole)")
        } else {
            try await store.share(tree: options.tree, as: options.user, with: with, role: role)
        }
        Console.error("\(with) is now \(role.rawValue) of \(options.tree)'s tree" + (hideLiving ? ", with living people hidden" : ""))
    }
}

struct SyncUnshareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unshare",
        abstract: "Take a user's role on a tree away (or leave a tree yourself).",
        discussion: """
        Their next pull or push is refused. The owner cannot be removed: hand the tree on first.

        Examples:
          familytree sync unshare --user alice --with bob
          familytree sync unshare --user bob --tree alice --with bob    # bob leaves alice's tree
        """
    )

    @OptionGroup var options: SyncOptions

    @Option(help: "The user whose role is taken away.")
    var with: String

    func run() async throws {
        try await options.openSharedStore().unshare(tree: options.tree, as: options.user, member: with)
        Console.error("\(with) has no role on \(options.tree)'s tree any more")
    }
}

struct SyncMembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Who has which role on a tree.",
        discussion: """
        Examples:
          familytree sync members --user alice
          familytree sync members --user bob --tree alice
        """
    )

    @OptionGroup var options: SyncOptions

    func run() async throws {
        let members = try await options.openSharedStore().members(of: options.tree, as: options.user)
        let rows = members.map { member in
            [member.user, member.role.rawValue + (member.hidesLiving ? " (living hidden)" : ""), member.grantedBy.map { "by \($0)" } ?? "", member.grantedAt ?? ""]
        }
        Console.output(TextTable.render(header: ["USER", "ROLE", "GRANTED", "WHEN"], rows: rows))
    }
}

struct SyncTreesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trees",
        abstract: "The trees a user has a role on, their own first.",
        discussion: """
        Examples:
          familytree sync trees --user bob
        """
    )

    @OptionGroup var options: SyncOptions

    func run() async throws {
        let trees = try await options.openSharedStore().trees(of: options.user)
        Console.output(TextTable.render(header: ["TREE", "ROLE", "GRANTED"], rows: trees.map { [$0.tree, $0.role.rawValue + ($0.hidesLiving ? " (living hidden)" : ""), $0.grantedBy.map { "by \($0)" } ?? ""] }))
    }
}

struct SyncLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Who changed which document of a tree when (for admins and the owner).",
        discussion: """
        Newest first. The store writes the log itself (in PostgreSQL, a trigger under the \
        session's user), so it says who really made each change.

        Examples:
          familytree sync log --user alice
          familytree sync log --user alice --member ada --limit 20
        """
    )

    @OptionGroup var options: SyncOptions

    @Option(help: "Only the changes of this member's document.")
    var member: String?

    @Option(help: "At most this many entries.")
    var limit: Int = 100

    func validate() throws {
        guard limit > 0, limit <= 1_000_000 else { throw ValidationError("--limit must be between 1 and 1,000,000") }
    }

    func run() async throws {
        let entries = try await options.openSharedStore().log(of: options.tree, as: options.user, key: member.map { DocumentKey(.familyTree, $0) }, limit: limit)
        let rows = entries.map { entry in
            [entry.time, entry.user, entry.key.description, "v\(entry.version)", entry.isDeleted ? "deleted" : ""]
        }
        Console.output(TextTable.render(header: ["WHEN", "WHO", "DOCUMENT", "VERSION", ""], rows: rows))
    }
}

struct SyncTransferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Hand a tree on to another user, who becomes its owner (the owner's task); you stay admin.",
        discussion: """
        The tree keeps its name (the first owner's uid): `--tree alice` still names it.

        Examples:
          familytree sync transfer --user alice --to bob
        """
    )

    @OptionGroup var options: SyncOptions

    @Option(help: "The new owner.")
    var to: String

    func run() async throws {
        // The store takes a hand-over to oneself as nothing to do; saying "now owns" would be false.
        guard to != options.user else {
            throw CLIError.refused("--to names \(options.user), who is giving the tree away: name the new owner; nothing was changed")
        }
        try await options.openSharedStore().transfer(tree: options.tree, as: options.user, to: to)
        Console.error("\(to) now owns \(options.tree)'s tree; \(options.user) is admin")
    }
}

struct SyncDeleteTreeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-tree",
        abstract: "Delete a tree from the store, with its roles and log (the owner's task).",
        discussion: """
        Local tree files are not touched. Without --yes nothing is deleted.

        Examples:
          familytree sync delete-tree --user alice --yes
        """
    )

    @OptionGroup var options: SyncOptions

    @Flag(help: "Delete it: the store keeps no copy.")
    var yes = false

    func run() async throws {
        guard yes else { throw ValidationError("deleting \(options.tree)'s tree from the store cannot be undone: add --yes") }
        try await options.openSharedStore().deleteTree(options.tree, as: options.user)
        Console.error("deleted \(options.tree)'s tree from the store")
    }
}

/// A plain table for the terminal: columns padded to their widest cell.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        // Cells from the store are names anyone sharing the tree chose: shown, never sent as control characters.
        let all = [header] + rows.map { $0.map { SafeText.terminalSafe($0, keepingLineBreaks: false) } }
        var widths = Array(repeating: 0, count: header.count)
        for row in all { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return all.map { row in
            row.enumerated().map { index, cell in index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
