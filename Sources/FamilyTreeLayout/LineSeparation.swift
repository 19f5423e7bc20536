/// How well a reader can tell one family's child lines from another's.
///
/// Child lines (union to child, other parent to child, cross-bloodline) and the marriage lines of
/// partners who do not stand side by side are drawn as straight segments along and across the
/// layers. Two segments of **different** families that run side by side (parallel, their extents
/// overlapping by more than a point) are *close* when they lie less than `minimumGap` apart, and
/// *on top of each other* when they lie on one line. A family's own lines may share a segment:
/// they are one bus (a union's lines to its children, one parent's cross-bloodline lines, one
/// person's marriage lines).
public struct LineSeparation: Sendable, Hashable {
    /// The least distance at which a reader still tells two parallel lines apart: a quarter of a
    /// box's height.
    public static let minimumGap = 12.0
    /// Family numbers of a person's marriage lines, below every union's (0 up) and every
    /// cross-bloodline parent's (-1 down).
    private static let marriageFamilies = -(1 << 40)

    /// Pairs of different families' parallel segments closer than the minimum gap but not on top.
    public var closePairs: Int
    /// Pairs of different families' parallel segments that lie on one line, overlapping.
    public var overlappingPairs: Int

    /// Measures the child lines of `layout`.
    public static func measure(_ layout: Layout, minimumGap: Double = minimumGap) -> LineSeparation {
        var horizontal: [Segment] = []
        var vertical: [Segment] = []
        for edge in layout.edges {
            let family: Int
            switch (edge.kind, edge.from) {
            case (.child, .union(let union)), (.otherParent, .union(let union)): family = union
            // One parent's cross-bloodline lines are that parent's family: they may share a start.
            case (.crossBloodline, .member(let parent)): family = -1 - parent
            // A marriage line of partners not side by side is its partner's: one person's marriage
            // lines may leave their box as one trunk (a line along the row ends at the union point,
            // so two partners' lines meet there and never overlap).
            case (.partner, .member(let partner)): guard case .union = edge.to else { continue }; family = Self.marriageFamilies - partner
            default: continue
            }
            for (start, end) in zip(edge.points, edge.points.dropFirst()) {
                if start.y == end.y, start.x != end.x {
                    horizontal.append(Segment(family: family, position: start.y, low: min(start.x, end.x), high: max(start.x, end.x)))
                } else if start.x == end.x, start.y != end.y {
                    vertical.append(Segment(family: family, position: start.x, low: min(start.y, end.y), high: max(start.y, end.y)))
                }
            }
        }
        var result = LineSeparation(closePairs: 0, overlappingPairs: 0)
        for segments in [horizontal, vertical] {
            let counts = pairs(in: segments, minimumGap: minimumGap)
            result.closePairs += counts.close
            result.overlappingPairs += counts.onTop
        }
        return result
    }

    /// An axis-parallel segment: its line's position across, and its extent along.
    struct Segment {
        var family: Int
        var position: Double
        var low: Double
        var high: Double
    }

    /// Counts the pairs by bands `minimumGap` wide: a close pair lies in one band or in two
    /// neighbouring ones, and within a pair of bands a sweep along the extents finds the segments
    /// that overlap, so the work grows with the lines that actually run side by side.
    static func pairs(in segments: [Segment], minimumGap: Double) -> (close: Int, onTop: Int) {
        guard segments.count > 1, minimumGap > 0 else { return (0, 0) }
        let tolerance = 0.01
        let band = { (segment: Segment) in Int((segment.position / minimumGap).rounded(.down)) }
        var byBand: [Int: [Segment]] = [:]
        for segment in segments { byBand[band(segment), default: []].append(segment) }
        var close = 0
        var onTop = 0
        for (key, own) in byBand {
            // This band's segments first (flag true), then the next band's; pairs within the next
            // band are counted when that band's turn comes.
            let candidates = own.map { ($0, true) } + (byBand[key + 1] ?? []).map { ($0, false) }
            let ordered = candidates.sorted { $0.0.low < $1.0.low }
            var active: [(Segment, Bool)] = []
            for (segment, isOwn) in ordered {
                active.removeAll { $0.0.high <= segment.low + tolerance }
                for (other, otherIsOwn) in active where (isOwn || otherIsOwn) && other.family != segment.family {
                    let distance = abs(other.position - segment.position)
                    if distance < tolerance { onTop += 1 } else if distance < minimumGap - tolerance { close += 1 }
                }
                active.append((segment, isOwn))
            }
        }
        return (close, onTop)
    }
}
