import FamilyTree
import FamilyTreeLayout

/// Renders a layout as a standalone SVG document.
///
/// The output has a viewBox, no scripts and no external references; every user string is
/// XML-escaped. Each member is one `<g>` with `id`, `data-member` and a `<title>`. Colours come from
/// an embedded style sheet: light (the default, for a chart embedded in a page), dark, or both with
/// a `prefers-color-scheme: dark` variant (`.auto`); a member's own colour fills its box. Members and lines of cross-bloodline connections are highlighted.
public struct SVGRenderer: Sendable {
    /// The colours of a chart.
    public enum Theme: String, Sendable, Hashable, CaseIterable {
        /// Light colours whatever the page around it: for an SVG embedded in a document.
        case light
        /// Dark colours.
        case dark
        /// Light or dark as the reader's system is set (`prefers-color-scheme`): for a page of its own.
        case auto
    }

    /// Writes each member's label and sizes the boxes.
    public var labeler: Labeler
    /// A title for the whole drawing (accessibility); defaults to a count of members.
    public var title: String?
    /// The colours: light, dark, or following the reader's system.
    public var theme: Theme
    /// A member drawn marked out (the person a `--root` chart is about).
    public var highlighted: Member.ID?
    /// The drawing's width on the page in pixels (the height follows); `nil` makes it responsive:
    /// as wide as the page's column, never wider than its natural size when placed inline.
    public var width: Double?
    /// Only what lies in this part of the chart (x, y, width, height in the layout's units) is
    /// written, in the same coordinates: the sheets of a printed poster, each drawn from its own
    /// small SVG. `nil` writes everything.
    public var window: Window?

    /// A part of a chart, in the layout's units.
    public struct Window: Sendable, Hashable {
        public var x: Double, y: Double, width: Double, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// Whether anything of the rectangle from (left, top) to (right, bottom) lies in the window
        /// (with a margin for strokes and marks drawn just outside a box or line).
        func touches(left: Double, top: Double, right: Double, bottom: Double) -> Bool {
            right >= x - 8 && left <= x + width + 8 && bottom >= y - 8 && top <= y + height + 8
        }
    }

    /// A renderer labelling with `labeler`, titled `title`, in `theme`, marking out `highlighted`,
    /// `width` pixels wide (`nil`: responsive).
    public init(labeler: Labeler = Labeler(), title: String? = nil, theme: Theme = .light, highlighted: Member.ID? = nil, width: Double? = nil) {
        self.labeler = labeler
        self.title = title
        self.theme = theme
        self.highlighted = highlighted
        self.width = width
    }

    /// The colours every chart starts from.
    static let lightRules = """
    svg.family-tree { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
    .background { fill: #ffffff; }
    .member rect.box { fill: #f4f6fb; stroke: #5b6b8c; stroke-width: 1.2; }
    .member.male rect.box { fill: #e8f1fb; }
    .member.female rect.box { fill: #fbeef3; }
    .member.cross-bloodline rect.box { stroke: #d9822b; stroke-width: 2.5; stroke-dasharray: 6 3; }
    .member text { fill: #1d2433; }
    .member text.name { font-size: 13px; font-weight: 600; }
    .member text.detail { font-size: 11px; fill: #4a5568; }
    .member.custom-light text, .member.custom-light text.detail { fill: #111111; }
    .member.custom-dark text, .member.custom-dark text.detail { fill: #ffffff; }
    .edge { fill: none; stroke: #5b6b8c; stroke-width: 1.4; }
    .edge.partner { stroke-width: 2; }
    .edge.other-parent { stroke-dasharray: 2 3; }
    .edge.cross-bloodline { stroke: #d9822b; stroke-width: 2; stroke-dasharray: 6 3; }
    .union { fill: #5b6b8c; }
    .edge.adopted, .edge.foster { stroke-dasharray: 7 4; }
    .edge.step { stroke-dasharray: 1.5 3.5; }
    .edge.divorced { stroke-dasharray: 4 3; }
    .divorce-mark { fill: none; stroke: #5b6b8c; stroke-width: 1.6; }
    .legend text { font-size: 11px; fill: #4a5568; }
    .member.root rect.box { stroke: #1a73e8; stroke-width: 3.5; }
    """

