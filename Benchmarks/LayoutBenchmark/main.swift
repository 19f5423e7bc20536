// The layout benchmark: familytree's layout and SVG against Graphviz dot on the same generated trees,
// and the real commands (validate, render to SVG and to layout JSON) timed as whole processes.
//
//   swift run -c release familytree-benchmark                      # the README's table
//   swift run -c release --traits Graphviz familytree-benchmark     # with the in-process cgraph column
//   swift run -c release familytree-benchmark --sizes 1000,5000 --dot-max-members 5000 --quality-seeds 1,2
//   swift run -c release familytree-benchmark --sizes "" --quality-sizes "" --gedcom my.ged   # real trees only
//
// Each size runs in a fresh child process (so its peak memory is its own): it generates the tree
// (not timed), then times layout + SVG in process. dot gets the same graph as structure DOT, runs
// as a child process with a time limit, and its -Tplain positions are measured with the same
// metrics (LayoutMetrics, as ../shared/tools/evaluate.py measures the peers).
import FamilyTree
import FamilyTreeGEDCOM
import FamilyTreeLayout
import FamilyTreeRender
import Foundation
#if Graphviz
import FamilyTreeGraphviz
#endif

struct Options {
    var sizes = [1_000, 5_000, 10_000, 100_000, 1_000_000]
    var seed: UInt64 = 1
    var dotMaxMembers = 10_000
    var dotTimeLimit = 180.0
    var repeats = 3
    var measureOnly: Int?
    var measureEngine = "familytree"
    var qualitySizes = [1_000, 5_000]
    var qualitySeeds: [UInt64] = [1, 2, 3, 4, 5]
    /// Sizes at which the real `familytree` commands are timed as whole processes.
    var cliSizes = [100_000]
    /// Real family trees (GEDCOM) measured against dot too; by default every GEDCOM file in
    /// ../shared/data with 100 or more people.
    var gedcomFiles: [String] = Options.sharedRealTrees(minimumPeople: 100)

    /// The GEDCOM files under ../shared/data with at least `minimumPeople` INDI records, largest first.
    static func sharedRealTrees(minimumPeople: Int) -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/data").standardized
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [(path: String, people: Int)] = []
        for case let url as URL in walker where url.pathExtension.lowercased() == "ged" {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            let people = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("0 @") && $0.hasSuffix(" INDI") }.count
            if people >= minimumPeople { found.append((url.path, people)) }
        }
        return found.sorted { ($0.people, $1.path) > ($1.people, $0.path) }.map(\.path)
    }

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--sizes": sizes = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--seed": seed = UInt64(iterator.next() ?? "") ?? seed
            case "--dot-max-members": dotMaxMembers = Int(iterator.next() ?? "") ?? dotMaxMembers
            case "--dot-time-limit": dotTimeLimit = Double(iterator.next() ?? "") ?? dotTimeLimit
            case "--repeats": repeats = max(1, Int(iterator.next() ?? "") ?? repeats)
            case "--measure": measureOnly = Int(iterator.next() ?? "")
            case "--engine": measureEngine = iterator.next() ?? measureEngine
            case "--quality-sizes": qualitySizes = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--quality-seeds": qualitySeeds = (iterator.next() ?? "").split(separator: ",").compactMap { UInt64($0) }
            case "--gedcom": gedcomFiles = (iterator.next() ?? "").split(separator: ",").map(String.init)
            case "--cli-sizes": cliSizes = (iterator.next() ?? "").split(separator: ",").compactMap { Int($0) }
            default:
                FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

/// Seconds of wall-clock time.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func peakMemoryKB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// Writes rendered chunks to a file (here /dev/null), as `familytree render` writes its output file.
struct FileOutput: RenderedOutput {
    let handle: FileHandle
    var bytes = 0

    mutating func write(_ chunk: ArraySlice<UInt8>) throws {
        bytes += chunk.count
        try handle.write(contentsOf: chunk)
    }
}

/// Child mode for the cgraph column: Graphviz's dot in process, layout only.
func measureGraphviz(members: Int, options: Options) {
    #if Graphviz
    let graph = try! FamilyGraph(document: TreeGenerator(memberCount: members, seed: options.seed).generate())
    let start = now()
    let layout = try! GraphvizEngine().place(graph)
    let seconds = now() - start
    let metrics = LayoutMetrics.measure(layout, of: graph)
    print("{\"members\": \(members), \"layout\": \(seconds), \"peakKB\": \(peakMemoryKB()), \"crossings\": \(metrics.crossings)}")
    #endif
}

