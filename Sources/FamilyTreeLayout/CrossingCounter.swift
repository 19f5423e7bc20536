/// Counts crossings between two layers by inversion counting, in O(E log V).
public enum CrossingCounter {
    /// The number of crossing pairs among lines given as (upper position, lower position).
    /// Lines that share an endpoint never count as crossing.
    public static func crossings(_ lines: [(upper: Int, lower: Int)]) -> Int {
        guard lines.count > 1 else { return 0 }
        let sorted = lines.sorted { $0.upper != $1.upper ? $0.upper < $1.upper : $0.lower < $1.lower }
        let size = (sorted.map(\.lower).max() ?? 0) + 2
        var tree = Array(repeating: 0, count: size + 1)
        var total = 0
        var seen = 0
        // Lines with the same upper end never cross each other: add them to the tree only after
        // all of that group have been counted.
        var groupStart = 0
        while groupStart < sorted.count {
            var groupEnd = groupStart
            while groupEnd < sorted.count, sorted[groupEnd].upper == sorted[groupStart].upper { groupEnd += 1 }
            for line in sorted[groupStart..<groupEnd] {
                // Earlier lines whose lower end is strictly right of this one cross it.
                var notGreater = 0
                var index = line.lower + 1
                while index > 0 { notGreater += tree[index]; index -= index & -index }
                total += seen - notGreater
            }
            for line in sorted[groupStart..<groupEnd] {
                var index = line.lower + 1
                while index <= size { tree[index] += 1; index += index & -index }
                seen += 1
            }
            groupStart = groupEnd
        }
        return total
    }

    /// The crossings among lines of several layer gaps, each line given as one number,
    /// `(gap << (2 * bits)) | (upper << bits) | lower` with both ends below `1 << bits`, the numbers
    /// sorted. Lines of different gaps never cross; lines that share an endpoint never count as
    /// crossing. (Shifts, not a product: this runs for every order the search tries.)
    static func crossings(sortedKeys keys: [Int], bits: Int) -> Int {
        let span = 1 << bits
        let mask = span - 1
        var tree = [Int](repeating: 0, count: span + 1)
        // Raw buffers: this runs for every order the search tries, and slices of the arrays
        // retained and released them at every group.
        return keys.withUnsafeBufferPointer { keys in
            tree.withUnsafeMutableBufferPointer { tree in
                var total = 0
                var groupStart = 0
                var gapStart = 0
                while groupStart < keys.count {
                    let upperKey = keys[groupStart] >> bits
                    if upperKey >> bits != keys[gapStart] >> (2 * bits) {
                        // A new gap: empty the tree of the last one's lines.
                        for position in gapStart..<groupStart {
                            var index = keys[position] & mask + 1
                            while index <= span, tree[index] != 0 { tree[index] = 0; index += index & -index }
                        }
                        gapStart = groupStart
                    }
                    var groupEnd = groupStart
                    while groupEnd < keys.count, keys[groupEnd] >> bits == upperKey { groupEnd += 1 }
                    // Earlier lines of this gap whose lower end is strictly right of this one's cross it.
                    let seen = groupStart - gapStart
                    for position in groupStart..<groupEnd {
                        var notGreater = 0
                        var index = keys[position] & mask + 1
                        while index > 0 { notGreater += tree[index]; index -= index & -index }
                        total += seen - notGreater
                    }
                    for position in groupStart..<groupEnd {
                        var index = keys[position] & mask + 1
                        while index <= span { tree[index] += 1; index += index & -index }
                    }
                    groupStart = groupEnd
                }
                return total
            }
        }
    }
}
