import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// The gap-by-gap crossing count that carries its lines from gap to gap (`StraightLineCrossings`),
/// held to the pair-by-pair definition.
@Suite struct StraightLineCrossingsTests {
    typealias Line = StraightLineCrossings.Line

    /// Every pair of lines spanning a gap, compared at its two levels, positions rounded to 1/1000.
    static func pairByPair(_ lines: [Line], levels: [Double]) -> Int {
        var count = 0
        for gap in 0..<max(0, levels.count - 1) {
            let spanning = lines.filter { $0.upperLevel <= gap && gap < $0.lowerLevel }
            let ends = spanning.map { line in
                ((line.along(atLevel: gap, height: levels[gap]) * 1000).rounded(), (line.along(atLevel: gap + 1, height: levels[gap + 1]) * 1000).rounded())
            }
            for i in ends.indices {
                for j in ends.indices where i < j {
                    if (ends[i].0 < ends[j].0 && ends[i].1 > ends[j].1) || (ends[i].0 > ends[j].0 && ends[i].1 < ends[j].1) { count += 1 }
                }
            }
        }
        return count
    }

    /// Random lines between random levels, their ends on a coarse grid (so many share a point,
    /// and many stand at one place in a level), in sets small and large enough to take the sorts'
    /// and the Fenwick tree's ways.
    @Test(arguments: 0..<40)
    func randomLinesAreCountedAsPairByPair(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) + 7)
        let levelCount = 2 + Int(random.next() % 12)
        let levels = (0..<levelCount).map { Double($0) * 64 }
        let grid = seed % 3 == 0 ? 4 : 40
        let lineCount = seed % 4 == 0 ? 400 : 1 + Int(random.next() % 60)
        let lines = (0..<lineCount).map { _ -> Line in
            let upper = Int(random.next() % UInt64(levelCount - 1))
            let lower = upper + 1 + Int(random.next() % UInt64(levelCount - 1 - upper))
            return Line(
                upperLevel: upper, lowerLevel: lower, top: Point(x: Double(random.next() % UInt64(grid)) * 7.5, y: levels[upper]),
                bottom: Point(x: Double(random.next() % UInt64(grid)) * 7.5, y: levels[lower]))
        }
        #expect(StraightLineCrossings.count(lines, levels: levels) == Self.pairByPair(lines, levels: levels))
    }

    /// Lines that all cross each other in one gap (more pairs than the insertion sort may pass)
    /// and then run on through more gaps, untangled: counted by the Fenwick tree, then carried on.
    @Test func aGapWhereEveryPairCrossesIsCountedAndCarriedOn() {
        let levels = [0.0, 64, 128, 192]
        let count = 600
        let lines = (0..<count).map { index in
            Line(upperLevel: 0, lowerLevel: 3, top: Point(x: Double(index) * 10, y: 0), bottom: Point(x: Double(count - index) * 10 + 7, y: 192))
        } + (0..<count).map { index in
            Line(upperLevel: 1, lowerLevel: 2, top: Point(x: Double(index) * 3, y: 64), bottom: Point(x: Double(index) * 3, y: 128))
        }
        let expected = Self.pairByPair(lines, levels: levels)
        #expect(expected >= count * (count - 1) / 2)
        #expect(StraightLineCrossings.count(lines, levels: levels) == expected)
    }
}
