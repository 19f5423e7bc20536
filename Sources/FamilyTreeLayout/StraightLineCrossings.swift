/// The crossings of straight lines drawn between levels, counted gap by gap as `DrawingMeasures`
/// reports them: in each gap between two neighbouring levels, the pairs of lines that span it
/// and stand in the opposite order at its two levels. Positions are compared rounded to 1/1000;
/// lines at one rounded position share a point there and never cross in that gap.
///
/// The lines are carried from gap to gap in their order at the level between, so a gap costs its
/// lines and the crossings in it, not a sort: a person with 6,000 partners drawn apart stands
/// 6,000 levels of union points in one generation, with thousands of marriage lines through each
/// gap and few crossings in any (2.4 s to measure when each gap sorted its lines afresh).
struct StraightLineCrossings {
    /// A line from its upper end (at level `upperLevel`, position `top`) to its lower end.
    struct Line {
        var upperLevel: Int
        var lowerLevel: Int
        var top: Point
        var bottom: Point

        /// Where the line is along at `level` (whose height is `height`): its ends at theirs, in
        /// between on the straight line.
        func along(atLevel level: Int, height: Double) -> Double {
            if level == upperLevel { return top.x }
            if level == lowerLevel { return bottom.x }
            let t = (height - top.y) / (bottom.y - top.y)
            return top.x + t * (bottom.x - top.x)
        }
    }

    /// The total over every gap of `levels` (the levels' heights, top down) of `lines`' crossings.
    static func count(_ lines: [Line], levels: [Double]) -> Int {
        let lines = lines.sorted { $0.upperLevel < $1.upperLevel }
        func rounded(_ line: Int, atLevel level: Int) -> Double {
            (lines[line].along(atLevel: level, height: levels[level]) * 1000).rounded()
        }
        var total = 0
        // The lines through the current level in their order there, and their positions on it
        // (each line's lower position in one gap is its upper one in the next: taken once).
        var order: [Int] = []
        var upper: [Double] = []
        var lower: [Double] = []
        var nextLine = 0
        for gap in 0..<max(0, levels.count - 1) {
            var kept = 0
            for index in order.indices where lines[order[index]].lowerLevel > gap {
                (order[kept], upper[kept]) = (order[index], upper[index])
                kept += 1
            }
            order.removeLast(order.count - kept)
            upper.removeLast(upper.count - kept)
            // Lines from this level join where they stand on it, after the lines at the same place.
            if nextLine < lines.count, lines[nextLine].upperLevel == gap {
                var joining: [(line: Int, at: Double)] = []
                while nextLine < lines.count, lines[nextLine].upperLevel == gap {
                    joining.append((nextLine, rounded(nextLine, atLevel: gap)))
                    nextLine += 1
                }
                joining.sort { $0.at < $1.at }
                (order, upper) = merged((order, upper), joining)
            }
            guard order.count > 1 else { continue }
            lower.removeAll(keepingCapacity: true)
            for line in order { lower.append(rounded(line, atLevel: gap + 1)) }
            // `order` stands sorted by the upper positions. Lines at one upper position share a
            // point and never cross each other: among them, the lower ones first ...
            var start = 0
            while start < order.count {
                var end = start + 1
                while end < order.count, upper[end] == upper[start] { end += 1 }
                if end - start > 1 { sort(&order, by: &lower, in: start..<end) }
                start = end
            }
            // ... then every pair standing the other way round below crosses: an insertion sort by
            // the lower positions counts them as it passes them, and leaves the lines in their order
            // at the next level. Where that would pass more pairs than a sort costs, the pairs are
            // counted by the Fenwick tree and the lines sorted.
            if let crossings = insertionSort(&order, by: &lower, in: 0..<order.count, budget: 16 * order.count + 256) {
                total += crossings
            } else {
                // The insertion sort stopped midway: the upper positions are taken again, in the
                // lines' order as it left them.
                for (index, line) in order.enumerated() { upper[index] = rounded(line, atLevel: gap) }
                total += CrossingCounter.crossings(zip(denseRanks(upper), denseRanks(lower)).map { (upper: $0, lower: $1) })
                sort(&order, by: &lower, in: 0..<order.count)
            }
            swap(&upper, &lower)
        }
        return total
    }

    /// Lines and their positions, `first` and `second` each sorted by position, as one sorted
    /// list, `first`'s first among equals.
    private static func merged(_ first: (lines: [Int], at: [Double]), _ second: [(line: Int, at: Double)]) -> ([Int], [Double]) {
        var lines: [Int] = []
        var at: [Double] = []
        lines.reserveCapacity(first.lines.count + second.count)
        at.reserveCapacity(first.lines.count + second.count)
        var (i, j) = (0, 0)
        while i < first.lines.count || j < second.count {
            if j < second.count, i == first.lines.count || second[j].at < first.at[i] {
                lines.append(second[j].line)
                at.append(second[j].at)
                j += 1
            } else {
                lines.append(first.lines[i])
                at.append(first.at[i])
                i += 1
            }
        }
        return (lines, at)
    }

    /// Sorts `range` of `lines` by `keys` (moved along with them), stably, and returns how many
    /// pairs it put the other way round; `nil`, the range part sorted, once that passes `budget`.
    private static func insertionSort(_ lines: inout [Int], by keys: inout [Double], in range: Range<Int>, budget: Int) -> Int? {
        var passed = 0
        for index in range.dropFirst() {
            let (line, key) = (lines[index], keys[index])
            var hole = index
            while hole > range.lowerBound, keys[hole - 1] > key {
                lines[hole] = lines[hole - 1]
                keys[hole] = keys[hole - 1]
                hole -= 1
            }
            lines[hole] = line
            keys[hole] = key
            passed += index - hole
            if passed > budget { return nil }
        }
        return passed
    }

    /// Sorts `range` of `lines` by `keys` (moved along with them), stably.
    private static func sort(_ lines: inout [Int], by keys: inout [Double], in range: Range<Int>) {
        guard range.count > 16 else {
            _ = insertionSort(&lines, by: &keys, in: range, budget: .max)
            return
        }
        let sorted = range.sorted { (keys[$0], $0) < (keys[$1], $1) }
        let (oldLines, oldKeys) = (Array(lines[range]), Array(keys[range]))
        for (index, from) in zip(range, sorted) {
            lines[index] = oldLines[from - range.lowerBound]
            keys[index] = oldKeys[from - range.lowerBound]
        }
    }

    /// Dense ranks of already rounded `values`, by one sort of the indices (no hashing of doubles).
    private static func denseRanks(_ values: [Double]) -> [Int] {
        var result = Array(repeating: 0, count: values.count)
        var rank = -1
        var previous = -Double.infinity
        for index in values.indices.sorted(by: { values[$0] < values[$1] }) {
            if values[index] != previous {
                rank += 1
                previous = values[index]
            }
            result[index] = rank
        }
        return result
    }
}
