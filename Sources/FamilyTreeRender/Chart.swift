import FamilyTree
import FamilyTreeLayout

/// A chart to draw, as one value: the tree, how much of it, its labels, whom it hides, its photos,
/// the engine that lays it out, its shape and its format. The command line, a server and an app
/// fill one in and call `render(to:)`; each gets the same bytes for the same value.
///
/// ```swift
/// var chart = Chart(graph: graph, format: .svg, today: CalendarDate.dayNumber(year: 2026, month: 11, day: 25))
/// chart.extent = .around("ada", generations: 2, siblings: true)
/// chart.privacy = Chart.Privacy()
/// var output = CollectedOutput()
/// try chart.render(to: &output)
/// ```
public struct Chart: Sendable {
    /// What the chart is written as.
    public enum Format: String, Sendable, CaseIterable {
        /// A standalone SVG picture.
        case svg
        /// Structure DOT, for Graphviz's `dot` to lay out.
        case dot
        /// Our layout as DOT with fixed positions, for `neato -n2`.
        case dotPositioned = "dot-positioned"
        /// Every box and line with its coordinates, as JSON.
        case layoutJSON = "layout-json"
        /// A page to explore: zoom, pan, search, a card per person.
        case html
    }

    /// How much of the tree is drawn.
    public enum Extent: Sendable, Hashable {
        /// Everyone.
        case whole
        /// A person and their relatives `generations` up and down, with their brothers and sisters
        /// when `siblings`. An HTML page draws everyone and opens on the person instead.
        case around(Member.ID, generations: Int, siblings: Bool)
        /// A person and their ancestors, `generations` back (`FamilyGraph.ancestors`).
        case ancestors(Member.ID, generations: Int)
        /// A person and their descendants with their partners, `generations` down.
        case descendants(Member.ID, generations: Int)
        /// A person's ancestors above and descendants below, `generations` each way.
        case hourglass(Member.ID, generations: Int)
        /// The lines joining two relatives through their common ancestors (`FamilyGraph.relationshipLines`).
        case relationship(Member.ID, Member.ID)
        /// A fan chart of a person's ancestors: `generations` rings, the person's own counted (2 to
        /// 10), drawn as SVG (`FanChartRenderer`).
        case fan(Member.ID, generations: Int)

        /// The person the chart is drawn around.
        var focus: Member.ID? {
            switch self {
            case .whole: nil
            case .around(let id, _, _), .ancestors(let id, _), .descendants(let id, _), .hourglass(let id, _), .relationship(let id, _),
                 .fan(let id, _): id
            }
        }

        /// Whether the chart draws two people's lines of blood through their common ancestors (a
        /// relationship chart): its labels name that blood first (`Labeler.relations`).
        var drawsBloodLines: Bool { if case .relationship = self { true } else { false } }
    }

    /// Whom a published chart hides: the living (by `rule`, on the chart's day), shown as
    /// "Living" with no other detail (see `FamilyGraph.privatizingLiving`).
    public struct Privacy: Sendable, Hashable {
        /// Who counts as living.
        public var rule: LivingRule
        /// What of a living person's name stays.
        public var names: PrivateNames

        /// The living by `rule`, keeping `names`.
        public init(rule: LivingRule = LivingRule(), names: PrivateNames = .surname) {
            self.rule = rule
            self.names = names
        }
    }

    /// Where members' photos come from.
    public enum Photos: Sendable {
        /// Photos that are `data:` URLs of an image; any other photo (a path) is left out.
        case embedded
        /// No photos.
        case none
        /// Each photo as `resolve` returns it, given the photo and the member's place in the
        /// graph drawn: a `data:` URL, or `nil` to leave it out. A program that reads image files
        /// does it here (and decides which files it may read).
        case resolved(@Sendable (_ photo: String, _ member: Int, _ graph: FamilyGraph) -> String?)
    }

    /// The tree.
    public var graph: FamilyGraph
    /// What the chart is written as.
    public var format: Format
    /// How much of the tree is drawn.
    public var extent: Extent = .whole
    /// What each box says.
    public var label: LabelFormat = .nameYears
    /// The person relation labels (`.relation`) relate everyone to.
    public var home: Member.ID?
    /// The day ages are computed on and the living judged on, as `CalendarDate.dayNumber`.
    public var today: Int
    /// Whom the chart hides; `nil` hides no one.
    public var privacy: Privacy?
    /// Where photos come from.
    public var photos: Photos = .embedded
    /// Generations as rows or columns; `nil` lets `fit` choose.
    public var direction: LayoutDirection?
    /// The shape chosen when `direction` is `nil` (an HTML page keeps its rows under `.auto`).
    public var fit: LayoutFit = .auto
    /// An SVG's colours.
    public var theme: SVGRenderer.Theme = .light
    /// An SVG's width in pixels; `nil` for one as wide as its page's column.
    public var width: Double?
    /// What lays the tree out.
    public var engine: ChartEngine = .familytree

