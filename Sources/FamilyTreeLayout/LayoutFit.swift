/// How the shape of a drawing is chosen: generations as rows (a wide strip for a large family) or
/// as columns when that is nearer a page.
public enum LayoutFit: String, Sendable, CaseIterable {
    /// Generations as rows, however wide the chart grows.
    case wide
    /// Generations as rows or as columns, whichever gives the shape nearer a square page.
    case page
    /// `wide`, unless the chart is more than `stripAspect` times as wide as tall and
    /// columns make it at least twice as square; charts of more than `pageMembers` members (made
    /// to be zoomed, not printed) stay wide without a second layout.
    case auto

    /// How much wider than tall a chart must be before `auto` tries columns.
    public static let stripAspect = 4.0
    /// The most members `auto` lays out a second time to try columns.
    public static let pageMembers = 10_000

    /// How far a sketch's shape may be from the chosen side of a threshold and still decide the
    /// direction alone. A sketch (familytree's first start, no search) was within 15% of the full
    /// drawing's width and height on 33 real trees, so its aspect is off by less than this.
    public static let sketchMargin = 1.25

    /// The layout `place` makes in the direction this fit chooses (it may be asked for both).
    ///
    /// With `sketch`, a quick drawing of nearly the final shape, the direction is chosen from the
    /// sketches where they are clear of every threshold by `sketchMargin`, and only that direction
    /// is laid out in full; a shape near a threshold is decided on the full layouts, as without.
    public func layout<Failure: Error>(
        sketch: ((LayoutDirection) throws(Failure) -> Layout)? = nil, _ place: (LayoutDirection) throws(Failure) -> Layout
    ) throws(Failure) -> Layout {
        guard self != .wide else { return try place(.topDown) }
        if let sketch, let direction = try direction(rows: sketch(.topDown), columns: { () throws(Failure) in try sketch(.leftRight) }, margin: Self.sketchMargin) {
            return try place(direction)
        }
        let rows = try place(.topDown)
        var columns: Layout?
        let direction = try direction(rows: rows, columns: { () throws(Failure) in
            let placed = try place(.leftRight)
            columns = placed
            return placed
        }, margin: 1)
        return direction == .leftRight ? columns! : rows
    }

    /// The direction this fit chooses for drawings of the shapes of `rows` and `columns` (asked for
    /// only when needed), or `nil` where a shape lies within `margin` times a threshold (with a
    /// margin of 1, never `nil`).
    private func direction<Failure: Error>(
        rows: Layout, columns: () throws(Failure) -> Layout, margin: Double
    ) throws(Failure) -> LayoutDirection? {
        let rowsAspect = Self.aspect(rows)
        switch self {
        case .wide:
            return .topDown
        case .page:
            let columnsAspect = Self.aspect(try columns())
            if columnsAspect * margin < rowsAspect { return .leftRight }
            return columnsAspect >= rowsAspect * margin ? .topDown : nil
        case .auto:
            if rows.boxes.count > Self.pageMembers || rowsAspect * margin <= Self.stripAspect || rows.width * margin < rows.height { return .topDown }
            if rowsAspect <= Self.stripAspect * margin || rows.width < rows.height * margin { return nil }
            let columnsAspect = Self.aspect(try columns())
            if columnsAspect * 2 * margin <= rowsAspect { return .leftRight }
            return columnsAspect * 2 > rowsAspect * margin ? .topDown : nil
        }
    }

    /// The longer side over the shorter.
    static func aspect(_ layout: Layout) -> Double {
        let (long, short) = (max(layout.width, layout.height), min(layout.width, layout.height))
        return short > 0 ? long / short : 1
    }
}
