import FamilyTree
import Foundation
import Testing
@testable import FamilyTreeSync

/// A fresh store of each kind the suite runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite

    var testDescription: String { rawValue }

    func make() throws -> any DocumentStore {
        switch self {
        case .sqlite:
            return try SQLiteDocumentStore(path: Scratch.temporaryPath("store.sqlite"))
        }
    }
}

enum Scratch {
    static func temporaryPath(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("familytree-sync-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }
}

func member(_ id: String, _ fields: [String: String] = [:]) -> (DocumentKey, String) {
    var object: [String: JSONValue] = ["id": .string(id), "firstName": .string(id.capitalized)]
    for (key, value) in fields { object[key] = .string(value) }
    return (DocumentKey(.familyTree, id), JSONWriter.compactString(from: .object(object)))
}

@Suite struct DocumentStoreTests {
    @Test(arguments: StoreKind.allCases)
    func compareAndSetIdempotenceAndSequence(kind: StoreKind) throws {
        let store = try kind.make()
        let (key, body) = member("ada")
        #expect(try store.push(user: "alice", [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
        // The same batch again (a lost acknowledgement): unchanged, nothing written.
        #expect(try store.push(user: "alice", [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.unchanged(version: 1)])
        let (_, edited) = member("ada", ["nickname": "Countess"])
        #expect(try store.push(user: "alice", [DocumentWrite(key: key, body: edited, baseVersion: 1)]) == [.applied(version: 2, sequence: 2)])
        // A write from the stale version 1 is refused, and the store says what it holds.
        let (_, stale) = member("ada", ["nickname": "Ada"])
        let outcome = try store.push(user: "alice", [DocumentWrite(key: key, body: stale, baseVersion: 1)])
        #expect(outcome == [.conflict(current: StoredDocument(key: key, body: edited, version: 2, isDeleted: false, sequence: 2))])
        let pulled = try store.pull(user: "alice", after: 0, limit: 10)
        #expect(pulled.map(\.version) == [2])
        #expect(pulled.map(\.sequence) == [2])
    }

    @Test(arguments: StoreKind.allCases)
    func pagesFollowTheChangeSequence(kind: StoreKind) throws {
        let store = try kind.make()
        let writes = (0..<25).map { index in member("m\(index)") }.map { DocumentWrite(key: $0.0, body: $0.1, baseVersion: 0) }
        _ = try store.push(user: "alice", Array(writes[..<10]))
        _ = try store.push(user: "alice", Array(writes[10...]))
        var sequence: Int64 = 0
        var seen: [String] = []
        while true {
            let page = try store.pull(user: "alice", after: sequence, limit: 7)
            seen += page.map(\.key.id)
            guard let last = page.last else { break }
            #expect(page.map(\.sequence) == Array((sequence + 1)...last.sequence))
            sequence = last.sequence
        }
        #expect(seen == writes.map(\.key.id))
    }

    @Test(arguments: StoreKind.allCases)
    func usersAreApartAndAMissingUserIsAnError(kind: StoreKind) throws {
        let store = try kind.make()
        let (key, body) = member("ada")
        _ = try store.push(user: "alice", [DocumentWrite(key: key, body: body, baseVersion: 0)])
        #expect(try store.pull(user: "bob", after: 0, limit: 100).isEmpty)
        // Bob writing the same member id writes his own document; Alice's is untouched.
        let (_, bobs) = member("ada", ["lastName": "Bob's"])
        #expect(try store.push(user: "bob", [DocumentWrite(key: key, body: bobs, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
        #expect(try store.pull(user: "alice", after: 0, limit: 100).map(\.body) == [body])
        #expect(throws: SyncError.missingUser) { try store.pull(user: "", after: 0, limit: 100) }
        #expect(throws: SyncError.missingUser) { try store.push(user: "", [DocumentWrite(key: key, body: body, baseVersion: 0)]) }
    }

    @Test(arguments: StoreKind.allCases)
    func aDocumentOverOneMebibyteIsRefusedBeforeSending(kind: StoreKind) throws {
        let store = try kind.make()
        let key = DocumentKey(.familyTree, "huge")
        let body = JSONWriter.compactString(from: .object(["id": .string("huge"), "notes": .string(String(repeating: "x", count: SyncLimits.maximumDocumentBytes))]))
        #expect(throws: SyncError.documentTooLarge(key, bytes: body.utf8.count)) {
            try store.push(user: "alice", [DocumentWrite(key: key, body: body, baseVersion: 0)])
        }
        #expect(try store.pull(user: "alice", after: 0, limit: 10).isEmpty)
    }
}
