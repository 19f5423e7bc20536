import Foundation
import Testing

/// Where a test finds the package's files and the real trees beside it.
public enum TestPaths {
    /// The package's root folder (this file is `Tests/TestSupport/TestPaths.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data`: real GEDCOM and vCard files, beside the package on the team's machines
    /// and in CI.
    public static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// A file in `../shared/data`, by its path there (`royal92/royal92.ged`).
    public static func shared(_ path: String) -> URL { sharedData.appendingPathComponent(path) }

    /// Whether this run is CI's, where nothing a test needs may be missing.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }
}

/// A folder for one test's files, deleted with everything in it when the value goes.
public final class ScratchFolder: @unchecked Sendable {
    /// The folder.
    public let url: URL

    /// A new empty folder under the system's temporary folder, named for `purpose`.
    public init(_ purpose: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-\(purpose)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path in the folder.
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

extension Trait where Self == ConditionTrait {
    /// Needs `../shared/data` (or the file `path` in it). One policy everywhere: outside CI a test
    /// without it is skipped and says why; in CI it runs, and fails if the data is missing.
    public static func requiresSharedData(_ path: String = "") -> Self {
        .enabled(if: TestPaths.isCI || FileManager.default.fileExists(atPath: TestPaths.shared(path).path), "../shared/data\(path.isEmpty ? "" : "/" + path) is not beside the package")
    }
}
