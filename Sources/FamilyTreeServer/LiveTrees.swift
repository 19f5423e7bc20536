#if Server
import FamilyTreeLayout
import FamilyTreeRender
import FamilyTreeSync
internal import Foundation

/// The trees open in browsers on this server process: each one's documents as last read (brought
/// up to date by pulling only what changed since, as the user asking, so the store checks their
/// role every time), its chart for that version, the pages listening for changes, and the undo
/// of each edit saved here.
///
/// Nothing here is the truth: the store is. A change saved through another process reaches this
/// one's listeners when they next look at the store (every few seconds).
actor LiveTrees {
    /// A change to a tree, as the pages watching it are told.
    struct Change: Codable, Sendable, Hashable {
        /// The tree's change sequence after it.
        var sequence: Int64
        /// Who made it, when this server saw them make it.
        var by: String?
        /// What it was, in a line ("bob added Tom, a child of Ada").
        var summary: String
    }

    /// What a listening page's stream carries: a change saved here, or time to look at the store.
    enum Signal: Sendable {
        case change(Change)
        case look
    }

    /// A tree's chart at one version, prepared and laid out: what its data, and the patches
    /// that bring a page from an earlier version to it, are made from. Reads as its preparation
    /// (`version.signature`, `version.prepared`, …) with a layout.
    @dynamicMemberLookup
    struct ChartVersion: Sendable {
        var chart: PreparedChart
        /// `nil` for a tree with no one in it.
        var layout: Layout?

        subscript<Value>(dynamicMember field: KeyPath<PreparedChart, Value>) -> Value { chart[keyPath: field] }
    }

    /// A tree's chart at one version before its layout: its people and their boxes, and what
    /// the layout will depend on. A page opened on a large tree draws a part of it from this
    /// while the whole is laid out.
    struct PreparedChart: Sendable {
        var sequence: Int64
        /// The day its ages are of.
        var day: Int
        /// `WebApp.layoutSignature` of `prepared`: two versions alike in it have one layout.
        var signature: Int
        var prepared: Chart.Prepared
        var renderer: HTMLRenderer
    }

    private struct Kept<Value> {
        var value: Value
        var used: UInt64
    }

    private let keptTrees: Int
    private var clock: UInt64 = 0
    private var snapshots: [String: Kept<TreeSnapshot>] = [:]
    private var charts: [String: Kept<(sequence: Int64, day: Int, data: String)>] = [:]
    private var making: [String: (sequence: Int64, day: Int, task: Task<String, any Error>)] = [:]
    private var layouts: [String: Kept<(signature: Int, layout: Layout)>] = [:]
    private var versions: [String: Kept<ChartVersion>] = [:]
    private var makingVersion: [String: (sequence: Int64, day: Int, task: Task<ChartVersion, any Error>)] = [:]
    private var preparing: [String: (sequence: Int64, day: Int, task: Task<PreparedChart, any Error>)] = [:]
    /// The layout signature and day of each recent version a page was given, by sequence: a page
    /// showing one of them is sent only the people that changed when the layout is the same.
    private var givenVersions: [String: [Int64: (signature: Int, day: Int)]] = [:]
    private static let givenVersionsKept = 64
    private var lastMaking: [String: Duration] = [:]
    private var listeners: [String: [Int: AsyncStream<Signal>.Continuation]] = [:]
    private var nextListener = 0
    private var saving: Set<String> = []
    private var waitingToSave: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// Makes a tree's chart as a user sees it, ready for the next page (`prepareCharts`).
    typealias ChartPreparer = @Sendable (_ tree: String, _ user: String) async -> Void
    private var preparer: (quiet: Duration, prepare: ChartPreparer)?
    /// The trees changed since their chart was last prepared: when, and by whom, last.
    private var settling: [String: (last: ContinuousClock.Instant, user: String)] = [:]
    private var undos: [String: (user: String, tree: String, edits: [BrowserEdit])] = [:]
    private var undoOrder: [String] = []
    private static let maximumUndos = 10_000

    init(keptTrees: Int = 8) {
        self.keptTrees = max(1, keptTrees)
    }

    // MARK: Documents and charts

    /// The tree's documents as last read here (an empty snapshot the first time).
    func snapshot(of tree: String) -> TreeSnapshot {
        clock += 1
        snapshots[tree]?.used = clock
        return snapshots[tree]?.value ?? TreeSnapshot()
    }

    /// Keeps `snapshot` unless a newer one of the tree is kept already.
    func keep(_ snapshot: TreeSnapshot, of tree: String) {
        clock += 1
        if let kept = snapshots[tree], kept.value.sequence > snapshot.sequence { return }
        snapshots[tree] = Kept(value: snapshot, used: clock)
        Self.evict(&snapshots, keeping: keptTrees)
    }

    /// The chart data kept for the tree at `sequence`, made on `day` (its ages are that day's).
    func chart(of tree: String, at sequence: Int64, day: Int) -> String? {
        guard let kept = charts[tree], kept.value.sequence == sequence, kept.value.day == day else { return nil }
        clock += 1
        charts[tree]?.used = clock
        return kept.value.data
    }

    /// The newest chart kept for the tree made on `day`, whatever its version.
    func newestChart(of tree: String, day: Int) -> (sequence: Int64, data: String)? {
        guard let kept = charts[tree], kept.value.day == day else { return nil }
        return (kept.value.sequence, kept.value.data)
    }

    /// The tree's chart at `sequence` once it is made, waiting at most `limit` for it.
    nonisolated func chartWhenMade(of tree: String, at sequence: Int64, day: Int, within limit: Duration) async -> String? {
        let clock = ContinuousClock(), deadline = clock.now + limit
        while true {
            if let made = await chart(of: tree, at: sequence, day: day) { return made }
            guard clock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The chart data of the tree at `sequence` on `day`: kept, being made for another request
    /// (awaited, not made twice: every window open on a large tree asks for it after an edit), or
    /// made now by `make`, away from this actor.
    func chart(of tree: String, at sequence: Int64, day: Int, make: @escaping @Sendable () async throws -> String) async throws -> String {
        if let kept = chart(of: tree, at: sequence, day: day) { return kept }
        if let running = making[tree], running.sequence == sequence, running.day == day { return try await running.task.value }
        let task = Task.detached(priority: .userInitiated) { try await make() }
        making[tree] = (sequence, day, task)
        defer { if making[tree]?.sequence == sequence, making[tree]?.day == day { making[tree] = nil } }
        let started = ContinuousClock.now
        let data = try await task.value
        lastMaking[tree] = ContinuousClock.now - started
        keepChart(data, of: tree, at: sequence, day: day)
        return data
    }

    /// The tree's chart prepared and laid out at `sequence` on `day`: kept, being made for
    /// another request (awaited), or made now by `make`, away from this actor.
    func version(of tree: String, at sequence: Int64, day: Int, make: @escaping @Sendable () async throws -> ChartVersion) async throws -> ChartVersion {
        if let kept = versions[tree], kept.value.sequence == sequence, kept.value.day == day {
            clock += 1
            versions[tree]?.used = clock
            return kept.value
        }
        if let running = makingVersion[tree], running.sequence == sequence, running.day == day { return try await running.task.value }
        let task = Task.detached(priority: .userInitiated) { try await make() }
        makingVersion[tree] = (sequence, day, task)
        defer {
            if makingVersion[tree]?.sequence == sequence, makingVersion[tree]?.day == day { makingVersion[tree] = nil }
            // Its preparation is done with, laid out or failed (a failure prepares again next time).
            if let stage = preparing[tree], stage.sequence < sequence || (stage.sequence == sequence && stage.day == day) { preparing[tree] = nil }
        }
        let version = try await task.value
        clock += 1
        if (versions[tree]?.value.sequence ?? .min) <= sequence {
            versions[tree] = Kept(value: version, used: clock)
            Self.evict(&versions, keeping: keptTrees)
        }
        return version
    }

    /// The tree's chart prepared at `sequence` on `day`: from its version when that is made,
    /// being prepared for another request (awaited: the layout and a page's first picture of a
    /// large tree share it), or prepared now by `make`, away from this actor.
    func prepared(of tree: String, at sequence: Int64, day: Int, make: @escaping @Sendable () async throws -> PreparedChart) async throws -> PreparedChart {
        if let kept = versions[tree]?.value, kept.sequence == sequence, kept.day == day {
            return kept.chart
        }
        if let running = preparing[tree], running.sequence == sequence, running.day == day { return try await running.task.value }
        // Kept, once made, until the version laid out from it is (`version(of:at:day:make:)`).
        let task = Task.detached(priority: .userInitiated) { try await make() }
        preparing[tree] = (sequence, day, task)
        do {
            return try await task.value
        } catch {
            if preparing[tree]?.sequence == sequence, preparing[tree]?.day == day { preparing[tree] = nil }
            throw error
        }
    }

    /// Notes that a page was given the tree's chart at `version` (whole or as a patch).
    func noteGiven(_ version: ChartVersion, of tree: String) {
        var given = givenVersions[tree] ?? [:]
        given[version.sequence] = (version.signature, version.day)
        if given.count > Self.givenVersionsKept, let oldest = given.keys.min() { given[oldest] = nil }
        givenVersions[tree] = given
        // Trees no longer kept are forgotten with their charts.
        if givenVersions.count > keptTrees * 2 { givenVersions = givenVersions.filter { charts[$0.key] != nil || versions[$0.key] != nil } }
    }

    /// The layout signature and day of the tree's chart at `sequence`, when a page was given it lately.
    func given(of tree: String, at sequence: Int64) -> (signature: Int, day: Int)? {
        givenVersions[tree]?[sequence]
    }

    /// How long the tree's last chart took to make (its layout, when that was not kept).
    func lastMakingTime(of tree: String) -> Duration? { lastMaking[tree] }

    /// The layout kept for the tree when its drawn shape (`signature`) is the same: an edit of
    /// notes, a photo's place or anything else a box does not show is drawn without laying the
    /// tree out again.
    func layout(of tree: String, signature: Int) -> Layout? {
        guard let kept = layouts[tree], kept.value.signature == signature else { return nil }
        clock += 1
        layouts[tree]?.used = clock
        return kept.value.layout
    }

    func keepLayout(_ layout: Layout, of tree: String, signature: Int) {
        clock += 1
        layouts[tree] = Kept(value: (signature, layout), used: clock)
        Self.evict(&layouts, keeping: keptTrees)
    }

    func keepChart(_ data: String, of tree: String, at sequence: Int64, day: Int) {
        clock += 1
        if let kept = charts[tree], kept.value.sequence > sequence { return }
        charts[tree] = Kept(value: (sequence, day, data), used: clock)
        Self.evict(&charts, keeping: keptTrees)
    }

    private static func evict<Value>(_ kept: inout [String: Kept<Value>], keeping limit: Int) {
        while kept.count > limit, let oldest = kept.min(by: { $0.value.used < $1.value.used })?.key { kept[oldest] = nil }
    }

    // MARK: Saving

    /// Runs `body` while no other save to `tree` runs in this process: relatives saving at once
    /// here take turns instead of retrying against each other (the compare-and-set still guards
    /// against every other writer).
    func savingInTurn<T: Sendable>(to tree: String, _ body: @Sendable () async throws -> T) async throws -> T {
        if saving.contains(tree) {
            await withCheckedContinuation { waitingToSave[tree, default: []].append($0) }
        } else {
            saving.insert(tree)
        }
        defer {
            // The next in line takes the turn over; with no one waiting, the tree is free.
            if var next = waitingToSave[tree], !next.isEmpty {
                let first = next.removeFirst()
                waitingToSave[tree] = next.isEmpty ? nil : next
                first.resume()
            } else {
                saving.remove(tree)
            }
        }
        return try await body()
    }

    // MARK: Listening

    /// A stream of the tree's changes saved on this server, with a `look` every `lookEvery`
    /// seconds; `stopListening` with the number ends it.
    func listen(to tree: String, lookEvery seconds: Double) -> (Int, AsyncStream<Signal>, AsyncStream<Signal>.Continuation) {
        let (stream, continuation) = AsyncStream<Signal>.makeStream(bufferingPolicy: .bufferingNewest(64))
        nextListener += 1
        let number = nextListener
        listeners[tree, default: [:]][number] = continuation
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(seconds))
                if case .terminated = continuation.yield(.look) { return }
            }
        }
        continuation.onTermination = { _ in ticker.cancel() }
        return (number, stream, continuation)
    }

    func stopListening(_ number: Int, to tree: String) {
        listeners[tree]?.removeValue(forKey: number)?.finish()
        if listeners[tree]?.isEmpty == true { listeners[tree] = nil }
    }

    /// Tells every page listening to `tree`, and has its chart prepared once changes stop.
    func publish(_ change: Change, to tree: String) {
        for continuation in (listeners[tree] ?? [:]).values { continuation.yield(.change(change)) }
        if let user = change.by { changed(tree, by: user) }
    }

    // MARK: Preparing charts

    /// From now on, a tree that goes `quiet` without a change after one saved here has its chart
    /// made by `prepare` (as the user who changed it last), so the next page opened on it does
    /// not wait for a large tree's layout. A tree with pages listening is left to them: they ask
    /// for what they draw (a patch, after a note is saved, where a whole chart would be wasted).
    func prepareCharts(after quiet: Duration, with prepare: @escaping ChartPreparer) {
        preparer = (quiet, prepare)
    }

    private func changed(_ tree: String, by user: String) {
        guard preparer != nil else { return }
        let waiting = settling[tree] != nil
        settling[tree] = (.now, user)
        guard !waiting else { return }
        Task.detached(priority: .utility) { await self.prepareOnceQuiet(tree) }
    }

    /// Waits for `tree` to go quiet, prepares its chart, and again while changes came meanwhile.
    private func prepareOnceQuiet(_ tree: String) async {
        guard let (quiet, prepare) = preparer else { return }
        while let last = settling[tree] {
            let quietFrom = last.last + quiet
            guard ContinuousClock.now >= quietFrom else {
                try? await Task.sleep(until: quietFrom)
                continue
            }
            if listeners[tree] == nil { await prepare(tree, last.user) }
            // A change saved while it was made (the actor is free meanwhile) is waited for again.
            if settling[tree]?.last == last.last { settling[tree] = nil }
        }
    }

    // MARK: Undo

    /// Keeps the edits that undo one of `user`'s; returns the token the page undoes them with.
    func keepUndo(_ edits: [BrowserEdit], user: String, tree: String) -> String {
        let token = Secrets.random(bytes: 18)
        undos[token] = (user, tree, edits)
        undoOrder.append(token)
        if undoOrder.count > Self.maximumUndos { undos[undoOrder.removeFirst()] = nil }
        return token
    }

    /// The edits of an undo token, once: only to the user and tree it was made for.
    func takeUndo(_ token: String, user: String, tree: String) -> [BrowserEdit]? {
        guard let kept = undos[token], kept.user == user, kept.tree == tree else { return nil }
        undos[token] = nil
        return kept.edits
    }
}
#endif
