import Foundation
import Testing

/// docs/api.md lists the public API, one line a type: every public type in a library's sources is
/// in the list, and the list names nothing that is no longer public.
@Suite struct PublicAPIListingTests {
    static let libraries = [
        "FamilyTree", "FamilyTreeLayout", "FamilyTreeRender", "FamilyTreeCalendar", "FamilyTreeGEDCOM",
        "FamilyTreeContacts", "FamilyTreeCardDAV", "FamilyTreeFiles", "FamilyTreeSync", "FamilyTreePostgres", "FamilyTreeGraphviz",
    ]

    /// `Module.Type` for each top-level public type in the sources.
    static func publicTypes() throws -> Set<String> {
        var names: Set<String> = []
        let pattern = try Regex(#"^public (?:final )?(?:struct|enum|class|protocol|actor) (\w+)"#)
        for library in libraries {
            let folder = Scratch.packageRoot.appendingPathComponent("Sources/\(library)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    if let match = try pattern.prefixMatch(in: line), let name = match.output[1].substring {
                        names.insert("\(library).\(name)")
                    }
                }
            }
        }
        return names
    }

    /// `Module.Type` for each line of docs/api.md's list.
    static func listedTypes() throws -> Set<String> {
        let readme = try String(contentsOf: Scratch.packageRoot.appendingPathComponent("docs/api.md"), encoding: .utf8)
        let list = try #require(readme.firstRange(of: "<!-- public-api:begin -->").flatMap { begin in
            readme.range(of: "<!-- public-api:end -->").map { readme[begin.upperBound..<$0.lowerBound] }
        })
        var names: Set<String> = []
        var module = ""
        for line in list.split(separator: "\n") {
            if line.hasPrefix("**") { module = String(line.dropFirst(2).prefix { $0 != "*" }) }
            if line.hasPrefix("- `") { names.insert("\(module).\(line.dropFirst(3).prefix { $0 != "`" })") }
        }
        return names
    }

    @Test func everyPublicTypeIsListedAndNothingElse() throws {
        let sources = try Self.publicTypes()
        let listed = try Self.listedTypes()
        #expect(sources.count > 50, "the scan found the libraries' types")
        #expect(sources.subtracting(listed).sorted() == [], "public but not in docs/api.md (run scripts/public-api --write)")
        #expect(listed.subtracting(sources).sorted() == [], "in docs/api.md but not public")
    }
}
