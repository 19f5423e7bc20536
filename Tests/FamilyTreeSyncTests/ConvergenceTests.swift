import FamilyTree
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeSync

/// A store that sometimes commits a push and loses the reply, as a dropped connection would.
final class FlakyStore: DocumentStore, @unchecked Sendable {
    let base: any DocumentStore
    var random: SplitMix64
    let lossRate: Double

    init(base: any DocumentStore, seed: UInt64, lossRate: Double) {
        self.base = base
        random = SplitMix64(seed: seed)
        self.lossRate = lossRate
    }

    func push(user: String, tree: String, _ writes: [DocumentWrite]) async throws(SyncError) -> [WriteOutcome] {
        let outcomes = try await base.push(user: user, tree: tree, writes)
        if Double.random(in: 0..<1, using: &random) < lossRate { throw .store("reply lost after the store committed") }
        return outcomes
    }

    func pull(user: String, tree: String, after sequence: Int64, limit: Int) async throws(SyncError) -> [StoredDocument] {
        try await base.pull(user: user, tree: tree, after: sequence, limit: limit)
    }
}

/// Seeded scenarios of a family sharing one tree: 3 to 5 users in different roles, each editing on
/// a device of their own (children added to a couple, fields edited, marriages, divorces, links,
/// soft removals and restorations, deletes with their references) and pulling and pushing in a
/// random order through a store that loses replies. After everyone's last pull:
/// - every device and the store hold the same tree, and every file validated after every step;
/// - no member, child or partner added by an edit is missing unless an edit deleted them, and no
///   reference was dropped on the way;
/// - each value an edit set is the final one, or was overwritten by an edit made after it was
///   seen, or is named in a conflict record beside the value that won;
/// - no one did what their role does not allow: viewers wrote nothing, helpers deleted nothing.
@Suite(.threadsOfItsOwn) struct ConvergenceTests {
    /// How many scenarios: `FAMILYTREE_CONVERGENCE_SCENARIOS` (a long run), else the suite's own count.
    static func count(_ kind: StoreKind) -> Int {
        if let text = ProcessInfo.processInfo.environment["FAMILYTREE_CONVERGENCE_SCENARIOS"], let count = Int(text) { return count }
        // About 0.2 s a scenario in a debug build on SQLite: a run of thousands is `scripts/fuzz`'s.
        return kind == .sqlite ? 500 : 60
    }

    @Test(arguments: StoreKind.allCases)
    func seededScenariosConverge(kind: StoreKind) async throws {
        let first = UInt64(ProcessInfo.processInfo.environment["FAMILYTREE_CONVERGENCE_SEED"] ?? "") ?? 1
        var totals = Scenario.Totals()
        // One set of users (one connection each, on PostgreSQL) for every scenario: each starts by
        // deleting the owner's tree, roles and log, so the scenarios make no roles of their own.
        let fixture = StoreFixture(kind)
        for seed in first..<(first + UInt64(Self.count(kind))) {
            var scenario = try await Scenario(kind: kind, seed: seed, fixture: fixture)
            try await scenario.run()
            totals.add(scenario)
            if !scenario.failures.isEmpty {
                Issue.record("scenario \(seed) (\(kind)): \(scenario.failures.prefix(5).joined(separator: "; "))\n\(scenario.script.joined(separator: "\n"))")
                break
            }
        }
        print("convergence (\(kind)): \(totals)")
        // The scenarios must have done what they are for, not only passed.
        #expect(totals.conflicts > 0 && totals.revived > 0 && totals.refusedDeletes > 0 && totals.lostReplies > 0 && totals.mergedPushes > 0, "\(totals)")
    }

