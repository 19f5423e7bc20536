import FamilyTree
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeSync

/// A tree shared in roles, on every store: each role against each operation, revocation, the
/// audit trail, and several users writing one tree at once.
@Suite(.threadsOfItsOwn) struct SharedTreeTests {
    enum Operation: String, CaseIterable, CustomTestStringConvertible {
        case read, create, edit, delete, share, unshare, transfer, readLog, deleteTree

        var testDescription: String { rawValue }

        /// What the role rules call it.
        var rule: TreeOperation {
            switch self {
            case .read: .read
            case .create, .edit: .write
            case .delete: .delete
            case .share: .share
            case .unshare: .unshare
            case .transfer: .transfer
            case .readLog: .readLog
            case .deleteTree: .deleteTree
            }
        }
    }

    /// Alice's tree with one member (ada, version 1) and carol as its viewer; bob holds `role` on it
    /// (the owner's by a transfer from alice), or none.
    static func tree(_ kind: StoreKind, bobAs role: TreeRole?) async throws -> (StoreFixture, alice: String, bob: String, carol: String) {
        let fixture = StoreFixture(kind)
        let (alice, bob, carol) = (fixture.uid("alice"), fixture.uid("bob"), fixture.uid("carol"))
        let store = try await fixture.shared("alice")
        _ = try await fixture.shared("bob")
        _ = try await fixture.shared("carol")
        let (key, body) = member("ada")
        #expect(try await store.push(user: alice, tree: alice, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.applied(version: 1, sequence: 1)])
        try await store.share(tree: alice, as: alice, with: carol, role: .viewer)
        switch role {
        case .owner?: try await store.transfer(tree: alice, as: alice, to: bob)
        case let role?: try await store.share(tree: alice, as: alice, with: bob, role: role)
        case nil: break
        }
        return (fixture, alice, bob, carol)
    }

