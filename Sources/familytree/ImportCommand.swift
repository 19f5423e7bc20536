import ArgumentParser
import FamilyTree
import FamilyTreeGEDCOM
import Foundation
import ZIPFoundation

/// GEDCOM files as the CLI reads them, GEDZIP (`.gdz`) archives included.
enum GEDCOMFile {
    static func looksLikeGEDCOM(path: String, bytes: [UInt8]) -> Bool {
        if ["ged", "gedcom", "gdz"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) { return true }
        if isZip(bytes) { return true }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3).prefix(6)) : Array(bytes.prefix(6))
        return start.starts(with: Array("0 HEAD".utf8)) || start.starts(with: [0x30, 0x00, 0x20, 0x00]) || start.starts(with: [0xFF, 0xFE, 0x30, 0x00])
    }

    static func isZip(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    static func read(_ bytes: [UInt8], name: String) throws -> GEDCOMImport {
        let gedcom = isZip(bytes) ? try gedcomFromGEDZIP(bytes, name: name) : bytes
        do {
            return try GEDCOMImport(bytes: gedcom)
        } catch {
            throw CLIError.fileAccess(path: name, reason: error.description)
        }
    }

    /// The `gedcom.ged` inside a GEDZIP archive (GEDCOM 7); its media files are not read.
    static func gedcomFromGEDZIP(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        do {
            let archive = try Archive(data: Data(bytes), accessMode: .read)
            guard let entry = archive["gedcom.ged"] else {
                throw CLIError.fileAccess(path: name, reason: "a GEDZIP archive must hold gedcom.ged at its root")
            }
            var data = Data()
            _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
            return Array(data)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.fileAccess(path: name, reason: "not a readable GEDZIP archive (\(error))")
        }
    }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a GEDCOM file into a tree.json.",
        discussion: """
        Reads GEDCOM 5.5.1, 7.0 and older files in UTF-8 (with or without BOM), UTF-16, ANSEL, ASCII or
        Windows-1252, with CR, LF or CRLF lines. People, names, sex, birth and death dates, families with
        their partners, children in order, marriage and divorce dates, and adopted/foster/step children
        are imported; links that disagree are repaired with a warning. Dates familytree cannot place
        (other calendars, free text) are kept in the person's notes.

        Examples:
          familytree import family.ged -o tree.json
          familytree import family.ged -o tree.json --report
          familytree import family.ged --strict -o tree.json     # any warning is an error
          familytree render family.ged -o family.svg              # render imports on the fly
        """
    )

    @Argument(help: "The GEDCOM file, or - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "The tree.json to write, or - for standard output.")
    var output: String = "-"

    @Flag(help: "Treat every warning as an error: write nothing and exit 1.")
    var strict = false

    @Flag(help: "List every warning with its line number.")
    var report = false

    func run() throws {
        let bytes = try TreeFiles.read(file)
        let name = file == "-" ? "<stdin>" : file
        let imported = try GEDCOMFile.read(bytes, name: name)
        if report || strict {
            for warning in imported.warnings { Console.error("\(name): \(warning.kind.rawValue): \(warning)") }
        }
        if strict, !imported.warnings.isEmpty {
            throw CLIError.fileAccess(path: name, reason: "\(imported.warnings.count) warning\(imported.warnings.count == 1 ? "" : "s") and --strict: nothing written")
        }
        let graph = try FamilyGraph(document: imported.document, file: name)
        try TreeFiles.write(JSONWriter.string(from: graph.document.jsonValue), to: output)
        var counts: [GEDCOMWarning.Kind: Int] = [:]
        for warning in imported.warnings { counts[warning.kind, default: 0] += 1 }
        let byKind = GEDCOMWarning.Kind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
        Console.error("imported \(imported.peopleCount) people and \(imported.familyCount) families from \(name) (\(imported.encoding)\(imported.version.map { ", GEDCOM \($0)" } ?? "")); \(imported.warnings.count) warnings\(byKind.isEmpty ? "" : ": \(byKind)")")
    }
}
