#if Server
import FamilyTreeSync
import HTTPTypes

/// A refusal or failure the API answers with: an HTTP status and a JSON `Error` with a stable code
/// and a message in words.
package struct APIFailure: Error, Sendable, Hashable {
    package var status: HTTPResponse.Status
    package var code: String
    package var message: String

    package init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func unauthorized(_ message: String = "sign in first: send a personal access token (Authorization: Bearer …) or a session cookie") -> APIFailure {
        APIFailure(.unauthorized, "unauthorized", message)
    }
    static func forbidden(_ message: String) -> APIFailure { APIFailure(.forbidden, "forbidden", message) }
    static func invalid(_ message: String) -> APIFailure { APIFailure(.badRequest, "invalid", message) }
    static func notFound(_ message: String) -> APIFailure { APIFailure(.notFound, "notFound", message) }
    static func throttled(_ message: String) -> APIFailure { APIFailure(.tooManyRequests, "throttled", message) }
    static func tooLarge(_ message: String) -> APIFailure { APIFailure(.contentTooLarge, "tooLarge", message) }

    /// A store's error as the API says it: a refused role is 403, a bad document 400, a failure 500
    /// (whose message names no database detail beyond the store's own words).
    init(_ error: SyncError) {
        switch error {
        case .accessDenied: self.init(.forbidden, "forbidden", error.description)
        case .missingUser: self.init(.badRequest, "invalid", error.description)
        case .documentTooLarge: self.init(.contentTooLarge, "tooLarge", error.description)
        case .invalidDocument: self.init(.badRequest, "invalid", error.description)
        case .busy: self.init(.conflict, "conflict", error.description)
        case .storeBehind: self.init(.conflict, "storeBehind", error.description)
        case .store, .unsupportedStore: self.init(.internalServerError, "failed", "the server's store failed; try again later")
        }
    }
}
#endif
