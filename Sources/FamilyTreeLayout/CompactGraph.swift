import FamilyTree

/// The family graph as flat adjacency arrays (compressed rows) for the layout's hot loops:
/// no array of arrays, so walking it neither allocates nor retains.
struct CompactGraph {
    /// Indices in rows stored end to end.
    typealias Rows = CompactRows<Int>

    /// First and second partner of each union; the second is -1 for a single parent.
    let firstPartner: [Int]
    let secondPartner: [Int]
    /// Children of each union in sibling order.
    let children: Rows
    /// Unions of each member as a partner, in order.
    let unionsOfMember: Rows
    /// Unions each member is a child of.
    let parentUnions: Rows
    let primaryParentUnion: [Int]
    /// Cross-bloodline parents and children of each member.
    let crossParents: Rows
    let crossChildren: Rows

    init(_ topology: Topology, memberCount: Int) {
        firstPartner = topology.partners.map { $0[0] }
        secondPartner = topology.partners.map { $0.count > 1 ? $0[1] : -1 }
        children = Rows(topology.children)
        unionsOfMember = Rows(topology.unionsOfMember)
        parentUnions = Rows(topology.parentUnions)
        primaryParentUnion = topology.primaryParentUnion
        var parents = Array(repeating: [Int](), count: memberCount)
        var kids = Array(repeating: [Int](), count: memberCount)
        for link in topology.crossLinks {
            parents[link.child].append(link.parent)
            kids[link.parent].append(link.child)
        }
        crossParents = Rows(parents)
        crossChildren = Rows(kids)
    }

    init(
        firstPartner: [Int], secondPartner: [Int], children: Rows, unionsOfMember: Rows, parentUnions: Rows,
        primaryParentUnion: [Int], crossParents: Rows, crossChildren: Rows
    ) {
        self.firstPartner = firstPartner
        self.secondPartner = secondPartner
        self.children = children
        self.unionsOfMember = unionsOfMember
        self.parentUnions = parentUnions
        self.primaryParentUnion = primaryParentUnion
        self.crossParents = crossParents
        self.crossChildren = crossChildren
    }

    var unionCount: Int { firstPartner.count }
}

/// A list per row, stored end to end: row `r` is `items[start[r]..<start[r + 1]]`. One array for a
/// table read often and built once, not an array per row, so walking it neither allocates nor
/// retains.
struct CompactRows<Element> {
    /// Where each row starts in `items`; one more entry than rows.
    let start: [Int]
    let items: [Element]

    init(start: [Int], items: [Element]) {
        self.start = start
        self.items = items
    }

    /// An empty table of `rows` rows.
    init(rows: Int) {
        self.init(start: Array(repeating: 0, count: rows + 1), items: [])
    }

    /// `lists` as rows, in order.
    init(_ lists: [[Element]]) {
        var start = [0]
        start.reserveCapacity(lists.count + 1)
        var items: [Element] = []
        items.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        for list in lists {
            items.append(contentsOf: list)
            start.append(items.count)
        }
        self.init(start: start, items: items)
    }

    /// The values grouped into `rows` rows, each row in the order its values come in `entries`.
    init(_ entries: [(row: Int, value: Element)], rows: Int) {
        var start = Array(repeating: 0, count: rows + 1)
        for entry in entries { start[entry.row + 1] += 1 }
        for row in 0..<rows { start[row + 1] += start[row] }
        var next = start
        let items = Array(unsafeUninitializedCapacity: entries.count) { buffer, count in
            for entry in entries {
                (buffer.baseAddress! + next[entry.row]).initialize(to: entry.value)
                next[entry.row] += 1
            }
            count = entries.count
        }
        self.init(start: start, items: items)
    }

    @inline(__always) func range(_ row: Int) -> Range<Int> { start[row]..<start[row + 1] }

    subscript(row: Int) -> ArraySlice<Element> { items[range(row)] }

    /// The same table with empty rows added up to `rows` rows.
    func padded(to rows: Int) -> Self {
        Self(start: start + Array(repeating: items.count, count: rows + 1 - start.count), items: items)
    }
}

extension CompactRows: Sendable where Element: Sendable {}

extension CompactRows where Element == Int {
    func contains(_ item: Int, inRow row: Int) -> Bool {
        for entry in range(row) where items[entry] == item { return true }
        return false
    }
}
