import Foundation

/// Questions asked on the terminal.
enum Prompt {
    /// Asks on standard error and reads a line from standard input with echo off (a password);
    /// `nil` at end of input.
    static func secret(_ question: String) -> String? {
        FileHandle.standardError.write(Data(question.utf8))
        var original = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &original) == 0
        if hasTerminal {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if hasTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        return readLine(strippingNewline: true)
    }

    /// Asks on standard error and reads a line from standard input; `nil` at end of input.
    static func line(_ question: String) -> String? {
        FileHandle.standardError.write(Data(question.utf8))
        return readLine(strippingNewline: true)
    }

    /// Asks for a password (echo off on a terminal, else one line of standard input); refused when empty.
    static func password(_ question: String) throws -> String {
        guard let password = secret(question), !password.isEmpty else { throw CLIError.refused("no password given") }
        return password
    }

    /// Asks for a new password (on a terminal twice, which must agree); refused when empty.
    static func newPassword(_ question: String) throws -> String {
        let password = try password(question)
        if isatty(STDIN_FILENO) != 0, secret("Again: ") != password { throw CLIError.refused("the two passwords differ") }
        return password
    }
}
