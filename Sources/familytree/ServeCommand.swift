import ArgumentParser
import FamilyTreeSync
import Foundation
#if Server
import FamilyTreeServer
#endif
#if PostgreSQL
import FamilyTreePostgres
#endif

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the family's trees over HTTP(S): relatives sign in with an account, not database credentials.",
        discussion: """
        One person runs the server; everyone else joins with an invite link:
          familytree serve add-user alice                 (the first user is the server's administrator)
          familytree serve --port 8080                    (the embedded store, ~/.familytree/store.sqlite)
          familytree login http://127.0.0.1:8080 --user alice
          familytree sync push tree.json --store http://127.0.0.1:8080 --new-tree
          familytree sync invite --store http://127.0.0.1:8080 --role helper --invitee bob@example.org
        Across a network, serve HTTPS: --tls-cert and --tls-key, or a reverse proxy in front (docs/server.md).
        Needs a build with the Server trait: swift build --traits Server.
        """,
        subcommands: [ServeRunCommand.self, ServeAddUserCommand.self],
        defaultSubcommand: ServeRunCommand.self
    )
}

/// The server's store option, shared by its commands.
struct ServeStoreOptions: ParsableArguments {
    @Option(help: "The store the server keeps the trees and accounts in: sqlite:PATH (by default ~/.familytree/store.sqlite), or postgres://LOGIN@HOST:PORT/DB with a server login (sync admin create-server-login).")
    var store: String?

    @Option(help: "With PostgreSQL, how many connections the server holds.")
    var connections = 8

    var storeURL: String { store ?? SyncOptions.defaultStoreURL }

    func validate() throws {
        if !(1...64).contains(connections) { throw ValidationError("--connections must be from 1 to 64") }
    }

    #if Server
    /// The server on the store (its folder made when it is the default).
    func server(settings: ServerSettings) async throws -> SyncServer {
        switch try StoreLocation(storeURL) {
        case .sqlite(let path):
            return try SyncServer(sqlitePath: path, creatingFolder: store == nil, settings: settings)
        case .postgres(let url):
            #if PostgreSQL
            var password: String?
            if PostgresDocumentStore.needsPassword(url: url), isatty(STDIN_FILENO) != 0 { password = Prompt.secret("Password for the server login: ") }
            return try await SyncServer(postgresURL: url, password: password, connections: connections, settings: settings)
            #else
            throw SyncError.unsupportedStore("\(url.prefix { $0 != "@" })...: this build has no PostgreSQL store; build with --traits Server,PostgreSQL")
            #endif
        }
    }
    #endif
}

struct ServeRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Start the server (the default).")

    @OptionGroup var storeOptions: ServeStoreOptions

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one; the server prints its address).")
    var port = 8080

    @Option(help: "The address relatives use, https://family.example.org (invite links start with it).")
    var publicURL: String?

    @Option(help: "A PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCert: String?

    @Option(help: "The certificate's PEM private key.")
    var tlsKey: String?

    @Option(help: "On a server with no accounts yet, make this user its administrator first (the password is asked for).")
    var admin: String?

    @Flag(help: "Behind a reverse proxy on this machine: count failed sign-ins by the address the proxy puts last in X-Forwarded-For.")
    var behindProxy = false

    @Option(help: ArgumentHelp("bcrypt's cost for new passwords (10 to 16).", visibility: .hidden))
    var bcryptCost: UInt8 = 12

    func validate() throws {
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        for file in [tlsCert, tlsKey].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("cannot read \(file)")
        }
        if !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        if !(4...16).contains(bcryptCost) { throw ValidationError("--bcrypt-cost must be from 4 to 16") }
        if let publicURL, !(publicURL.hasPrefix("https://") || publicURL.hasPrefix("http://")) {
            throw ValidationError("--public-url must start with https:// (or http:// on this machine)")
        }
    }

    func run() async throws {
        #if Server
        var settings = ServerSettings()
        settings.host = host
        settings.port = port
        settings.publicURL = publicURL
        settings.tlsCertificatePath = tlsCert
        settings.tlsKeyPath = tlsKey
        settings.bcryptCost = bcryptCost
        settings.behindProxy = behindProxy
        let server = try await storeOptions.server(settings: settings)
        if let admin, try await !server.hasAccounts() {
            try await server.addAccount(user: admin, asking: "Password for \(admin), the server's administrator (at least 8 characters): ")
        }
        let store = storeOptions.storeURL
        try await server.run { address in
            Console.output("familytree: serving \(store) at \(address)\n")
        }
        #else
        throw CLIError.refused(ServeCommand.missingTrait)
        #endif
    }
}

struct ServeAddUserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-user",
        abstract: "Make an account on the server's store (the first is the administrator); the password is asked for, or read from standard input."
    )

    @Argument(help: "The user id: lowercase letters, digits, _ and -, starting with a letter.")
    var user: String

    @OptionGroup var storeOptions: ServeStoreOptions

    func run() async throws {
        #if Server
        let server = try await storeOptions.server(settings: ServerSettings())
        try await server.addAccount(user: user, asking: "Password for \(user) (at least 8 characters): ")
        #else
        throw CLIError.refused(ServeCommand.missingTrait)
        #endif
    }
}

extension ServeCommand {
    static let missingTrait = "this build has no server: build with swift build --traits Server"
}

#if Server
extension SyncServer {
    /// Makes `user`'s account with a password asked for (or read from standard input), and says so.
    func addAccount(user: String, asking question: String) async throws {
        let password = try Prompt.newPassword(question)
        let isAdministrator: Bool
        do {
            isAdministrator = try await addAccount(user: user, password: password)
        } catch let error as CustomStringConvertible where !(error is SyncError) {
            throw CLIError.refused(error.description)
        }
        Console.error("familytree: added \(user)" + (isAdministrator ? ", the server's administrator" : ""))
    }
}
#endif