    @Test(arguments: StoreKind.allCases, [TreeRole.owner, .admin, .helper, .viewer, nil] as [TreeRole?])
    func eachRoleDoesWhatItMayAndNothingMore(kind: StoreKind, role: TreeRole?) async throws {
        for operation in Operation.allCases {
            let (fixture, alice, bob, carol) = try await Self.tree(kind, bobAs: role)
            let store = try await fixture.shared("bob")
            let allowed = role?.allows(operation.rule) ?? false
            let ada = DocumentKey(.familyTree, "ada")
            do {
                switch operation {
                case .read:
                    #expect(try await store.pull(user: bob, tree: alice, after: 0, limit: 10).map(\.key) == [ada])
                    #expect(try await store.members(of: alice, as: bob).contains { $0.user == bob && $0.role == role })
                case .create:
                    let (key, body) = member("bea")
                    #expect(try await store.push(user: bob, tree: alice, [DocumentWrite(key: key, body: body, baseVersion: 0)]) == [.applied(version: 1, sequence: 2)])
                case .edit:
                    let (_, body) = member("ada", ["nickname": "Addie"])
                    #expect(try await store.push(user: bob, tree: alice, [DocumentWrite(key: ada, body: body, baseVersion: 1)]) == [.applied(version: 2, sequence: 2)])
                case .delete:
                    let (_, body) = member("ada")
                    #expect(try await store.push(user: bob, tree: alice, [DocumentWrite(key: ada, body: body, isDeleted: true, baseVersion: 1)]) == [.applied(version: 2, sequence: 2)])
                case .share:
                    try await store.share(tree: alice, as: bob, with: fixture.uid("dan"), role: .helper)
                    #expect(try await store.role(of: bob, in: alice) == role)
                case .unshare:
                    try await store.unshare(tree: alice, as: bob, member: carol)
                    let members = try await store.members(of: alice, as: bob)
                    #expect(!members.contains { $0.user == carol })
                case .transfer:
                    try await store.transfer(tree: alice, as: bob, to: carol)
                    #expect(try await store.members(of: alice, as: bob).first { $0.role == .owner }?.user == carol)
                case .readLog:
                    let log = try await store.log(of: alice, as: bob, key: nil, limit: 10)
                    #expect(log.map(\.key) == [ada] && log.first?.user == alice)
                case .deleteTree:
                    try await store.deleteTree(alice, as: bob)
                    #expect(try await fixture.shared("alice").pull(user: alice, tree: alice, after: 0, limit: 10).isEmpty)
                }
                #expect(allowed, "\(role?.rawValue ?? "no role") may not \(operation.rawValue), yet it did")
            } catch let error as SyncError {
                #expect(!allowed, "\(role?.rawValue ?? "no role") may \(operation.rawValue): \(error)")
                guard case .accessDenied(let reason) = error else {
                    Issue.record("refused with the wrong error: \(error)")
                    continue
                }
                #expect(reason.contains(bob) && reason.contains("needs"), "the message names the user and the role needed: \(reason)")
                // Nothing changed: ada is as alice left her.
                let documents = try await fixture.shared("alice").pull(user: alice, tree: alice, after: 0, limit: 10)
                #expect(documents.map(\.version) == [1] && documents.allSatisfy { !$0.isDeleted })
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theMessageNamesTheRoleNeeded(kind: StoreKind) async throws {
        let (fixture, alice, bob, _) = try await Self.tree(kind, bobAs: .viewer)
        let store = try await fixture.shared("bob")
        let (key, body) = member("bea")
        await #expect(throws: SyncError.accessDenied("\(bob) is a viewer of \(alice)'s tree; pushing needs helper or above")) {
            try await store.push(user: bob, tree: alice, [DocumentWrite(key: key, body: body, baseVersion: 0)])
        }
        try await fixture.shared("alice").share(tree: alice, as: alice, with: bob, role: .helper)
        await #expect(throws: SyncError.accessDenied("\(bob) is a helper of \(alice)'s tree; deleting needs admin or above")) {
            try await store.push(user: bob, tree: alice, [DocumentWrite(key: DocumentKey(.familyTree, "ada"), body: member("ada").1, isDeleted: true, baseVersion: 1)])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func revokingTakesEffectOnTheNextRequest(kind: StoreKind) async throws {
        let (fixture, alice, bob, _) = try await Self.tree(kind, bobAs: .helper)
        let bobs = try await fixture.shared("bob")
        #expect(try await bobs.pull(user: bob, tree: alice, after: 0, limit: 10).count == 1)
        try await fixture.shared("alice").unshare(tree: alice, as: alice, member: bob)
        await #expect(throws: SyncError.self) { try await bobs.pull(user: bob, tree: alice, after: 0, limit: 10) }
        #expect(try await bobs.trees(of: bob).allSatisfy { $0.tree != alice })
    }

    @Test(arguments: StoreKind.allCases)
    func theOwnerCannotBeRemovedOrDemotedAndTreesAreListed(kind: StoreKind) async throws {
        let (fixture, alice, bob, carol) = try await Self.tree(kind, bobAs: .admin)
        let bobs = try await fixture.shared("bob")
        await #expect(throws: SyncError.self) { try await bobs.unshare(tree: alice, as: bob, member: alice) }
        await #expect(throws: SyncError.self) { try await bobs.share(tree: alice, as: bob, with: alice, role: .viewer) }
        await #expect(throws: SyncError.self) { try await bobs.share(tree: alice, as: bob, with: carol, role: .owner) }
        #expect(try await fixture.shared("alice").role(of: alice, in: alice) == .owner)
        let members = try await bobs.members(of: alice, as: bob)
        #expect(members.map(\.role) == [.owner, .admin, .viewer])
        #expect(members.first?.user == alice)
        #expect(members.first { $0.user == bob }?.grantedBy == alice)
        // Bob's trees: his own (empty, but his) and alice's.
        let trees = try await bobs.trees(of: bob)
        #expect(trees.map(\.tree) == [bob, alice] && trees.map(\.role) == [.owner, .admin])
        // Carol leaves on her own.
        let carols = try await fixture.shared("carol")
        try await carols.unshare(tree: alice, as: carol, member: carol)
        #expect(try await carols.trees(of: carol).map(\.tree) == [carol])
    }

    @Test(arguments: StoreKind.allCases)
    func theLogSaysWhoChangedWhatAndHandingOnKeepsTheOldOwnerAsAdmin(kind: StoreKind) async throws {
        let (fixture, alice, bob, _) = try await Self.tree(kind, bobAs: .helper)
        let bobs = try await fixture.shared("bob")
        let ada = DocumentKey(.familyTree, "ada")
        _ = try await bobs.push(user: bob, tree: alice, [DocumentWrite(key: ada, body: member("ada", ["nickname": "Addie"]).1, baseVersion: 1)])
        let alices = try await fixture.shared("alice")
        let log = try await alices.log(of: alice, as: alice, key: ada, limit: 10)
        #expect(log.map(\.user) == [bob, alice])
        #expect(log.map(\.version) == [2, 1])
        #expect(log.allSatisfy { $0.time.hasPrefix("20") })
        await #expect(throws: SyncError.self) { try await bobs.log(of: alice, as: bob, key: nil, limit: 10) }

        try await alices.transfer(tree: alice, as: alice, to: bob)
        #expect(try await alices.role(of: alice, in: alice) == .admin)
        #expect(try await bobs.role(of: bob, in: alice) == .owner)
        #expect(try await bobs.log(of: alice, as: bob, key: nil, limit: 1).count == 1)
    }

    /// Two users writing one tree at once, each a batch at a time on their own connection: every
    /// write lands, and the tree's sequence has no gap and no number twice, so no pull skips one.
    @Test(arguments: StoreKind.allCases)
    func twoUsersPushingAtOnceLoseNothing(kind: StoreKind) async throws {
        let (fixture, alice, bob, _) = try await Self.tree(kind, bobAs: .helper)
        let alices = try await fixture.shared("alice", fresh: true)
        let bobs = try await fixture.shared("bob", fresh: true)
        async let fromAlice: Void = Self.pushMany(alices, user: alice, tree: alice, prefix: "a")
        async let fromBob: Void = Self.pushMany(bobs, user: bob, tree: alice, prefix: "b")
        _ = try await (fromAlice, fromBob)
        let documents = try await alices.pull(user: alice, tree: alice, after: 0, limit: 1_000)
        #expect(documents.count == 1 + 2 * 20 * 5)
        #expect(documents.map(\.sequence) == Array(1...Int64(documents.count)))
    }

    static func pushMany(_ store: any SharedTreeStore, user: String, tree: String, prefix: String) async throws {
        for batch in 0..<20 {
            let writes = (0..<5).map { index in
                let (key, body) = member("\(prefix)\(batch)-\(index)")
                return DocumentWrite(key: key, body: body, baseVersion: 0)
            }
            let outcomes = try await store.push(user: user, tree: tree, writes)
            #expect(outcomes.allSatisfy { if case .applied = $0 { true } else { false } })
        }
    }
}

extension StoreFixture {
    /// The store connected as `name`, as a store of shared trees.
    func shared(_ name: String, fresh: Bool = false) async throws -> any SharedTreeStore {
        try #require(try await store(name, fresh: fresh) as? any SharedTreeStore)
    }
}
