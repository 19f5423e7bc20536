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

    /// How far a sketch's aspect must be from a threshold to decide the direction alone (the
    /// square of it where two sketches' aspects are compared). Chosen from measurement, not a
    /// bound: on 33 real trees a sketch (familytree's first start, no search) had its aspect within
    /// 1.14 times the full drawing's, and the ratio of the two directions' aspects within 1.26.
    public static let sketchMargin = 1.25

    /// The layout `place` makes in the direction this fit chooses (it may be asked for both).
    ///
    /// With `sketch`, a quick drawing of nearly the final shape for a direction, the direction is
    /// chosen from the sketches where they are clear of every threshold by `sketchMargin`, and only
    /// that direction is finished; a shape near a threshold is decided on the full layouts, each
    /// finished from its sketch. A direction with no sketch (`nil`) is laid out by `place`; a tree
    /// with no sketch in rows is laid out as without sketches.
    public func layout<Failure: Error>(
        sketch: ((LayoutDirection) throws(Failure) -> LayoutSketch?)? = nil, _ place: (LayoutDirection) throws(Failure) -> Layout
    ) throws(Failure) -> Layout {
        guard self != .wide else { return try place(.topDown) }
        guard let sketch, let rows = try sketch(.topDown) else { return try decide(rows: place(.topDown)) { () throws(Failure) in try place(.leftRight) } }
        var columns: LayoutSketch?
        func sketchedColumns() throws(Failure) -> LayoutSketch {
            if let columns { return columns }
            let sketched: LayoutSketch
            if let quick = try sketch(.leftRight) { sketched = quick } else { sketched = LayoutSketch(final: try place(.leftRight)) }
            columns = sketched
            return sketched
        }
        switch try direction(rows: rows.layout, columns: { () throws(Failure) in try sketchedColumns().layout }, margin: Self.sketchMargin) {
        case .topDown: return rows.finish()
        case .leftRight: return try sketchedColumns().finish()
        case nil: return try decide(rows: rows.finish()) { () throws(Failure) in try sketchedColumns().finish() }
        }
    }

    /// `rows`, or the layout `columns` gives where this fit chooses it over `rows`.
    private func decide<Failure: Error>(rows: Layout, columns: () throws(Failure) -> Layout) throws(Failure) -> Layout {
        var placedColumns: Layout?
        let direction = try direction(rows: rows, columns: { () throws(Failure) in
            let placed = try columns()
            placedColumns = placed
            return placed
        }, margin: 1)
        return direction == .leftRight ? placedColumns ?? rows : rows
    }

    /// The direction this fit chooses for drawings of the shapes of `rows` and `columns` (asked for
    /// only when needed), or `nil` where an aspect lies within `margin` times a threshold, or the
    /// ratio of the two within `margin` squared (with a margin of 1, never `nil`).
    private func direction<Failure: Error>(
        rows: Layout, columns: () throws(Failure) -> Layout, margin: Double
    ) throws(Failure) -> LayoutDirection? {
        let rowsAspect = Self.aspect(rows)
        let ratioMargin = margin * margin
        switch self {
        case .wide:
            return .topDown
        case .page:
            let columnsAspect = Self.aspect(try columns())
            if columnsAspect * ratioMargin < rowsAspect { return .leftRight }
            return columnsAspect >= rowsAspect * ratioMargin ? .topDown : nil
        case .auto:
            let tall = rows.width * margin < rows.height
            if rows.boxes.count > Self.pageMembers || rowsAspect * margin <= Self.stripAspect || tall { return .topDown }
            // Wider than tall, and more than a strip's aspect, by the margin.
            guard rowsAspect > Self.stripAspect * margin else { return nil }
            let columnsAspect = Self.aspect(try columns())
            if columnsAspect * 2 * ratioMargin <= rowsAspect { return .leftRight }
            return columnsAspect * 2 > rowsAspect * ratioMargin ? .topDown : nil
        }
    }

    /// The longer side over the shorter.
    static func aspect(_ layout: Layout) -> Double {
        let (long, short) = (max(layout.width, layout.height), min(layout.width, layout.height))
        return short > 0 ? long / short : 1
    }
}

/// A quick drawing of a tree with nearly the shape of its full layout, and the way on from it to
/// the full layout (for familytree's engine, the search continuing from its first start).
public struct LayoutSketch {
    /// The quick drawing.
    public let layout: Layout
    private let finishing: () -> Layout

    /// A sketch `layout` whose full layout `finish` makes.
    public init(_ layout: Layout, finish: @escaping () -> Layout) {
        self.layout = layout
        finishing = finish
    }

    /// A full layout standing as its own sketch (an engine that has no quicker one).
    public init(final layout: Layout) {
        self.init(layout) { layout }
    }

    /// The full layout.
    public func finish() -> Layout { finishing() }
}
