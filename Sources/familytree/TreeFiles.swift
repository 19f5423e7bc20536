import FamilyTree
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

    /// Reads and validates a tree.json.
    static func loadGraph(_ path: String) throws -> FamilyGraph {
        try FamilyGraph(json: try read(path), file: path == "-" ? "<stdin>" : path)
    }

    /// Writes `text` to `path` (standard output for `-`): a temporary file beside the target,
    /// then a rename, so the target is never half-written.
    static func write(_ text: String, to path: String) throws(CLIError) {
        if path == "-" {
            Console.output(text)
            return
        }
        let target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
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
