import ArgumentParser
import FamilyTree
import FamilyTreeLayout
import FamilyTreeRender
import Foundation
import Subprocess

/// Which engine `stats` measures.
enum StatsEngine: String, ExpressibleByArgument, CaseIterable {
    case familytree
    /// Graphviz `dot` on our structure DOT (the `dot` program must be installed).
    case dot
    /// Graphviz `dot` in process, through cgraph (a build with the Graphviz trait).
    case graphviz
}

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print layout-quality metrics of a tree's layout.",
        discussion: """
        Crossings between adjacent layers (exact, by inversion counting), total edge length, width and \
        height, couple adjacency, birth order, overlaps, long edges; measured the same way for our layout and \
        for other engines' drawings. For our layout also the child and marriage lines of different families that run side \
        by side less than 12 units apart ("close line pairs") or on top of each other ("lines on top"). \
        --engine dot runs Graphviz dot on the same graph for a side-by-side look.

        With --chart, the part that chart draws is measured (a fan is not layered: it has no layers to \
        measure), by each engine alike.

        Examples:
          familytree stats tree.json
          familytree stats tree.json --engine dot --format json
          familytree stats family.ged --chart ancestors "George Washington" --engine dot
        """
    )

    @Argument(help: "The tree file, or - for standard input.")
    var tree: String

    @OptionGroup var reading: ReadingOptions

    @Option(help: "familytree (ours), dot (the Graphviz program) or graphviz (dot in process, through cgraph).")
    var engine: StatsEngine = .familytree

    @Option(help: "text or json.")
    var format: String = "text"

    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "Measure one chart's part, as render --chart draws it: ancestors NAME, descendants NAME, hourglass NAME or relationship A B.",
        valueName: "kind person"))
    var chart: [String] = []

    @Option(help: "With --chart: generations each way (default all).")
    var generations: Int?

    @Flag(help: "Measure our layout with every couple side by side, as render --couples-side-by-side draws it.")
    var couplesSideBySide = false

    func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
        if engine == .graphviz, !GraphvizSupport.isBuiltIn {
            throw ValidationError("this familytree was built without Graphviz support; build it with --traits Graphviz")
        }
        if case .fan = try RenderCommand.ChartKind(chart) {
            throw ValidationError("a fan chart is drawn in rings, not layers: stats measures the layered charts (ancestors shows the same people)")
        }
        if let generations, generations < 1 { throw ValidationError("--generations must be 1 or more") }
        if couplesSideBySide, engine != .familytree { throw ValidationError("--couples-side-by-side is a rule of our layout; leave out --engine \(engine.rawValue)") }
    }

    func run() async throws {
        var graph = try TreeFiles.loadGraph(tree, surnameCase: reading.surnameCase)
        if let kind = try RenderCommand.ChartKind(chart) {
            var part = Chart(graph: graph, format: .svg, today: try Today.dayNumber(nil))
            part.extent = try kind.extent(in: graph, generations: generations)
            graph = try part.prepare().graph
        }
        let labeler = Labeler()
        let metrics: LayoutMetrics
        switch engine {
        case .familytree:
            var layout = LayeredLayout(labeler: labeler)
            layout.options.keepsCouplesTogether = couplesSideBySide
            metrics = LayoutMetrics.measure(layout.place(graph), of: graph)
        case .dot:
            let plain = try await ExternalTool.run("dot", ["-Tplain"], input: DOTWriter(labeler: labeler).structure(graph))
            metrics = LayoutMetrics.measure(try GraphvizPlainReader.drawing(fromPlain: plain, of: graph), of: graph)
        case .graphviz:
            let engine = try GraphvizSupport.chartEngine(.graphviz).layoutEngine(labeler, .topDown)
            let layout = try GraphvizSupport.reported { try engine.place(graph) }
            metrics = LayoutMetrics.measure(layout, of: graph)
        }
        Console.output(format == "json" ? JSONWriter.string(from: metrics.jsonValue) : metrics.table)
    }
}

extension LayoutMetrics {
    var fields: [(String, String)] {
        let drawing: [(String, String)] = [
            ("members", "\(members)"), ("layers", "\(layers)"), ("crossings", "\(crossings)"),
            ("total edge length", String(Int(totalEdgeLength.rounded()))), ("width x height", "\(Int(width.rounded())) x \(Int(height.rounded()))"),
            ("couples adjacent", Self.percent(coupleAdjacencyPercent)), ("siblings in birth order", Self.percent(birthOrderPercent)),
            ("overlaps", "\(overlaps)"), ("long edges", "\(longEdges)"),
        ]
        // Only our own drawings have lines to measure.
        let lines: [(String, Int?)] = [
            ("close line pairs", closeLinePairs), ("lines on top", overlappingLinePairs), ("lines through boxes", linesThroughBoxes),
            ("marriage line crossings", marriageLineCrossings),
        ]
        return drawing + lines.compactMap { name, value in value.map { (name, "\($0)") } }
    }

    var table: String { fields.map { "\($0.0.padding(toLength: 24, withPad: " ", startingAt: 0))\($0.1)\n" }.joined() }

    var jsonValue: JSONValue {
        .object(["members": .number("\(members)"), "layers": .number("\(layers)"), "crossings": .number("\(crossings)"),
                 "totalEdgeLength": .number("\(Int(totalEdgeLength.rounded()))"), "width": .number("\(Int(width.rounded()))"),
                 "height": .number("\(Int(height.rounded()))"), "coupleAdjacencyPercent": .number(Self.percent(coupleAdjacencyPercent).dropLast().description),
                 "birthOrderPercent": .number(Self.percent(birthOrderPercent).dropLast().description), "overlaps": .number("\(overlaps)"),
                 "longEdges": .number("\(longEdges)"),
                 "closeLinePairs": closeLinePairs.map { .number("\($0)") } ?? .null,
                 "overlappingLinePairs": overlappingLinePairs.map { .number("\($0)") } ?? .null,
                 "linesThroughBoxes": linesThroughBoxes.map { .number("\($0)") } ?? .null,
                 "marriageLineCrossings": marriageLineCrossings.map { .number("\($0)") } ?? .null])
    }

    static func percent(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
    }
}

/// Runs another program, feeding `input` and returning its standard output (swift-subprocess
/// drains both outputs while it writes the input, so a large tree cannot deadlock on a full pipe).
enum ExternalTool {
    /// At most this much of the program's output is kept: a layout of a million people fits.
    static let outputLimit = 1 << 30

    static func run(_ tool: String, _ arguments: [String], input: String) async throws -> String {
        let status: TerminationStatus
        let output: String?
        let errors: String?
        do {
            let result = try await Subprocess.run(
                .name(tool), arguments: Arguments(arguments), input: .string(input),
                output: .string(limit: outputLimit), error: .string(limit: 64 * 1024)
            )
            (status, output, errors) = (result.terminationStatus, result.standardOutput, result.standardError)
        } catch {
            throw CLIError.fileAccess(path: tool, reason: "cannot be run (\(error))")
        }
        guard case .exited(0) = status else {
            throw CLIError.fileAccess(path: tool, reason: "failed (\(status)): \((errors ?? "").prefix(500))")
        }
        return output ?? ""
    }
}
