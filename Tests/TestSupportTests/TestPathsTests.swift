import Foundation
import Testing
import TestSupport

/// The tests' paths, scratch folders and the one policy for what a test needs.
@Suite struct TestPathsTests {
    @Test func thePackageRootHoldsThePackage() {
        #expect(FileManager.default.fileExists(atPath: TestPaths.packageRoot.appendingPathComponent("Package.swift").path))
    }

    @Test func aScratchFolderGoesWithEverythingInIt() throws {
        var folder: ScratchFolder? = try ScratchFolder("self-cleaning")
        let url = try #require(folder?.url)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("inner"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url.appendingPathComponent("inner/file"))
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("inner/file").path))
        folder = nil
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aMissingNeedSkipsOutsideCIAndRunsInCI() async throws {
        let missing = ConditionTrait.requires("nothing here") { false }
        let present = ConditionTrait.requires("here") { true }
        #expect(try await present.evaluate())
        // In CI a missing need still runs the test, which then fails on what is missing.
        #expect(try await missing.evaluate() == TestPaths.isCI)
    }
}
