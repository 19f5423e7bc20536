import FamilyTreeCardDAV
import FamilyTreeSync

// The libraries' messages say what went wrong; the command line adds the option that changes it.

extension CardDAVError {
    /// The message with the option that helps, where one does.
    var withHint: String {
        switch self {
        case .insecureURL: "\(self) (or --allow-http on a network you trust)"
        case .answerTooLarge: "\(self) (--max-answer-mib raises the limit)"
        default: "\(self)"
        }
    }
}

extension SyncError {
    /// The message with the option that helps, where one does.
    var withHint: String {
        switch self {
        case .missingUser: "\(self): give --user"
        case .storeBehind: "\(self) (familytree sync push FILE --resend)"
        default: "\(self)"
        }
    }
}
