import ArgumentParser
import FamilyTree
import FamilyTreeRender
import FamilyTreeFiles
import FamilyTreeSync
import Foundation

/// The `familytree` command: draws family trees and edits tree files.
@main
struct FamilyTreeCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "familytree",
        abstract: "Draw family trees as SVG or Graphviz DOT, and edit tree.json files.",
        discussion: """
        Examples:
          familytree render examples/family.json -o family.svg
          familytree render tree.json -o tree.dot
          familytree add "Ada Lovelace" --born 1815-12-10 --tree tree.json
          familytree marry "Ada Lovelace" "William King" --date 1835-07-08 --tree tree.json
          familytree link "Ada Byron" "Mary Somerville" --tree tree.json
          familytree validate tree.json

        Exit codes: 0 success, 1 invalid input (bad file, unknown or ambiguous member, a link that \
        would make someone their own ancestor), 2 usage error (unknown option, bad argument).
        """,
        version: "familytree \(version) (\(GraphvizSupport.versionNote); \(PDFSupport.versionNote))",
        subcommands: [RenderCommand.self, AddCommand.self, EditCommand.self, MarryCommand.self, DivorceCommand.self, RemoveCommand.self, LinkCommand.self, RelationCommand.self, ValidateCommand.self, GenerateCommand.self, StatsCommand.self, BirthdaysCommand.self, CalendarCommand.self, ImportCommand.self, SuggestCommand.self, ExportCommand.self, SyncCommand.self, LoginCommand.self, LogoutCommand.self, JoinCommand.self, ServeCommand.self, ContactsCommand.self]
    )

    static func main() async {
        let status = await run(arguments: Array(CommandLine.arguments.dropFirst()))
        Foundation.exit(status)
    }

    /// Parses and runs a command line; returns the documented exit status instead of exiting.
    static func run(arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return 0
        } catch let error as CLIError {
            Console.error("familytree: \(error)")
            return 1
        } catch let error as FamilyTreeError {
            Console.error("familytree: \(error)")
            return 1
        } catch let error as FamilyFileError {
            Console.error("familytree: \(error)")
            return 1
        } catch let error as SyncError {
            Console.error("familytree: sync: \(error.withHint)")
            return 1
        } catch let error as ChartError {
            Console.error("familytree: \(error)")
            return 1
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                // --help and --version.
                Console.output(message + "\n")
                return 0
            }
            Console.error(message)
            // Argument errors are usage errors; anything else is a problem with the input or a file.
            return code == .validationFailure ? 2 : 1
        }
    }
}

/// Writes to standard output and standard error.
enum Console {
    /// Writes `text` as it is: data (JSON, CSV, a table whose cells are already made safe).
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a message for a person: control characters from names, ids or files (an escape
    /// sequence could rewrite the screen) are shown as `\u{1B}`, not sent to the terminal.
    static func say(_ text: String) {
        output(SafeText.terminalSafe(text, keepingLineBreaks: true))
    }

    /// Writes a message to standard error, made safe as `say` does, ending in a line break.
    static func error(_ text: String) {
        let safe = SafeText.terminalSafe(text, keepingLineBreaks: true)
        FileHandle.standardError.write(Data((safe.hasSuffix("\n") ? safe : safe + "\n").utf8))
    }
}
