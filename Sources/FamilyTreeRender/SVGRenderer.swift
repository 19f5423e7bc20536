import FamilyTree
import FamilyTreeLayout

/// Renders a layout as a standalone SVG document.
///
/// The output has a viewBox, no scripts and no external references; every user string is
/// XML-escaped. Each member is one `<g>` with `id`, `data-member` and a `<title>`. Colours come from
/// an embedded style sheet with a `prefers-color-scheme: dark` variant; a member's own colour fills
/// its box. Members and lines of cross-bloodline connections are highlighted.
public struct SVGRenderer: Sendable {
    public var labeler: Labeler
    /// A title for the whole drawing (accessibility); defaults to a count of members.
    public var title: String?

    public init(labeler: Labeler = Labeler(), title: String? = nil) {
        self.labeler = labeler
        self.title = title
    }

    static let styleSheet = """
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
    @media (prefers-color-scheme: dark) {
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
    }
    """

    /// The SVG text; identical input gives byte-identical output.
    public func render(_ layout: Layout, of graph: FamilyGraph) -> String {
        let number = Formatting.number
        let escape = Formatting.xmlEscaped
        var crossBloodline = Array(repeating: false, count: graph.members.count)
        for link in graph.topology.crossLinks {
            crossBloodline[link.child] = true
            crossBloodline[link.parent] = true
        }
        let drawingTitle = title ?? "Family tree of \(graph.members.count) member\(graph.members.count == 1 ? "" : "s")"
        var svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" class="family-tree" viewBox="0 0 \(number(layout.width)) \(number(layout.height))" width="\(number(layout.width))" height="\(number(layout.height))" role="img" aria-labelledby="family-tree-title">
        <title id="family-tree-title">\(escape(drawingTitle))</title>
        <style>
        \(SVGRenderer.styleSheet)
        </style>
        <rect class="background" x="0" y="0" width="\(number(layout.width))" height="\(number(layout.height))"/>

        """
        svg += "<g class=\"edges\">\n"
        for edge in layout.edges {
            guard let first = edge.points.first else { continue }
            var path = "M\(number(first.x)) \(number(first.y))"
            for point in edge.points.dropFirst() { path += " L\(number(point.x)) \(number(point.y))" }
            svg += "<path class=\"edge \(edge.kind.rawValue)\" d=\"\(path)\"/>\n"
        }
        svg += "</g>\n<g class=\"unions\">\n"
        for union in layout.unions where union.partners.count == 2 {
            svg += "<circle class=\"union\" cx=\"\(number(union.x))\" cy=\"\(number(union.y))\" r=\"3\"/>\n"
        }
        svg += "</g>\n<g class=\"members\">\n"
        for box in layout.boxes {
            svg += memberGroup(box, member: graph.members[box.member], highlighted: crossBloodline[box.member])
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    private func memberGroup(_ box: Layout.MemberBox, member: Member, highlighted: Bool) -> String {
        let number = Formatting.number
        let escape = Formatting.xmlEscaped
        var classes = ["member"]
        if let sex = member.sex, sex == .male || sex == .female { classes.append(sex.rawValue) }
        if highlighted { classes.append("cross-bloodline") }
        var fill = ""
        if let color = member.color {
            fill = " style=\"fill: \(escape(color))\""
            if let light = SVGRenderer.isLight(color) { classes.append(light ? "custom-light" : "custom-dark") }
        }
        let lines = labeler.lines(for: member)
        let titleText = [member.fullName.isEmpty ? "(no name)" : member.fullName, member.lifeSpan].filter { !$0.isEmpty }.joined(separator: ", ")
        var group = "<g id=\"\(Formatting.xmlID(prefix: "m-", member.id))\" class=\"\(classes.joined(separator: " "))\" data-member=\"\(escape(member.id))\">\n"
        group += "<title>\(escape(titleText))</title>\n"
        group += "<rect class=\"box\" x=\"\(number(box.x))\" y=\"\(number(box.y))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"8\"\(fill)/>\n"
        var textX = box.x + box.width / 2
        if let photo = Labeler.embeddablePhoto(member) {
            let size = min(32, box.height - 8)
            let clip = Formatting.xmlID(prefix: "clip-", member.id)
            let (photoX, photoY) = (box.x + 6, box.y + (box.height - size) / 2)
            group += "<clipPath id=\"\(clip)\"><circle cx=\"\(number(photoX + size / 2))\" cy=\"\(number(photoY + size / 2))\" r=\"\(number(size / 2))\"/></clipPath>\n"
            group += "<image href=\"\(escape(photo))\" x=\"\(number(photoX))\" y=\"\(number(photoY))\" width=\"\(number(size))\" height=\"\(number(size))\" clip-path=\"url(#\(clip))\" preserveAspectRatio=\"xMidYMid slice\"/>\n"
            textX += 20
        }
        let firstBaseline = box.y + (lines.count > 1 ? box.height / 2 - 3 : box.height / 2 + 4.5)
        for (index, line) in lines.enumerated() {
            let baseline = index == 0 ? firstBaseline : firstBaseline + 16
            group += "<text class=\"\(index == 0 ? "name" : "detail")\" x=\"\(number(textX))\" y=\"\(number(baseline))\" text-anchor=\"middle\">\(escape(line))</text>\n"
        }
        return group + "</g>\n"
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
