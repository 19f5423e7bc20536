import ArgumentParser
import FamilyTreeAPI
import FamilyTreeRemote
import FamilyTreeSync
import Foundation

extension SyncOptions {
    /// This device's sign-ins to servers.
    static var credentials: ServerCredentials { ServerCredentials(path: home.appendingPathComponent("credentials.json").path) }

    /// The store on the server at `url`, with this device's sign-in to it.
    static func openServer(_ url: String) throws -> ServerDocumentStore {
        let (address, login) = try signIn(at: url)
        return ServerDocumentStore(address: address, user: login.user, token: login.token)
    }

    /// This device's sign-in to the server at `url`; refused in words for an address the CLI
    /// does not send a token to, or a server it is not signed in to.
    static func signIn(at url: String) throws -> (ServerAddress, ServerCredentials.Login) {
        let address = try ServerAddress(url)
        guard let login = try credentials.login(for: address) else {
            throw CLIError.refused("this device is not signed in to \(address): run familytree login \(address) (or familytree join with an invite link)")
        }
        return (address, login)
    }
}

/// A label for the token this device gets: the command and the machine's name.
private var tokenLabel: String { "familytree on \(ProcessInfo.processInfo.hostName)" }

/// The server's refusal in its own words, for commands that talk to the API directly.
private func failure(_ status: Int, _ response: Components.Responses.Failure) -> CLIError {
    CLIError.refused((try? response.body.json.message) ?? "the server answered HTTP \(status)")
}

private func reach<T>(_ address: ServerAddress, _ body: () async throws -> T) async throws -> T {
    try await ServerDocumentStore.request(address, body)
}

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a familytree server; this device keeps a personal access token for it.",
        discussion: """
        The password is asked for (or read from standard input); the token is kept in \
        ~/.familytree/credentials.json, readable by you only, never on a command line. Then sync with \
        --store ADDRESS, for example:
          familytree login https://family.example.org --user alice
          familytree sync pull -o tree.json --store https://family.example.org --tree alice
        """
    )

    @Argument(help: "The server's address: https://HOST[:PORT] (http:// only on this machine).")
    var address: String

    @Option(help: "Your user id on the server (asked for when not given).")
    var user: String?

    func run() async throws {
        let address = try ServerAddress(address)
        guard let user = user ?? Prompt.line("User: "), !user.isEmpty else { throw CLIError.refused("no user given") }
        let password = try Prompt.password("Password for \(user) at \(address): ")
        let client = ServerDocumentStore.client(address, token: nil)
        let output = try await reach(address) { try await client.createToken(body: .json(.init(user: user, password: password, label: tokenLabel))) }
        let token: Components.Schemas.NewToken
        switch output {
        case .created(let created): token = try created.body.json
        case .default(let status, let response): throw failure(status, response)
        }
        // A sign-in replaces this device's earlier one, whose token is revoked.
        if let earlier = try SyncOptions.credentials.login(for: address) {
            _ = try? await ServerDocumentStore.client(address, token: earlier.token).revokeToken(path: .init(tokenId: earlier.tokenID))
        }
        try SyncOptions.credentials.save(.init(user: token.user, token: token.token, tokenID: token.id), for: address)
        Console.error("familytree: signed in to \(address) as \(token.user)")
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out of a familytree server: this device's token is revoked and forgotten."
    )

    @Argument(help: "The server's address.")
    var address: String

    @Flag(help: "Also end every other session and token of the account (a lost phone, a shared computer).")
    var everywhere = false

    func run() async throws {
        let address = try ServerAddress(address)
        guard let login = try SyncOptions.credentials.login(for: address) else {
            throw CLIError.refused("this device is not signed in to \(address)")
        }
        let client = ServerDocumentStore.client(address, token: login.token)
        if everywhere {
            switch try await reach(address, { try await client.signOutEverywhere() }) {
            case .noContent: break
            case .default(let status, let response): throw failure(status, response)
            }
        } else {
            switch try await reach(address, { try await client.revokeToken(path: .init(tokenId: login.tokenID)) }) {
            case .noContent: break
            // Revoked already (signed out everywhere from another device): nothing left to end.
            case .default(let status, _) where status == 401 || status == 404: break
            case .default(let status, let response): throw failure(status, response)
            }
        }
        try SyncOptions.credentials.remove(for: address)
        Console.error("familytree: signed out of \(address)" + (everywhere ? " everywhere" : ""))
    }
}

struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Accept an invite link to a family tree: makes your account (or uses yours) and signs this device in.",
        discussion: """
        Example:
          familytree join https://family.example.org/invite/CODE --user bob
          familytree sync pull -o family.json --store https://family.example.org --tree alice
        """
    )

    @Argument(help: "The invite link.")
    var link: String

    @Option(help: "Your user id: a new one (lowercase letters, digits, _ and -), or your account's.")
    var user: String?

    func run() async throws {
        let address = try ServerAddress(link)
        guard let range = link.range(of: "/invite/") else { throw CLIError.refused("\(link.prefix(200)) is not an invite link (…/invite/CODE)") }
        let code = String(link[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "/ "))
        guard !code.isEmpty else { throw CLIError.refused("the invite link has no code") }
        let client = ServerDocumentStore.client(address, token: nil)
        let invite: Components.Schemas.Invite
        switch try await reach(address, { try await client.getInvite(path: .init(code: code)) }) {
        case .ok(let ok): invite = try ok.body.json
        case .default(let status, let response): throw failure(status, response)
        }
        Console.error("familytree: \(invite.invitedBy) invites you to \(invite.tree)'s tree as \(invite.role.rawValue) (until \(invite.expiresAt))")
        guard let user = user ?? Prompt.line("Your user id: "), !user.isEmpty else { throw CLIError.refused("no user id given") }
        let password = try Prompt.newPassword("Password for \(user) (new account: at least 8 characters): ")
        let joined: Components.Schemas.Joined
        switch try await reach(address, {
            try await client.acceptInvite(path: .init(code: code), body: .json(.init(user: user, password: password, tokenLabel: tokenLabel)))
        }) {
        case .created(let created): joined = try created.body.json
        case .default(let status, let response): throw failure(status, response)
        }
        guard let token = joined.token else { throw SyncError.store("\(address) gave no token") }
        try SyncOptions.credentials.save(.init(user: token.user, token: token.token, tokenID: token.id), for: address)
        Console.error("""
            familytree: joined \(joined.tree)'s tree as \(joined.role.rawValue), signed in to \(address) as \(joined.user). Pull it with:
              familytree sync pull -o \(joined.tree).json --store \(address) --tree \(joined.tree)
            """)
    }
}

struct SyncInviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Invite someone into a role on a tree on a server (an admin's or the owner's task); prints a single-use link.",
        discussion: """
        Example:
          familytree sync invite --store https://family.example.org --role helper --invitee bob@example.org
        """
    )

    @OptionGroup var options: SyncOptions

    @Option(help: "admin, helper or viewer.")
    var role: TreeRole

    @Option(help: "Who the invite is for (an e-mail address or a name; shown to whoever opens the link).")
    var invitee: String?

    @Option(help: "Hours until the link expires (1 to 720).")
    var expiresInHours = 72

    @Flag(help: "With --role viewer: living people are shown as \"Living\", with no dates, photo, notes or contact details.")
    var hideLiving = false

    func validate() throws {
        if hideLiving, role != .viewer { throw ValidationError("--hide-living is for a viewer: a helper or admin edits what they see") }
    }

    func run() async throws {
        guard let store = options.store, ServerAddress.isServer(store) else {
            throw ValidationError("invites are a server's: give --store https://HOST (a store's users are shared with sync share)")
        }
        let server = try SyncOptions.openServer(store)
        let tree = options.owner ?? server.user
        let (link, expiresAt) = try await server.invite(tree: tree, role: role, invitee: invitee, expiresInHours: expiresInHours, hidingLiving: hideLiving)
        // The link is the server's words: shown as text, never as terminal control sequences.
        Console.say(link + "\n")
        let hidden = hideLiving ? " who sees living people hidden" : ""
        Console.error("familytree: the link makes its first user \(role.withArticle)\(hidden) of \(tree)'s tree; it works once, until \(expiresAt)")
    }
}
