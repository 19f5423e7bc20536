import ArgumentParser
import FamilyTree
import FamilyTreeFiles
import FamilyTreeLayout
import FamilyTreeRender
import Foundation

extension Chart.Format {
    /// The format a file name implies: `.svg`, `.dot`, `.json`, `.html`.
    init?(fileName: String) {
        switch FileName.pathExtension(fileName).lowercased() {
        case "svg": self = .svg
        case "dot", "gv": self = .dot
        case "json": self = .layoutJSON
        case "html", "htm": self = .html
        default: return nil
        }
    }
}

extension LayoutDirection: ExpressibleByArgument {}
extension LayoutFit: ExpressibleByArgument {}
extension LabelFormat: ExpressibleByArgument {}
extension SVGRenderer.Theme: ExpressibleByArgument {}

/// `--last-stage`'s values: our layout's stages by name. `LayeredLayout.Stage` is numbered, and
/// the help showed its number as the default ("default: 2").
enum StageChoice: String, ExpressibleByArgument, CaseIterable {
    case ranking, ordering, placement

    var stage: LayeredLayout.Stage {
        switch self {
        case .ranking: .ranking
        case .ordering: .ordering
        case .placement: .placement
        }
    }
}

/// Which engine lays the tree out.
enum EngineChoice: String, ExpressibleByArgument, CaseIterable {
    /// Our layered layout.
    case familytree
    /// Graphviz `dot` through cgraph (a build with the Graphviz trait).
    case graphviz
}

