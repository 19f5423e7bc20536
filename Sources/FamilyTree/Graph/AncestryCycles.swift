/// Finds people who are their own ancestors, following unions and cross-bloodline connections.
enum AncestryCycles {
    /// Each cycle found, as member indices from an ancestor down to the one whose child it is again.
    /// Iterative, so deep trees cannot overflow the stack.
    static func find(in topology: Topology, memberCount: Int) -> [[Int]] {
        var childrenOf = Array(repeating: [Int](), count: memberCount)
        for (union, partners) in topology.partners.enumerated() {
            for partner in partners { childrenOf[partner] += topology.children[union] }
        }
        for link in topology.crossLinks { childrenOf[link.parent].append(link.child) }

        enum State: UInt8 { case unvisited, onPath, done }
        var state = Array(repeating: State.unvisited, count: memberCount)
        var cycles: [[Int]] = []
        var path: [Int] = []
        var nextChild: [Int] = []
        for start in 0..<memberCount where state[start] == .unvisited {
            path = [start]
            nextChild = [0]
            state[start] = .onPath
            while let member = path.last {
                let position = nextChild[nextChild.count - 1]
                guard position < childrenOf[member].count else {
                    state[member] = .done
                    path.removeLast()
                    nextChild.removeLast()
                    continue
                }
                nextChild[nextChild.count - 1] += 1
                let child = childrenOf[member][position]
                switch state[child] {
                case .unvisited:
                    state[child] = .onPath
                    path.append(child)
                    nextChild.append(0)
                case .onPath:
                    cycles.append(Array(path[path.lastIndex(of: child)!...]))
                case .done:
                    break
                }
            }
        }
        return cycles
    }
}