    /// A chart of `graph` in `format`, judged on the day `today`; everything else as its defaults.
    public init(graph: FamilyGraph, format: Format, today: Int) {
        self.graph = graph
        self.format = format
        self.today = today
    }

    /// The chart's tree once its extent, privacy and photos are applied, with the labeler its boxes
    /// are sized and labelled by: what any renderer draws (Graphviz's own renderers included).
    public struct Prepared: Sendable {
        /// The members and families drawn.
        public var graph: FamilyGraph
        /// The labels, sized by every engine and renderer alike.
        public var labeler: Labeler
        /// The person the chart is drawn around (an SVG marks them), by their id in `graph`.
        public var highlighted: Member.ID?
        /// The person an HTML page opens on, by their id in `graph`.
        public var openOn: Member.ID?
    }

    /// The tree, labels and marks the chart draws. Throws `ChartError` for a person it names who is
    /// not in the tree.
    public func prepare() throws -> Prepared {
        var graph = self.graph
        func position(_ id: Member.ID) throws -> Int {
            guard let index = graph.index(of: id) else { throw ChartError.unknownMember(id) }
            return index
        }
        let focusIndex = try extent.focus.map(position)
        let homeIndex = try home.map(position)
        // Privacy keeps every member at its place, under a new id: positions carry over. Living is
        // judged, and relations read, in the whole tree as published: a hidden person's words say
        // no sex, and the home person may be outside the part drawn.
        if let privacy {
            graph = graph.privatizingLiving(privacy.rule.living(in: graph, today: today), names: privacy.names).graph
        }
        // Read in the whole tree, for the people drawn only (a relationship chart's few).
        let published = graph
        let focusID = focusIndex.map { graph.members[$0].id }
        switch extent {
        case .whole: break
        case .around(_, let generations, let siblings):
            // A page to explore draws everyone and opens on the person.
            if format != .html { graph = graph.neighbourhood(ofMemberAt: focusIndex!, generations: generations, includingSiblings: siblings) }
        case .ancestors(_, let generations): graph = graph.ancestors(ofMemberAt: focusIndex!, generations: generations)
        case .descendants(_, let generations): graph = graph.descendants(ofMemberAt: focusIndex!, generations: generations)
        case .hourglass(_, let generations): graph = graph.hourglass(ofMemberAt: focusIndex!, generations: generations)
        case .fan(_, let generations): graph = graph.ancestors(ofMemberAt: focusIndex!, generations: max(generations - 1, 1))
        case .relationship(_, let other):
            let otherIndex = try position(other)
            guard let lines = graph.relationshipLines(from: focusIndex!, to: otherIndex) else {
                throw ChartError.notRelated(self.graph.members[focusIndex!].id, other)
            }
            graph = lines
        }
        graph = try photos(in: graph)
        let drawn = graph.members.count == published.members.count ? nil : graph.members.map(\.id)
        // Only relation labels say them: a search a label never shows is work for nothing.
        let relations = label == .relation ? homeIndex.map { Labeler.relations(to: $0, in: published, only: drawn, byBloodFirst: extent.drawsBloodLines) } ?? [:] : [:]
        var labeler = Labeler(format: label, today: today, relations: relations)
        // The person the chart is about is outlined: their name is never cut.
        if let focusID { labeler.unabridged = [focusID] }
        return Prepared(
            graph: graph, labeler: labeler,
            highlighted: format == .html ? nil : focusID, openOn: format == .html ? focusID : nil
        )
    }

    /// The chart laid out, ready to write: everything that can fail but the writing itself.
    public func drawing() throws -> Drawing {
        let prepared = try prepare()
        let content: Drawing.Content
        if case .fan(let id, let generations) = extent {
            guard format == .svg || format == .html else { throw ChartError.fanIsSVG(format) }
            // An HTML page opens on the person, where SVG outlines them: either names the root.
            let root = prepared.graph.index(of: prepared.highlighted ?? prepared.openOn ?? id) ?? 0
            return Drawing(chart: self, prepared: prepared, content: .fan(root: root, generations: generations, page: format == .html))
        }
        switch format {
        case .dot:
            // Structure only: Graphviz lays it out.
            let direction = direction ?? .topDown
            content = .structure(try engine.structure(prepared.graph, prepared.labeler, direction)
                ?? DOTWriter(labeler: prepared.labeler).structure(prepared.graph, direction: direction))
        case .svg: content = .svg(try layout(of: prepared))
        case .dotPositioned: content = .positionedDOT(try layout(of: prepared))
        case .layoutJSON: content = .layoutJSON(try layout(of: prepared))
        case .html: content = .html(try layout(of: prepared))
        }
        return Drawing(chart: self, prepared: prepared, content: content)
    }

