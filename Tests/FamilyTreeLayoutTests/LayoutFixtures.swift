import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM

/// Real trees kept with the layout tests (see `Fixtures/README.md`).
enum LayoutFixtures {
    /// George Washington's family (529 people): many middle children married into other
    /// families of the tree.
    static func washington() throws -> FamilyGraph { try graph(ofFixture: "washington.ged") }

    /// A GEDCOM file of `Fixtures`, imported as the command imports it.
    static func graph(ofFixture name: String) throws -> FamilyGraph {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: url)))
        return try FamilyGraph(document: imported.document.hidingRemovedMembers())
    }
}
