#if Server
import FamilyTree
import FamilyTreeRender
import FamilyTreeSync
internal import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// The chart page's own calls: the tree's chart data as it is now, a person's editable fields,
/// edits and their undo, and a stream of the changes other relatives save (server-sent events).
///
/// Every call acts as the signed-in user through the store, whose role checks decide what they
/// may read and write; edits are the CLI's typed edits (`SharedTreeEditor`), so two relatives
/// saving at once both keep what they saved, and an edit of a field someone else changed since
/// the user read it is refused with both values (409), for the user to choose.
extension WebApp {
    /// The largest edit request read (a photo is at most 600 kB of it).
    static let maximumEditBytes = 2 * 1_048_576
    /// How often a listening page's stream looks at the store for changes saved elsewhere.
    static let lookEverySeconds = 5.0

    func registerLiveEditing(on router: Router<ServerRequestContext>) {
        router.get("/trees/:tree/chart.json") { request, context in
            try await chartData(of: try Self.treeID(context), since: request.uri.queryParameters["since"].flatMap { Int64(String($0)) })
        }
        router.get("/trees/:tree/people/:member") { _, context in
            try await person(context.parameters.get("member") ?? "", in: try Self.treeID(context))
        }
        router.post("/trees/:tree/edits") { request, context in
            try await saveEdits(request, to: try Self.treeID(context))
        }
        router.post("/trees/:tree/undo") { request, context in
            try await undo(request, in: try Self.treeID(context))
        }
        router.get("/trees/:tree/relation") { request, context in
            try await relation(in: try Self.treeID(context), from: request.uri.queryParameters["from"].map(String.init) ?? "",
                               to: request.uri.queryParameters["to"].map(String.init) ?? "")
        }
        router.put("/trees/:tree/myself") { request, context in
            try await setOwnPerson(request, in: try Self.treeID(context))
        }
        router.get("/trees/:tree/events") { request, context in
            try await changes(of: try Self.treeID(context), request: request)
        }
    }

    static let serverTiming = HTTPField.Name("Server-Timing")!

    static func treeID(_ context: ServerRequestContext) throws -> String {
        let tree = context.parameters.get("tree") ?? ""
        guard UserID.isValid(tree) else { throw APIFailure.invalid(UserID.rule(tree)) }
        return tree
    }

    // MARK: Reading

    /// The tree's documents as they are now, read as `user` (the store checks their role).
    func snapshot(of tree: String, as user: String) async throws -> TreeSnapshot {
        let kept = await live.snapshot(of: tree)
        let store = store
        let current = try await fairShare.run(for: user) {
            var snapshot = kept
            try await snapshot.update(from: store, user: user, tree: tree)
            return snapshot
        }
        await live.keep(current, of: tree)
        return current
    }

