/// Optimal ranks for a directed acyclic graph: every edge at least its minimum length long, and
/// the sum of weight × length as small as it can be.
///
/// The network simplex method of Gansner, Koutsofios, North and Vo ("A Technique for Drawing
/// Directed Graphs", 1993), which dot uses to rank nodes: a spanning forest of tight edges (length
/// equal to minimum) is improved by exchanging a tree edge whose cut value is negative for the
/// non-tree edge of least slack across the same cut, until no cut value is negative, which proves
/// the ranks optimal.
///
/// Cut values are kept as subtree sums: the cut value of the edge above a subtree is the subtree's
/// total out-weight minus its in-weight (edges inside cancel), signed by the edge's direction. An
/// exchange renumbers only the subtree under the lowest common ancestor of the entering edge, and
/// of it only the parts the exchange changed.
struct NetworkSimplex {
    struct Edge: Hashable {
        var tail: Int
        var head: Int
        var minLength: Int
        var weight: Int
    }

    let edges: [Edge]
    /// The rank of each node.
    private(set) var rank: [Int]
    /// Exchanges made by `solve`.
    private(set) var exchanges = 0
    /// Renumbers the whole subtree under the common ancestor after each exchange, as the method
    /// is written, instead of only its changed parts: for tests to check the shortcut against.
    var renumbersWholeSubtrees = false

    private let incident: CompactGraph.Rows
    /// Out-weight minus in-weight of each node.
    private let netWeight: [Int]
    private var inTree: [Bool]
    /// The tree edge to each node's parent, -1 at a root.
    private var parentEdge: [Int]
    /// Postorder number of each node, the least number in its subtree, and the node of each number.
    private var lim: [Int]
    private var low: [Int]
    private var nodeAtLim: [Int]
    /// Sum of `netWeight` over each node's subtree.
    private var subtreeNet: [Int]
    /// Where the search for a negative cut value resumes.
    private var searchStart = 0
    /// Scratch for `renumber`'s walk, kept between calls.
    private var walk: [(node: Int, next: Int)] = []
    /// Scratch for `renumber`: the nodes by their numbers before it.
    private var oldNodeAtLim: [Int] = []

    /// A problem on `nodeCount` nodes starting from ranks that satisfy every edge.
    init(nodeCount: Int, edges: [Edge], feasibleRanks: [Int]) {
        precondition(feasibleRanks.count == nodeCount)
        self.edges = edges
        rank = feasibleRanks
        var lists = Array(repeating: [Int](), count: nodeCount)
        var net = Array(repeating: 0, count: nodeCount)
        for (index, edge) in edges.enumerated() {
            lists[edge.tail].append(index)
            lists[edge.head].append(index)
            net[edge.tail] += edge.weight
            net[edge.head] -= edge.weight
        }
        incident = CompactGraph.Rows(lists)
        netWeight = net
        inTree = Array(repeating: false, count: edges.count)
        parentEdge = Array(repeating: -1, count: nodeCount)
        lim = Array(repeating: 0, count: nodeCount)
        low = Array(repeating: 0, count: nodeCount)
        nodeAtLim = Array(repeating: 0, count: nodeCount)
        subtreeNet = Array(repeating: 0, count: nodeCount)
    }

    /// Improves the ranks until they are optimal or `maxExchanges` exchanges were made, then shifts
    /// each connected part so its least rank is 0.
    mutating func solve(maxExchanges: Int) {
        buildTightForest()
        var nextLim = 0
        for root in rank.indices where parentEdge[root] < 0 {
            renumber(subtreeOf: root, firstLim: nextLim)
            nextLim = lim[root] + 1
        }
        while exchanges < maxExchanges, let leaving = nodeBelowNegativeCut() {
            guard let entering = enteringEdge(replacingEdgeAbove: leaving) else { break }
            exchange(edgeAbove: leaving, for: entering)
            exchanges += 1
        }
        normalize()
    }

    @inline(__always) private func other(_ edge: Int, than node: Int) -> Int {
        edges[edge].tail == node ? edges[edge].head : edges[edge].tail
    }

    @inline(__always) private func slack(_ edge: Int) -> Int {
        rank[edges[edge].head] - rank[edges[edge].tail] - edges[edge].minLength
    }

    @inline(__always) private func subtree(of top: Int, contains node: Int) -> Bool {
        low[top] <= lim[node] && lim[node] <= lim[top]
    }

