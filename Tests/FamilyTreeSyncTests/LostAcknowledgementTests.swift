import FamilyTree
import FamilyTreeSync
import Testing

/// A store that commits a push and then loses the reply, as a kill or a dropped connection
/// between the store's commit and the device's record of it would.
final class ReplyLosingStore: DocumentStore, @unchecked Sendable {
    let base: any DocumentStore
    var pushesToLose: Int

    init(base: any DocumentStore, pushesToLose: Int = 1) {
        self.base = base
        self.pushesToLose = pushesToLose
    }

    func push(user: String, _ writes: [DocumentWrite]) throws(SyncError) -> [WriteOutcome] {
        let outcomes = try base.push(user: user, writes)
        guard pushesToLose > 0 else { return outcomes }
        pushesToLose -= 1
        throw .store("connection lost after the store committed")
    }

    func pull(user: String, after sequence: Int64, limit: Int) throws(SyncError) -> [StoredDocument] {
        try base.pull(user: user, after: sequence, limit: limit)
    }
}

@Suite struct LostAcknowledgementTests {
    /// One device: synced, then an edit whose push reached the store but whose reply was lost.
    func deviceAfterALostReply(_ kind: StoreKind) throws -> (Device, any DocumentStore, StoreFixture) {
        let fixture = StoreFixture(kind)
        let store = try fixture.store("alice")
        let losing = ReplyLosingStore(base: store)
        var device = try Device(fixture, store: losing)
        for (key, body) in [member("heinrich"), member("greta")] { device.documents[key] = body }
        losing.pushesToLose = 0
        _ = try device.push()
        device.edit("heinrich", "notes", "edit-1")
        losing.pushesToLose = 1
        #expect(throws: SyncError.self) { _ = try device.push() }
        return (device, store, fixture)
    }

    func storedNotes(_ store: any DocumentStore, _ fixture: StoreFixture) throws -> String? {
        let documents = try store.pull(user: fixture.uid("alice"), after: 0, limit: 100)
        let heinrich = try #require(documents.last { $0.key == DocumentKey(.familyTree, "heinrich") })
        return try JSONParser.parse(heinrich.body).root["notes"]?.stringValue
    }

    @Test(arguments: StoreKind.allCases)
    func theNewerEditWinsOverTheDevicesOwnUnacknowledgedWrite(kind: StoreKind) throws {
        var (device, store, fixture) = try deviceAfterALostReply(kind)
        #expect(try storedNotes(store, fixture) == "edit-1", "the store committed the first edit")
        device.edit("heinrich", "notes", "edit-2")
        let report = try device.push()
        #expect(report.conflicts.isEmpty)
        #expect(try device.session.state.conflicts().isEmpty)
        #expect(device.field("heinrich", "notes") == "edit-2")
        #expect(try storedNotes(store, fixture) == "edit-2")
        // Settled: the next push sends nothing.
        let again = try device.push()
        #expect(again.applied == 0 && again.merged == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aPullAfterTheLostReplyKeepsTheNewerEditToo(kind: StoreKind) throws {
        var (device, store, fixture) = try deviceAfterALostReply(kind)
        device.edit("heinrich", "notes", "edit-2")
        let pulled = try device.pull()
        #expect(pulled.conflicts.isEmpty)
        #expect(device.field("heinrich", "notes") == "edit-2")
        _ = try device.push()
        #expect(try storedNotes(store, fixture) == "edit-2")
        #expect(try device.session.state.conflicts().isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func anotherDevicesEditIsStillAConflict(kind: StoreKind) throws {
        // The rule is "this device's own write", not "any write": a second device's edit of the
        // same field still wins in the store and is kept as a conflict here.
        var (device, store, fixture) = try deviceAfterALostReply(kind)
        var other = try Device(fixture, store: try fixture.store("alice", fresh: true))
        _ = try other.pull()
        other.edit("heinrich", "notes", "other device")
        _ = try other.push()
        device.edit("heinrich", "notes", "edit-2")
        let report = try device.push()
        #expect(report.conflicts.count == 1)
        #expect(try storedNotes(store, fixture) == "other device")
    }
}
