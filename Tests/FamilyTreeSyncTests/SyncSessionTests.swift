import FamilyTree
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeSync

/// One device: its own sync state, its own copy of the documents.
struct Device {
    var session: SyncSession
    var documents: [DocumentKey: String] = [:]

    init(_ fixture: StoreFixture, user: String = "alice", store: (any DocumentStore)? = nil) async throws {
        let store = if let store { store } else { try await fixture.store(user) }
        session = try SyncSession(store: store, state: try LocalSyncState(path: Scratch.temporaryPath("state.sqlite")), user: fixture.uid(user))
    }

    mutating func push() async throws -> SyncSession.PushReport {
        let report = try await session.push(documents)
        documents = report.documents
        return report
    }

    mutating func pull() async throws -> SyncSession.PullReport {
        let report = try await session.pull(merging: documents)
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

@Suite(.threadsOfItsOwn) struct SyncSessionTests {
    /// Two devices of one user that both start from the same synced tree.
    func twoDevices(_ kind: StoreKind) async throws -> (Device, Device, StoreFixture) {
        let fixture = StoreFixture(kind)
        var first = try await Device(fixture)
        for (key, body) in [member("ada"), member("byron"), member("clara")] { first.documents[key] = body }
        _ = try await first.push()
        // The second device has its own connection (for PostgreSQL) and its own sync state.
        var second = try await Device(fixture, store: try fixture.store("alice", fresh: true))
        _ = try await second.pull()
        #expect(second.documents == first.documents)
        return (first, second, fixture)
    }

    @Test(arguments: StoreKind.allCases)
    func aWriteRefusedAsStaleIsPulledMergedAndSentAgain(kind: StoreKind) async throws {
        var (a, b, _) = try await twoDevices(kind)
        a.edit("ada", "nickname", "Countess")
        b.edit("ada", "notes", "Analyst")
        _ = try await a.push()
        // Sent without the pull, as when another device writes between a push's pull and its send:
        // refused, nothing written over the other's edit.
        let refused = try await b.session.send(b.documents)
        #expect(refused.merged == 1)
        #expect(refused.applied == 0)
        // The push pulls, merges and sends.
        let report = try await b.push()
        #expect(report.applied == 1)
        #expect(report.conflicts.isEmpty)
        let merged = try #require(report.documents[DocumentKey(.familyTree, "ada")])
        #expect(merged.contains("Countess") && merged.contains("Analyst"))
    }

    @Test(arguments: StoreKind.allCases)
    func sameFieldEditedOnTwoDevicesInBothOrders(kind: StoreKind) async throws {
        for firstWins in [true, false] {
            var (a, b, _) = try await twoDevices(kind)
            a.edit("ada", "nickname", "Countess")
            a.edit("ada", "lastName", "Lovelace")
            b.edit("ada", "nickname", "Enchantress")
            b.edit("ada", "notes", "Analyst")
            var (early, late) = firstWins ? (a, b) : (b, a)
            #expect(try await early.push().applied == 1)
            let report = try await late.push()
            // The late push pulls the early edit first and merges it field by field before sending.
            #expect(report.pulled >= 1)
            #expect(report.merged == 0)
            #expect(report.applied == 1)
            #expect(report.conflicts.map(\.field) == ["nickname"])
            let kept = early.field("ada", "nickname")!
            let lost = late.field("ada", "nickname") == kept ? nil : late.field("ada", "nickname")
            #expect(lost == nil, "after the merge the late device shows the store's value")
            _ = try await early.pull()
            #expect(early.documents == late.documents, "both converge")
            #expect(early.field("ada", "lastName") == "Lovelace")
            #expect(early.field("ada", "notes") == "Analyst")
            #expect(early.field("ada", "nickname") == (firstWins ? "Countess" : "Enchantress"))
            // The value that lost is kept for the user on the device that wrote it.
            let conflicts = try await late.session.state.conflicts()
            #expect(conflicts.map(\.conflict.localValue) == [firstWins ? "\"Enchantress\"" : "\"Countess\""])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEditBeatsADeleteInBothOrders(kind: StoreKind) async throws {
        for deleteFirst in [true, false] {
            var (a, b, _) = try await twoDevices(kind)
            a.documents[DocumentKey(.familyTree, "byron")] = nil
            b.edit("byron", "nickname", "Mad, bad")
            if deleteFirst {
                _ = try await a.push()
                _ = try await b.push()
            } else {
                _ = try await b.push()
                _ = try await a.push()
            }
            _ = try await a.pull()
            _ = try await b.pull()
            #expect(a.field("byron", "nickname") == "Mad, bad")
            #expect(a.documents == b.documents)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aStaleDeviceNeverResurrectsADeletedMember(kind: StoreKind) async throws {
        var (a, b, fixture) = try await twoDevices(kind)
        a.documents[DocumentKey(.familyTree, "clara")] = nil
        _ = try await a.push()
        // b still holds clara, unedited, from before the delete: its push sends nothing for her.
        #expect(try await b.push().applied == 0)
        _ = try await b.pull()
        #expect(b.documents[DocumentKey(.familyTree, "clara")] == nil)
        // A device that never synced pushes an old copy of the whole tree: clara stays deleted.
        var fresh = try await Device(fixture)
        fresh.documents = Dictionary(uniqueKeysWithValues: [member("ada"), member("byron"), member("clara")])
        _ = try await fresh.push()
        _ = try await fresh.pull()
        #expect(fresh.documents[DocumentKey(.familyTree, "clara")] == nil)
        var check = try await Device(fixture)
        _ = try await check.pull()
        #expect(check.documents.keys.map(\.id).sorted() == ["ada", "byron"])
    }

    @Test(arguments: StoreKind.allCases)
    func aLostAcknowledgementMakesTheResentBatchUnchanged(kind: StoreKind) async throws {
        let fixture = StoreFixture(kind)
        let store = try await fixture.store("alice")
        let alice = fixture.uid("alice")
        var device = try await Device(fixture)
        for index in 0..<1_200 { let (key, body) = member("m\(index)"); device.documents[key] = body }
        // The store applies the batches, but the device never hears back.
        let writes = device.documents.keys.sorted().map { DocumentWrite(key: $0, body: device.documents[$0]!, baseVersion: 0) }
        for batch in SyncSession.batches(writes) { _ = try await store.push(user: alice, batch) }
        // Sent without pulling first (as a push whose pull raced the lost batches would be).
        let report = try await device.session.send(device.documents)
        #expect(report.unchanged == 1_200)
        #expect(report.applied == 0)
        #expect(report.batches == 3)
        // A push pulls them first, and then has nothing to send.
        let pushed = try await device.push()
        #expect(pushed.pulled == 1_200 && pushed.applied == 0 && pushed.batches == 0)
        #expect(try await store.pull(user: alice, after: 0, limit: 5_000).count == 1_200)
    }

    @Test(arguments: StoreKind.allCases)
    func aPullKilledAfterSomePagesResumesToTheSameState(kind: StoreKind) async throws {
        let fixture = StoreFixture(kind)
        let store = try await fixture.store("alice")
        var writer = try await Device(fixture)
        for index in 0..<450 { let (key, body) = member("m\(index)"); writer.documents[key] = body }
        _ = try await writer.push()
        writer.edit("m7", "nickname", "edited")
        writer.documents[DocumentKey(.familyTree, "m8")] = nil
        _ = try await writer.push()

        var whole = try await Device(fixture)
        whole.session.pageSize = 100
        let wholeReport = try await whole.session.pull(merging: nil)

        var interrupted = try await Device(fixture, store: FailingStore(base: store, pagesBeforeFailure: 2))
        interrupted.session.pageSize = 100
        await #expect(throws: SyncError.self) { _ = try await interrupted.pull() }
        #expect(try await interrupted.session.state.checkpoint() == 200, "two pages recorded, with their checkpoint")
        // The interrupted pull wrote no tree, so the resumed one has none to merge.
        var resumed = try SyncSession(store: store, state: interrupted.session.state, user: fixture.uid("alice"))
        resumed.pageSize = 100
        let report = try await resumed.pull(merging: nil)
        #expect(report.pulled == wholeReport.pulled - 200)
        #expect(report.documents == wholeReport.documents, "the same state as the uninterrupted pull")
        #expect(report.documents.count == 449)
        #expect(try await resumed.state.checkpoint() == whole.session.state.checkpoint())
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

    func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        try await base.push(user: user, tree: tree, writes)
    }

    func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        guard pagesLeft > 0 else { throw .store("connection lost") }
        pagesLeft -= 1
        return try await base.pull(user: user, tree: tree, after: sequence, limit: limit)
    }
}
