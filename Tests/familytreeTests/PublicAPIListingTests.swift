import Foundation
import Testing
import TestSupport

/// docs/api.md lists the public API, one line a type: every public type the compiler sees in a
/// library is in the list, and the list names nothing that is no longer public.
@Suite struct PublicAPIListingTests {
    static let libraries = [
        "FamilyTree", "FamilyTreeLayout", "FamilyTreeRender", "FamilyTreeCalendar", "FamilyTreeGEDCOM",
        "FamilyTreeContacts", "FamilyTreeCardDAV", "FamilyTreeFiles", "FamilyTreeSync", "FamilyTreePostgres", "FamilyTreeGraphviz",
        "FamilyTreeAPI", "FamilyTreeRemote", "FamilyTreeServer", "FamilyTreePDF",
    ]

    /// The folder of the built modules this test binary was built with (`.build/<triple>/debug/Modules`).
    static var modulesFolder: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("Modules")
    }

    /// `Module.Type` for each top-level public type the compiler sees in the built libraries, by
    /// their symbol graphs (`swift-symbolgraph-extract`); and the libraries built with content (a
    /// trait's library is empty in a build without its trait).
    static func publicTypes() throws -> (names: Set<String>, built: Set<String>) {
        let scratch = try ScratchFolder("symbol-graphs")
        let folder = modulesFolder
        // The target triple is the name of the folder above `debug` (or `release`).
        let triple = folder.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        let typeKinds: Set<String> = ["swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.actor", "swift.typealias"]
        var names: Set<String> = []
        var built: Set<String> = []
        // The C modules the libraries import: system libraries and C targets of the dependencies
        // (their module maps in the checkouts and in the build folder) and the package's own.
        let build = folder.deletingLastPathComponent()
        let scratchRoot = build.deletingLastPathComponent().deletingLastPathComponent()
        let moduleMaps = Self.moduleMaps(under: scratchRoot.appendingPathComponent("checkouts"), depth: 8).filter { $0.contains("/Sources/") && !$0.contains("/Benchmarks/") }
            + Self.moduleMaps(under: build, depth: 2) + Self.moduleMaps(under: TestPaths.packageRoot.appendingPathComponent("Sources"), depth: 2)
        // librsvg's headers (the PDF trait's) are found where pkg-config says, as the build found them.
        let headerFolders = (try? ChildProcess.run("pkg-config", ["--cflags-only-I", "librsvg-2.0"]))
            .map { $0.status == 0 ? $0.stdout.split(whereSeparator: \.isWhitespace).map(String.init) : [] } ?? []
        for library in libraries {
            let result = try ChildProcess.run("swift-symbolgraph-extract", [
                "-module-name", library, "-I", folder.path, "-target", triple, "-minimum-access-level", "public", "-output-dir", scratch.url.path,
            ] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + headerFolders.flatMap { ["-Xcc", $0] })
            try #require(result.status == 0, "\(library): \(result.stderr.suffix(1_000))")
            let graph = try Data(contentsOf: scratch.path("\(library).symbols.json"))
            let symbols = try #require((try JSONSerialization.jsonObject(with: graph) as? [String: Any])?["symbols"] as? [[String: Any]])
            if !symbols.isEmpty { built.insert(library) }
            for symbol in symbols {
                guard let path = symbol["pathComponents"] as? [String], path.count == 1,
                      let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String, typeKinds.contains(kind) else { continue }
                names.insert("\(library).\(path[0])")
            }
        }
        return (names, built)
    }

    /// The `module.modulemap` files under `folder`, at most `depth` folders down.
    static func moduleMaps(under folder: URL, depth: Int) -> [String] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        while let url = walker.nextObject() as? URL {
            if walker.level > depth { walker.skipDescendants(); continue }
            if url.lastPathComponent == "module.modulemap" { found.append(url.path) }
        }
        return found.sorted()
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
        let compiled = try Self.publicTypes()
        // A library built without its trait has no symbols: its listed types are checked by the
        // build with the trait (CI runs both).
        let listed = try Self.listedTypes().filter { compiled.built.contains(String($0.prefix { $0 != "." })) }
        #expect(compiled.names.count > 50, "the symbol graphs hold the libraries' types")
        #expect(compiled.names.subtracting(listed).sorted() == [], "public but not in docs/api.md (run scripts/public-api --write)")
        #expect(listed.subtracting(compiled.names).sorted() == [], "in docs/api.md but not public")
    }
}
