import FamilyTree
import Foundation
import Testing
@testable import FamilyTreeSync

/// A device's sync of one user and tree: one at a time, its lock held exactly while the session runs.
@Suite struct SyncDeviceTests {
    @Test func aSessionHoldsItsLockWhileItRunsAndReleasesItHoweverItEnds() async throws {
        let folder = Scratch.temporaryPath("sync")
        let device = SyncDevice(directory: folder)
        let storePath = Scratch.temporaryPath("store.sqlite")
        let store = try SQLiteDocumentStore(path: storePath)
        let pulled = try await device.withSession(user: "alice", tree: "alice", store: store, storeURL: storePath) { session in
            // Meanwhile a second sync of alice's tree on this device is refused at once.
            #expect(throws: SyncError.self) { _ = try device.openState(user: "alice", tree: "alice", storeURL: storePath) }
            // Another user's is not.
            _ = try device.openState(user: "bob", tree: "alice", storeURL: storePath)
            return try await session.pull(merging: nil).pulled
        }
        #expect(pulled == 0)
        // Released when the session ended, and when one throws.
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await device.withSession(user: "alice", tree: "alice", store: store, storeURL: storePath) { _ in throw Stop() }
        }
        let (_, lock) = try device.openState(user: "alice", tree: "alice", storeURL: storePath)
        withExtendedLifetime(lock) {}
    }

    static let store = "sqlite:/nowhere/store.sqlite"

    /// A folder for tree files, and `names` in it.
    static func files(_ names: String...) throws -> [String] {
        let folder = Scratch.temporaryPath("files")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return names.map { folder + "/" + $0 }
    }

    /// Records that alice's tree was pulled up to change `sequence`, one document in it, in the
    /// state of `file` (or, without one, of the whole tree, as before states were kept per file).
    static func recordPull(on device: SyncDevice, file: String?, upTo sequence: Int64) async throws {
        let (state, lock) = try device.openState(user: "alice", tree: "alice", storeURL: store, file: file)
        try await state.recordPage([StoredDocument(key: DocumentKey(.familyTree, "lena"), body: "{}", version: 1, isDeleted: false, sequence: sequence)])
        withExtendedLifetime(lock) {}
    }

    /// The pull checkpoint and number of documents in the state of `file`.
    static func stateOf(_ file: String, on device: SyncDevice) async throws -> (checkpoint: Int64, documents: Int) {
        let (state, lock) = try device.openState(user: "alice", tree: "alice", storeURL: store, file: file)
        defer { withExtendedLifetime(lock) {} }
        return (try await state.checkpoint(), try await state.bases().count)
    }

    /// Two files of one tree on one device each have their own state: the base of one file's
    /// merge is never what the other last saw (which took the other's additions for deletions).
    @Test func eachFileOfATreeHasItsOwnState() async throws {
        let device = SyncDevice(directory: Scratch.temporaryPath("sync"))
        let files = try Self.files("tree.json", "copy.json")
        try await Self.recordPull(on: device, file: files[0], upTo: 7)
        #expect(try await Self.stateOf(files[0], on: device) == (7, 1))
        #expect(try await Self.stateOf(files[1], on: device) == (0, 0))
    }

    /// A state kept for the whole tree (before states were kept per file) becomes its file's when
    /// that is the only file of the tree here, once; with two files it is nobody's: each starts afresh.
    @Test func aTreesEarlierStateGoesToItsOnlyFile() async throws {
        let link = SyncDevice.FileLink(store: Self.store, tree: "alice", user: "alice")
        let files = try Self.files("tree.json", "copy.json")
        for file in files { try Data("{}".utf8).write(to: URL(fileURLWithPath: file)) }

        let device = SyncDevice(directory: Scratch.temporaryPath("sync"))
        try await Self.recordPull(on: device, file: nil, upTo: 9)
        try device.setLink(link, for: files[0])
        #expect(try await Self.stateOf(files[0], on: device) == (9, 1), "the tree's state became the file's")

        // Another device folder, where two files of the tree existed when states became per file.
        let shared = SyncDevice(directory: Scratch.temporaryPath("sync"))
        try await Self.recordPull(on: shared, file: nil, upTo: 9)
        for file in files { try shared.setLink(link, for: file) }
        #expect(try shared.files(linkedTo: link).count == 2)
        #expect(try await Self.stateOf(files[1], on: shared) == (0, 0), "which file the tree's state was of cannot be told")

        // Given once: the file is moved away and another of the tree comes later; the old state,
        // which nothing kept up to date, is not its base.
        try FileManager.default.removeItem(atPath: files[0])
        try device.setLink(link, for: files[1])
        #expect(try await Self.stateOf(files[1], on: device) == (0, 0), "a later file starts afresh, not from the old state")
    }
}
