import FamilyTree

/// Problems the command line reports with exit status 1.
enum CLIError: Error, CustomStringConvertible {
    case unknownMember(String, candidates: [String])
    case ambiguousMember(String, matches: [String])
    case linkRefused(reason: String)
    case fileAccess(path: String, reason: String)
    case graphvizMissing
    case graphvizFailed(String)
    /// A command the user's files or the store's state do not allow, with what to do instead.
    case refused(String)

    var description: String {
        switch self {
        case .unknownMember(let reference, let candidates):
            let hint = candidates.isEmpty ? "" : "\n  did you mean one of these?\n" + candidates.map { "    \($0)" }.joined(separator: "\n")
            return "no member has the id or name \"\(reference)\"\(hint)"
        case .ambiguousMember(let reference, let matches):
            return "\"\(reference)\" matches \(matches.count) members; use an id:\n" + matches.map { "    \($0)" }.joined(separator: "\n")
        case .linkRefused(let reason):
            return "link refused: \(reason)"
        case .fileAccess(let path, let reason):
            return "\(path): \(reason)"
        case .graphvizFailed(let message), .refused(let message):
            return message
        case .graphvizMissing:
            return "this familytree was built without Graphviz support; build it with --traits Graphviz"
        }
    }
}

extension FamilyGraph {
    /// A member by id or unique name, or an error listing the candidates.
    func resolveMember(_ reference: String) throws(CLIError) -> Int {
        func describe(_ index: Int) -> String {
            let member = members[index]
            return "\(member.id)  \(member.fullName)\(member.lifeSpan.isEmpty ? "" : " (\(member.lifeSpan))")"
        }
        switch lookUp(reference) {
        case .found(let index): return index
        case .ambiguous(let matches): throw .ambiguousMember(reference, matches: matches.map(describe))
        case .notFound: throw .unknownMember(reference, candidates: candidates(for: reference).map(describe))
        }
    }
}
