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

    /// Two files of one tree on one device each have their own state: the base of one file's
    /// merge is never what the other last saw (which took the other's additions for deletions).
    @Test func eachFileOfATreeHasItsOwnState() async throws {
        let device = SyncDevice(directory: Scratch.temporaryPath("sync"))
        let store = "sqlite:/nowhere/store.sqlite"
        let folder = Scratch.temporaryPath("files")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (first, second) = (folder + "/tree.json", folder + "/copy.json")
        let page = [StoredDocument(key: DocumentKey(.familyTree, "lena"), body: "{}", version: 1, isDeleted: false, sequence: 7)]
        do {
            let (state, lock) = try device.openState(user: "alice", tree: "alice", storeURL: store, file: first)
            try await state.recordPage(page)
            withExtendedLifetime(lock) {}
        }
        let (state, lock) = try device.openState(user: "alice", tree: "alice", storeURL: store, file: second)
        #expect(try await state.checkpoint() == 0)
        #expect(try await state.bases().isEmpty)
        withExtendedLifetime(lock) {}
    }

    /// A state kept for the whole tree (before states were kept per file) becomes its file's when
    /// that is the only file of the tree here; with two files it is nobody's: each starts afresh.
    @Test func aTreesEarlierStateGoesToItsOnlyFile() async throws {
        let device = SyncDevice(directory: Scratch.temporaryPath("sync"))
        let store = "sqlite:/nowhere/store.sqlite"
        let folder = Scratch.temporaryPath("files")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (only, other) = (folder + "/tree.json", folder + "/copy.json")
        let link = SyncDevice.FileLink(store: store, tree: "alice", user: "alice")
        do {
            let (state, lock) = try device.openState(user: "alice", tree: "alice", storeURL: store)
            try await state.recordPage([StoredDocument(key: DocumentKey(.familyTree, "lena"), body: "{}", version: 1, isDeleted: false, sequence: 9)])
            withExtendedLifetime(lock) {}
        }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: only))
        try device.setLink(link, for: only)
        do {
            let (state, lock) = try device.openState(user: "alice", tree: "alice", storeURL: store, file: only)
            #expect(try await state.checkpoint() == 9, "the tree's state became the file's")
            #expect(try await state.bases().count == 1)
            withExtendedLifetime(lock) {}
        }
        // A second device folder where two files of the tree existed when states became per file.
        let shared = SyncDevice(directory: Scratch.temporaryPath("sync"))
        do {
            let (state, lock) = try shared.openState(user: "alice", tree: "alice", storeURL: store)
            try await state.recordPage([StoredDocument(key: DocumentKey(.familyTree, "lena"), body: "{}", version: 1, isDeleted: false, sequence: 9)])
            withExtendedLifetime(lock) {}
        }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: other))
        try shared.setLink(link, for: only)
        try shared.setLink(link, for: other)
        #expect(try shared.files(linkedTo: link).count == 2)
        let (state, lock) = try shared.openState(user: "alice", tree: "alice", storeURL: store, file: other)
        #expect(try await state.checkpoint() == 0, "which file the tree's state was of cannot be told")
        withExtendedLifetime(lock) {}
    }
}
