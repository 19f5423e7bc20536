import ArgumentParser
import FamilyTree
import FamilyTreeContacts
import FamilyTreeFiles
import FamilyTreeGEDCOM
import FamilyTreeRender
import Foundation
#if canImport(Glibc)
import Glibc
/// POSIX `read` (the name `read` in `TreeFiles` is its own).
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// How a command reads a GEDCOM file given directly instead of an imported tree.json.
struct ReadingOptions: ParsableArguments {
    @Option(help: "When the tree is GEDCOM, surnames written in capitals: as-is, or title (KENNEDY becomes Kennedy).")
    var surnameCase: SurnameCase = .asIs
}

/// Reading tree files (or standard input) and writing output atomically.
enum TreeFiles {
    /// The bytes of `path`, or of standard input for `-`, up to `InputLimits.fileBytes`: a larger
    /// file, or an endless stream (`yes | familytree validate -`), is an error, not a crash.
    static func read(_ path: String, limit: Int = InputLimits.fileBytes) throws(CLIError) -> [UInt8] {
        let name = path == "-" ? "<stdin>" : path
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileAccess(path: path, reason: "no such file") }
            guard !isDirectory.boolValue else { throw .fileAccess(path: path, reason: "is a directory, not a tree file") }
            guard let opened = FileHandle(forReadingAtPath: path) else { throw .fileAccess(path: path, reason: "cannot be read (no permission)") }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var bytes: [UInt8] = []
        // A regular file is read straight into its array (no chunk copies); anything else (a pipe,
        // a device), or what a growing file has beyond its size, in 1 MiB chunks up to the limit.
        var status = stat()
        if fstat(handle.fileDescriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 {
            let size = Int(status.st_size)
            guard size <= limit else {
                throw .fileAccess(path: name, reason: "is larger than \(InputLimits.describe(limit)), the largest input familytree reads")
            }
            var failure: Int32 = 0
            bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                while count < size {
                    let read = systemRead(handle.fileDescriptor, buffer.baseAddress! + count, size - count)
                    if read < 0, errno == EINTR { continue }
                    if read < 0 { failure = errno }
                    guard read > 0 else { return }
                    count += read
                }
            }
            if failure != 0 { throw .fileAccess(path: name, reason: "cannot be read (\(String(cString: strerror(failure))))") }
            // A shorter read is the file's end (it shrank); a full one may have more after it.
            if bytes.count < size { return bytes }
        }
        // The chunk grows from 64 KiB: after a whole regular file, the read that finds its end
        // should not clear a megabyte first (a tenth of a millisecond on every command).
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileAccess(path: name, reason: "cannot be read (\(String(cString: strerror(errno))))")
            }
            guard count > 0 else { return bytes }
            guard bytes.count + count <= limit else {
                throw .fileAccess(path: name, reason: "is larger than \(InputLimits.describe(limit)), the largest input familytree reads")
            }
            bytes.append(contentsOf: chunk[0..<count])
            if count == chunk.count, chunk.count < 1 << 20 { chunk = [UInt8](repeating: 0, count: 2 * chunk.count) }
        }
    }

    /// Reads and validates a tree as charts show it: tree.json without its removed members, a
    /// GEDCOM file (by its `.ged` name or its `0 HEAD`), or vCard contacts (`.vcf`, `BEGIN:VCARD`).
    /// `includingRemoved` keeps removed members (to validate the whole file); `surnameCase` says how a
    /// GEDCOM file's surnames are read.
    static func loadGraph(_ path: String, includingRemoved: Bool = false, surnameCase: SurnameCase = .asIs) throws -> FamilyGraph {
        let bytes = try read(path)
        let name = path == "-" ? "<stdin>" : path
        let (document, kind, warnings) = try FamilyFile.document(bytes, path: path, name: name, surnameCase: surnameCase)
        if !warnings.isEmpty {
            let what = kind == .vCard ? "relation\(warnings.count == 1 ? "" : "s") not drawn" : "warning\(warnings.count == 1 ? "" : "s") while importing"
            Console.error("familytree: \(name): \(warnings.count) \(what) (familytree import \(name) --report lists them)")
        }
        return try FamilyGraph(document: includingRemoved ? document : document.hidingRemovedMembers(), file: name)
    }

    /// Writes `text` to `path` (standard output for `-`): a temporary file beside the target,
    /// then a rename, so the target is never half-written.
    static func write(_ text: String, to path: String) throws(CLIError) {
        try write(to: path) { output in try output.write(Array(text.utf8)[...]) }
    }

    /// Writes what `produce` hands to its output, chunk by chunk, to `path`.
    ///
    /// A regular file (new or existing) is written atomically: into a temporary file beside it,
    /// created 0600, flushed to disk and renamed over the target only when all went well, with
    /// the target's mode (and, as root, owner) kept. A symbolic link is followed, so the file it
    /// points at is replaced and the link stays a link. `-`, `/dev/stdout` and anything that is
    /// not a regular file (a device, a pipe) are written to directly, never replaced. A read-only
    /// file is refused, even for root. Temporary files left by a killed run are removed.
    static func write(to path: String, _ produce: (inout FileOutput) throws -> Void) throws(CLIError) {
        if path == "-" || path == "/dev/stdout" {
            try writeDirectly(to: FileHandle.standardOutput, name: "<stdout>", produce)
            return
        }
        let target = resolvedTarget(path)
        var status = stat()
        let exists = lstat(target, &status) == 0
        if exists, status.st_mode & S_IFMT != S_IFREG {
            guard status.st_mode & S_IFMT != S_IFDIR else { throw .fileAccess(path: path, reason: "is a directory") }
            guard let handle = FileHandle(forWritingAtPath: target) else { throw .fileAccess(path: path, reason: "cannot be written (no permission)") }
            defer { try? handle.close() }
            try writeDirectly(to: handle, name: path, produce)
            return
        }
        if exists, status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 {
            throw .fileAccess(path: path, reason: "is read-only; make it writable (chmod u+w) to replace it")
        }
        let directory = (target as NSString).deletingLastPathComponent.isEmpty ? "." : (target as NSString).deletingLastPathComponent
        let base = (target as NSString).lastPathComponent
        removeAbandonedTemporaryFiles(in: directory, base: base)
        let temporary = (directory as NSString).appendingPathComponent(".\(base).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .fileAccess(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        do {
            var output = FileOutput(handle: handle)
            try produce(&output)
            let mode = exists ? status.st_mode & 0o7777 : 0o666 & ~currentUmask()
            guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else { throw CLIError.fileAccess(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))") }
            if exists, getuid() == 0 { _ = fchown(descriptor, status.st_uid, status.st_gid) }
            close(descriptor)
            guard rename(temporary, target) == 0 else {
                throw CLIError.fileAccess(path: path, reason: "cannot replace the file: \(String(cString: strerror(errno)))")
            }
            // The rename itself reaches the disk with the directory.
            let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
            if directoryDescriptor >= 0 {
                _ = fsync(directoryDescriptor)
                close(directoryDescriptor)
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            if let error = error as? CLIError { throw error }
            throw .fileAccess(path: path, reason: "cannot be written (\(error.localizedDescription))")
        }
    }

    private static func writeDirectly(to handle: FileHandle, name: String, _ produce: (inout FileOutput) throws -> Void) throws(CLIError) {
        var output = FileOutput(handle: handle)
        do { try produce(&output) } catch { throw .fileAccess(path: name, reason: "cannot be written (\(error.localizedDescription))") }
    }

    /// Whether `path` is standard output (`-`) or something other than a file to replace: a
    /// device such as `/dev/null` or `/dev/stdout`, a pipe.
    static func isStream(_ path: String) -> Bool {
        if path == "-" { return true }
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG && status.st_mode & S_IFMT != S_IFDIR
    }

    /// `path` with every symbolic link along it followed (a link to a link, a relative link), so
    /// the rename replaces the file and not the link; a dangling link gives the path it names.
    static func resolvedTarget(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = destination.hasPrefix("/") ? destination : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        return current
    }

    /// Removes `.NAME.PID.RANDOM.tmp` files beside NAME whose process is gone (killed mid-write).
    ///
    /// Every write runs this, so it reads the folder's entries as bytes and makes a string only of
    /// a name that starts like NAME's temporary files: a folder of 20,000 files (a `/tmp`, a
    /// downloads folder) cost 12 ms a write when every name became a string.
    private static func removeAbandonedTemporaryFiles(in directory: String, base: String) {
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        let prefix = Array(("." + base + ".").utf8)
        var abandoned: [String] = []
        while let entry = readdir(folder) {
            let bytes = entryName(entry)
            guard bytes.count > prefix.count, bytes.prefix(prefix.count).elementsEqual(prefix) else { continue }
            let name = String(decoding: bytes, as: UTF8.self)
            guard name.hasSuffix(".tmp") else { continue }
            let parts = Array(name.utf8.dropFirst(prefix.count).dropLast(4)).split(separator: UInt8(ascii: "."))
            guard parts.count == 2, let pid = Int32(String(decoding: parts[0], as: UTF8.self)),
                  UInt32(String(decoding: parts[1], as: UTF8.self)) != nil else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { abandoned.append(name) }
        }
        for name in abandoned { unlink((directory as NSString).appendingPathComponent(name)) }
    }

    /// The bytes of a folder entry's name, read where they stand up to their end.
    ///
    /// A record `readdir` returns is only as long as its name, though `d_name` is declared 256
    /// bytes long: copying the declared field read past the last record of the buffer, and one write
    /// in seven into a folder of 60,000 files crashed.
    static func entryName(_ entry: UnsafePointer<dirent>) -> UnsafeRawBufferPointer {
        let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

/// Rendered output written straight to a file handle.
struct FileOutput: RenderedOutput {
    let handle: FileHandle

    mutating func write(_ chunk: ArraySlice<UInt8>) throws {
        try handle.write(contentsOf: chunk)
    }
}

/// One command at a time reading and writing a tree file: an exclusive lock held from the read to
/// the rename, so an edit never rests on a copy another command is about to replace (twenty `add`s
/// at once keep all twenty people). The lock is on the file's folder (the real one, links
/// followed), which every familytree command editing a file in it takes; nothing is left beside
/// the file, and the system frees the lock when a process ends however it ends.
enum TreeFileLock {
    /// How long a command waits for another before it gives up.
    static var patience: Double {
        ProcessInfo.processInfo.environment["FAMILYTREE_LOCK_TIMEOUT"].flatMap(Double.init) ?? 120
    }

    /// Runs `body` holding the lock of `path`'s folder (nothing to lock for `-`).
    static func holding<T>(_ path: String, _ body: () throws -> T) throws -> T {
        guard path != "-", path != "/dev/stdout" else { return try body() }
        let descriptor = try acquire(path)
        defer { close(descriptor) }
        return try body()
    }

    /// The same for an async body (a sync: read, talk to the store, write).
    static func holding<T>(_ path: String, _ body: () async throws -> T) async throws -> T {
        guard path != "-", path != "/dev/stdout" else { return try await body() }
        let descriptor = try acquire(path)
        defer { close(descriptor) }
        return try await body()
    }

    private static func acquire(_ path: String) throws -> Int32 {
        let folder = URL(fileURLWithPath: TreeFiles.resolvedTarget(path)).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // A folder that cannot be opened cannot be written either: the write says why.
        guard descriptor >= 0 else { return open("/dev/null", O_RDONLY | O_CLOEXEC) }
        let start = Date()
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { return descriptor }
            let waited = Date().timeIntervalSince(start)
            if waited > patience {
                close(descriptor)
                throw CLIError.refused("\(path): another familytree command has been editing a tree in \(folder) for \(Int(waited)) s; try again when it is done")
            }
            if !told, waited > 2 {
                Console.error("familytree: waiting for another familytree command editing a tree in \(folder)")
                told = true
            }
            usleep(20_000)
        }
        return descriptor
    }
}
