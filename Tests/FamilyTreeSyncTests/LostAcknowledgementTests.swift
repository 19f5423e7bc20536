import FamilyTree
import FamilyTreeSync
import Testing
import TestSupport

/// A store that commits a push and then loses the reply, as a kill or a dropped connection
/// between the store's commit and the device's record of it would.
final class ReplyLosingStore: DocumentStore, @unchecked Sendable {
    let base: any DocumentStore
    var pushesToLose: Int

    init(base: any DocumentStore, pushesToLose: Int = 1) {
        self.base = base
        self.pushesToLose = pushesToLose
    }

    func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        let outcomes = try await base.push(user: user, tree: tree, writes)
        guard pushesToLose > 0 else { return outcomes }
        pushesToLose -= 1
        throw .store("connection lost after the store committed")
    }

    func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        try await base.pull(user: user, tree: tree, after: sequence, limit: limit)
    }
}

@Suite(.threadsOfItsOwn) struct LostAcknowledgementTests {
    /// One device: synced, then an edit whose push reached the store but whose reply was lost.
    func deviceAfterALostReply(_ kind: StoreKind) async throws -> (Device, any DocumentStore, StoreFixture) {
        let fixture = StoreFixture(kind)
        let store = try await fixture.store("alice")
        let losing = ReplyLosingStore(base: store)
        var device = try await Device(fixture, store: losing)
        for (key, body) in [member("heinrich"), member("greta")] { device.documents[key] = body }
        losing.pushesToLose = 0
        _ = try await device.push()
        device.edit("heinrich", "notes", "edit-1")
        losing.pushesToLose = 1
        await #expect(throws: SyncError.self) { _ = try await device.push() }
        return (device, store, fixture)
    }

    func storedNotes(_ store: any DocumentStore, _ fixture: StoreFixture) async throws -> String? {
        let documents = try await store.pull(user: fixture.uid("alice"), after: 0, limit: 100)
        let heinrich = try #require(documents.last { $0.key == DocumentKey(.familyTree, "heinrich") })
        return try JSONParser.parse(heinrich.body).root["notes"]?.stringValue
    }

    @Test(arguments: StoreKind.allCases)
    func theNewerEditWinsOverTheDevicesOwnUnacknowledgedWrite(kind: StoreKind) async throws {
        var (device, store, fixture) = try await deviceAfterALostReply(kind)
        #expect(try await storedNotes(store, fixture) == "edit-1", "the store committed the first edit")
        device.edit("heinrich", "notes", "edit-2")
        let report = try await device.push()
        #expect(report.conflicts.isEmpty)
        #expect(try await device.session.state.conflicts().isEmpty)
        #expect(device.field("heinrich", "notes") == "edit-2")
        #expect(try await storedNotes(store, fixture) == "edit-2")
        // Settled: the next push sends nothing.
        let again = try await device.push()
        #expect(again.applied == 0 && again.merged == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aPullAfterTheLostReplyKeepsTheNewerEditToo(kind: StoreKind) async throws {
        var (device, store, fixture) = try await deviceAfterALostReply(kind)
        device.edit("heinrich", "notes", "edit-2")
        let pulled = try await device.pull()
        #expect(pulled.conflicts.isEmpty)
        #expect(device.field("heinrich", "notes") == "edit-2")
        _ = try await device.push()
        #expect(try await storedNotes(store, fixture) == "edit-2")
        #expect(try await device.session.state.conflicts().isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func anotherDevicesEditIsStillAConflict(kind: StoreKind) async throws {
        // The rule is "this device's own write", not "any write": a second device's edit of the
        // same field still wins in the store and is kept as a conflict here.
        var (device, store, fixture) = try await deviceAfterALostReply(kind)
        var other = try await Device(fixture, store: try fixture.store("alice", fresh: true))
        _ = try await other.pull()
        other.edit("heinrich", "notes", "other device")
        _ = try await other.push()
        device.edit("heinrich", "notes", "edit-2")
        let report = try await device.push()
        #expect(report.conflicts.count == 1)
        #expect(try await storedNotes(store, fixture) == "other device")
    }
}
