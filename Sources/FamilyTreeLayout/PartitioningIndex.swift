extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` holds, in a collection
    /// where it holds from some element on (`endIndex` when it holds for none), found by halving.
    ///
    /// swift-algorithms' name and meaning, written here rather than making the layout, which apps
    /// embed, depend on a package for one function.
    func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var remaining = count
        while remaining > 0 {
            let half = remaining / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                remaining = half
            } else {
                low = index(after: middle)
                remaining -= half + 1
            }
        }
        return low
    }
}