/// Lays out and renders `graph` (to /dev/null) `repeats` times; the best layout and SVG times.
func timeLayoutAndSVG(_ graph: FamilyGraph, repeats: Int) -> (layout: Double, svg: Double, bytes: Int, placed: Layout) {
    let labeler = Labeler()
    var best = (layout: Double.infinity, svg: Double.infinity)
    var last: (bytes: Int, placed: Layout)?
    for _ in 0..<repeats {
        let start = now()
        let placed = LayeredLayout(labeler: labeler).place(graph)
        let middle = now()
        var output = FileOutput(handle: FileHandle(forWritingAtPath: "/dev/null")!)
        try! SVGRenderer(labeler: labeler).render(placed, of: graph, to: &output)
        let end = now()
        best = (min(best.layout, middle - start), min(best.svg, end - middle))
        last = (output.bytes, placed)
    }
    return (best.layout, best.svg, last!.bytes, last!.placed)
}

/// Child mode: lay out and render one size, print one line of JSON.
func measure(members: Int, options: Options) {
    let graph = try! FamilyGraph(document: TreeGenerator(memberCount: members, seed: options.seed).generate())
    let graphPeak = peakMemoryKB()
    let run = timeLayoutAndSVG(graph, repeats: members >= 100_000 ? 1 : options.repeats)
    let peak = peakMemoryKB()
    let metrics = LayoutMetrics.measure(run.placed, of: graph)
    print("{\"members\": \(members), \"layout\": \(run.layout), \"svg\": \(run.svg), \"peakKB\": \(peak), \"graphPeakKB\": \(graphPeak), \"svgBytes\": \(run.bytes), \"crossings\": \(metrics.crossings), \"couples\": \(metrics.coupleAdjacencyPercent), \"birthOrder\": \(metrics.birthOrderPercent), \"overlaps\": \(metrics.overlaps)}")
}

/// Runs a program with a time limit; returns its output, wall time and peak memory, or nil on timeout.
func runLimited(_ path: String, _ arguments: [String], input: String?, limit: Double) -> (output: String, seconds: Double, peakKB: Int)? {
    let inputFile = NSTemporaryDirectory() + "familytree-bench-\(getpid()).in"
    let outputFile = NSTemporaryDirectory() + "familytree-bench-\(getpid()).out"
    defer { unlink(inputFile); unlink(outputFile) }
    _ = FileManager.default.createFile(atPath: inputFile, contents: Data((input ?? "").utf8))
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, inputFile, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Warnings (a GEDCOM file's, dot's) would break into the tables.
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = now()
    guard posix_spawnp(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
    posix_spawn_file_actions_destroy(&actions)
    // The child's exit is waited for on another thread, its end taken the moment it exits
    // (polling would round every time up to the polling step, a large part of a small tree's).
    // That thread leaves the child unreaped, so a kill on timeout never reaches a reused pid.
    let childExit = ChildExit()
    let child = pid
    Thread.detachNewThread {
        var info = siginfo_t()
        _ = waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT)
        childExit.end = now()
        childExit.done.signal()
    }
    var timedOut = false
    if childExit.done.wait(timeout: .now() + limit) == .timedOut {
        timedOut = true
        kill(pid, SIGKILL)
        childExit.done.wait()
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    // A run that failed (or was killed) times nothing.
    guard !timedOut, status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
    let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
    return (output, childExit.end - start, usage.ru_maxrss)
}

/// When a child process exited, written by the thread that waits for it and read after `done`.
final class ChildExit: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var end = 0.0
}

/// The best of three runs of a command: its fastest time and its largest peak memory (nil if
/// every run failed).
func bestOfThree(_ path: String, _ arguments: [String], limit: Double) -> (seconds: Double, peakKB: Int)? {
    let runs = (0..<3).compactMap { _ in runLimited(path, arguments, input: nil, limit: limit) }
    guard let fastest = runs.map(\.seconds).min() else { return nil }
    return (fastest, runs.map(\.peakKB).max()!)
}

