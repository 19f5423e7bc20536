/// Where in a tree file something stands: a JSON path and, when known, its line.
public struct TreeLocation: Sendable, Hashable, CustomStringConvertible {
    /// A path such as `members[3]` or `unions[0].children[2]`.
    public var path: String
    /// The line in the file, when the tree was read from text.
    public var line: Int?

    /// The place at `path` (a JSON path such as `members[3].birthday`), on `line` when known.
    public init(path: String, line: Int? = nil) {
        self.path = path
        self.line = line
    }

    /// The location of a field inside this record, on the record's line.
    public func appending(_ component: String) -> TreeLocation {
        TreeLocation(path: path.isEmpty ? component : component.hasPrefix("[") ? path + component : path + "." + component, line: line)
    }

    public var description: String { line.map { "\(path) (line \($0))" } ?? path }
}

/// One thing wrong with a tree, naming the ids involved and where they are.
public struct TreeProblem: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem validation reports.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case invalidField, duplicateID, unknownReference, ancestryCycle
        case tooManyBirthParents, tooManyPartners, selfMarriage, repeatedParent
    }

    /// What kind of problem this is.
    public var kind: Kind
    /// The problem in words, for a person.
    public var message: String
    /// The member, union or connection ids the problem is about.
    public var ids: [String]
    /// Where in the file the problem is, when known.
    public var location: TreeLocation?

    /// A problem of `kind` involving `ids`, found at `location`.
    public init(_ kind: Kind, _ message: String, ids: [String] = [], at location: TreeLocation? = nil) {
        self.kind = kind
        self.message = message
        self.ids = ids
        self.location = location
    }

    public var description: String { location.map { "\($0): \(message)" } ?? message }
}

/// Errors from reading and validating a family tree.
public enum FamilyTreeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not valid JSON.
    case malformedJSON(file: String?, JSONSyntaxError)
    /// The tree has one or more problems; all of them are listed.
    case invalidTree(file: String?, [TreeProblem])
    /// The file could not be read or written.
    case fileAccess(path: String, reason: String)

    public var description: String {
        switch self {
        case .malformedJSON(let file, let error):
            return "\(file ?? "<input>"): malformed JSON at \(error)"
        case .invalidTree(let file, let problems):
            let header = "\(file ?? "<input>"): \(problems.count) problem\(problems.count == 1 ? "" : "s") in the tree"
            return ([header] + problems.map { "  - \($0)" }).joined(separator: "\n")
        case .fileAccess(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