    /// The two cousins of the merge issue as a scenario of its own, through the library.
    @Test(arguments: StoreKind.allCases)
    func aMemberDeletedWhileAddedToAFamilyComesBack(kind: StoreKind) async throws {
        var scenario = try await Scenario(kind: kind, seed: 0, script: true)
        let (owner, helper) = (0, 1)
        try await scenario.pull(helper)
        try await scenario.apply(owner, .deleteMember("d", withReferences: true))
        try await scenario.apply(helper, .marry("d", "e"))
        try await scenario.push(owner)
        try await scenario.push(helper)
        try await scenario.pull(owner)
        for device in [owner, helper] {
            #expect(scenario.devices[device].file.graph.members.contains { $0.id == "d" }, "d is back")
            #expect(scenario.devices[device].file.graph.unions.contains { Set($0.partners) == ["d", "e"] })
        }
        #expect(scenario.failures.isEmpty, "\(scenario.failures)")
    }
}

/// Where a push's pull leaves the documents it saves.
final class SavedDocuments {
    var documents: [DocumentKey: String]
    init(_ documents: [DocumentKey: String]) { self.documents = documents }
}

/// One seeded scenario.
struct Scenario {
    struct Device {
        var user: String
        var role: TreeRole
        var session: SyncSession
        var file: TreeFile
        /// The edits this device has seen (its own and those it pulled).
        var known: Set<Int> = []
    }

    /// What one edit did, for the checks at the end.
    struct Edit {
        /// Edits are numbered as they are made, from 1; the field changes of one edit share it.
        var serial: Int
        var device: Int
        var change: Change
        /// The edits its device had seen when it was made.
        var saw: Set<Int>
        /// A field set back to what the device last synced: it supersedes the edits it saw, and
        /// is no change of its own to find in the end.
        var isRevert = false
    }

    enum Change {
        case field(member: String, field: String, value: JSONValue?)
        case added(member: String, union: String?)
        case married(String, String)
        case linked(String, from: String, to: String)
        case deleted(String)
    }

    struct Totals: CustomStringConvertible {
        var scenarios = 0, steps = 0, edits = 0, pushes = 0, mergedPushes = 0, conflicts = 0, revived = 0, refusedDeletes = 0, lostReplies = 0
        mutating func add(_ scenario: Scenario) {
            scenarios += 1
            steps += scenario.steps
            edits += scenario.edits.count
            pushes += scenario.pushes
            mergedPushes += scenario.mergedPushes
            conflicts += scenario.conflictCount
            revived += scenario.revived
            refusedDeletes += scenario.refusedDeletes
            lostReplies += scenario.lostReplies
        }
        var description: String {
            "\(scenarios) scenarios, \(steps) steps, \(edits) edits, \(pushes) pushes (\(mergedPushes) merged a refused write), \(conflicts) conflicts, \(revived) members brought back, \(refusedDeletes) writes beyond a role refused, \(lostReplies) replies lost"
        }
    }

    let kind: StoreKind
    let fixture: StoreFixture
    var random: SplitMix64
    var devices: [Device] = []
    var edits: [Edit] = []
    /// The edits in the store (pushed by someone).
    var storeKnows: Set<Int> = []
    var failures: [String] = []
    var script: [String] = []
    var steps = 0, pushes = 0, mergedPushes = 0, revived = 0, refusedDeletes = 0, lostReplies = 0
    var conflictCount = 0
    private var serial = 0
    private let owner: String

