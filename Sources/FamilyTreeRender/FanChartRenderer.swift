import FamilyTree
import Foundation

/// A fan chart: a person in the middle of a half circle, their parents in the first ring (father
/// left, mother right), their grandparents in the next, and so on out to the generations asked.
///
/// Text is always upright: across the wedge in the inner rings, where wedges are wide, and along
/// the radius in the outer ones, turned so it reads left to right on both sides. An ancestor not
/// known leaves an empty wedge (the gaps in one's research); a person reached twice (cousins who
/// married) is in each wedge that leads to them, as on a paper fan chart. Only the two parents of
/// a person's birth family are followed: cross-bloodline parents have no wedge of their own.
public struct FanChartRenderer: Sendable {
    /// Rings, the person in the middle counted: 2 (them and their parents) to 10.
    public var generations: Int
    /// The colours.
    public var theme: SVGRenderer.Theme
    /// The SVG's width in pixels; `nil` for one as wide as its page's column.
    public var width: Double?

    /// The most rings a fan chart draws.
    public static let generationRange = 2...10

    /// A renderer of `generations` rings in `theme`.
    public init(generations: Int, theme: SVGRenderer.Theme = .light, width: Double? = nil) {
        self.generations = min(max(generations, Self.generationRange.lowerBound), Self.generationRange.upperBound)
        self.theme = theme
        self.width = width
    }

    /// The middle's radius, and each ring's width: rings with text along the arc, then along the radius.
    static let centreRadius = 78.0
    static let arcRings = 2
    static let arcRingWidth = 84.0
    static let radialRingWidth = 150.0
    static let margin = 16.0

    /// Ahnentafel slots: `slots[g][i]` is the member in wedge `i` of ring `g` (father of `i` at
    /// `2i`, mother at `2i + 1`), `nil` where nobody is known.
    func slots(of root: Int, in graph: FamilyGraph) -> [[Int?]] {
        var slots: [[Int?]] = [[root]]
        for ring in 1..<generations {
            slots.append(slots[ring - 1].flatMap { child -> [Int?] in
                guard let child else { return [nil, nil] }
                let (father, mother) = Self.parents(of: child, in: graph)
                return [father, mother]
            })
        }
        return slots
    }

    /// The father and mother of a member's birth family (the first family they are a child of,
    /// by birth when they have one): a man or the first partner left, a woman or the second right.
    static func parents(of child: Int, in graph: FamilyGraph) -> (Int?, Int?) {
        let families = graph.topology.parentUnions[child]
        let birth = families.first { union in
            graph.unions[union].children.first { graph.index(of: $0.member) == child }?.kind == .birth
        } ?? families.first
        guard let birth else { return (nil, nil) }
        let partners = graph.topology.partners[birth]
        if partners.count == 1 {
            return graph.members[partners[0]].sex == .female ? (nil, partners[0]) : (partners[0], nil)
        }
        guard partners.count >= 2 else { return (nil, nil) }
        let (first, second) = (graph.members[partners[0]].sex, graph.members[partners[1]].sex)
        // A woman recorded first beside a man (or someone of no stated sex) goes right.
        let swapped = (first == .female && second != .female) || (second == .male && first != .male)
        return swapped ? (partners[1], partners[0]) : (partners[0], partners[1])
    }

    /// The outer radius of ring `ring` (0 is the middle).
    static func outerRadius(of ring: Int) -> Double {
        guard ring > 0 else { return centreRadius }
        let arc = min(ring, arcRings), radial = max(0, ring - arcRings)
        return centreRadius + Double(arc) * arcRingWidth + Double(radial) * radialRingWidth
    }

