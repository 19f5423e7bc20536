import ArgumentParser
import FamilyTree
import FamilyTreeCardDAV
import FamilyTreeContacts
import Foundation

/// `familytree contacts`: a tree kept in step with a CardDAV address book.
struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "Keep a tree in step with an address book on a CardDAV server (iCloud, Google, Fastmail, Nextcloud, Radicale).",
        discussion: """
        pull reads the address book into the tree as `import --into` does (new cards added, changed \
        ones updated, missing ones marked removed); after the first pull only what changed is read \
        (the server's sync token, else each card's ETag). push writes what the tree changed (a \
        completed birth year, a name, a nickname, notes) back to each card, keeping every other field \
        of the card; a card changed on the server since the pull is not overwritten: it is reported \
        as a conflict, and the next pull merges it field by field.

        What the last pull saw is kept beside the tree (family.json: family.carddav.json). The \
        password comes from FAMILYTREE_CARDDAV_PASSWORD or, on a terminal, a prompt; use an app \
        password where the provider has them. Addresses must be https:// except on this machine.

        Examples:
          familytree contacts pull https://carddav.fastmail.com/dav/addressbooks/user/me@fastmail.com/Default/ --user me@fastmail.com --into family.json
          familytree birthdays family.json --missing-year
          familytree edit "Ruth Müller" --born 1963-02-02 --tree family.json
          familytree contacts push https://carddav.fastmail.com/dav/addressbooks/user/me@fastmail.com/Default/ --user me@fastmail.com --tree family.json
        """,
        subcommands: [ContactsPullCommand.self, ContactsPushCommand.self]
    )
}

/// The server and credentials both subcommands take.
struct CardDAVOptions: ParsableArguments {
    @Argument(help: "The address book's URL, or the server's: its only address book is found.")
    var url: String

    @Option(help: "The user name on the server.")
    var user: String

    @Option(help: "Seconds to wait for each answer from the server.")
    var timeout: Double = 30

    @Option(help: "Where the last pull's state is kept (default: beside the tree, NAME.carddav.json).")
    var state: String?

    @Flag(help: "Allow plain http:// to another machine (the password travels unencrypted).")
    var allowHTTP = false

    @Option(help: "The most MiB one answer from the server may have (a larger one is refused).")
    var maxAnswerMib = AddressBookSync.defaultMaximumAnswerBytes >> 20

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds") }
        guard maxAnswerMib >= 1, maxAnswerMib <= 65_536 else { throw ValidationError("--max-answer-mib must be between 1 and 65536") }
    }

    func statePath(tree: String) -> String { state ?? AddressBookState.defaultPath(forTree: tree) }

    func sync() throws -> AddressBookSync {
        try AddressBookSync(url: url, credentials: CardDAVCredentials(user: user, password: try Self.password(for: user)), timeout: timeout, allowHTTP: allowHTTP, maximumAnswerBytes: maxAnswerMib << 20)
    }

    /// FAMILYTREE_CARDDAV_PASSWORD, else a prompt on the terminal without echo.
    static func password(for user: String) throws -> String {
        if let password = ProcessInfo.processInfo.environment["FAMILYTREE_CARDDAV_PASSWORD"] { return password }
        guard isatty(STDIN_FILENO) != 0, let password = Prompt.secret("Password for \(user): ") else {
            throw CLIError.fileAccess(path: "FAMILYTREE_CARDDAV_PASSWORD", reason: "not set, and no terminal to ask for the password on")
        }
        return password
    }
}