/// A new scratch folder for one table's files, named `name` and this process; the caller removes it.
func scratchFolder(_ name: String) -> String {
    let folder = NSTemporaryDirectory() + "\(name)-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

func formatSeconds(_ seconds: Double) -> String {
    seconds < 10 ? String(format: "%.3f s", seconds) : String(format: "%.1f s", seconds)
}

func formatMemory(_ kilobytes: Int) -> String {
    kilobytes < 1024 * 10 ? "\(kilobytes) KB" : "\(kilobytes / 1024) MB"
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
if let members = options.measureOnly {
    if options.measureEngine == "graphviz" { measureGraphviz(members: members, options: options) } else { measure(members: members, options: options) }
    exit(0)
}

/// Whether this build has the Graphviz trait (and so the in-process cgraph column).
func hasGraphviz() -> Bool {
    #if Graphviz
    return true
    #else
    return false
    #endif
}
let cgraphColumn = CommandLine.arguments.isEmpty ? false : hasGraphviz()

let dotPath = ["/usr/bin/dot", "/usr/local/bin/dot"].first { FileManager.default.isExecutableFile(atPath: $0) }
print("familytree layout benchmark: seed \(options.seed), release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("familytree: layout + SVG in process, best of \(options.repeats) below 100k members; peak memory of the whole process (tree generation included)")
print("dot: \(dotPath.map { "\($0) -Tplain on the structure DOT, limit \(Int(options.dotTimeLimit)) s, up to \(options.dotMaxMembers) members" } ?? "not installed")")
print("cgraph: \(cgraphColumn ? "Graphviz's dot in process through cgraph (layout only), same limit" : "not built in (build with --traits Graphviz for that column)")")
print("")
print("| members | familytree time | familytree peak memory | familytree crossings | dot time | dot peak memory | dot crossings | crossings ratio | dot couples adjacent | dot birth order |\(cgraphColumn ? " cgraph time | cgraph crossings |" : "")")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\(cgraphColumn ? "---:|---:|" : "")")
var times: [(members: Int, seconds: Double)] = []
for members in options.sizes {
    guard let child = runLimited(CommandLine.arguments[0], ["--measure", "\(members)", "--seed", "\(options.seed)", "--repeats", "\(options.repeats)"], input: nil, limit: 600),
          let ours = try? JSONParser.parse(child.output).root else {
        print("| \(members) | failed | | | | | | | | |")
        continue
    }
    let seconds = (ours["layout"]?.doubleValue ?? 0) + (ours["svg"]?.doubleValue ?? 0)
    times.append((members, seconds))
    let ourCrossings = Int(ours["crossings"]?.doubleValue ?? -1)
    var dotColumns = "| not run | | | | | "
    if let dotPath, members <= options.dotMaxMembers {
        let graph = try! FamilyGraph(document: TreeGenerator(memberCount: members, seed: options.seed).generate())
        if let run = runLimited(dotPath, ["-Tplain"], input: DOTWriter().structure(graph), limit: options.dotTimeLimit),
           let drawing = try? GraphvizPlainReader.drawing(fromPlain: run.output, of: graph) {
            let metrics = LayoutMetrics.measure(drawing, of: graph)
            let ratio = metrics.crossings > 0 ? String(format: "%.2f", Double(ourCrossings) / Double(metrics.crossings)) : "-"
            dotColumns = "| \(formatSeconds(run.seconds)) | \(formatMemory(run.peakKB)) | \(metrics.crossings) | \(ratio) | \(String(format: "%.1f%%", metrics.coupleAdjacencyPercent)) | \(String(format: "%.1f%%", metrics.birthOrderPercent)) "
        } else {
            dotColumns = "| > \(Int(options.dotTimeLimit)) s | | | | | "
        }
    }
    var cgraphColumns = ""
    if cgraphColumn {
        if members <= options.dotMaxMembers,
           let run = runLimited(CommandLine.arguments[0], ["--measure", "\(members)", "--seed", "\(options.seed)", "--engine", "graphviz"], input: nil, limit: options.dotTimeLimit),
           let result = try? JSONParser.parse(run.output).root {
            cgraphColumns = " \(formatSeconds(result["layout"]?.doubleValue ?? 0)) | \(Int(result["crossings"]?.doubleValue ?? -1)) |"
        } else {
            cgraphColumns = members <= options.dotMaxMembers ? " > \(Int(options.dotTimeLimit)) s | |" : " not run | |"
        }
    }
    print("| \(members) | \(formatSeconds(seconds)) | \(formatMemory(Int(ours["peakKB"]?.doubleValue ?? 0))) | \(ourCrossings) \(dotColumns)|\(cgraphColumns)")
}
// The growth exponent from 10,000 members up: small trees spend extra effort on crossings.
if let first = times.first(where: { $0.members >= 10_000 }) ?? times.first, let last = times.last, last.members > first.members, first.seconds > 0 {
    let exponent = log(last.seconds / first.seconds) / log(Double(last.members) / Double(first.members))
    print("")
    print(String(format: "familytree time grows as members^%.2f from %d to %d members.", exponent, first.members, last.members))
}
print("familytree keeps every couple adjacent and every sibling group in birth order (hard constraints).")

// Crossings depend a lot on the tree: compare on several seeds and give the ratio of the totals.
if let dotPath, !options.qualitySizes.isEmpty, !options.qualitySeeds.isEmpty {
    print("")
    print("Crossings over seeds \(options.qualitySeeds.map(String.init).joined(separator: ", ")):")
    print("")
    print("| members | seed | familytree crossings | dot crossings | ratio |")
    print("|---:|---:|---:|---:|---:|")
    for members in options.qualitySizes {
        var totals = (ours: 0, dot: 0)
        for seed in options.qualitySeeds {
            let graph = try! FamilyGraph(document: TreeGenerator(memberCount: members, seed: seed).generate())
            let ours = LayoutMetrics.measure(LayeredLayout(labeler: Labeler()).place(graph), of: graph).crossings
            guard let run = runLimited(dotPath, ["-Tplain"], input: DOTWriter().structure(graph), limit: options.dotTimeLimit),
                  let drawing = try? GraphvizPlainReader.drawing(fromPlain: run.output, of: graph) else {
                print("| \(members) | \(seed) | \(ours) | > \(Int(options.dotTimeLimit)) s | |")
                continue
            }
            let dot = LayoutMetrics.measure(drawing, of: graph).crossings
            totals = (totals.ours + ours, totals.dot + dot)
            print("| \(members) | \(seed) | \(ours) | \(dot) | \(String(format: "%.2f", Double(ours) / Double(max(dot, 1)))) |")
        }
        print("| \(members) | all | \(totals.ours) | \(totals.dot) | \(String(format: "%.2f", Double(totals.ours) / Double(max(totals.dot, 1)))) |")
    }
}

// Real trees: GEDCOM files imported, laid out by both, measured alike.
if options.gedcomFiles.isEmpty {
    print("")
    print("Real family trees: none (by default those of ../shared/data, absent here; or --gedcom a.ged,b.ged).")
} else {
    print("")
    print("Real family trees (GEDCOM): each cell is familytree / dot. familytree's time is layout + SVG in")
    print("process, best of \(options.repeats); dot's is one `dot -Tplain` process on the structure DOT (boxes")
    print("the same size as ours). Long lines span more than one layer gap; couples are adjacent partners;")
    print("birth order counts families whose dated children run oldest first.")
    print("")
    print("| tree | people | time | crossings | long lines | total edge length | width | couples adjacent | birth order |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    func percent(_ value: Double) -> String { String(format: "%.1f%%", value) }
    func thousands(_ value: Double) -> String { String(format: "%.0fk", value / 1000) }
    for path in options.gedcomFiles {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard let bytes = FileManager.default.contents(atPath: path),
              let document = try? GEDCOMImport(bytes: Array(bytes)).document, let graph = try? FamilyGraph(document: document) else {
            print("| \(name) | unreadable | | | | | | | |")
            continue
        }
        let run = timeLayoutAndSVG(graph, repeats: options.repeats)
        let ours = LayoutMetrics.measure(run.placed, of: graph)
        guard let dotPath, let dotRun = runLimited(dotPath, ["-Tplain"], input: DOTWriter().structure(graph), limit: options.dotTimeLimit),
              let drawing = try? GraphvizPlainReader.drawing(fromPlain: dotRun.output, of: graph) else {
            print("| \(name) | \(graph.members.count) | \(formatSeconds(run.layout + run.svg)) / \(dotPath == nil ? "not installed" : "failed") | \(ours.crossings) | \(ours.longEdges) | \(thousands(ours.totalEdgeLength)) | \(Int(ours.width)) | \(percent(ours.coupleAdjacencyPercent)) | \(percent(ours.birthOrderPercent)) |")
            continue
        }
        let dot = LayoutMetrics.measure(drawing, of: graph)
        let cells = [
            "\(formatSeconds(run.layout + run.svg)) / \(formatSeconds(dotRun.seconds))",
            "\(ours.crossings) / \(dot.crossings)",
            "\(ours.longEdges) / \(dot.longEdges)",
            "\(thousands(ours.totalEdgeLength)) / \(thousands(dot.totalEdgeLength))",
            "\(Int(ours.width.rounded())) / \(Int(dot.width.rounded()))",
            "\(percent(ours.coupleAdjacencyPercent)) / \(percent(dot.coupleAdjacencyPercent))",
            "\(percent(ours.birthOrderPercent)) / \(percent(dot.birthOrderPercent))",
        ]
        print("| \(name) | \(graph.members.count) | \(cells.joined(separator: " | ")) |")
    }
}

// The real commands, as a user runs them: the `familytree` built beside this benchmark, one process
// per run (start-up, reading, validation, layout, writing and exit all counted), best of three.
let cli = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("familytree").path
if !options.cliSizes.isEmpty {
    print("")
    guard FileManager.default.isExecutableFile(atPath: cli) else {
        print("The familytree command: not built beside this benchmark (swift build -c release builds both).")
        exit(0)
    }
    print("The familytree command (release, a process per run, wall time and peak memory, best of 3):")
    print("")
    print("| members | tree.json | validate | render -o tree.svg | render -o layout.json |")
    print("|---:|---:|---:|---:|---:|")
    let folder = scratchFolder("familytree-cli-bench")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for members in options.cliSizes {
        let tree = folder + "/tree.json"
        guard runLimited(cli, ["generate", "--members", "\(members)", "--seed", "\(options.seed)", "-o", tree], input: nil, limit: 600) != nil else {
            print("| \(members) | generate failed | | | |")
            continue
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: tree)[.size] as? Int) ?? 0
        var cells: [String] = []
        for arguments in [["validate", tree], ["render", tree, "-o", folder + "/tree.svg"], ["render", tree, "-o", folder + "/layout.json"]] {
            guard let best = bestOfThree(cli, arguments, limit: 600) else { cells.append("failed"); continue }
            cells.append("\(formatSeconds(best.seconds)), \(formatMemory(best.peakKB))")
        }
        print("| \(members) | \(formatMemory(size / 1024)) | \(cells.joined(separator: " | ")) |")
    }
}

// The same on the real trees, side by side with dot as a user runs it: `familytree render` of the
// GEDCOM file to SVG (the shape chosen by `--fit auto`, the default), and `dot -Tsvg` of the
// structure DOT that `familytree render -o tree.dot` writes (boxes the same size as ours).
if !options.gedcomFiles.isEmpty, FileManager.default.isExecutableFile(atPath: cli), let dotPath {
    print("")
    print("The familytree command on real trees against dot (a process per run, wall time, best of 3):")
    print("")
    print("| tree | familytree render -o tree.svg | dot -Tsvg tree.dot | familytree / dot |")
    print("|---|---:|---:|---:|")
    let folder = scratchFolder("familytree-cli-gedcom")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for path in options.gedcomFiles {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let dotFile = folder + "/tree.dot"
        unlink(dotFile)
        guard runLimited(cli, ["render", path, "-o", dotFile], input: nil, limit: options.dotTimeLimit) != nil,
              let ours = bestOfThree(cli, ["render", path, "-o", folder + "/tree.svg"], limit: options.dotTimeLimit)?.seconds,
              let dot = bestOfThree(dotPath, ["-Tsvg", "-o", folder + "/dot.svg", dotFile], limit: options.dotTimeLimit)?.seconds else {
            print("| \(name) | failed | | |")
            continue
        }
        print("| \(name) | \(formatSeconds(ours)) | \(formatSeconds(dot)) | \(String(format: "%.2f", ours / dot)) |")
    }
}
