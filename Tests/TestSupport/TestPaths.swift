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

/// What this machine offers the tests beyond the package itself.
public enum TestMachine {
    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// Headless Chromium, chromedriver and Selenium (scripts/test installs them).
    public static let hasBrowser: Bool = {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && ((try? ChildProcess.run("python3", ["-c", "import selenium"]).status) == 0)
    }()

    /// A PostgreSQL server to test against (scripts/postgres-start exports its URL).
    public static var hasPostgreSQL: Bool { environment["FAMILYTREE_PG_URL"].map { !$0.isEmpty } ?? false }

    /// Control of that server's process, to stop and start it (`pg_ctl` and its data folder).
    public static var controlsPostgreSQL: Bool { environment["FAMILYTREE_PG_CTL"].map { !$0.isEmpty } ?? false }

    /// Gramps, the genealogy program, from the command line (Debian's gramps).
    public static var hasGramps: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gramps") }

    /// A CardDAV server to test against (scripts/carddav-start exports its URL).
    public static var hasCardDAV: Bool { environment["FAMILYTREE_CARDDAV_URL"].map { !$0.isEmpty } ?? false }
}

extension Trait where Self == ConditionTrait {
    /// One policy for everything a test needs from outside the package: outside CI a test without
    /// it is skipped and says why; in CI it runs, and fails where the need is missing.
    public static func requires(_ need: String, available: @escaping @Sendable () -> Bool) -> Self {
        .enabled(Comment(rawValue: need)) { TestPaths.isCI || available() }
    }

    /// Needs `../shared/data` (or the file `path` in it).
    public static func requiresSharedData(_ path: String = "") -> Self {
        requires("../shared/data\(path.isEmpty ? "" : "/" + path) is not beside the package") {
            FileManager.default.fileExists(atPath: TestPaths.shared(path).path)
        }
    }

    /// Needs headless Chromium, chromedriver and Selenium.
    public static var requiresBrowser: Self {
        requires("headless Chromium, chromedriver and Selenium are not installed (scripts/test installs them)") { TestMachine.hasBrowser }
    }

    /// Needs the PostgreSQL server `FAMILYTREE_PG_URL` names.
    public static var requiresPostgreSQL: Self {
        requires("FAMILYTREE_PG_URL is not set (scripts/postgres-start)") { TestMachine.hasPostgreSQL }
    }

    /// Needs to stop and start a PostgreSQL server of its own (`FAMILYTREE_PG_CTL`).
    public static var requiresPostgreSQLControl: Self {
        requires("FAMILYTREE_PG_URL/FAMILYTREE_PG_CTL are not set (scripts/postgres-start)") { TestMachine.controlsPostgreSQL }
    }

    /// Needs Gramps on the command line.
    public static var requiresGramps: Self {
        requires("gramps is not installed (scripts/test installs it)") { TestMachine.hasGramps }
    }

    /// Needs the CardDAV server `FAMILYTREE_CARDDAV_URL` names.
    public static var requiresCardDAV: Self {
        requires("FAMILYTREE_CARDDAV_URL is not set (scripts/carddav-start)") { TestMachine.hasCardDAV }
    }
}