struct ContactsPullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Read a CardDAV address book into a tree: added, updated, removed, unchanged.",
        discussion: """
        Examples:
          familytree contacts pull https://dav.example.org/alice/family/ --user alice --into family.json
          familytree contacts pull https://dav.example.org/ --user alice --into family.json --report
        """
    )

    @OptionGroup var server: CardDAVOptions

    @Option(help: "The tree.json to merge into (created if it does not exist).")
    var into: String

    @Flag(help: "List every card that could not be read and every relation that could not be placed.")
    var report = false

    @OptionGroup(title: "Birthdays without a year")
    var years: YearCompletionOptions

    func run() async throws {
        // The tree is read, merged with the address book and written under its lock.
        try await TreeFileLock.holding(into) { try await pull() }
    }

    private func pull() async throws {
        let statePath = server.statePath(tree: into)
        let tree = FileManager.default.fileExists(atPath: into)
            ? try TreeFile(json: try TreeFiles.read(into), file: into) : TreeFile.empty(file: into)
        let previous = FileManager.default.fileExists(atPath: statePath)
            ? try AddressBookState(json: try TreeFiles.read(statePath), path: statePath) : nil
        let result: AddressBookSync.PullResult
        do {
            result = try await server.sync().pull(into: tree, state: previous)
        } catch let error as CardDAVError {
            throw CLIError.fileAccess(path: "contacts pull", reason: "\(error.withHint); nothing was written")
        }
        let completion = try years.complete(result.tree, today: try Today.dayNumber(nil))
        // The tree first: a state written without its tree would make the next pull skip these cards.
        try TreeFiles.write(completion.tree.text, to: into)
        try TreeFiles.write(result.state.json, to: statePath)
        let entries = result.report
        if report {
            for warning in result.warnings { Console.error("\(server.url): \(warning)") }
            for entry in entries { Console.error("\(server.url): \(entry)") }
        }
        let transfer = result.transfer
        let toCheck = entries.isEmpty ? "" : "; relations: \(ContactsReportEntry.counts(of: entries))\(report ? "" : " (--report lists them)")"
        for line in completion.completed { Console.error("completed \(line) (push writes it to the card)") }
        Console.error("pulled \(transfer.cardCount) card\(transfer.cardCount == 1 ? "" : "s") (\(transfer.method.rawValue): read \(transfer.cardsRead), gone \(transfer.cardsGone)): \(result.summary)\(toCheck)")
    }
}

struct ContactsPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Write what the tree changed back to the cards it pulled, never over a card changed on the server.",
        discussion: """
        Writes names, nickname, birthday, sex and notes the tree changed since the last pull, each \
        card with If-Match on the ETag the pull saw. Exit 1 when a card changed on the server \
        meanwhile (pull, then push again) or the server fails; what was written is kept.

        Examples:
          familytree contacts push https://dav.example.org/alice/family/ --user alice --tree family.json
          familytree contacts push https://dav.example.org/alice/family/ --user alice --tree family.json --dry-run
        """
    )

    @OptionGroup var server: CardDAVOptions

    @Option(help: "The tree.json pulled from this address book.")
    var tree: String

    @Flag(help: "List the cards that would be written; write nothing.")
    var dryRun = false

    func run() async throws {
        try await TreeFileLock.holding(tree) { try await push() }
    }

    private func push() async throws {
        let statePath = server.statePath(tree: tree)
        guard FileManager.default.fileExists(atPath: statePath) else {
            throw CLIError.fileAccess(path: statePath, reason: "no earlier pull of this tree: run `familytree contacts pull` first")
        }
        let file = try TreeFile(json: try TreeFiles.read(tree), file: tree)
        let state = try AddressBookState(json: try TreeFiles.read(statePath), path: statePath)
        let result: AddressBookSync.PushResult
        do {
            result = try await server.sync().push(file, state: state, revision: Self.revision(), dryRun: dryRun)
        } catch let error as CardDAVError {
            throw CLIError.fileAccess(path: "contacts push", reason: "\(error.withHint); nothing was written")
        }
        if !dryRun, !result.written.isEmpty {
            try TreeFiles.write(result.tree.text, to: tree)
            try TreeFiles.write(result.state.json, to: statePath)
        }
        for (name, fields) in result.written {
            Console.error("\(dryRun ? "would write" : "wrote") \(name): \(fields.map(\.rawValue).joined(separator: ", "))")
        }
        for name in result.conflicts {
            Console.error("conflict: \(name): the card changed on the server since the last pull; not written (pull merges it, then push again)")
        }
        Console.error("\(dryRun ? "would write" : "wrote") \(result.written.count) card\(result.written.count == 1 ? "" : "s"), \(result.conflicts.count) conflict\(result.conflicts.count == 1 ? "" : "s"), \(result.unchanged) unchanged")
        if let failure = result.failure {
            throw CLIError.fileAccess(path: "contacts push", reason: "\(failure.withHint); the \(result.written.count) card\(result.written.count == 1 ? "" : "s") written before it are recorded")
        }
        if !result.conflicts.isEmpty {
            throw CLIError.fileAccess(path: "contacts push", reason: "\(result.conflicts.count) card\(result.conflicts.count == 1 ? "" : "s") changed on the server: run `familytree contacts pull`, then push again")
        }
    }

    /// Now, as a vCard `REV` (UTC).
    static func revision() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