/// Which renderer draws it.
enum RendererChoice: String, ExpressibleByArgument, CaseIterable {
    /// Our SVG, DOT and layout JSON writers.
    case native
    /// Graphviz's own renderers: any format it has (svg, png, pdf, ...), with --engine graphviz.
    case graphviz
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a family tree as SVG, DOT, layout JSON or an HTML page to explore.",
        discussion: """
        The format follows the output file's extension (.svg, .dot, .json, .html); --format overrides it. \
        An HTML page is one file that needs no network: zoom and pan, search, a card for each person, \
        and #member-id in its address opens on that person; there --root chooses whom it opens on \
        (the whole tree is drawn). \
        Without -o, or with -o -, the output goes to standard output (SVG unless --format says otherwise). \
        With --engine graphviz (a build with the Graphviz trait) Graphviz's dot lays the tree out through \
        cgraph; --renderer graphviz then draws it with Graphviz's own renderer in any format it has.

        Examples:
          familytree render examples/family.json -o family.svg
          familytree render royal92.ged -o royal.html --root Victoria
          familytree render tree.json -o tree.dot && dot -Tpng tree.dot -o tree.png
          familytree render tree.json --format dot-positioned | neato -n2 -Tpdf -o tree.pdf
          familytree render tree.json --root "Ada Lovelace" --generations 2 -o ada.svg
          familytree render family.ged -o ancestors.svg --chart ancestors "George Washington" --generations 4
          familytree render family.ged -o line.svg --chart relationship "Ada Byrne" "Tom Byrne"
          familytree render family.ged -o fan.svg --chart fan "George Washington" --generations 6
          familytree render tree.json --label name-age --today 2026-11-22 -o ages.svg
          familytree render tree.json --private living -o public.svg       # for a web page
          familytree render tree.json --engine graphviz --renderer graphviz -o tree.png
          cat tree.json | familytree render - --direction left-right > tree.svg
        """
    )

    @Argument(help: "The tree file, or - for standard input.")
    var tree: String

    @OptionGroup var reading: ReadingOptions

    @Option(name: .shortAndLong, help: "The output file, or - for standard output.")
    var output: String = "-"

    @Option(help: "Output format: svg, dot, dot-positioned, layout-json or html (with --renderer graphviz: any Graphviz format).")
    var format: String?

    @Option(help: "Draw only the part around this member (an id or a unique name); for html, the person the page opens on.")
    var root: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "A chart of one person's line: ancestors NAME, descendants NAME, hourglass NAME (both), fan NAME (ancestors in a half circle: SVG, PDF or an HTML page), or relationship A B (the lines joining two relatives, or the shortest chain of marriages joining two people who are not, labelled from A's side). Put the tree file before it.",
        valueName: "kind person"))
    var chart: [String] = []

    @Option(help: "With --root: generations up and down to include (default 3); with --chart: generations each way (default all; a fan: rings, 2 to 10, default 5).")
    var generations: Int?

    @Flag(help: "With --root: leave out the person's brothers and sisters.")
    var noSiblings = false

    @Option(help: "top-down or left-right (by default --fit chooses).")
    var direction: LayoutDirection?

    @Option(help: "The chart's shape without --direction: wide (generations as rows), page (rows or columns, whichever is nearer a page), or auto (columns only for a strip more than 4 times as wide as tall that they make twice as square; wide for html).")
    var fit: LayoutFit = .auto

    @Option(help: "Box labels: name-years, name-age (\"Dad • 45\"), name, relation (to --home), name-years-place (where born) or name-occupation (default: name-years; relation for --chart relationship).")
    var label: LabelFormat?

    @Option(help: "The home person (an id or a unique name), whom --label relation relates everyone to.")
    var home: String?

    @Option(help: "The day ages are computed on, YYYY-MM-DD (default: today).")
    var today: String?

    @Option(help: "familytree (ours) or graphviz (dot through cgraph).")
    var engine: EngineChoice = .familytree

    @Option(help: "native (ours) or graphviz (Graphviz's renderer, with --engine graphviz).")
    var renderer: RendererChoice = .native

    @Option(help: ArgumentHelp("Draw our layout as it stands after this stage, to see what each does: ranking (generations only), ordering (crossings reduced), or placement (the full layout).", valueName: "stage"))
    var lastStage: StageChoice = .placement

    @Flag(help: "Keep every couple side by side (by default a couple who both grew up in the tree may stand apart, each among their own brothers and sisters, joined by a marriage line, where that removes more crossings than it costs).")
    var couplesSideBySide = false

    @Flag(help: "Leave out members' photos (by default photo files are embedded in the SVG).")
    var noPhotos = false

    @Option(name: .customLong("photos"), help: ArgumentHelp("A folder photos may also come from, besides the tree's own (repeatable).", valueName: "folder"))
    var photoFolders: [String] = []

    @Option(help: "SVG width in pixels (the height follows); by default the SVG is responsive: as wide as the page's column.")
    var width: Double?

    @Option(help: "SVG colours: light (for a page; the default), dark, or auto (follows the reader's system).")
    var theme: SVGRenderer.Theme = .light

    @OptionGroup var privacy: PrivacyOptions

    @Option(help: "For a PDF (-o chart.pdf): a4, a3, a2, letter or tabloid. Without it the PDF is one page the chart's size, for a print shop.")
    var paper: String?

    @Option(help: "For a PDF with --paper: portrait, landscape or auto (the chart's shape).")
    var orientation: String = "auto"

    @Flag(help: "For a PDF with --paper: the chart at --scale on as many sheets as it takes, with a page map, cut marks, glue strips and page numbers (without it the chart is shrunk onto one sheet).")
    var pages = false

    @Option(help: "For a PDF: the chart's size on paper in percent, 100 being its size on a screen (96 chart pixels to the inch).")
    var scale: Double = 100

    func validate() throws {
        if engine == .graphviz, !GraphvizSupport.isBuiltIn {
            throw ValidationError("this familytree was built without Graphviz support; build it with --traits Graphviz")
        }
        if lastStage != .placement, engine != .familytree { throw ValidationError("--last-stage is a stage of our layout; leave out --engine graphviz") }
        if couplesSideBySide, engine != .familytree { throw ValidationError("--couples-side-by-side is a rule of our layout; leave out --engine graphviz") }
        if renderer == .graphviz {
            guard engine == .graphviz else { throw ValidationError("--renderer graphviz needs --engine graphviz") }
            return
        }
        if isPDF {
            guard PDFSupport.isBuiltIn else {
                throw ValidationError("this familytree was built without PDF support; build it with --traits PDF (needs librsvg2-dev), or write tree.svg and convert it: rsvg-convert -f pdf tree.svg -o tree.pdf")
            }
            if let paper, !PDFSupport.paperNames.contains(paper.lowercased()) {
                throw ValidationError("--paper must be one of \(PDFSupport.paperNames.joined(separator: ", "))")
            }
            guard ["portrait", "landscape", "auto"].contains(orientation) else { throw ValidationError("--orientation must be portrait, landscape or auto") }
            if pages, paper == nil { throw ValidationError("--pages tiles the chart onto sheets of --paper: name one (a4, letter, …)") }
            guard scale >= 5, scale <= 1_000 else { throw ValidationError("--scale is a percentage from 5 to 1000") }
        } else if paper != nil || pages || orientation != "auto" || scale != 100 {
            throw ValidationError("--paper, --orientation, --pages and --scale are for a PDF: write -o chart.pdf")
        }
        if let format, Chart.Format(rawValue: format) == nil, format != "pdf" {
            throw ValidationError("--format must be svg, dot, dot-positioned, layout-json, html or pdf")
        }
        if format == nil, !isPDF, !TreeFiles.isStream(output), Chart.Format(fileName: output) == nil {
            let fileExtension = FileName.pathExtension(output).lowercased()
            if ["png", "jpg", "jpeg"].contains(fileExtension) {
                throw ValidationError("familytree writes SVG, not \(fileExtension.uppercased()); write tree.svg and convert it (rsvg-convert -f \(fileExtension == "pdf" ? "pdf" : "png") tree.svg -o \(FileName.lastComponent(output)), from Debian's librsvg2-bin)")
            }
            throw ValidationError("cannot tell the format from \"\(output)\"; use .svg, .dot, .json or .html, or --format")
        }
        if let generations, generations < 0 { throw ValidationError("--generations must be 0 or more") }
        if let width, !(width >= 1 && width <= 1_000_000) { throw ValidationError("--width must be a number of pixels from 1 to 1000000") }
        let chartKind = try ChartKind(chart)
        if chartKind != nil, root != nil { throw ValidationError("--chart names its person; leave out --root") }
        if case .fan = chartKind, renderer == .graphviz { throw ValidationError("a fan chart is drawn by familytree itself; leave out --renderer graphviz") }
        if case .fan = chartKind, let generations, !FanChartRenderer.generationRange.contains(generations) {
            throw ValidationError("a fan chart has 2 to 10 generations (its rings, the person's own counted)")
        }
        if label == .relation, home == nil, chartKind?.isRelationship != true {
            throw ValidationError("--label relation needs --home, the person everyone is related to")
        }
    }

    /// Whether the chart is written as a PDF (by its file name or `--format pdf`).
    var isPDF: Bool {
        renderer == .native && (format == "pdf" || (format == nil && FileName.pathExtension(output).lowercased() == "pdf"))
    }

    /// `--chart`'s words: a kind and its people.
    enum ChartKind: Equatable {
        case ancestors(String), descendants(String), hourglass(String), fan(String), relationship(String, String)

        init?(_ words: [String]) throws {
            guard let kind = words.first else { return nil }
            let people = Array(words.dropFirst())
            func one() throws -> String {
                guard people.count == 1 else { throw ValidationError("--chart \(kind) takes one person: --chart \(kind) NAME (an id or a unique name)") }
                return people[0]
            }
            switch kind {
            case "ancestors": self = .ancestors(try one())
            case "descendants": self = .descendants(try one())
            case "hourglass": self = .hourglass(try one())
            case "fan": self = .fan(try one())
            case "relationship":
                guard people.count == 2 else { throw ValidationError("--chart relationship takes two people: --chart relationship A B") }
                self = .relationship(people[0], people[1])
            default: throw ValidationError("--chart must be ancestors, descendants, hourglass, fan or relationship, then who (\"\(kind)\" is none of them)")
            }
        }

        var isRelationship: Bool { if case .relationship = self { true } else { false } }

        /// The chart's extent, its people resolved in `graph`.
        func extent(in graph: FamilyGraph, generations: Int?) throws -> Chart.Extent {
            func id(_ name: String) throws -> Member.ID { graph.members[try graph.resolveMember(name)].id }
            let generations = generations ?? Int.max
            return switch self {
            case .ancestors(let name): .ancestors(try id(name), generations: generations)
            case .descendants(let name): .descendants(try id(name), generations: generations)
            case .hourglass(let name): .hourglass(try id(name), generations: generations)
            case .fan(let name): .fan(try id(name), generations: generations == Int.max ? 5 : generations)
            case .relationship(let a, let b): .relationship(try id(a), try id(b))
            }
        }
    }

    func run() throws {
        let graph = try TreeFiles.loadGraph(tree, surnameCase: reading.surnameCase)
        // Graphviz's own renderers draw the chart's tree in their formats; ours draw the rest.
        let format = renderer == .graphviz || isPDF ? .svg : self.format.flatMap(Chart.Format.init(rawValue:)) ?? Chart.Format(fileName: output) ?? .svg
        var chart = Chart(graph: graph, format: format, today: try Today.dayNumber(today))
        // People are named by id or by name here; the chart takes ids.
        if let root { chart.extent = .around(graph.members[try graph.resolveMember(root)].id, generations: generations ?? 3, siblings: !noSiblings) }
        let chartKind = try ChartKind(self.chart)
        if let chartKind { chart.extent = try chartKind.extent(in: graph, generations: generations) }
        chart.home = try home.map { graph.members[try graph.resolveMember($0)].id }
        chart.label = label ?? .nameYears
        if case .relationship(let from, _) = chart.extent {
            // Labelled from the first person's side unless asked otherwise.
            chart.label = label ?? .relation
            chart.home = chart.home ?? from
        }
        chart.privacy = privacy.chartPrivacy
        let folders = Photos.Folders(treePath: tree, allowed: photoFolders)
        chart.photos = noPhotos ? .none : .resolved { photo, index, graph in Photos.resolved(photo, ofMemberAt: index, in: graph, from: folders) }
        chart.direction = direction
        chart.fit = fit
        chart.theme = theme
        chart.width = width
        chart.engine = lastStage == .placement && !couplesSideBySide
            ? try GraphvizSupport.chartEngine(engine) : .familytree(lastStage: lastStage.stage, keepsCouplesTogether: couplesSideBySide)
        if renderer == .graphviz {
            let prepared = try chart.prepare()
            let graphvizFormat = self.format ?? (TreeFiles.isStream(output) ? "svg" : FileName.pathExtension(output).lowercased())
            let bytes = try GraphvizSupport.render(prepared.graph, labeler: prepared.labeler, direction: direction ?? .topDown, format: graphvizFormat)
            try TreeFiles.write(to: output) { try $0.write(bytes[...]) }
            return
        }
        // Laid out before the file is opened: only writing errors happen while it is written.
        let drawing = engine == .graphviz ? try GraphvizSupport.reported { try chart.drawing() } : try chart.drawing()
        if isPDF {
            // The PDF is the SVG drawn by librsvg: made whole before the file is written.
            var svg = CollectedOutput()
            try drawing.write(to: &svg)
            // The PDF's title: the person the chart is about, or the tree's file and its size.
            let count = drawing.prepared.graph.members.count
            let file = TreeFiles.isStream(tree) ? "Family tree" : URL(fileURLWithPath: tree).deletingPathExtension().lastPathComponent
            let title = drawing.prepared.highlighted.flatMap { id in drawing.prepared.graph.member(id)?.fullName }
                ?? "\(file) (\(count) \(count == 1 ? "person" : "people"))"
            let day = CalendarDate.date(fromDayNumber: chart.today)
            let date = String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
            // Each sheet of a poster from an SVG of only what lies on it.
            let sheet = drawing.layout == nil ? nil : { (x: Double, y: Double, width: Double, height: Double) -> [UInt8] in
                drawing.svg(window: .init(x: x, y: y, width: width, height: height)) ?? []
            }
            let pdf = try PDFSupport.render(svg: Array(svg.text.utf8), .init(
                paper: paper?.lowercased(), orientation: orientation, pages: pages, scale: scale / 100, title: title, date: date), sheet: sheet)
            try TreeFiles.write(to: output) { try $0.write(pdf[...]) }
            return
        }
        try TreeFiles.write(to: output) { try drawing.write(to: &$0) }
    }
}
