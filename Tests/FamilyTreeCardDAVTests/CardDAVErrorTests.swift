import Testing
@testable import FamilyTreeCardDAV

/// A library's message says what went wrong in words any program can show; no command-line option
/// (the command line adds its own hints).
struct CardDAVErrorTests {
    @Test func messagesNameNoCommandLineOption() {
        let errors: [CardDAVError] = [
            .insecureURL("http://dav.example/"), .badURL("ftp://x"), .unauthorized(user: "a", url: "u"), .forbidden(user: "a", url: "u"),
            .notFound(url: "u"), .notAnAddressBook(url: "u", found: ["v"]), .status(500, method: "GET", url: "u"), .timeout(url: "u", seconds: 1.5),
            .transport(url: "u", reason: "r"), .malformedResponse(url: "u", reason: "r"), .answerTooLarge(url: "u", limit: 512 << 20), .badState(path: "p", reason: "r"),
        ]
        for error in errors { #expect(!error.description.contains("--"), "\(error)") }
        #expect(CardDAVError.answerTooLarge(url: "https://dav.example/b/", limit: 512 << 20).description == "https://dav.example/b/: the server's answer is over 512 MiB, more than allowed; nothing was changed here")
    }
}