    /// The owner's starting tree pushed, and 2 to 4 relatives in random roles sharing it.
    init(kind: StoreKind, seed: UInt64, script: Bool = false, fixture: StoreFixture? = nil) async throws {
        self.kind = kind
        self.fixture = fixture ?? StoreFixture(kind)
        random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
        owner = self.fixture.uid("owner")
        let roles: [TreeRole] = script ? [.helper] : (0..<Int.random(in: 2...4, using: &random)).map { _ in [.admin, .helper, .helper, .viewer].randomElement(using: &random)! }
        var start = TreeFile.empty()
        for (id, name) in [("a", "Anna"), ("b", "Bert"), ("c", "Carl"), ("d", "Dora"), ("e", "Emil")] {
            try start.apply(.addMember(Member(id: id, firstName: name)))
        }
        try start.apply(.marry("a", "b"), .addChild("c", union: "a+b"), .addChild("d", union: "a+b"))
        let ownerStore = try await self.fixture.shared("owner")
        // A clean slate: no documents, shares or log left by an earlier scenario on these users.
        try await ownerStore.deleteTree(owner, as: owner)
        for (position, role) in ([TreeRole.owner] + roles).enumerated() {
            let name = position == 0 ? "owner" : "u\(position)"
            let uid = self.fixture.uid(name)
            if position > 0 { try await ownerStore.share(tree: owner, as: owner, with: uid, role: role) }
            let store = FlakyStore(base: try await self.fixture.store(name), seed: seed &+ UInt64(position), lossRate: script ? 0 : 0.08)
            let state = try LocalSyncState(path: Scratch.temporaryPath("state.sqlite"))
            let session = try SyncSession(store: store, state: state, user: uid, tree: owner)
            devices.append(Device(user: uid, role: role, session: session, file: position == 0 ? start : TreeFile.empty()))
        }
        try await push(0)
    }

    // MARK: Steps

    mutating func run() async throws {
        for device in devices.indices.dropFirst() { try await pull(device) }
        for _ in 0..<Int.random(in: 8...30, using: &random) {
            steps += 1
            let device = Int.random(in: 0..<devices.count, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...4: await randomEdit(device)
            case 5...7: try await push(device)
            default: try await pull(device)
            }
            guard failures.isEmpty else { return }
        }
        // Everyone sends what they have, then everyone pulls, twice around.
        for _ in 0..<2 {
            for device in devices.indices { try await push(device) }
            for device in devices.indices { try await pull(device) }
        }
        try await check()
    }

    /// Applies `edit` on `device` as a person would with the CLI: refused edits change nothing.
    mutating func apply(_ device: Int, _ edit: TreeEdit, setting field: (String, JSONValue?)? = nil) async throws {
        let before = devices[device].file
        do {
            try devices[device].file.apply(edit)
        } catch {
            devices[device].file = before
            return
        }
        serial += 1
        script.append("\(devices[device].user): \(edit)")
        let saw = devices[device].known
        devices[device].known.insert(serial)
        let number = serial
        func record(_ change: Change) async {
            // A field set to the value it had changes nothing, and is no edit to keep.
            if case .field(let member, let field, let value) = change,
               let old = before.root["members"]?.arrayValue?.first(where: { $0["id"]?.stringValue == member }), old[field] == value {
                return
            }
            // Nor is a field set back to the value this device last synced: a three-way merge sees
            // the document, not the steps, so that is no change of the device's.
            if case .field(let member, let field, let value) = change,
               let synced = try? await devices[device].session.state.bases(for: [DocumentKey(.familyTree, member)]).values.first,
               !synced.isDeleted, (try? JSONParser.parse(synced.body).root)?[field] == value {
                edits.append(Edit(serial: number, device: device, change: .field(member: member, field: field, value: value), saw: saw, isRevert: true))
                return
            }
            edits.append(Edit(serial: number, device: device, change: change, saw: saw))
        }
        switch edit {
        case .addMember(let member, _, let union, _): await record(.added(member: member.id, union: union))
        case .editMember(let id, _):
            if let (name, value) = field { await record(.field(member: id, field: name, value: value)) }
        case .marry(let first, let second, _, _): await record(.married(first, second))
        case .link(let connection): await record(.linked(connection.id, from: connection.fromChild, to: connection.toNewParent))
        case .setRemoved(let id, let removed): await record(.field(member: id, field: "removed", value: removed ? .bool(true) : nil))
        case .deleteMember(let id, _): await record(.deleted(id))
        default: break
        }
        // Every file validates after every step (the edit itself refuses what would not).
        _ = devices[device].file.graph
    }