    /// `{"sequence": N, "data": …}`: the chart's data (as the page's `#family-tree-data`) at
    /// change sequence N. Laid out once per version of the tree. For a page showing version
    /// `since`, when the boxes stand where they stood and only people's records changed,
    /// `{"sequence": N, "patch": {"from": since, "m": [[position, entry], …]}}` instead: the
    /// `m` entries of the people that changed (a note saved in a tree of 10,000 is a few hundred
    /// bytes, not the whole chart again).
    func chartData(of tree: String, since: Int64? = nil) async throws -> Response {
        let caller = try await accounts.caller()
        let snapshot = try await snapshot(of: tree, as: caller.user)
        let hidesLiving = try await hidesLiving(from: caller.user, in: tree)
        if let since, let patch = try await chartPatch(of: tree, since: since, snapshot: snapshot, hidingLiving: hidesLiving) {
            return Self.json(#"{"sequence":\#(snapshot.sequence),"patch":\#(patch)}"#)
        }
        let ready = await live.chart(of: Self.chartKey(of: tree, hidingLiving: hidesLiving), at: snapshot.sequence, day: Self.today) != nil
        let started = ContinuousClock.now
        let data = try await chartData(of: tree, snapshot: snapshot, hidingLiving: hidesLiving)
        var response = Self.json(#"{"sequence":\#(snapshot.sequence),"data":\#(data)}"#)
        // Whether this request found the chart made (after a change, in the background) or waited
        // for it, as browsers' developer tools show it.
        let waited = ContinuousClock.now - started
        response.headers[Self.serverTiming] = ready ? #"chart;desc="ready""# : #"chart;desc="made";dur=\#(Int((waited / .milliseconds(1)).rounded()))"#
        return response
    }

    /// Makes the tree's chart as `user` sees it, unless it is made already: for the next page.
    func prepareChart(of tree: String, as user: String) async throws {
        let snapshot = try await snapshot(of: tree, as: user)
        _ = try await chartData(of: tree, snapshot: snapshot, hidingLiving: try await hidesLiving(from: user, in: tree))
    }

    /// The chart's data for the tree as `snapshot` has it (living people hidden or not): laid out
    /// once per version and day.
    func chartData(of tree: String, snapshot: TreeSnapshot, hidingLiving: Bool) async throws -> String {
        let today = Self.today, live = live
        let kept = Self.chartKey(of: tree, hidingLiving: hidingLiving)
        return try await live.chart(of: kept, at: snapshot.sequence, day: today) { [self] in
            let version = try await chartVersion(of: tree, snapshot: snapshot, hidingLiving: hidingLiving)
            await live.noteGiven(version, of: kept)
            guard let layout = version.layout else { return Self.emptyChartData }
            return try version.renderer.renderData(layout, of: version.prepared.graph)
        }
    }

    /// The `patch` that brings a page showing the tree at `since` to `snapshot`'s version, or
    /// `nil` when the page needs the whole chart: the boxes moved (someone added, a name that no
    /// longer fits its box, a date that reorders siblings), a family or link changed, the day
    /// changed, the page's version is not one given lately, or living people are hidden (whose
    /// hiding reads a person's relatives too).
    func chartPatch(of tree: String, since: Int64, snapshot: TreeSnapshot, hidingLiving: Bool) async throws -> String? {
        guard !hidingLiving, since <= snapshot.sequence else { return nil }
        let kept = Self.chartKey(of: tree, hidingLiving: hidingLiving), today = Self.today
        guard let earlier = await live.given(of: kept, at: since), earlier.day == today else { return nil }
        var changed: [String] = []
        for document in snapshot.documents.values where document.sequence > since {
            guard document.key.collection == .familyTree, !document.isDeleted else { return nil }
            changed.append(document.key.id)
        }
        let version = try await chartVersion(of: tree, snapshot: snapshot, hidingLiving: hidingLiving)
        guard version.signature == earlier.signature, let layout = version.layout else { return nil }
        let entries = try version.renderer.renderMemberEntries(layout, of: version.prepared.graph, ids: changed)
        await live.noteGiven(version, of: kept)
        return #"{"from":\#(since),"m":[\#(entries.map { "[\($0.position),\($0.entry)]" }.joined(separator: ","))]}"#
    }

    /// The tree's chart at `snapshot`'s version, prepared and laid out: made once per version
    /// and day, the layout kept across versions alike in `layoutSignature`.
    func chartVersion(of tree: String, snapshot: TreeSnapshot, hidingLiving: Bool) async throws -> LiveTrees.ChartVersion {
        let today = Self.today, live = live
        let kept = Self.chartKey(of: tree, hidingLiving: hidingLiving)
        return try await live.version(of: kept, at: snapshot.sequence, day: today) { [self] in
            var version = LiveTrees.ChartVersion(chart: try await preparedChart(of: tree, snapshot: snapshot, hidingLiving: hidingLiving))
            if let layout = await live.layout(of: kept, signature: version.signature) {
                version.layout = layout
            } else if !version.prepared.graph.members.isEmpty {
                let layout = try Chart(graph: version.prepared.graph, format: .html, today: today).layout(of: version.prepared)
                await live.keepLayout(layout, of: kept, signature: version.signature)
                version.layout = layout
            }
            return version
        }
    }

    /// The tree's chart at `snapshot`'s version, prepared but not laid out: made once per version and day.
    func preparedChart(of tree: String, snapshot: TreeSnapshot, hidingLiving: Bool) async throws -> LiveTrees.PreparedChart {
        let today = Self.today
        return try await live.prepared(of: Self.chartKey(of: tree, hidingLiving: hidingLiving), at: snapshot.sequence, day: today) {
            let prepared = try Chart(graph: try Self.graph(of: snapshot, tree: tree, hidingLiving: hidingLiving), format: .html, today: today).prepare()
            return LiveTrees.PreparedChart(
                sequence: snapshot.sequence, day: today, signature: Self.layoutSignature(of: prepared), prepared: prepared,
                renderer: Self.chartRenderer(for: prepared, tree: tree, today: today))
        }
    }

    /// Where a tree's chart and layout are kept: the two readings of a tree apart ('#' is in no tree's id).
    static func chartKey(of tree: String, hidingLiving: Bool) -> String {
        hidingLiving ? tree + "#living-hidden" : tree
    }

    /// The chart data of a tree with no one in it yet: an empty chart the viewer opens as any other.
    static let emptyChartData = #"{"title":"","direction":"top-down","width":0,"height":0,"open":null,"m":[],"u":[],"e":[],"legend":[],"c":[]}"#

    /// What the layout of a prepared chart depends on: who is in it in which order, each box's
    /// size, the order of siblings, and the families and links. What a box says (a name that
    /// keeps its box's size), notes, contact details, events and the like move nothing.
    static func layoutSignature(of prepared: Chart.Prepared) -> Int {
        var hasher = Hasher()
        let graph = prepared.graph
        hasher.combine(graph.members.count)
        // Sizing a box wraps its name: done on every core, hashed in order.
        let labeler = prepared.labeler
        let sizes = Parallel.mapInChunks(graph.members.indices, chunkSize: 4_096) { labeler.boxSize(for: graph.members[$0]) }
        for (member, size) in zip(graph.members, sizes) {
            hasher.combine(member.id)
            hasher.combine(size.width)
            hasher.combine(size.height)
            hasher.combine(member.sex)
            hasher.combine(member.siblingOrderDate)
            hasher.combine(member.photo != nil)
            hasher.combine(member.isRemoved)
            hasher.combine(member.color)
        }
        for union in graph.unions {
            hasher.combine(union.id)
            hasher.combine(union.partners)
            hasher.combine(union.children)
            hasher.combine(union.marriage)
            hasher.combine(union.divorce)
        }
        for link in graph.crossBloodlineConnections { hasher.combine(link) }
        hasher.combine(prepared.openOn)
        return hasher.finalize()
    }

    /// A person's editable fields as the tree holds them now (what an edit's `was` compares).
    func person(_ id: String, in tree: String) async throws -> Response {
        let caller = try await accounts.caller()
        let snapshot = try await snapshot(of: tree, as: caller.user)
        // The fields as stored are for editing; a share that hides the living sees only the chart's.
        if try await hidesLiving(from: caller.user, in: tree) {
            throw APIFailure.forbidden("\(caller.user) sees this tree with living people hidden; a person's stored fields are for those who edit")
        }
        let member: JSONValue
        do {
            member = try TreeMirror.record(snapshot.documents[DocumentKey(.familyTree, id)].flatMap { $0.isDeleted ? nil : $0.body } ?? "", of: DocumentKey(.familyTree, id))
        } catch {
            throw APIFailure.notFound("no one in this tree has the id \"\(id.prefix(80))\"")
        }
        let file = try TreeFile(root: .object(["members": .array([member]), "unions": .array([]), "crossBloodlineConnections": .array([])]))
        guard let read = file.graph.members.first else { throw APIFailure.notFound("no one in this tree has the id \"\(id.prefix(80))\"") }
        struct Person: Encodable { let id: String; let fields: [String: String]; let removed: Bool; let sequence: Int64 }
        return try Self.json(Person(id: read.id, fields: BrowserEdits.fields(of: read), removed: read.isRemoved, sequence: snapshot.sequence))
    }

    /// How `to` is related to `from` (the user's own person), in words: `{"words": "second cousin"}`,
    /// the chain for someone joined only through marriages (`{"words": "son-in-law's father"}`),
    /// `null` words when nothing joins them.
    func relation(in tree: String, from: String, to: String) async throws -> Response {
        let caller = try await accounts.caller()
        let snapshot = try await snapshot(of: tree, as: caller.user)
        let graph = try Self.graph(of: snapshot, tree: tree, hidingLiving: try await hidesLiving(from: caller.user, in: tree))
        guard let a = graph.index(of: from), let b = graph.index(of: to) else {
            throw APIFailure.notFound("no one in this tree has the id \"\((graph.index(of: from) == nil ? from : to).prefix(80))\"")
        }
        struct Answer: Encodable { let words: String? }
        // The closest only: a royal pedigree's first person relates to the last in thousands of ways.
        let calculator = RelationshipCalculator(graph)
        let words = from == to ? "you" : calculator.closestRelationship(from: a, to: b)?.english
            ?? calculator.connectionWords(from: a, toEach: [b], maximumLinks: Labeler.maximumChainLinks)[0]
        return try Self.json(Answer(words: words))
    }

    // MARK: This is me

    private struct OwnPersonRequest: Decodable { let member: String? }

    /// Says which person in the tree the signed-in user is ("this is me"), or that none is
    /// (`{"member": null}`): kept with their account, so each device they sign in on opens the
    /// chart on them and words relationships from them. Any role may say it; the person must be
    /// in the tree as the user sees it.
    func setOwnPerson(_ request: Request, in tree: String) async throws -> Response {
        let caller = try await accounts.caller()
        let member = try await Self.decode(OwnPersonRequest.self, from: request).member
        guard let role = try await store.role(of: caller.user, in: tree) else {
            throw APIFailure.forbidden("\(caller.user) has no role on this tree")
        }
        if let member {
            let snapshot = try await snapshot(of: tree, as: caller.user)
            let hidesLiving = try await accounts.hidesLiving(from: caller.user, in: tree, role: role)
            guard try Self.graph(of: snapshot, tree: tree, hidingLiving: hidesLiving).index(of: member) != nil else {
                throw APIFailure.notFound("no one in this tree has the id \"\(member.prefix(80))\"")
            }
        }
        try await accounts.store.setOwnPerson(member, tree: tree, user: caller.user)
        struct Answer: Encodable { let member: String? }
        return try Self.json(Answer(member: member))
    }

    // MARK: Editing

    private struct EditRequest: Decodable { let edits: [BrowserEdit] }
    private struct UndoRequest: Decodable { let token: String }

    func saveEdits(_ request: Request, to tree: String) async throws -> Response {
        let caller = try await accounts.caller()
        let edits = try await Self.decode(EditRequest.self, from: request).edits
        let batch = try BrowserEdits(edits)
        if edits.contains(where: { $0.op == .remove || $0.op == .restore }) {
            let role = try await store.role(of: caller.user, in: tree)
            guard let role, role >= .admin else {
                throw APIFailure.forbidden("removing someone from the tree needs an admin; \(caller.user) is \(role.map(\.withArticle) ?? "no member") of this tree")
            }
        }
        return try await save(batch, as: caller.user, to: tree)
    }

    /// Undoes one of the user's own saved edits, by the token its answer carried. Undoing a
    /// person one added hides them again, which a helper may do for their own additions.
    func undo(_ request: Request, in tree: String) async throws -> Response {
        let caller = try await accounts.caller()
        let token = try await Self.decode(UndoRequest.self, from: request).token
        guard let edits = await live.takeUndo(token, user: caller.user, tree: tree) else {
            throw APIFailure.notFound("nothing to undo: it was undone already, or saved before the server restarted")
        }
        return try await save(try BrowserEdits(edits), as: caller.user, to: tree)
    }

    func save(_ batch: BrowserEdits, as user: String, to tree: String) async throws -> Response {
        let store = store, live = live
        let result: SharedTreeEditor.Result
        do {
            result = try await fairShare.run(for: user) {
                try await live.savingInTurn(to: tree) {
                    var snapshot = await live.snapshot(of: tree)
                    let result = try await SharedTreeEditor.apply(to: tree, as: user, in: store, snapshot: &snapshot) { try batch.typedEdits(for: $0) }
                    await live.keep(snapshot, of: tree)
                    return result
                }
            }
        } catch let conflicts as BrowserEdits.Conflicts {
            struct Answer: Encodable { let error: String; let message: String; let conflicts: [BrowserEdits.Conflict] }
            let fields = conflicts.conflicts.map { "\($0.name)’s \(BrowserEdits.words(ofField: $0.field))" }.joined(separator: ", ")
            return try Self.json(Answer(error: "conflict", message: "someone else changed \(fields) since you opened it; choose which to keep", conflicts: conflicts.conflicts), status: .conflict)
        } catch let busy as SharedTreeEditor.KeptChanging {
            throw APIFailure(.conflict, "busy", busy.description)
        } catch let problem as FamilyTreeError {
            throw APIFailure.invalid(String(describing: problem))
        }
        let summary = batch.summary(by: user, on: result.after)
        var undoToken: String?
        if !result.changed.isEmpty {
            await live.publish(LiveTrees.Change(sequence: result.sequence, by: user, summary: summary), to: tree)
            // Only a marriage's undo deletes (its union): asked of the store only then.
            let mayDelete = batch.edits.contains { $0.op == .marry } ? try await store.role(of: user, in: tree).map { $0 >= .admin } ?? false : false
            if let undo = batch.undo(madeOn: result.before, mayDelete: mayDelete) { undoToken = await live.keepUndo(undo, user: user, tree: tree) }
        }
        let created = zip(batch.edits, batch.newIDs).filter { [.add, .addChild, .addParent, .addPartner].contains($0.0.op) }.map(\.1)
        struct Answer: Encodable { let sequence: Int64; let summary: String; let undo: String?; let created: [String]; let changed: Int }
        return try Self.json(Answer(sequence: result.sequence, summary: summary, undo: undoToken, created: created, changed: result.changed.count))
    }

    // MARK: Changes as they happen

    /// A stream of server-sent events: `change` (`LiveTrees.Change` as JSON, its sequence as the
    /// event's id) whenever the tree changes, from this server at once and from anywhere else
    /// within a few seconds; a comment every few seconds keeps the connection open. A page that
    /// reconnects sends `Last-Event-ID` and misses nothing.
    func changes(of tree: String, request: Request) async throws -> Response {
        let caller = try await accounts.caller()
        let user = caller.user
        let role = try await store.role(of: user, in: tree)
        guard role != nil else {
            throw SyncError.notAllowed(user: user, tree: tree, role: nil, operation: .read)
        }
        // A change's line names the people it touched: to a share that hides the living, only who
        // changed the tree. Read again at each look, so a rule set on an open stream holds within seconds.
        let hidesLivingAtStart = try await accounts.hidesLiving(from: user, in: tree, role: role)
        let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int64($0) }
        let after = lastEventID ?? request.uri.queryParameters["after"].flatMap { Int64(String($0)) }
        let (number, stream, continuation) = await live.listen(to: tree, lookEvery: Self.lookEverySeconds)
        let live = live, store = store, accounts = accounts
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let body = ResponseBody { writer in
            var last = after ?? -1
            var hidesLiving = hidesLivingAtStart
            func send(_ text: String) async throws { try await writer.write(ByteBuffer(string: text)) }
            /// Looks at the store for what changed after `last`, as the user.
            func look() async throws {
                hidesLiving = try await accounts.hidesLiving(from: user, in: tree, role: try await store.role(of: user, in: tree))
                let page = try await store.pull(user: user, tree: tree, after: max(last, 0), limit: 1_000)
                if last < 0 {
                    // The page gave no version: from now on.
                    last = page.last?.sequence ?? 0
                    if page.count == 1_000 { last = await live.snapshot(of: tree).sequence }
                    return
                }
                guard let newest = page.last else { return try await send(": still here\n\n") }
                last = newest.sequence
                try await send(Self.event(LiveTrees.Change(sequence: last, by: nil, summary: "the tree changed (\(page.count == 1_000 ? "1,000 or more" : String(page.count)) \(page.count == 1 ? "record" : "records"))")))
            }
            do {
                // The first look settles where the stream starts; only then is it open (the
                // retry line), so a change saved after a client saw it open is never missed.
                try await look()
                try await send("retry: 2000\n\n")
                // A server stopping ends the stream (the page reconnects to the next one with
                // Last-Event-ID): an open stream would otherwise hold the shutdown forever.
                try await withGracefulShutdownHandler {
                    for await signal in stream {
                        switch signal {
                        case .change(var change) where change.sequence > last:
                            last = change.sequence
                            if hidesLiving { change.summary = "\(change.by ?? "someone") changed the tree" }
                            try await send(Self.event(change))
                        case .change: break
                        case .look: try await look()
                        }
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
            } catch let denied as SyncError {
                try? await send("event: denied\ndata: \(Self.jsonText(["message": denied.description]))\n\n")
            } catch {
                // The page went away.
            }
            await live.stopListening(number, to: tree)
            try? await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    static func event(_ change: LiveTrees.Change) -> String {
        "id: \(change.sequence)\nevent: change\ndata: \(jsonText(change))\n\n"
    }

    // MARK: JSON

    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        var request = request
        let body = try await request.collectBody(upTo: maximumEditBytes)
        do {
            return try JSONDecoder().decode(type, from: Data(body.readableBytesView))
        } catch let error as DecodingError {
            throw APIFailure.invalid("the request does not match: \(APIMiddleware.words(error))")
        } catch {
            throw APIFailure.invalid("the request is not JSON")
        }
    }

    static func jsonText(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain records cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        json(jsonText(value), status: status)
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