    /// A web page of its own showing the fan around the member at `root`: the SVG inline, as wide
    /// as the window and never taller, on the chart's own background. It needs no network.
    public func page(_ graph: FamilyGraph, root: Int) -> String {
        let svg = render(graph, root: root)
        // Inline SVG in HTML takes no XML declaration.
        let inline = svg.hasPrefix("<?xml") ? String(svg[svg.index(after: svg.firstIndex(of: "\n") ?? svg.startIndex)...]) : svg
        let name = graph.members[root].fullName.isEmpty ? graph.members[root].id : graph.members[root].fullName
        let (light, dark) = ("#ffffff", "#14171f")
        let background = switch theme {
        case .light: "html { background: \(light); }"
        case .dark: "html { background: \(dark); }"
        case .auto: "html { background: \(light); }\n@media (prefers-color-scheme: dark) { html { background: \(dark); } }"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Fan chart of \(Formatting.xmlEscaped(name))</title>
            <style>
            \(background)
            body { margin: 0; }
            body > svg { display: block; width: 100%; height: auto; max-height: 100vh; }
            </style>
            </head>
            <body>
            \(inline)</body>
            </html>

            """
    }

    /// The SVG of the fan around the member at `root`.
    public func render(_ graph: FamilyGraph, root: Int) -> String {
        let slots = slots(of: root, in: graph)
        let radius = Self.outerRadius(of: generations - 1)
        let centreX = radius + Self.margin, centreY = radius + Self.margin
        // Below the middle: room for the person's own lines under the half circle's base.
        let canvasWidth = 2 * centreX, canvasHeight = centreY + Self.margin + 8
        func number(_ value: Double) -> String { Formatting.number(value) }
        func point(_ r: Double, _ degrees: Double) -> (Double, Double) {
            let radians = degrees * .pi / 180
            return (centreX + r * cos(radians), centreY - r * sin(radians))
        }

        let name = graph.members[root].fullName.isEmpty ? "(no name)" : graph.members[root].fullName
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"family-tree fan-chart\" viewBox=\"0 0 \(number(canvasWidth)) \(number(canvasHeight))\""
        if let width, width > 0 {
            svg += " width=\"\(number(width))\" height=\"\(number(canvasHeight * width / canvasWidth))\""
        } else {
            svg += " width=\"100%\" preserveAspectRatio=\"xMidYMin meet\""
        }
        svg += " role=\"img\" aria-label=\"\(Formatting.xmlEscaped("Fan chart of \(name)"))\">\n"
        svg += "<title>\(Formatting.xmlEscaped("Fan chart of \(name), \(generations) generations"))</title>\n"
        svg += "<style>\n\(SVGRenderer.styleSheet(theme))\n\(Self.fanRules(theme))\n</style>\n"
        svg += "<rect class=\"background\" width=\"\(number(canvasWidth))\" height=\"\(number(canvasHeight))\"/>\n"
        var wedges = ""
        var labels = ""

        for (ring, row) in slots.enumerated() {
            let inner = ring == 0 ? 0 : Self.outerRadius(of: ring - 1), outer = Self.outerRadius(of: ring)
            let span = 180.0 / Double(row.count)
            for (slot, member) in row.enumerated() {
                let start = 180.0 - Double(slot) * span, end = start - span
                let classes = member.map { Self.classes(of: graph.members[$0]) } ?? "empty"
                let memberAttribute = member.map { " data-member=\"\(Formatting.xmlEscaped(graph.members[$0].id))\"" } ?? ""
                // The wedge: an annular sector, or the half disc in the middle.
                let (outerStartX, outerStartY) = point(outer, start), (outerEndX, outerEndY) = point(outer, end)
                var path = "M\(number(outerStartX)),\(number(outerStartY)) A\(number(outer)),\(number(outer)) 0 0 1 \(number(outerEndX)),\(number(outerEndY)) "
                if ring == 0 {
                    path += "Z"
                } else {
                    let (innerEndX, innerEndY) = point(inner, end), (innerStartX, innerStartY) = point(inner, start)
                    path += "L\(number(innerEndX)),\(number(innerEndY)) A\(number(inner)),\(number(inner)) 0 0 0 \(number(innerStartX)),\(number(innerStartY)) Z"
                }
                wedges += "<path class=\"wedge \(classes)\"\(memberAttribute) d=\"\(path)\"/>\n"
                guard let member else { continue }
                let person = graph.members[member]
                let fullName = person.fullName.isEmpty ? "(no name)" : person.fullName
                let years = person.lifeSpan
                let middle = (inner + outer) / 2
                if ring == 0 {
                    // The person the chart is drawn around: their whole name, upright, on as many
                    // lines (and as small) as the half disc needs, never cut where it can fit.
                    let (size, nameLines) = Self.centreName(fullName, radius: outer)
                    for (index, line) in nameLines.enumerated() {
                        let baseline = centreY - Self.centreBaseline(line: index, of: nameLines.count, size: size)
                        labels += "<text class=\"name\" x=\"\(number(centreX))\" y=\"\(number(baseline))\" font-size=\"\(number(size))\" text-anchor=\"middle\">\(Formatting.xmlEscaped(line))</text>\n"
                    }
                    if !years.isEmpty {
                        labels += "<text class=\"detail\" x=\"\(number(centreX))\" y=\"\(number(centreY - Self.centreYearsBaseline))\" font-size=\"11\" text-anchor=\"middle\">\(Formatting.xmlEscaped(years))</text>\n"
                    }
                } else if ring <= Self.arcRings {
                    // Across the wedge, at right angles to the radius: upright everywhere on a half
                    // circle. (Text on a curved path would be nicer, but librsvg, which makes the
                    // PDF, does not draw it.)
                    let angle = (start + end) / 2
                    let size = [12.5, 11.5][ring - 1]
                    let (x, y) = point(middle, angle)
                    // The chord across the wedge at the inner line's radius, less a margin.
                    let limit = 2 * (middle - 8) * sin(span / 2 * .pi / 180) - 10
                    let group = "<g transform=\"translate(\(number(x)),\(number(y))) rotate(\(number(90 - angle)))\">"
                    // A name too long for one line takes two (at a space) before anything is cut.
                    let nameLines = Self.wrapped(fullName, fontSize: size, limit: max(limit, 8))
                    labels += group + Self.stacked(nameLines, years: years, size: size, yearsSize: size - 1.5, limit: max(limit, 8)) + "</g>\n"
                } else {
                    // Along the radius, turned to read left to right on either side.
                    let angle = (start + end) / 2
                    let rotation = angle <= 90 ? -angle : 180 - angle
                    let across = middle * span * .pi / 180
                    let (x, y) = point(middle, angle)
                    let limit = outer - inner - 12
                    // Two lines when the wedge is wide enough for them, else the name and years on one.
                    let twoLines = across >= 24
                    let wedgeSize = min(11.5, max(3, (twoLines ? across / 2.3 : across * 0.8)))
                    // A name a little too long for the ring is set a little smaller before it is cut.
                    let longest = twoLines || years.isEmpty ? fullName : "\(fullName) \(years)"
                    let size = max(wedgeSize * 0.8, min(wedgeSize, wedgeSize * limit / max(1, Labeler.textWidth(longest, fontSize: wedgeSize))))
                    let group = "<g transform=\"translate(\(number(x)),\(number(y))) rotate(\(number(rotation)))\">"
                    // A wedge wide enough across (the rings just past the second, or more rings' as
                    // the chart has fewer) takes the name on two lines (three where it is wide
                    // enough and two would cut it), the years below, before setting it smaller or
                    // cutting it.
                    let nameFits = Labeler.textWidth(fullName, fontSize: wedgeSize) <= limit
                    if !nameFits, across >= 3.6 * wedgeSize, fullName.contains(" ") {
                        let words = fullName.split(separator: " ").map(String.init)
                        let inTwo = Self.wrapped(fullName, fontSize: wedgeSize, limit: limit)
                        let inThree = across >= 4.8 * wedgeSize ? Self.filledLines(words, fontSize: wedgeSize, limits: [limit, limit, limit]) : nil
                        let nameLines = inTwo.joined(separator: " ") != fullName ? inThree ?? inTwo : inTwo
                        labels += group + Self.stacked(nameLines, years: years, size: wedgeSize, yearsSize: wedgeSize - 1, limit: limit) + "</g>\n"
                    } else if twoLines, !years.isEmpty {
                        let shownName = Labeler.shortened(fullName, fontSize: size, limit: limit)
                        let shownYears = Labeler.shortened(years, fontSize: size - 1, limit: limit)
                        labels += group + "<text class=\"name\" y=\"\(number(-size * 0.25))\" font-size=\"\(number(size))\" text-anchor=\"middle\">\(Formatting.xmlEscaped(shownName))</text>"
                        labels += "<text class=\"detail\" y=\"\(number(size * 0.95))\" font-size=\"\(number(size - 1))\" text-anchor=\"middle\">\(Formatting.xmlEscaped(shownYears))</text></g>\n"
                    } else {
                        let line = years.isEmpty ? fullName : "\(fullName) \(years)"
                        let shown = Labeler.shortened(line, fontSize: size, limit: limit)
                        labels += group + "<text class=\"name\" y=\"\(number(size * 0.35))\" font-size=\"\(number(size))\" text-anchor=\"middle\">\(Formatting.xmlEscaped(shown))</text></g>\n"
                    }
                }
            }
        }
        svg += "<g class=\"wedges\">\n\(wedges)</g>\n<g class=\"labels\">\n\(labels)</g>\n</svg>\n"
        return svg
    }

    /// A name's lines one under another and its years (shortened to `limit`) below, the block
    /// centred on the origin of the group they are written into.
    static func stacked(_ nameLines: [String], years: String, size: Double, yearsSize: Double, limit: Double) -> String {
        let lineHeight = size + 1.5
        var baseline = -(Double(nameLines.count) * lineHeight + (years.isEmpty ? 0 : size)) / 2 + size * 0.8
        var text = ""
        for line in nameLines {
            text += "<text class=\"name\" y=\"\(Formatting.number(baseline))\" font-size=\"\(Formatting.number(size))\" text-anchor=\"middle\">\(Formatting.xmlEscaped(line))</text>"
            baseline += lineHeight
        }
        if !years.isEmpty {
            let shown = Labeler.shortened(years, fontSize: yearsSize, limit: limit)
            text += "<text class=\"detail\" y=\"\(Formatting.number(baseline))\" font-size=\"\(Formatting.number(yearsSize))\" text-anchor=\"middle\">\(Formatting.xmlEscaped(shown))</text>"
        }
        return text
    }

    /// How far above the half disc's base the years under the middle person's name stand.
    static let centreYearsBaseline = 15.8

    /// How far above the half disc's base line `line` of the middle person's `count` name lines
    /// (0 the top one) stands: above the years, 2 points apart.
    static func centreBaseline(line: Int, of count: Int, size: Double) -> Double {
        centreYearsBaseline + 17 + Double(count - 1 - line) * (size + 2)
    }

    /// The middle person's name in the half disc of `radius`: the largest size, from 14 points
    /// down to 8, at which it fits on at most four lines broken at spaces, each line no wider than
    /// the disc at its top (the higher, the narrower); cut only where even that cannot hold it.
    static func centreName(_ name: String, radius: Double) -> (size: Double, lines: [String]) {
        let words = name.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        /// How wide the disc is for line `line` of `count` (0 the top one) at `size`.
        func limit(line: Int, of count: Int, size: Double) -> Double {
            let top = centreBaseline(line: line, of: count, size: size) + size * 0.8
            return top < radius ? 2 * (radius * radius - top * top).squareRoot() - 8 : 0
        }
        for size in stride(from: 14.0, through: 8.0, by: -1) {
            for count in 1...4 {
                let limits = (0..<count).map { limit(line: $0, of: count, size: size) }
                if let lines = filledLines(words, fontSize: size, limits: limits) { return (size, lines) }
            }
        }
        return (8, [Labeler.shortened(name, fontSize: 8, limit: limit(line: 0, of: 1, size: 8))])
    }

    /// `words` filled onto lines in turn, each no wider than its limit, each as full as it can be
    /// (which fits whatever fits at all); nil when they do not fit on that many lines.
    static func filledLines(_ words: [String], fontSize: Double, limits: [Double]) -> [String]? {
        var lines: [String] = []
        var next = 0
        let space = Labeler.textWidth(" ", fontSize: fontSize)
        for limit in limits where next < words.count {
            var line = words[next]
            // The line's width carried word by word, not measured again for each word it takes.
            var width = Labeler.textWidth(line, fontSize: fontSize)
            guard width <= limit else { return nil }
            next += 1
            while next < words.count {
                let wider = width + space + Labeler.textWidth(words[next], fontSize: fontSize)
                guard wider <= limit else { break }
                line += " " + words[next]
                width = wider
                next += 1
            }
            lines.append(line)
        }
        return next == words.count ? (lines.isEmpty ? [""] : lines) : nil
    }

    /// `text` on one line when it fits in `limit`, else on two split at the space that balances
    /// them best among the splits where both fit (among all where none does; each line shortened
    /// only if it still does not fit).
    static func wrapped(_ text: String, fontSize: Double, limit: Double) -> [String] {
        guard Labeler.textWidth(text, fontSize: fontSize) > limit else { return [text] }
        // Each space's two sides measured in one pass (a hostile name has thousands of spaces).
        var units = 0.0
        var spaces: [(index: String.Index, before: Double)] = []
        for index in text.indices {
            if text[index] == " " { spaces.append((index, units)) }
            for scalar in text[index].unicodeScalars { units += Labeler.unitWidth(scalar) }
        }
        let space = Labeler.unitWidth(" ")
        let splits = spaces.map { (index: $0.index, left: $0.before * fontSize, right: (units - $0.before - space) * fontSize) }
        let fitting = splits.filter { $0.left <= limit && $0.right <= limit }
        guard let split = (fitting.isEmpty ? splits : fitting).min(by: { abs($0.left - $0.right) < abs($1.left - $1.right) })?.index else {
            return [Labeler.shortened(text, fontSize: fontSize, limit: limit)]
        }
        return [String(text[..<split]), String(text[text.index(after: split)...])].map { Labeler.shortened($0, fontSize: fontSize, limit: limit) }
    }

    static func classes(of member: Member) -> String {
        switch member.sex {
        case .male: "male"
        case .female: "female"
        default: "person"
        }
    }

    /// The fan's own rules, over the chart's colours.
    static func fanRules(_ theme: SVGRenderer.Theme) -> String {
        let light = """
        .fan-chart .wedge { fill: #f4f6fb; stroke: #5b6b8c; stroke-width: 1; }
        .fan-chart .wedge.male { fill: #e8f1fb; }
        .fan-chart .wedge.female { fill: #fbeef3; }
        .fan-chart .wedge.empty { fill: none; stroke: #c5cbd8; stroke-dasharray: 3 3; }
        .fan-chart text { fill: #1d2433; }
        .fan-chart text.name { font-weight: 600; }
        .fan-chart text.detail { fill: #4a5568; }
        """
        let dark = """
        .fan-chart .wedge { fill: #232a38; stroke: #8fa3c8; }
        .fan-chart .wedge.male { fill: #1f2b3d; }
        .fan-chart .wedge.female { fill: #3a2430; }
        .fan-chart .wedge.empty { fill: none; stroke: #4a5468; }
        .fan-chart text { fill: #e8ecf4; }
        .fan-chart text.detail { fill: #b3bdd0; }
        """
        switch theme {
        case .light: return light
        case .dark: return light + "\n" + dark
        case .auto: return light + "\n@media (prefers-color-scheme: dark) {\n" + dark + "\n}"
        }
    }
}