    mutating func randomEdit(_ device: Int) async {
        let role = devices[device].role
        guard role >= .helper || Int.random(in: 0..<4, using: &random) == 0 else { return }
        let graph = devices[device].file.graph
        let members = graph.members.map(\.id)
        guard let someone = members.randomElement(using: &random) else { return }
        let fresh = "\(devices[device].user.suffix(2))-\(serial + 1)"
        let edit: TreeEdit
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
            guard let union = graph.unions.randomElement(using: &random) else { return }
            edit = .addMember(Member(id: fresh, firstName: "Kid\(serial + 1)", birthday: PartialDate("\(Int.random(in: 1950...2020, using: &random))")), union: union.id)
        case 2, 3, 4:
            let value = "v\(serial + 1)"
            var changes = MemberChanges()
            var set: (String, JSONValue?)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                changes.nickname = .set(value)
                set = ("nickname", .string(value))
            case 1:
                let clear = Int.random(in: 0..<5, using: &random) == 0
                changes.notes = clear ? .clear : .set(value)
                set = ("notes", clear ? nil : .string(value))
            default:
                let year = "\(1900 + serial % 120)"
                changes.birthday = .set(PartialDate(year)!)
                set = ("birthday", .string(year))
            }
            try? await apply(device, .editMember(someone, changes), setting: set)
            return
        case 5:
            guard let other = members.randomElement(using: &random), other != someone else { return }
            edit = .marry(someone, other)
        case 6:
            guard let couple = graph.unions.filter({ $0.partners.count == 2 && $0.divorce == nil }).randomElement(using: &random) else { return }
            edit = .divorce(couple.partners[0], couple.partners[1], date: PartialDate("2000"))
        case 7:
            guard let other = members.randomElement(using: &random), other != someone else { return }
            edit = .link(CrossBloodlineConnection(id: "link-\(fresh)", fromChild: someone, toNewParent: other))
        case 8:
            edit = .setRemoved(someone, Bool.random(using: &random))
        default:
            // Admins delete; a helper's delete is refused by the store at the next push.
            guard role >= .helper, !["a", "b"].contains(someone) else { return }
            edit = .deleteMember(someone, withReferences: true)
        }
        try? await apply(device, edit)
    }

    mutating func pull(_ device: Int) async throws {
        let local = try TreeMirror.documents(of: devices[device].file.root)
        let report: SyncSession.PullReport
        do {
            report = try await devices[device].session.pull(merging: local)
        } catch {
            failures.append("\(devices[device].user)'s pull failed: \(error)")
            return
        }
        script.append("\(devices[device].user) pulls \(report.pulled)")
        conflictCount += report.conflicts.count
        revived += report.revived.count
        devices[device].known.formUnion(storeKnows)
        take(report.documents, on: device, after: "pull")
    }

    mutating func push(_ device: Int) async throws {
        // Now and then another device writes between this push's pull and its send: played as
        // this device's pull, another's whole push, this device's send on what it pulled (refused
        // where the other wrote), and the pull, merge and send a push makes after a refused write.
        let racer = Int.random(in: 0..<devices.count, using: &random)
        if racer != device, Int.random(in: 0..<4, using: &random) == 0 {
            try await pull(device)
            try await pushOrSend(racer, raced: false)
            try await pushOrSend(device, raced: true)
            try await pushOrSend(device, raced: false)
        } else {
            try await pushOrSend(device, raced: false)
        }
    }

    private mutating func pushOrSend(_ device: Int, raced: Bool) async throws {
        let local = try TreeMirror.documents(of: devices[device].file.root)
        // What the push's pull saved, as the CLI writes it to the file before sending.
        let saved = SavedDocuments(local)
        pushes += 1
        do {
            let report: SyncSession.PushReport
            if raced {
                report = try await devices[device].session.send(local)
            } else {
                report = try await devices[device].session.push(local) { saved.documents = $0 }
            }
            script.append("\(devices[device].user) pushes\(raced ? " (raced)" : ""): \(report.applied) written, \(report.merged) merged")
            conflictCount += report.conflicts.count
            revived += report.revived.count
            if report.merged > 0 { mergedPushes += 1 }
            devices[device].known.formUnion(storeKnows)
            if report.applied > 0 { storeKnows.formUnion(devices[device].known) }
            take(report.documents, on: device, after: "push")
        } catch {
            try await failedPush(device, error, pulled: saved.documents)
        }
    }

    /// A push the store refused, or whose reply was lost.
    private mutating func failedPush(_ device: Int, _ error: SyncError, pulled: [DocumentKey: String]) async throws {
        var lost: String?
        var refusal: String?
        switch error {
        case .store(let message): lost = message
        case .accessDenied(let message): refusal = message
        default: throw error
        }
        if let lost {
            guard lost.contains("reply lost") else { throw error }
            // The store committed; the device saved what its pull brought and sends again later.
            script.append("\(devices[device].user) pushes: the reply is lost")
            lostReplies += 1
            devices[device].known.formUnion(storeKnows)
            storeKnows.formUnion(devices[device].known)
            take(pulled, on: device, after: "push with a lost reply")
            return
        }
        let message = refusal ?? ""
        script.append("\(devices[device].user) pushes: refused (\(message))")
        let role = devices[device].role
        guard (role == .helper && message.contains("deleting")) || (role == .viewer && message.contains("pushing needs helper")) else {
            failures.append("\(devices[device].user) (\(devices[device].role)) was refused: \(message)")
            return
        }
        refusedDeletes += 1
        // The helper or viewer takes the refusal and starts again from what the device last saw: every edit
        // of theirs the store does not have is given up.
        devices[device].known.formUnion(storeKnows)
        let documents = try await devices[device].session.state.bases().compactMapValues { $0.isDeleted ? nil : $0.body }
        take(documents, on: device, after: "refused push")
        for edit in edits where edit.device == device && !storeKnows.contains(edit.serial) { discarded.insert(edit.serial) }
    }

    /// Edits a helper gave up after the store refused their delete.
    var discarded: Set<Int> = []

    /// The device's file from `documents`, which must be a valid tree with no reference dropped.
    mutating func take(_ documents: [DocumentKey: String], on device: Int, after step: String) {
        if ProcessInfo.processInfo.environment["FAMILYTREE_CONVERGENCE_TRACE"] != nil {
            script.append("    \(devices[device].user) after \(step): " + documents.filter { $0.key.collection == .unions }.sorted { $0.key < $1.key }.map(\.value).joined(separator: " "))
        }
        do {
            let tree = try TreeMirror.tree(from: documents)
            let (_, repairs) = TreeFile.droppingDanglingReferences(tree)
            if !repairs.isEmpty { failures.append("\(devices[device].user)'s \(step) left references to no one: \(repairs)") }
            devices[device].file = try TreeFile(root: tree)
        } catch {
            failures.append("\(devices[device].user)'s tree after \(step) does not validate: \(error)")
        }
    }

    // MARK: Checks

    mutating func check() async throws {
        let reference = try TreeMirror.documents(of: devices[0].file.root)
        for device in devices.dropFirst() where try TreeMirror.documents(of: device.file.root) != reference {
            failures.append("\(device.user)'s tree differs from the owner's")
        }
        let stored = try await fixture.store("owner").pull(user: owner, tree: owner, after: 0, limit: 100_000)
        var inStore: [DocumentKey: String] = [:]
        for document in stored where !document.isDeleted { inStore[document.key] = document.body }
        if inStore != reference { failures.append("the store differs from the devices") }

        let graph = devices[0].file.graph
        let members = Set(graph.members.map(\.id))
        let edits = self.edits.filter { !discarded.contains($0.serial) }
        let deleted = Set(edits.compactMap { edit -> String? in
            if case .deleted(let id) = edit.change { return id }
            return nil
        })
        var conflicts: [MergeConflict] = []
        for device in devices { conflicts += try await device.session.state.conflicts().map(\.conflict) }
        // Edits that broke the tree together with another were set aside whole, as conflicts.
        func setAside(_ key: DocumentKey) -> Bool { conflicts.contains { $0.key == key && $0.path.components.isEmpty } }
        func setAsideUnion(of first: String, _ second: String) -> Bool {
            conflicts.contains { $0.key.collection == .unions && $0.path.components.isEmpty && ($0.localValue ?? "").contains("\"\(first)\"") && ($0.localValue ?? "").contains("\"\(second)\"") }
        }
        for edit in edits {
            switch edit.change {
            case .added(let member, let union):
                if !deleted.contains(member), !members.contains(member), !setAside(DocumentKey(.familyTree, member)) { failures.append("\(member) was added and is gone") }
                if let union, !deleted.contains(member), !setAside(DocumentKey(.unions, union)), let found = graph.unions.first(where: { $0.id == union }),
                   !found.children.contains(where: { $0.member == member }) {
                    failures.append("\(member) is no longer a child of \(union)")
                }
            case .married(let first, let second):
                if !deleted.contains(first), !deleted.contains(second), !graph.unions.contains(where: { Set($0.partners) == [first, second] }), !setAsideUnion(of: first, second) {
                    failures.append("the marriage of \(first) and \(second) is gone")
                }
            case .linked(let id, let from, let to):
                if !deleted.contains(from), !deleted.contains(to), !setAside(DocumentKey(.crossBloodlineConnections, id)), !graph.crossBloodlineConnections.contains(where: { $0.id == id || ($0.fromChild == from && $0.toNewParent == to) }) {
                    failures.append("the link \(id) is gone")
                }
            case .field, .deleted:
                break
            }
        }
        // Each field's last edits (those no later edit of it had seen): one is the value now, and
        // any other is named in a conflict.
        for conflict in conflicts where conflict.localValue == conflict.storeValue {
            failures.append("a conflict with the same value on both sides: \(conflict)")
        }
        var byField: [String: [Int]] = [:]
        for (position, edit) in edits.enumerated() {
            if case .field(let member, let field, _) = edit.change { byField["\(member)\u{1F}\(field)", default: []].append(position) }
        }
        for positions in byField.values {
            guard case .field(let member, let field, _) = edits[positions[0]].change,
                  let record = reference[DocumentKey(.familyTree, member)], let current = try? JSONParser.parse(record).root else { continue }
            // A later edit of the field, or a delete of the member, made after seeing an edit supersedes it.
            let deletes = edits.indices.filter { if case .deleted(member) = edits[$0].change { true } else { false } }
            let last = positions.filter { position in
                !(positions + deletes).contains { other in other != position && edits[other].saw.contains(edits[position].serial) }
            }
            let now = current[field]
            for position in last where !edits[position].isRevert {
                guard case .field(_, _, let value) = edits[position].change, value != now else { continue }
                let named = conflicts.contains { conflict in
                    conflict.key == DocumentKey(.familyTree, member) && conflict.field == field
                        && (conflict.localValue == value.map(JSONWriter.compactString(from:)) || conflict.storeValue == value.map(JSONWriter.compactString(from:)))
                }
                if !named { failures.append("\(member).\(field) = \(value.map(JSONWriter.compactString(from:)) ?? "nothing") was lost (now \(now.map(JSONWriter.compactString(from:)) ?? "nothing"))") }
            }
        }
        // Roles: the log has no write by a viewer and no delete by a helper.
        let log = try await fixture.shared("owner").log(of: owner, as: owner, key: nil, limit: 100_000)
        for entry in log {
            guard let role = devices.first(where: { $0.user == entry.user })?.role else { continue }
            if role == .viewer || (entry.isDeleted && role == .helper) { failures.append("\(entry.user) (\(role)) changed \(entry.key)") }
        }
    }
}
