import Foundation

/// Where a document store lives, read from its URL: `sqlite:PATH` or `postgres://…`.
public enum StoreLocation: Sendable, Hashable {
    /// The embedded store, one SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL server (`postgres://` or `postgresql://`), opened by `FamilyTreePostgres`.
    case postgres(url: String)

    /// Reads a store URL; anything else is `SyncError.unsupportedStore`.
    public init(_ url: String) throws(SyncError) {
        if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw .unsupportedStore("sqlite: needs a file path, for example sqlite:/home/me/family.sqlite") }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(url: url)
        } else {
            throw .unsupportedStore(url)
        }
    }
}

extension SQLiteDocumentStore {
    /// Opens the store at `path`. Its folder must exist unless `creatingFolder` (the default
    /// store's folder is made; a store named elsewhere with a typo must not make one).
    public static func open(path: String, creatingFolder: Bool) throws(SyncError) -> SQLiteDocumentStore {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        if creatingFolder {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .store("cannot create the folder \(folder.path): \(error.localizedDescription)")
            }
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .store("cannot open \(path): the folder \(folder.path) does not exist")
            }
        }
        return try SQLiteDocumentStore(path: path)
    }
}
