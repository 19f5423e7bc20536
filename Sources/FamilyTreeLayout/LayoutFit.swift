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

    /// The layout `place` makes in the direction this fit chooses (it may be asked for both).
    public func layout<Failure: Error>(_ place: (LayoutDirection) throws(Failure) -> Layout) throws(Failure) -> Layout {
        let rows = try place(.topDown)
        guard self != .wide else { return rows }
        let rowsAspect = Self.aspect(rows)
        if self == .auto, rowsAspect <= Self.stripAspect || rows.width < rows.height || rows.boxes.count > Self.pageMembers { return rows }
        let columns = try place(.leftRight)
        let columnsAspect = Self.aspect(columns)
        switch self {
        case .page: return columnsAspect < rowsAspect ? columns : rows
        case .auto: return columnsAspect * 2 <= rowsAspect ? columns : rows
        case .wide: return rows
        }
    }

    /// The longer side over the shorter.
    static func aspect(_ layout: Layout) -> Double {
        let (long, short) = (max(layout.width, layout.height), min(layout.width, layout.height))
        return short > 0 ? long / short : 1
    }
}
