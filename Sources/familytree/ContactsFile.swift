import FamilyTree
import FamilyTreeContacts
import Foundation

/// vCard files as the CLI reads them.
enum ContactsFile {
    static func looksLikeVCard(path: String, bytes: [UInt8]) -> Bool {
        ["vcf", "vcard"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) || VCardParser.looksLikeVCard(bytes)
    }

    static func read(_ bytes: [UInt8]) -> ContactsImport { ContactsImport(bytes: bytes) }

    /// A tree.json root with nothing in it, to merge a first import into.
    static let emptyTree: JSONValue = .object(["members": .array([]), "unions": .array([]), "crossBloodlineConnections": .array([])])
}
