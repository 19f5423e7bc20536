#if Server
import FamilyTree
import FamilyTreeRender
internal import Foundation

/// The first picture of a large tree that is not laid out yet.
///
/// A 100,000-person tree takes seconds to lay out after it is pushed (or after the server starts);
/// a page opened then draws the people nearest the one it opens on (its user's own person, or
/// where the whole chart would start), laid out on their own in a few milliseconds, and the whole
/// tree when it is ready: the page asks for it at once, and keeps the person it is on in place.
extension WebApp {
    /// The chart data of a preview for the page `view` opens, or `nil` when the page should wait
    /// for the whole chart: it is made, or made before `deadline`, or the tree is small, or
    /// previews are turned off. The whole chart is being made when this returns.
    func previewChart(of view: TreeView, myself: String?, deadline: ContinuousClock.Instant) async throws -> String? {
        guard let people = accounts.settings.previewPeople else { return nil }
        let key = Self.chartKey(of: view.tree, hidingLiving: view.hidesLiving), today = Self.today
        if await live.chart(of: key, at: view.sequence, day: today) != nil { return nil }
        // The whole chart, laid out meanwhile (the page asks for it next; anyone asking shares it).
        Task { [self] in _ = try? await chartData(of: view.tree, snapshot: view.snapshot, hidingLiving: view.hidesLiving) }
        // Its preparation (the people and their boxes) is shared with the layout under way.
        let whole = try await preparedChart(of: view.tree, snapshot: view.snapshot, hidingLiving: view.hidesLiving)
        let graph = whole.prepared.graph
        guard graph.members.count > people else { return nil }
        let remaining = deadline - ContinuousClock.now
        if remaining > .zero, await live.chartWhenMade(of: key, at: view.sequence, day: today, within: remaining) != nil { return nil }
        guard let focus = myself.flatMap(graph.index(of:)) ?? HTMLRenderer.likelyStartingMember(in: graph) else { return nil }
        let part = Chart(graph: graph.nearestRelatives(ofMemberAt: focus, count: people), format: .html, today: today)
        let prepared = try part.prepare()
        var renderer = whole.renderer
        renderer.start = graph.members[focus].id
        return try renderer.renderData(try part.layout(of: prepared), of: prepared.graph)
    }
}
#endif