    /// A spanning tree of tight edges for each connected part: grown one node at a time along the
    /// edge of least slack, the tree shifted as a whole to make that edge tight. The shift is kept as
    /// one offset, and the candidate edges in two heaps keyed so the offset does not change their order.
    private mutating func buildTightForest() {
        struct Candidate: Comparable {
            var key: Int
            var edge: Int
            static func < (a: Candidate, b: Candidate) -> Bool { (a.key, a.edge) < (b.key, b.edge) }
        }
        var inForest = Array(repeating: false, count: rank.count)
        var stored = rank
        for root in rank.indices where !inForest[root] {
            var offset = 0
            var members = [root]
            inForest[root] = true
            // Out of the tree: actual slack is key - offset; into the tree: key + offset.
            var outward = MinHeap<Candidate>()
            var inward = MinHeap<Candidate>()
            func addCandidates(of node: Int) {
                for entry in incident.range(node) {
                    let edge = incident.items[entry]
                    let (tail, head, minLength) = (edges[edge].tail, edges[edge].head, edges[edge].minLength)
                    if tail == node, !inForest[head] {
                        outward.insert(Candidate(key: rank[head] - stored[node] - minLength, edge: edge))
                    } else if head == node, !inForest[tail] {
                        inward.insert(Candidate(key: stored[node] - rank[tail] - minLength, edge: edge))
                    }
                }
            }
            addCandidates(of: root)
            while true {
                while let top = outward.min, inForest[edges[top.edge].head] { _ = outward.popMin() }
                while let top = inward.min, inForest[edges[top.edge].tail] { _ = inward.popMin() }
                let out = outward.min.map { (slack: $0.key - offset, edge: $0.edge) }
                let into = inward.min.map { (slack: $0.key + offset, edge: $0.edge) }
                let newcomer: Int
                let edge: Int
                if let out, into == nil || out.slack <= into!.slack {
                    offset += out.slack
                    edge = out.edge
                    newcomer = edges[edge].head
                    _ = outward.popMin()
                } else if let into {
                    offset -= into.slack
                    edge = into.edge
                    newcomer = edges[edge].tail
                    _ = inward.popMin()
                } else {
                    break
                }
                inForest[newcomer] = true
                inTree[edge] = true
                parentEdge[newcomer] = edge
                stored[newcomer] = rank[newcomer] - offset
                members.append(newcomer)
                addCandidates(of: newcomer)
            }
            for member in members { rank[member] = stored[member] + offset }
        }
    }

    /// Postorder numbers, parent edges and subtree sums below `top`, numbering from `firstLim`.
    ///
    /// After an exchange, `changedAt` holds the old postorder numbers of the nodes whose subtrees
    /// the exchange changed. A subtree under the same parent edge holding none of them is the
    /// same subtree, numbered the same way: it is moved to its new first number without a walk
    /// (read from a copy of the old numbering, as the new one overwrites it). Renumbering every
    /// node under the common ancestor was most of the ranking's time on large trees.
    private mutating func renumber(subtreeOf top: Int, firstLim: Int, changedAt: [Int] = []) {
        var nextLim = firstLim
        var stack = walk
        walk = []
        defer { walk = stack }
        let oldFirst = low[top]
        if !changedAt.isEmpty {
            oldNodeAtLim.removeAll(keepingCapacity: true)
            oldNodeAtLim.append(contentsOf: nodeAtLim[low[top]...lim[top]])
        }
        stack.removeAll(keepingCapacity: true)
        stack.append((node: top, next: incident.start[top]))
        low[top] = firstLim
        subtreeNet[top] = netWeight[top]
        while let (node, next) = stack.last {
            if next < incident.start[node + 1] {
                stack[stack.count - 1].next += 1
                let edge = incident.items[next]
                guard inTree[edge], edge != parentEdge[node] else { continue }
                let child = other(edge, than: node)
                if !changedAt.isEmpty, parentEdge[child] == edge, !changedAt.contains(where: { low[child] <= $0 && $0 <= lim[child] }) {
                    let (first, last) = (low[child], lim[child]), shift = nextLim - first
                    if shift != 0 {
                        for number in first...last {
                            let moved = oldNodeAtLim[number - oldFirst]
                            low[moved] += shift
                            lim[moved] += shift
                            nodeAtLim[number + shift] = moved
                        }
                    }
                    nextLim = last + shift + 1
                    subtreeNet[node] += subtreeNet[child]
                    continue
                }
                parentEdge[child] = edge
                low[child] = nextLim
                subtreeNet[child] = netWeight[child]
                stack.append((child, incident.start[child]))
            } else {
                stack.removeLast()
                lim[node] = nextLim
                nodeAtLim[nextLim] = node
                nextLim += 1
                if let parent = stack.last { subtreeNet[parent.node] += subtreeNet[node] }
            }
        }
    }