    /// Draws the chart into `output`.
    public func render<Output: RenderedOutput>(to output: inout Output) throws {
        try drawing().write(to: &output)
    }

    /// A chart laid out: `write(to:)` puts it into bytes, streamed for SVG, layout JSON and HTML
    /// (a million-member chart never sits in memory as one string).
    public struct Drawing: Sendable {
        /// What is written: structure DOT as text, or a layout in the chart's format.
        enum Content: Sendable {
            case structure(String)
            case svg(Layout)
            case positionedDOT(Layout)
            case layoutJSON(Layout)
            case html(Layout)
            /// A fan chart, as SVG or (`page`) a web page around it.
            case fan(root: Int, generations: Int, page: Bool)
        }

        /// The chart drawn.
        public let chart: Chart
        /// Its tree and labels.
        public let prepared: Prepared
        let content: Content

        /// The layout, for every format but structure DOT (which Graphviz lays out).
        public var layout: Layout? {
            switch content {
            case .structure, .fan: nil
            case .svg(let layout), .positionedDOT(let layout), .layoutJSON(let layout), .html(let layout): layout
            }
        }

        /// The renderer of an SVG chart.
        private var svgRenderer: SVGRenderer {
            SVGRenderer(labeler: prepared.labeler, theme: chart.theme, highlighted: prepared.highlighted, width: chart.width)
        }

        /// The SVG of only what lies in `window` of the chart, in the same coordinates (a printed
        /// poster's sheet); `nil` for a drawing with no layout of ours (structure DOT, a fan chart).
        public func svg(window: SVGRenderer.Window) -> [UInt8]? {
            guard let layout else { return nil }
            var renderer = svgRenderer
            renderer.window = window
            var output = CollectedOutput()
            // Collecting in memory cannot fail, and the layout was made of this graph.
            try! renderer.render(layout, of: prepared.graph, to: &output)
            return Array(output.text.utf8)
        }

        /// Writes the chart into `output`; only `output`'s own errors are thrown.
        public func write<Output: RenderedOutput>(to output: inout Output) throws {
            let (graph, labeler) = (prepared.graph, prepared.labeler)
            switch content {
            case .structure(let text):
                try output.write(Array(text.utf8)[...])
            case .svg(let layout):
                try svgRenderer.render(layout, of: graph, to: &output)
            case .positionedDOT(let layout):
                try output.write(Array(try DOTWriter(labeler: labeler).positioned(layout, of: graph).utf8)[...])
            case .layoutJSON(let layout):
                try LayoutJSONWriter.render(layout, of: graph, to: &output)
            case .html(let layout):
                try HTMLRenderer(labeler: labeler, openOn: prepared.openOn, today: chart.today).render(layout, of: graph, to: &output)
            case .fan(let root, let generations, let page):
                let fan = FanChartRenderer(generations: generations, theme: chart.theme, width: chart.width)
                try output.write(Array((page ? fan.page(graph, root: root) : fan.render(graph, root: root)).utf8)[...])
            }
        }
    }

    /// The prepared tree laid out: in `direction` when given, else in the shape `fit` chooses (a
    /// page to explore pans and zooms, so under `.auto` it keeps its rows).
    public func layout(of prepared: Prepared) throws -> Layout {
        let fit = direction != nil ? LayoutFit.wide : format == .html && self.fit == .auto ? .wide : self.fit
        let (graph, labeler) = (prepared.graph, prepared.labeler)
        // A quick sketch of each direction's shape, where the engine has one, saves laying the
        // tree out in full twice; the chosen one is finished from its sketch. Where the fit may
        // ask for both, both are sketched at once on two cores (a sketch is serial work); where
        // the rows decide alone, the columns' sketch was work on the other core, not time.
        var sketch = engine.sketch.map { sketch in { (fitted: LayoutDirection) in sketch(graph, labeler, direction ?? fitted) } }
        if fit != .wide, let sketchOf = engine.sketch {
            let both = Parallel.map([LayoutDirection.topDown, .leftRight]) { Unchecked(sketchOf(graph, labeler, $0)) }
            sketch = { fitted in both[fitted == .topDown ? 0 : 1].value }
        }
        return try fit.layout(sketch: sketch) { fitted in
            try engine.layoutEngine(labeler, direction ?? fitted).place(graph)
        }
    }

