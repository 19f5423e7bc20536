/// Lines drawn through a person's box: a reader takes such a line for one of that person's own.
public enum LinesThroughBoxes {
    /// The number of (segment, box) pairs where a segment of a line (child, marriage,
    /// cross-bloodline) runs through the inside of a box; a line that ends on a box's edge, as
    /// every line to or from a person does, does not count.
    public static func count(in layout: Layout) -> Int {
        let topDown = layout.direction == .topDown
        func along(_ box: Layout.MemberBox) -> ClosedRange<Double> { topDown ? box.x...(box.x + box.width) : box.y...(box.y + box.height) }
        func across(_ box: Layout.MemberBox) -> ClosedRange<Double> { topDown ? box.y...(box.y + box.height) : box.x...(box.x + box.width) }
        // Each layer's boxes in order along it (they never overlap), and the band they fill across,
        // the bands in order across.
        let rows = layout.layers.filter { !$0.isEmpty }.map { members in
            let boxes = members.map { layout.boxes[$0] }.sorted { along($0).lowerBound < along($1).lowerBound }
            let band = boxes.map { across($0).lowerBound }.min()!...boxes.map { across($0).upperBound }.max()!
            return (band: band, starts: boxes.map { along($0).lowerBound }, boxes: boxes)
        }.sorted { $0.band.lowerBound < $1.band.lowerBound }
        // The furthest any band so far reaches across: the rows a segment can cross start where
        // this first reaches it (a search, not a look at every row: 100,000 generations' lines
        // against 100,000 rows took minutes).
        var reach = -Double.infinity
        let reachSoFar = rows.map { row in
            reach = max(reach, row.band.upperBound)
            return reach
        }
        /// Whether `low...high` reaches into the inside of `range` (half a point in from its edges).
        func entersInside(_ low: Double, _ high: Double, _ range: ClosedRange<Double>) -> Bool {
            let (inLow, inHigh) = (range.lowerBound + 0.5, range.upperBound - 0.5)
            return low == high ? low > inLow && low < inHigh : low < inHigh && high > inLow
        }
        var count = 0
        for edge in layout.edges {
            for (start, end) in zip(edge.points, edge.points.dropFirst()) where start != end {
                let (alongLow, alongHigh) = topDown ? (min(start.x, end.x), max(start.x, end.x)) : (min(start.y, end.y), max(start.y, end.y))
                let (acrossLow, acrossHigh) = topDown ? (min(start.y, end.y), max(start.y, end.y)) : (min(start.x, end.x), max(start.x, end.x))
                let firstRow = reachSoFar.partitioningIndex { $0 >= acrossLow }
                for row in rows[firstRow...] {
                    guard row.band.lowerBound <= acrossHigh else { break }
                    guard acrossLow <= row.band.upperBound else { continue }
                    // From the last box starting at or before the segment's low end, while boxes start before its high end.
                    let first = row.starts.partitioningIndex { $0 > alongLow }
                    for box in row.boxes[max(0, first - 1)...] {
                        guard along(box).lowerBound <= alongHigh else { break }
                        if entersInside(alongLow, alongHigh, along(box)), entersInside(acrossLow, acrossHigh, across(box)) { count += 1 }
                    }
                }
            }
        }
        return count
    }
}
