import FamilyTree
import Foundation
import Testing
@testable import FamilyTreeSync

/// Typed edits saved straight into a shared store by writers at once, each from what it read.
@Suite struct SharedTreeEditorTests {
    /// Alice's tree with a couple, shared with bob as helper.
    func store() async throws -> SQLiteDocumentStore {
        let store = try SQLiteDocumentStore(path: Scratch.temporaryPath("editor.sqlite"))
        var file = TreeFile.empty()
        try file.apply(.addMember(Member(id: "ann", firstName: "Ann")), .addMember(Member(id: "ben", firstName: "Ben")), .marry("ann", "ben", union: "u1"))
        let writes = try TreeMirror.documents(of: file.root).map { DocumentWrite(key: $0.key, body: $0.value, baseVersion: 0) }
        _ = try await store.push(user: "alice", tree: "alice", writes)
        try await store.share(tree: "alice", as: "alice", with: "bob", role: .helper)
        return store
    }

    @Test func writersAddingChildrenToOneCoupleAtOnceEachKeepTheirs() async throws {
        let store = try await store()
        // Each writer with its own snapshot, all starting from the same read: every one but the
        // first finds the union changed and makes its edit again from the newer tree.
        var start = TreeSnapshot()
        try await start.update(from: store, user: "bob", tree: "alice")
        let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<12 {
                group.addTask { [start] in
                    var snapshot = start
                    let result = try await SharedTreeEditor.apply(to: "alice", as: number.isMultiple(of: 2) ? "bob" : "alice", in: store, snapshot: &snapshot, attempts: 30) { file in
                        // A try that met another writer may have written the child but not the union.
                        guard file.graph.member("kid\(number)") != nil else {
                            return [.addMember(Member(id: "kid\(number)", firstName: "Kid \(number)"), parents: ["ann", "ben"])]
                        }
                        return [.addChild("kid\(number)", union: "u1")]
                    }
                    #expect(result.changed.contains(DocumentKey(.unions, "u1")), "the last try wrote the union")
                    #expect(result.after.graph.unions.first { $0.id == "u1" }?.children.contains { $0.member == "kid\(number)" } == true)
                    return result.attempts
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(attempts.contains { $0 > 1 }, "writers met: \(attempts)")
        var end = TreeSnapshot()
        try await end.update(from: store, user: "alice", tree: "alice")
        let graph = try FamilyGraph(document: TreeDocument(jsonValue: TreeMirror.tree(from: end.bodies)))
        let union = try #require(graph.unions.first { $0.id == "u1" })
        #expect(Set(union.children.map(\.member)) == Set((0..<12).map { "kid\($0)" }))
        #expect(graph.unions.count == 1, "no second union for the same couple")
    }

    @Test func anEditThatChangesNothingWritesNothingAndARefusalWritesNothing() async throws {
        let store = try await store()
        var snapshot = TreeSnapshot()
        let unchanged = try await SharedTreeEditor.apply(to: "alice", as: "bob", in: store, snapshot: &snapshot) { _ in
            [.editMember("ann", MemberChanges(firstName: "Ann"))]
        }
        #expect(unchanged.changed.isEmpty)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await SharedTreeEditor.apply(to: "alice", as: "bob", in: store, snapshot: &snapshot) { _ in throw Refused() }
        }
        await #expect(throws: FamilyTreeError.self) {
            _ = try await SharedTreeEditor.apply(to: "alice", as: "bob", in: store, snapshot: &snapshot) { _ in [.marry("ann", "nobody")] }
        }
        // A helper may not delete: the store refuses the tombstone an unlink would write.
        _ = try await SharedTreeEditor.apply(to: "alice", as: "bob", in: store, snapshot: &snapshot) { _ in
            [.link(CrossBloodlineConnection(id: "c1", fromChild: "ann", toNewParent: "ben"))]
        }
        await #expect(throws: SyncError.self) {
            _ = try await SharedTreeEditor.apply(to: "alice", as: "bob", in: store, snapshot: &snapshot) { _ in [.unlink("c1")] }
        }
        let owner = try await SharedTreeEditor.apply(to: "alice", as: "alice", in: store, snapshot: &snapshot) { _ in [.unlink("c1")] }
        #expect(owner.changed == [DocumentKey(.crossBloodlineConnections, "c1")])
        #expect(owner.after.graph.crossBloodlineConnections.isEmpty)
        // Someone with no role reads nothing and writes nothing.
        var stranger = TreeSnapshot()
        await #expect(throws: SyncError.self) { try await stranger.update(from: store, user: "dave", tree: "alice") }
    }

    /// The tree a fresh reader makes of the snapshot's documents (what the kept one must equal).
    func freshRoot(_ snapshot: TreeSnapshot) throws -> JSONValue {
        TreeFile.droppingDanglingReferences(try TreeMirror.tree(from: snapshot.bodies)).root
    }

    @Test func theTreeKeptBetweenEditsIsAlwaysWhatTheStoreHolds() async throws {
        let store = try await store()
        var snapshot = TreeSnapshot()
        let edits: [[TreeEdit]] = [
            [.editMember("ann", MemberChanges(notes: .set("Born in Cork")))],
            [.addMember(Member(id: "cy", firstName: "Cy"), parents: ["ann", "ben"])],
            [.addMember(Member(id: "aa", firstName: "Aa"), parents: ["ann", "ben"])], // before everyone in id order
            [.editMember("cy", MemberChanges(firstName: "Cyril"))],
            [.link(CrossBloodlineConnection(id: "c1", fromChild: "aa", toNewParent: "cy"))],
            [.editMember("ben", MemberChanges(notes: .set("A <note> & \"quotes\"")))],
        ]
        var keptCount = 0
        for batch in edits {
            let result = try await SharedTreeEditor.apply(to: "alice", as: "alice", in: store, snapshot: &snapshot) { _ in batch }
            #expect(!result.changed.isEmpty)
            if let kept = snapshot.parsedTree {
                keptCount += 1
                #expect(kept.root == (try freshRoot(snapshot)), "the kept tree is the store's, records in id order")
                #expect(kept.graph.members.map(\.id) == (try TreeFile(root: freshRoot(snapshot))).graph.members.map(\.id))
            }
        }
        #expect(keptCount == edits.count, "with no other writer, every edit leaves the tree read")

        // Another writer: the kept tree is of an older version and is read again.
        var other = TreeSnapshot()
        _ = try await SharedTreeEditor.apply(to: "alice", as: "bob", in: store, snapshot: &other) { _ in
            [.editMember("ann", MemberChanges(notes: .set("Bob's note")))]
        }
        try await snapshot.update(from: store, user: "alice", tree: "alice")
        #expect(snapshot.parsedTree?.root == nil)
        let next = try await SharedTreeEditor.apply(to: "alice", as: "alice", in: store, snapshot: &snapshot) { file in
            #expect(file.graph.member("ann")?.notes == "Bob's note")
            return [.editMember("ben", MemberChanges(notes: .set("After bob")))]
        }
        #expect(next.changed == [DocumentKey(.familyTree, "ben")], "only the edited record is written")
        #expect(try snapshot.parsedTree?.root == freshRoot(snapshot))
    }

    @Test func aTreeWithReferencesToMissingRecordsIsNeverKept() async throws {
        let store = try await store()
        // A union naming a member whose document never arrived: the editor leaves the reference
        // out of what it sees, so what it read is not the store's tree.
        _ = try await store.push(user: "alice", tree: "alice", [
            DocumentWrite(key: DocumentKey(.unions, "u2"), body: #"{"children":["ghost"],"id":"u2","partners":["ann"]}"#, baseVersion: 0),
        ])
        var snapshot = TreeSnapshot()
        _ = try await SharedTreeEditor.apply(to: "alice", as: "alice", in: store, snapshot: &snapshot) { _ in
            [.editMember("ann", MemberChanges(notes: .set("x")))]
        }
        #expect(snapshot.parsedTree?.root == nil)
        // The member arrives: the reference holds, and the union is read whole again.
        _ = try await store.push(user: "alice", tree: "alice", [
            DocumentWrite(key: DocumentKey(.familyTree, "ghost"), body: #"{"firstName":"Gus","id":"ghost"}"#, baseVersion: 0),
        ])
        let result = try await SharedTreeEditor.apply(to: "alice", as: "alice", in: store, snapshot: &snapshot) { _ in
            [.editMember("ann", MemberChanges(notes: .set("y")))]
        }
        #expect(result.before.graph.unions.first { $0.id == "u2" }?.children.map(\.member) == ["ghost"])
    }

    @Test func anEditWritesExactlyTheDocumentsThatDifferAsAFreshWritingWouldWriteThem() throws {
        var file = TreeFile.empty()
        try file.apply(.addMember(Member(id: "ann", firstName: "Ann")), .addMember(Member(id: "ben", firstName: "Ben")),
                       .addMember(Member(id: "dee", firstName: "Dee")), .marry("ann", "ben", union: "u1"))
        let before = file
        try file.apply(.editMember("ann", MemberChanges(notes: .set("Note"))), .addMember(Member(id: "cy", firstName: "Cy"), parents: ["ann", "ben"]),
                       .deleteMember("dee", withReferences: true))
        let writes = try SharedTreeEditor.writes(from: TreeMirror.records(of: before.root), to: TreeMirror.records(of: file.root), snapshot: TreeSnapshot())
        let fresh = try TreeMirror.documents(of: file.root), earlier = try TreeMirror.documents(of: before.root)
        #expect(writes.map(\.key) == [DocumentKey(.familyTree, "ann"), DocumentKey(.familyTree, "cy"), DocumentKey(.familyTree, "dee"), DocumentKey(.unions, "u1")].sorted())
        for write in writes {
            #expect(write.body == (write.isDeleted ? earlier[write.key] : fresh[write.key]), "\(write.key)")
            #expect(write.isDeleted == (write.key.id == "dee"))
        }
        #expect(TreeMirror.inDocumentOrder(before.root) == nil)
        var added = before
        try added.apply(.addMember(Member(id: "aa", firstName: "Aa")))
        let ordered = try #require(TreeMirror.inDocumentOrder(added.root), "aa was added after everyone")
        #expect(ordered["members"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["aa", "ann", "ben", "dee"])
        // A record without an id, or two with one id, is refused by name.
        #expect(throws: SyncError.self) { try TreeMirror.records(of: .object(["members": .array([.object(["firstName": .string("X")])])])) }
        #expect(throws: SyncError.self) { try TreeMirror.records(of: .object(["members": .array([.object(["id": .string("x")]), .object(["id": .string("x")])])])) }
    }
}