    /// The dark colours, over the light ones.
    static let darkRules = """
    .background { fill: #14171f; }
    .member rect.box { fill: #232a38; stroke: #8fa3c8; }
    .member.male rect.box { fill: #1f2b3d; }
    .member.female rect.box { fill: #3a2430; }
    .member.cross-bloodline rect.box { stroke: #f0a35a; }
    .member text { fill: #e8ecf4; }
    .member text.detail { fill: #b3bdd0; }
    .edge { stroke: #8fa3c8; }
    .edge.cross-bloodline { stroke: #f0a35a; }
    .union { fill: #8fa3c8; }
    .divorce-mark { stroke: #8fa3c8; }
    .legend text { fill: #b3bdd0; }
    .member.root rect.box { stroke: #8ab4f8; }
    """

    /// The style sheet for `theme`: light, dark, or the reader's system setting.
    static func styleSheet(_ theme: Theme) -> String {
        switch theme {
        case .light: lightRules
        case .dark: lightRules + "\n" + darkRules
        case .auto: lightRules + "\n@media (prefers-color-scheme: dark) {\n" + darkRules.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n}"
        }
    }

    /// The SVG text; identical input gives byte-identical output. Throws when `layout` was not
    /// made of `graph`.
    public func render(_ layout: Layout, of graph: FamilyGraph) throws(LayoutMismatch) -> String {
        try layout.check(against: graph)
        var output = CollectedOutput()
        // Collecting in memory cannot fail.
        try! render(layout, of: graph, to: &output)
        return output.text
    }

    /// Writes the SVG to `output` in chunks, never holding the whole document in memory. Throws
    /// `LayoutMismatch` when `layout` was not made of `graph`, and `output`'s own errors.
    public func render<Output: RenderedOutput>(_ layout: Layout, of graph: FamilyGraph, to output: inout Output) throws {
        try layout.check(against: graph)
        var crossBloodline = Array(repeating: false, count: graph.members.count)
        for link in graph.topology.crossLinks {
            crossBloodline[link.child] = true
            crossBloodline[link.parent] = true
        }
        let drawingTitle = title ?? "Family tree of \(graph.members.count) member\(graph.members.count == 1 ? "" : "s")"
        let styles = LineStyle.styles(of: layout, in: graph)
        let usedStyles = LineStyle.allCases.filter(styles.contains)
        // A legend row under the chart, when any line is drawn other than plain.
        let height = layout.height + (usedStyles.isEmpty ? 0 : Self.legendHeight)
        var writer = ChunkedWriter(output)
        writer.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"family-tree\" viewBox=\"0 0 ")
        writer.appendNumber(layout.width)
        writer.append(" ")
        writer.appendNumber(height)
        if let width, width > 0 {
            writer.append("\" width=\"")
            writer.appendNumber(width)
            writer.append("\" height=\"")
            writer.appendNumber(height * width / max(layout.width, 1))
        } else {
            // Responsive: the column's width in a page (the viewBox keeps the proportions), at most
            // the natural size when the SVG is placed inline.
            writer.append("\" width=\"100%\" style=\"max-width: ")
            writer.appendNumber(layout.width)
            writer.append("px; height: auto")
        }
        writer.append("\" role=\"img\" aria-labelledby=\"family-tree-title\">\n<title id=\"family-tree-title\">")
        writer.appendEscaped(drawingTitle)
        writer.append("</title>\n<style>\n")
        writer.append(SVGRenderer.styleSheet(theme))
        writer.append("\n</style>\n<rect class=\"background\" x=\"0\" y=\"0\" width=\"")
        writer.appendNumber(layout.width)
        writer.append("\" height=\"")
        writer.appendNumber(layout.height)
        writer.append("\"/>\n<g class=\"edges\">\n")
        for (edge, style) in zip(layout.edges, styles) {
            guard let first = edge.points.first else { continue }
            if let window {
                let xs = edge.points.map(\.x), ys = edge.points.map(\.y)
                guard window.touches(left: xs.min()!, top: ys.min()!, right: xs.max()!, bottom: ys.max()!) else { continue }
            }
            writer.append("<path class=\"edge ")
            writer.append(edge.kind.rawValue)
            if let style {
                writer.append(" ")
                writer.append(style.rawValue)
            }
            writer.append("\" d=\"M")
            writer.appendNumber(first.x)
            writer.append(" ")
            writer.appendNumber(first.y)
            for point in edge.points.dropFirst() {
                writer.append(" L")
                writer.appendNumber(point.x)
                writer.append(" ")
                writer.appendNumber(point.y)
            }
            writer.append("\"/>\n")
            try writer.flushIfFull()
        }
        writer.append("</g>\n<g class=\"unions\">\n")
        for union in layout.unions where union.partners.count == 2 {
            if let window, !window.touches(left: union.marker.x, top: union.marker.y, right: union.marker.x, bottom: union.marker.y) { continue }
            writer.append("<circle class=\"union\" cx=\"")
            writer.appendNumber(union.marker.x)
            writer.append("\" cy=\"")
            writer.appendNumber(union.marker.y)
            writer.append("\" r=\"3\"/>\n")
            if LineStyle.isDivorced(union.union, in: graph) { writeDivorceMark(x: union.marker.x, y: union.marker.y, into: &writer) }
            try writer.flushIfFull()
        }
        writer.append("</g>\n<g class=\"members\">\n")
        // The members are most of the file: written on every core, in order.
        let boxes = layout.boxes
        let shown = window.map { window in
            boxes.filter { window.touches(left: $0.x, top: $0.y, right: $0.x + $0.width, bottom: $0.y + $0.height) }
        } ?? boxes
        try writer.appendRecords(shown.indices) { [self, crossBloodline] index, partWriter in
            let box = shown[index]
            writeMember(box, member: graph.members[box.member], highlighted: crossBloodline[box.member], into: &partWriter)
        }
        writer.append("</g>\n")
        if !usedStyles.isEmpty { writeLegend(usedStyles, top: layout.height, into: &writer) }
        writer.append("</svg>\n")
        try writer.flush()
        output = writer.output
    }

    static let legendHeight = 30.0

    /// Two short slashes across a divorced couple's line, as genealogy charts mark a divorce.
    private func writeDivorceMark<Output>(x: Double, y: Double, into writer: inout ChunkedWriter<Output>) {
        writer.append("<path class=\"divorce-mark\" d=\"")
        for offset in [-3.0, 3.0] {
            writer.append("M")
            writer.appendNumber(x + offset - 2.5)
            writer.append(" ")
            writer.appendNumber(y + 6)
            writer.append(" L")
            writer.appendNumber(x + offset + 2.5)
            writer.append(" ")
            writer.appendNumber(y - 6)
            writer.append(offset < 0 ? " " : "")
        }
        writer.append("\"/>\n")
    }

    /// A line of samples under the chart: what each kind of dashed or dotted line means.
    private func writeLegend<Output>(_ styles: [LineStyle], top: Double, into writer: inout ChunkedWriter<Output>) {
        writer.append("<g class=\"legend\">\n")
        var x = 12.0
        let y = top + Self.legendHeight / 2
        for style in styles {
            writer.append("<path class=\"edge ")
            writer.append(style == .divorced ? "partner" : "child")
            writer.append(" ")
            writer.append(style.rawValue)
            writer.append("\" d=\"M")
            writer.appendNumber(x)
            writer.append(" ")
            writer.appendNumber(y)
            writer.append(" L")
            writer.appendNumber(x + 28)
            writer.append(" ")
            writer.appendNumber(y)
            writer.append("\"/>\n<text x=\"")
            writer.appendNumber(x + 34)
            writer.append("\" y=\"")
            writer.appendNumber(y + 4)
            writer.append("\">")
            writer.append(style.legend)
            writer.append("</text>\n")
            x += 44 + Double(style.legend.count) * 6.5 + 16
        }
        writer.append("</g>\n")
    }

    private func writeMember<Output>(_ box: Layout.MemberBox, member: Member, highlighted: Bool, into writer: inout ChunkedWriter<Output>) {
        writer.append("<g id=\"")
        writer.append(Formatting.xmlID(prefix: "m-", member.id))
        writer.append("\" class=\"member")
        if let sex = member.sex, sex == .male || sex == .female {
            writer.append(" ")
            writer.append(sex.rawValue)
        }
        if highlighted { writer.append(" cross-bloodline") }
        if member.id == self.highlighted { writer.append(" root") }
        if let color = member.color, let light = SVGRenderer.isLight(color) { writer.append(light ? " custom-light" : " custom-dark") }
        writer.append("\" data-member=\"")
        writer.appendEscaped(member.id)
        writer.append("\">\n<title>")
        writer.appendEscaped(member.fullName.isEmpty ? "(no name)" : member.fullName)
        let lifeSpan = member.lifeSpan
        if !lifeSpan.isEmpty {
            writer.append(", ")
            writer.appendEscaped(lifeSpan)
        }
        writer.append("</title>\n<rect class=\"box\" x=\"")
        writer.appendNumber(box.x)
        writer.append("\" y=\"")
        writer.appendNumber(box.y)
        writer.append("\" width=\"")
        writer.appendNumber(box.width)
        writer.append("\" height=\"")
        writer.appendNumber(box.height)
        writer.append("\" rx=\"8\"")
        if let color = member.color {
            writer.append(" style=\"fill: ")
            writer.appendEscaped(color)
            writer.append("\"")
        }
        writer.append("/>\n")
        var textX = box.x + box.width / 2
        if let photo = Labeler.embeddablePhoto(member) {
            let size = min(32, box.height - 8)
            let clip = Formatting.xmlID(prefix: "clip-", member.id)
            let (photoX, photoY) = (box.x + 6, box.y + (box.height - size) / 2)
            writer.append("<clipPath id=\"")
            writer.append(clip)
            writer.append("\"><circle cx=\"")
            writer.appendNumber(photoX + size / 2)
            writer.append("\" cy=\"")
            writer.appendNumber(photoY + size / 2)
            writer.append("\" r=\"")
            writer.appendNumber(size / 2)
            writer.append("\"/></clipPath>\n<image href=\"")
            writer.appendEscaped(photo)
            writer.append("\" x=\"")
            writer.appendNumber(photoX)
            writer.append("\" y=\"")
            writer.appendNumber(photoY)
            writer.append("\" width=\"")
            writer.appendNumber(size)
            writer.append("\" height=\"")
            writer.appendNumber(size)
            writer.append("\" clip-path=\"url(#")
            writer.append(clip)
            writer.append(")\" preserveAspectRatio=\"xMidYMid slice\"/>\n")
            textX += 20
        }
        let text = labeler.text(for: member)
        let lines = text.lines
        // Lines 16 apart, centred in the box (two lines sit half a point low, as they always have).
        let firstBaseline = box.y + box.height / 2 + (lines.count == 2 ? -3 : 4.5 - 8 * Double(lines.count - 1))
        let innerWidth = box.width - 16 - (Labeler.embeddablePhoto(member) == nil ? 0 : 40)
        for (index, line) in lines.enumerated() {
            let isName = index < text.name.count
            writer.append(isName ? "<text class=\"name\" x=\"" : "<text class=\"detail\" x=\"")
            writer.appendNumber(textX)
            writer.append("\" y=\"")
            writer.appendNumber(firstBaseline + 16 * Double(index))
            // Boxes are sized by an estimate of the text's width; a browser whose sans-serif is
            // wider (DejaVu Sans on Linux: up to about 16% on names in capitals) would spill a line
            // that fills its box. Such lines get the estimate as their length, so they are drawn
            // that wide whatever the font; shorter lines keep their natural width (a length given
            // to them would stretch a narrower font).
            let estimate = Labeler.textWidth(line, fontSize: isName ? 13 : 11)
            if estimate > innerWidth * 0.85 {
                writer.append("\" textLength=\"")
                writer.appendNumber(min(estimate, innerWidth))
                writer.append("\" lengthAdjust=\"spacingAndGlyphs")
            }
            writer.append("\" text-anchor=\"middle\">")
            writer.appendEscaped(line)
            writer.append("</text>\n")
        }
        writer.append("</g>\n")
    }

    /// Whether a `#rgb`/`#rrggbb` colour is light (dark text reads on it); nil for colour names.
    static func isLight(_ color: String) -> Bool? {
        var hex = String(color.dropFirst())
        guard color.hasPrefix("#") else { return nil }
        if hex.count == 3 || hex.count == 4 { hex = hex.prefix(3).map { "\($0)\($0)" }.joined() }
        guard hex.count >= 6, let value = Int(hex.prefix(6), radix: 16) else { return nil }
        let (red, green, blue) = (Double(value >> 16 & 0xFF), Double(value >> 8 & 0xFF), Double(value & 0xFF))
        return 0.299 * red + 0.587 * green + 0.114 * blue > 150
    }
}
