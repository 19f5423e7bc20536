import Foundation
import Testing
import FamilyTree
import TestSupport
@testable import familytree

/// A scratch directory holding a copy of the example tree, deleted when the test is done with it.
struct Scratch {
    private let folder: ScratchFolder
    var directory: URL { folder.url }
    static let packageRoot = TestPaths.packageRoot

    init() throws {
        folder = try ScratchFolder("cli")
        try FileManager.default.copyItem(at: Scratch.packageRoot.appendingPathComponent("examples/family.json"), to: path("tree.json"))
    }

    func path(_ name: String) -> URL { directory.appendingPathComponent(name) }
    func read(_ name: String) throws -> String { try String(contentsOf: path(name), encoding: .utf8) }
    func write(_ name: String, _ text: String) throws { try text.write(to: path(name), atomically: true, encoding: .utf8) }
    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }
    func run(_ arguments: String...) async -> Int32 { await FamilyTreeCommand.run(arguments: arguments) }
    func run(_ arguments: [String]) async -> Int32 { await FamilyTreeCommand.run(arguments: arguments) }
}
