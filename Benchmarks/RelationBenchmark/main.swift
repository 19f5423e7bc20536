// The relationship benchmark: one query, and everyone's relationships to one person (every way,
// and the closest only, as a chart's labels ask), on generated trees. Run it in release mode:
//
//   swift run -c release familytree-relation-benchmark [--members 100000]
import FamilyTree
import Foundation

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

var members = 100_000
if let flag = CommandLine.arguments.firstIndex(of: "--members"), flag + 1 < CommandLine.arguments.count, let count = Int(CommandLine.arguments[flag + 1]) {
    members = count
}

let clock = ContinuousClock()
print("| members | set-up | query p50 | query p95 | query max | pairs related | everyone to one person | the closest only | related to them |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for size in Array(Set([1_000, 10_000, members])).sorted() {
    let graph = try FamilyGraph(document: TreeGenerator(memberCount: size, seed: 7).generate())
    let started = clock.now
    let calculator = RelationshipCalculator(graph)
    let setUp = clock.now - started
    // Pairs spread over the tree, the same for every run.
    let pairs = (0..<200).map { ((($0 * 7_919) % size), (($0 * 104_729 + size / 2) % size)) }
    var times: [Double] = []
    var related = 0
    for (a, b) in pairs {
        let start = clock.now
        let found = calculator.relationships(from: a, to: b)
        times.append(milliseconds(clock.now - start))
        if !found.isEmpty { related += 1 }
    }
    times.sort()
    let home = size / 2
    let allStart = clock.now
    let everyone = calculator.relationshipsToEveryone(from: home)
    let all = clock.now - allStart
    let closestStart = clock.now
    let closest = calculator.closestRelationships(from: home, toEach: Array(graph.members.indices))
    let closestOnly = clock.now - closestStart
    guard closest == everyone.map(\.first) else { fatalError("the closest differ from the first of every way") }
    print(String(format: "| %@ | %.1f ms | %.2f ms | %.2f ms | %.2f ms | %d of 200 | %.0f ms | %.0f ms | %d |",
                 size.formatted(), milliseconds(setUp), times[times.count / 2], times[times.count * 95 / 100], times.last!, related,
                 milliseconds(all), milliseconds(closestOnly), everyone.filter { !$0.isEmpty }.count))
}
