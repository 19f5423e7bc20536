/// Crossings of marriage lines as drawn. The straight-line model `LayoutMetrics` counts crossings
/// on cannot see these: the marriage line of partners who stand apart runs along its layer's union
/// row, across the lines that leave the union points it passes and the long lines passing the layer.
public enum MarriageLineCrossings {
    /// The pairs of a partner line's segment and another family's segment that cross, a
    /// horizontal segment through a vertical one, each strictly inside the other (lines that meet
    /// at an end or run along each other do not cross). A segment several lines of one family
    /// share (the trunk down to its children) is one line, and a pair of two partner lines counts
    /// once: each crossing is counted as a reader sees it.
    public static func count(in layout: Layout) -> Int {
        var horizontal: Set<Segment> = []
        var vertical: Set<Segment> = []
        for (index, edge) in layout.edges.enumerated() {
            // A line of no union (cross-bloodline) is a family of its own.
            let family = edge.union ?? -1 - index
            let isPartner = edge.kind == .partner
            for (start, end) in zip(edge.points, edge.points.dropFirst()) {
                if start.y == end.y, start.x != end.x {
                    horizontal.insert(Segment(family: family, isPartner: isPartner, at: start.y, from: min(start.x, end.x), to: max(start.x, end.x)))
                } else if start.x == end.x, start.y != end.y {
                    vertical.insert(Segment(family: family, isPartner: isPartner, at: start.x, from: min(start.y, end.y), to: max(start.y, end.y)))
                }
            }
        }
        // Sorted across, then fully, so the count never depends on a set's order.
        let byPlace = { (one: Segment, other: Segment) in (one.at, one.from, one.to, one.family) < (other.at, other.from, other.to, other.family) }
        let horizontalSegments = horizontal.sorted(by: byPlace)
        let verticalSegments = vertical.sorted(by: byPlace)
        // A partner's horizontal segment against every vertical one; a partner's vertical segment
        // against the horizontal ones of other kinds (two partner lines were counted just before).
        var count = 0
        for segment in horizontalSegments where segment.isPartner {
            count += crossings(of: segment, among: verticalSegments) { _ in true }
        }
        for segment in verticalSegments where segment.isPartner {
            count += crossings(of: segment, among: horizontalSegments) { !$0.isPartner }
        }
        return count
    }

    /// A segment along one axis: `at` across it, from `from` to `to` along it.
    private struct Segment: Hashable {
        var family: Int
        var isPartner: Bool
        var at: Double
        var from: Double
        var to: Double
    }

    /// The segments of `others` (sorted by `at`, all at right angles to `segment`) that `segment`
    /// crosses and `counts`, those of its own family left out.
    private static func crossings(of segment: Segment, among others: [Segment], counting counts: (Segment) -> Bool) -> Int {
        // The first segment standing strictly after `segment`'s start.
        let low = others.partitioningIndex { $0.at > segment.from }
        var count = 0
        for other in others[low...] {
            guard other.at < segment.to else { break }
            if other.family != segment.family, other.from < segment.at, segment.at < other.to, counts(other) { count += 1 }
        }
        return count
    }
}
