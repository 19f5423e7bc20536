import FamilyTree
import FamilyTreeContacts
import FamilyTreeGEDCOM
import Foundation
import ZIPFoundation

/// The kinds of file familytree reads a family from.
public enum FamilyFileKind: String, Sendable, Hashable {
    /// familytree's tree.json, or a seed app's document.
    case treeJSON = "tree.json"
    /// GEDCOM 5.5.1 or 7.0, or a GEDZIP archive holding one.
    case gedcom = "GEDCOM"
    /// vCard contacts.
    case vCard = "vCard"
}

/// A problem opening a family file: the file's name and what is wrong, in words.
public struct FamilyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as named on the command line (`<stdin>` for standard input).
    public var file: String
    /// What is wrong, in words.
    public var reason: String

    /// A problem with `file`.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `file: reason`.
    public var description: String { "\(file): \(reason)" }
}

/// Any file familytree reads a family from, told apart by its name and its first bytes:
/// tree.json, GEDCOM (`.ged`, or `0 HEAD`), GEDZIP (`.gdz`), vCard (`.vcf`, or `BEGIN:VCARD`).
public enum FamilyFile {
    /// What `bytes` (from a file named `path`, `-` for standard input) hold.
    public static func kind(path: String, bytes: [UInt8]) -> FamilyFileKind {
        let fileExtension = FileName.pathExtension(path).lowercased()
        if ["ged", "gedcom", "gdz"].contains(fileExtension) || isZip(bytes) { return .gedcom }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3).prefix(6)) : Array(bytes.prefix(6))
        if start.starts(with: Array("0 HEAD".utf8)) || start.starts(with: [0x30, 0x00, 0x20, 0x00]) || start.starts(with: [0xFF, 0xFE, 0x30, 0x00]) {
            return .gedcom
        }
        if ["vcf", "vcard"].contains(fileExtension) || VCardParser.looksLikeVCard(bytes) { return .vCard }
        return .treeJSON
    }

    /// The family in `bytes` as a document, with the importer's warnings in words. tree.json is
    /// read as written; GEDCOM and vCard are imported (GEDCOM surnames as `surnameCase` says).
    /// `name` names the file in messages.
    public static func document(
        _ bytes: [UInt8], path: String, name: String, surnameCase: SurnameCase = .asIs
    ) throws -> (document: TreeDocument, kind: FamilyFileKind, warnings: [String]) {
        switch kind(path: path, bytes: bytes) {
        case .gedcom:
            let imported = try gedcom(bytes, name: name, surnameCase: surnameCase)
            return (imported.document, .gedcom, imported.warnings.map(\.description))
        case .vCard:
            let imported = ContactsImport(bytes: bytes)
            // Links inferred from the cards are as drawn; only relations left out are worth a word.
            return (imported.document, .vCard, imported.report.filter { $0.kind != .inferred }.map(\.description))
        case .treeJSON:
            // Text that cannot begin a JSON document is some other kind of file: say what is expected.
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
            if let first = start.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first != UInt8(ascii: "{"), first != UInt8(ascii: "[") {
                throw FamilyFileError(file: name, reason: "is not a tree file: expected tree.json (a JSON object), a GEDCOM file (.ged, beginning \"0 HEAD\") or vCard contacts (.vcf)")
            }
            return (try TreeDocument(json: bytes, file: name), .treeJSON, [])
        }
    }

    /// A GEDCOM file, or the `gedcom.ged` of a GEDZIP archive, imported.
    public static func gedcom(_ bytes: [UInt8], name: String, surnameCase: SurnameCase = .asIs) throws -> GEDCOMImport {
        let gedcom = isZip(bytes) ? try gedcomFromGEDZIP(bytes, name: name) : bytes
        do {
            return try GEDCOMImport(bytes: gedcom, surnameCase: surnameCase)
        } catch {
            throw FamilyFileError(file: name, reason: error.description)
        }
    }

    static func isZip(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// The `gedcom.ged` inside a GEDZIP archive (GEDCOM 7); its media files are not read. A zip
    /// bomb is refused by what it declares and, should it lie, by what it expands to; a damaged
    /// archive by its CRC-32.
    static func gedcomFromGEDZIP(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        do {
            let archive = try Archive(data: Data(bytes), accessMode: .read)
            guard let entry = archive["gedcom.ged"] else {
                throw FamilyFileError(file: name, reason: "a GEDZIP archive must hold gedcom.ged at its root")
            }
            let limit = min(InputLimits.archiveMemberBytes, max(1 << 20, bytes.count * InputLimits.archiveExpansionRatio))
            guard entry.uncompressedSize <= UInt64(limit) else {
                throw FamilyFileError(file: name, reason: "gedcom.ged would expand to \(entry.uncompressedSize) bytes, over the \(limit) bytes familytree reads from this archive")
            }
            var data = Data()
            let checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                guard data.count + chunk.count <= limit else {
                    throw FamilyFileError(file: name, reason: "gedcom.ged expands to more than the \(limit) bytes familytree reads from this archive")
                }
                data.append(chunk)
            }
            guard checksum == entry.checksum else {
                throw FamilyFileError(file: name, reason: "gedcom.ged is damaged (its CRC-32 checksum does not match)")
            }
            return Array(data)
        } catch let error as FamilyFileError {
            throw error
        } catch {
            throw FamilyFileError(file: name, reason: "not a readable GEDZIP archive (\(error))")
        }
    }
}
