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
}