    private func photos(in graph: FamilyGraph) throws -> FamilyGraph {
        var members = graph.members
        var changed = false
        for index in members.indices {
            guard let photo = members[index].photo else { continue }
            let kept: String?
            switch photos {
            case .embedded: kept = photo.hasPrefix("data:") ? photo : nil
            case .none: kept = nil
            case .resolved(let resolve): kept = resolve(photo, index, graph)
            }
            if kept != photo {
                members[index].photo = kept
                changed = true
            }
        }
        guard changed else { return graph }
        return try FamilyGraph(members: members, unions: graph.unions, crossBloodlineConnections: graph.crossBloodlineConnections)
    }
}

/// What lays a chart out: a `LayoutEngine` for each labeler and direction, optionally its own
/// structure DOT (Graphviz writes it through cgraph), and optionally a quick sketch of a tree's
/// shape (ours: the first start of the search) from which `LayoutFit` chooses the direction.
public struct ChartEngine: Sendable {
    /// The engine's name, as the command line spells it.
    public var name: String
    /// The layout engine for a labeler and a direction.
    public var layoutEngine: @Sendable (Labeler, LayoutDirection) -> any LayoutEngine
    /// The structure DOT this engine writes itself, or `nil` for `DOTWriter`'s.
    public var structure: @Sendable (FamilyGraph, Labeler, LayoutDirection) throws -> String?
    /// A quick drawing of a tree with nearly the shape of the full one, finished into the full one
    /// on demand, or `nil` where there is none for that tree: `LayoutFit` chooses the direction
    /// from the sketches.
    public var sketch: (@Sendable (FamilyGraph, Labeler, LayoutDirection) -> LayoutSketch?)?

    /// An engine named `name`.
    public init(
        name: String,
        layoutEngine: @escaping @Sendable (Labeler, LayoutDirection) -> any LayoutEngine,
        structure: @escaping @Sendable (FamilyGraph, Labeler, LayoutDirection) throws -> String? = { _, _, _ in nil },
        sketch: (@Sendable (FamilyGraph, Labeler, LayoutDirection) -> LayoutSketch?)? = nil
    ) {
        self.name = name
        self.layoutEngine = layoutEngine
        self.structure = structure
        self.sketch = sketch
    }

    /// familytree's own layered layout.
    public static let familytree = ChartEngine.familytree(lastStage: .placement)

    /// familytree's own layered layout stopped after `lastStage`: the chart as that stage left it,
    /// to see what each stage does (`.placement` is the full layout); with `keepsCouplesTogether`,
    /// no couple is drawn apart (see `LayeredLayout.Options.keepsCouplesTogether`).
    /// Its sketch is the first start's drawing, and the search goes on from it: trees the search
    /// does not cover, or stopped before placement, have none (their full layout costs no more).
    public static func familytree(lastStage: LayeredLayout.Stage, keepsCouplesTogether: Bool = false) -> ChartEngine {
        @Sendable func engine(_ labeler: Labeler, _ direction: LayoutDirection) -> LayeredLayout {
            var layout = LayeredLayout(labeler: labeler, direction: direction)
            layout.options.lastStage = lastStage
            layout.options.keepsCouplesTogether = keepsCouplesTogether
            return layout
        }
        return ChartEngine(name: "familytree", layoutEngine: engine, sketch: { graph, labeler, direction in
            engine(labeler, direction).sketch(graph)
        })
    }
}

/// Why a chart cannot be drawn.
public enum ChartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The chart names a person (its extent or home) by an id the tree does not have. (The home
    /// person may be outside the part drawn: relations are read in the whole tree.)
    case unknownMember(Member.ID)
    /// Nothing joins a relationship chart's two people in the tree: no line of parents, children and marriages.
    case notRelated(Member.ID, Member.ID)
    /// A fan chart was asked for in a format other than SVG or HTML.
    case fanIsSVG(Chart.Format)

    public var description: String {
        switch self {
        case .unknownMember(let id): "no member has the id \"\(id)\""
        case .notRelated(let a, let b): "nothing joins \"\(a)\" and \"\(b)\" in this tree: no line of parents, children and marriages leads from one to the other"
        case .fanIsSVG(let format): "a fan chart is drawn as SVG or an HTML page, not \(format.rawValue) (convert the SVG to PDF or PNG with rsvg-convert)"
        }
    }
}
