import FamilyTree
import Foundation
import Testing
@testable import FamilyTreeSync

/// One device: its own sync state, its own copy of the documents.
struct Device {
    var session: SyncSession
    var documents: [DocumentKey: String] = [:]

    init(_ fixture: StoreFixture, user: String = "alice", store: (any DocumentStore)? = nil) throws {
        session = try SyncSession(store: try store ?? fixture.store(user), state: try LocalSyncState(path: Scratch.temporaryPath("state.sqlite")), user: fixture.uid(user))
    }

    mutating func push() throws -> SyncSession.PushReport {
        let report = try session.push(documents)
        documents = report.documents
        return report
    }

    mutating func pull() throws -> SyncSession.PullReport {
        let report = try session.pull(merging: documents)
        documents = report.documents
        return report
    }

    mutating func edit(_ id: String, _ field: String, _ value: String) {
        let key = DocumentKey(.familyTree, id)
        guard case .object(var fields) = try! JSONParser.parse(documents[key]!).root else { return }
        fields[field] = .string(value)
        documents[key] = JSONWriter.compactString(from: .object(fields))
    }

    func field(_ id: String, _ field: String) -> String? {
        documents[DocumentKey(.familyTree, id)].flatMap { try? JSONParser.parse($0).root[field]?.stringValue }
    }
}

@Suite struct SyncSessionTests {
    /// Two devices of one user that both start from the same synced tree.
    func twoDevices(_ kind: StoreKind) throws -> (Device, Device, StoreFixture) {
        let fixture = StoreFixture(kind)
        var first = try Device(fixture)
        for (key, body) in [member("ada"), member("byron"), member("clara")] { first.documents[key] = body }
        _ = try first.push()
        // The second device has its own connection (for PostgreSQL) and its own sync state.
        var second = try Device(fixture, store: try fixture.store("alice", fresh: true))
        _ = try second.pull()
        #expect(second.documents == first.documents)
        return (first, second, fixture)
    }

