import FamilyTree
import FamilyTreeContacts
import FamilyTreeGEDCOM
import FamilyTreeRender
import Foundation

/// Reading tree files (or standard input) and writing output atomically.
enum TreeFiles {
    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw .fileAccess(path: path, reason: reason)
        }
    }

    /// Reads and validates a tree as charts show it: tree.json without its removed members, a
    /// GEDCOM file (by its `.ged` name or its `0 HEAD`), or vCard contacts (`.vcf`, `BEGIN:VCARD`).
    /// `includingRemoved` keeps removed members (to validate the whole file).
    static func loadGraph(_ path: String, includingRemoved: Bool = false) throws -> FamilyGraph {
        let bytes = try read(path)
        let name = path == "-" ? "<stdin>" : path
        if GEDCOMFile.looksLikeGEDCOM(path: path, bytes: bytes) {
            let imported = try GEDCOMFile.read(bytes, name: name)
            if !imported.warnings.isEmpty {
                Console.error("familytree: \(name): \(imported.warnings.count) warning\(imported.warnings.count == 1 ? "" : "s") while importing (familytree import \(name) --report lists them)")
            }
            return try FamilyGraph(document: imported.document, file: name)
        }
        if ContactsFile.looksLikeVCard(path: path, bytes: bytes) {
            let imported = ContactsFile.read(bytes)
            // Links inferred from the cards are as drawn; only relations left out are worth a word here.
            let leftOut = imported.report.filter { $0.kind != .inferred }
            if !leftOut.isEmpty {
                Console.error("familytree: \(name): relations not drawn: \(ContactsReportEntry.counts(of: leftOut)) (familytree import \(name) --report lists them)")
            }
            return try FamilyGraph(document: imported.document, file: name)
        }
        let document = try TreeDocument(json: bytes, file: name)
        return try FamilyGraph(document: includingRemoved ? document : document.hidingRemovedMembers(), file: name)
    }

    /// Writes `text` to `path` (standard output for `-`): a temporary file beside the target,
    /// then a rename, so the target is never half-written.
    static func write(_ text: String, to path: String) throws(CLIError) {
        try write(to: path) { output in try output.write(Array(text.utf8)[...]) }
    }

    /// Writes what `produce` hands to its output, chunk by chunk, to `path` (standard output for
    /// `-`): into a temporary file beside the target, renamed over it only when all went well.
    static func write(to path: String, _ produce: (inout FileOutput) throws -> Void) throws(CLIError) {
        if path == "-" {
            var output = FileOutput(handle: FileHandle.standardOutput)
            do { try produce(&output) } catch { throw .fileAccess(path: "<stdout>", reason: "cannot be written (\(error.localizedDescription))") }
            return
        }
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil), let handle = FileHandle(forWritingAtPath: temporary.path) else {
                throw CLIError.fileAccess(path: path, reason: "cannot be written (no such directory, or no permission)")
            }
            var output = FileOutput(handle: handle)
            do {
                try produce(&output)
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path), let permissions = attributes[.posixPermissions] {
                try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
            }
            guard rename(temporary.path, target.path) == 0 else {
                throw CLIError.fileAccess(path: path, reason: "cannot replace the file: \(String(cString: strerror(errno)))")
            }
        } catch let error as CLIError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .fileAccess(path: path, reason: "cannot be written (\(error.localizedDescription))")
        }
    }
}

/// Rendered output written straight to a file handle.
struct FileOutput: RenderedOutput {
    let handle: FileHandle

    mutating func write(_ chunk: ArraySlice<UInt8>) throws {
        try handle.write(contentsOf: chunk)
    }
}