    /// The cut value of the tree edge above `node`.
    @inline(__always) private func cutValue(above node: Int) -> Int {
        edges[parentEdge[node]].tail == node ? subtreeNet[node] : -subtreeNet[node]
    }

    /// How many negative cut values `nodeBelowNegativeCut` compares once the first-found rule has
    /// made as many exchanges as there are nodes (dot's search size).
    static let searchSize = 30

    /// A node whose tree edge to its parent has a negative cut value, searching on from the last
    /// one: the first found, and after as many exchanges as there are nodes, the most negative of
    /// the next `searchSize` found. The first-found rule needs few exchanges for most trees (and
    /// which of the equally short rankings it ends on shapes the drawing, so it stays), but for
    /// some orders of the nodes orders of magnitude more, each renumbering a large subtree: 10,000
    /// people with sorted ids took a minute, and take about a second with the switch.
    private mutating func nodeBelowNegativeCut() -> Int? {
        let count = rank.count
        let searchSize = exchanges < count ? 1 : Self.searchSize
        var best: Int?
        var bestCut = 0
        var found = 0
        for step in 0..<count {
            let node = (searchStart + step) % count
            guard parentEdge[node] >= 0 else { continue }
            let cut = cutValue(above: node)
            guard cut < 0 else { continue }
            if best == nil || cut < bestCut {
                best = node
                bestCut = cut
            }
            found += 1
            if found == searchSize { break }
        }
        if let best { searchStart = (best + 1) % count }
        return best
    }

    /// The non-tree edge of least slack from the head side to the tail side of the cut made by
    /// removing the tree edge above `node`, scanning the smaller side's edges.
    private func enteringEdge(replacingEdgeAbove node: Int) -> Int? {
        var root = node
        while parentEdge[root] >= 0 { root = other(parentEdge[root], than: root) }
        let subtreeIsTail = edges[parentEdge[node]].tail == node
        let subtreeSize = lim[node] - low[node] + 1
        let treeSize = lim[root] - low[root] + 1
        let scanSubtree = 2 * subtreeSize <= treeSize
        var best = -1
        var bestSlack = Int.max
        for number in scanSubtree ? low[node]...lim[node] : low[root]...lim[root] {
            let scanned = nodeAtLim[number]
            guard scanSubtree || !subtree(of: node, contains: scanned) else { continue }
            for entry in incident.range(scanned) {
                let edge = incident.items[entry]
                guard !inTree[edge] else { continue }
                let tailInside = subtree(of: node, contains: edges[edge].tail)
                let headInside = subtree(of: node, contains: edges[edge].head)
                // From the head side to the tail side.
                let crosses = subtreeIsTail ? (!tailInside && headInside) : (tailInside && !headInside)
                guard crosses else { continue }
                let edgeSlack = slack(edge)
                if edgeSlack < bestSlack || (edgeSlack == bestSlack && edge < best) {
                    best = edge
                    bestSlack = edgeSlack
                }
            }
        }
        return best < 0 ? nil : best
    }

    /// Replaces the tree edge above `node` with `entering`, shifting the cut-off subtree so the
    /// entering edge is tight, and renumbers under the two edges' common ancestor.
    private mutating func exchange(edgeAbove node: Int, for entering: Int) {
        let leaving = parentEdge[node]
        let shift = subtree(of: node, contains: edges[entering].tail) ? slack(entering) : -slack(entering)
        if shift != 0 {
            for number in low[node]...lim[node] { rank[nodeAtLim[number]] += shift }
        }
        let oldParent = other(leaving, than: node)
        var ancestor = oldParent
        while !(subtree(of: ancestor, contains: edges[entering].tail) && subtree(of: ancestor, contains: edges[entering].head)) {
            ancestor = other(parentEdge[ancestor], than: ancestor)
        }
        inTree[leaving] = false
        inTree[entering] = true
        // The subtrees that changed hold the old parent (it lost the cut-off part), the entering
        // edge's end outside (it gained it), or its end inside (the cut-off part hangs from it now).
        let changed = renumbersWholeSubtrees ? [] : [lim[oldParent], lim[edges[entering].tail], lim[edges[entering].head]]
        renumber(subtreeOf: ancestor, firstLim: low[ancestor], changedAt: changed)
    }

    /// Shifts each tree so its least rank is 0.
    private mutating func normalize() {
        for root in rank.indices where parentEdge[root] < 0 {
            var least = Int.max
            for number in low[root]...lim[root] { least = min(least, rank[nodeAtLim[number]]) }
            guard least != 0 else { continue }
            for number in low[root]...lim[root] { rank[nodeAtLim[number]] -= least }
        }
    }
}