    @Test(arguments: StoreKind.allCases)
    func sameFieldEditedOnTwoDevicesInBothOrders(kind: StoreKind) throws {
        for firstWins in [true, false] {
            var (a, b, _) = try twoDevices(kind)
            a.edit("ada", "nickname", "Countess")
            a.edit("ada", "lastName", "Lovelace")
            b.edit("ada", "nickname", "Enchantress")
            b.edit("ada", "notes", "Analyst")
            var (early, late) = firstWins ? (a, b) : (b, a)
            #expect(try early.push().applied == 1)
            let report = try late.push()
            // The late write is refused as stale, merged field by field, and sent again.
            #expect(report.merged == 1)
            #expect(report.applied == 1)
            #expect(report.conflicts.map(\.field) == ["nickname"])
            let kept = early.field("ada", "nickname")!
            let lost = late.field("ada", "nickname") == kept ? nil : late.field("ada", "nickname")
            #expect(lost == nil, "after the merge the late device shows the store's value")
            _ = try early.pull()
            #expect(early.documents == late.documents, "both converge")
            #expect(early.field("ada", "lastName") == "Lovelace")
            #expect(early.field("ada", "notes") == "Analyst")
            #expect(early.field("ada", "nickname") == (firstWins ? "Countess" : "Enchantress"))
            // The value that lost is kept for the user on the device that wrote it.
            let conflicts = try late.session.state.conflicts()
            #expect(conflicts.map(\.conflict.localValue) == [firstWins ? "\"Enchantress\"" : "\"Countess\""])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEditBeatsADeleteInBothOrders(kind: StoreKind) throws {
        for deleteFirst in [true, false] {
            var (a, b, _) = try twoDevices(kind)
            a.documents[DocumentKey(.familyTree, "byron")] = nil
            b.edit("byron", "nickname", "Mad, bad")
            if deleteFirst {
                _ = try a.push()
                _ = try b.push()
            } else {
                _ = try b.push()
                _ = try a.push()
            }
            _ = try a.pull()
            _ = try b.pull()
            #expect(a.field("byron", "nickname") == "Mad, bad")
            #expect(a.documents == b.documents)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aStaleDeviceNeverResurrectsADeletedMember(kind: StoreKind) throws {
        var (a, b, fixture) = try twoDevices(kind)
        a.documents[DocumentKey(.familyTree, "clara")] = nil
        _ = try a.push()
        // b still holds clara, unedited, from before the delete: its push sends nothing for her.
        #expect(try b.push().applied == 0)
        _ = try b.pull()
        #expect(b.documents[DocumentKey(.familyTree, "clara")] == nil)
        // A device that never synced pushes an old copy of the whole tree: clara stays deleted.
        var fresh = try Device(fixture)
        fresh.documents = Dictionary(uniqueKeysWithValues: [member("ada"), member("byron"), member("clara")])
        _ = try fresh.push()
        _ = try fresh.pull()
        #expect(fresh.documents[DocumentKey(.familyTree, "clara")] == nil)
        var check = try Device(fixture)
        _ = try check.pull()
        #expect(check.documents.keys.map(\.id).sorted() == ["ada", "byron"])
    }

    @Test(arguments: StoreKind.allCases)
    func aLostAcknowledgementMakesTheResentBatchUnchanged(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.store("alice")
        let alice = fixture.uid("alice")
        var device = try Device(fixture)
        for index in 0..<1_200 { let (key, body) = member("m\(index)"); device.documents[key] = body }
        // The store applies the batches, but the device never hears back.
        let writes = device.documents.keys.sorted().map { DocumentWrite(key: $0, body: device.documents[$0]!, baseVersion: 0) }
        for batch in SyncSession.batches(writes) { _ = try store.push(user: alice, batch) }
        let report = try device.push()
        #expect(report.unchanged == 1_200)
        #expect(report.applied == 0)
        #expect(report.batches == 3)
        #expect(try store.pull(user: alice, after: 0, limit: 5_000).count == 1_200)
    }

    @Test(arguments: StoreKind.allCases)
    func aPullKilledAfterSomePagesResumesToTheSameState(kind: StoreKind) throws {
        let fixture = StoreFixture(kind)
        let store = try fixture.store("alice")
        var writer = try Device(fixture)
        for index in 0..<450 { let (key, body) = member("m\(index)"); writer.documents[key] = body }
        _ = try writer.push()
        writer.edit("m7", "nickname", "edited")
        writer.documents[DocumentKey(.familyTree, "m8")] = nil
        _ = try writer.push()

        var whole = try Device(fixture)
        whole.session.pageSize = 100
        let wholeReport = try whole.session.pull(merging: nil)

        var interrupted = try Device(fixture, store: FailingStore(base: store, pagesBeforeFailure: 2))
        interrupted.session.pageSize = 100
        #expect(throws: SyncError.self) { _ = try interrupted.pull() }
        #expect(try interrupted.session.state.checkpoint() == 200, "two pages recorded, with their checkpoint")
        // The interrupted pull wrote no tree, so the resumed one has none to merge.
        var resumed = try SyncSession(store: store, state: interrupted.session.state, user: fixture.uid("alice"))
        resumed.pageSize = 100
        let report = try resumed.pull(merging: nil)
        #expect(report.pulled == wholeReport.pulled - 200)
        #expect(report.documents == wholeReport.documents, "the same state as the uninterrupted pull")
        #expect(report.documents.count == 449)
        #expect(try resumed.state.checkpoint() == whole.session.state.checkpoint())
    }
}

/// A store whose pulls fail after a number of pages, like a connection dropped mid-pull.
final class FailingStore: DocumentStore, @unchecked Sendable {
    let base: any DocumentStore
    var pagesLeft: Int

    init(base: any DocumentStore, pagesBeforeFailure: Int) {
        self.base = base
        pagesLeft = pagesBeforeFailure
    }

    func push(user: String, _ writes: [DocumentWrite]) throws(SyncError) -> [WriteOutcome] { try base.push(user: user, writes) }

    func pull(user: String, after sequence: Int64, limit: Int) throws(SyncError) -> [StoredDocument] {
        guard pagesLeft > 0 else { throw .store("connection lost") }
        pagesLeft -= 1
        return try base.pull(user: user, after: sequence, limit: limit)
    }
}
