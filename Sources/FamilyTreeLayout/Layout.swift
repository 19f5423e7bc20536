import FamilyTree

/// A point in layout coordinates: x grows to the right, y grows downward.
public struct Point: Sendable, Hashable {
    /// Horizontal position, growing to the right.
    public var x: Double
    /// Vertical position, growing downwards.
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The width and height of a box.
public struct Size: Sendable, Hashable {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// A size of `width` by `height`.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Which way generations run.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
    /// Ancestors at the top, one row per generation.
    case topDown = "top-down"
    /// Ancestors on the left, one column per generation.
    case leftRight = "left-right"
}

/// The geometry of a drawn family tree: a value an app can draw without our renderers.
public struct Layout: Sendable, Hashable {
    /// One member's box: top-left corner and size.
    public struct MemberBox: Sendable, Hashable {
        /// The member's position in `FamilyGraph.members`.
        public var member: Int
        /// The box's left edge.
        public var x: Double
        /// The box's top edge.
        public var y: Double
        /// The box's width.
        public var width: Double
        /// The box's height.
        public var height: Double
        /// The generation, 0 for the oldest drawn.
        public var layer: Int

        /// The box of member index `member` at (`x`, `y`) in `layer`.
        public init(member: Int, x: Double, y: Double, width: Double, height: Double, layer: Int) {
            self.member = member
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.layer = layer
        }

        /// The box's centre.
        public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    }

    /// The point a union's lines meet at: between adjacent partners, or below a single parent.
    public struct UnionPoint: Sendable, Hashable {
        /// The union's position in `FamilyGraph.unions`.
        public var union: Int
        /// The point's horizontal position.
        public var x: Double
        /// The point's vertical position.
        public var y: Double
        /// Member indices of the partners, left to right (top to bottom when left-right).
        public var partners: [Int]
        /// Member indices of the children drawn under this union, in drawn order.
        public var children: [Int]

        /// Where the union is marked: the middle of the line between partners who stand side by
        /// side (the point itself lies below it, where the lines to the children leave that line).
        public var marker: Point

        /// The point of union index `union`, with its partners' and children's member indices;
        /// marked at the point itself unless `marker` says otherwise.
        public init(union: Int, x: Double, y: Double, partners: [Int], children: [Int], marker: Point? = nil) {
            self.union = union
            self.x = x
            self.y = y
            self.partners = partners
            self.children = children
            self.marker = marker ?? Point(x: x, y: y)
        }
    }

    /// What a line stands for.
    public enum EdgeKind: String, Sendable, Hashable {
        /// Joins a partner to the union point.
        case partner
        /// From a union point to a child drawn under it.
        case child
        /// From a union point to a child drawn under another union (adopted, step, foster, or a second birth family).
        case otherParent = "other-parent"
        /// A cross-bloodline connection, from the new parent to the child.
        case crossBloodline = "cross-bloodline"
    }

    /// Where a line starts or ends.
    public enum Endpoint: Sendable, Hashable {
        /// A member, by index in `FamilyGraph.members`.
        case member(Int)
        /// A union point, by index in `FamilyGraph.unions`.
        case union(Int)
    }

    /// A line as a polyline.
    public struct Edge: Sendable, Hashable {
        /// What the line joins.
        public var kind: EdgeKind
        /// Where the line starts.
        public var from: Endpoint
        /// Where the line ends.
        public var to: Endpoint
        /// The polyline's points, from start to end.
        public var points: [Point]
        /// The union a line belongs to (for a partner line drawn between two partners side by
        /// side, which names no union point), when there is one.
        public var union: Int?

        /// A line of `kind` from `from` to `to` through `points`, of `union` when it belongs to one.
        public init(kind: EdgeKind, from: Endpoint, to: Endpoint, points: [Point], union: Int? = nil) {
            self.kind = kind
            self.from = from
            self.to = to
            self.points = points
            self.union = union ?? { if case .union(let index) = from { index } else if case .union(let index) = to { index } else { nil } }()
        }
    }

    /// Boxes indexed like `FamilyGraph.members`.
    public var boxes: [MemberBox]
    /// Union points indexed like `FamilyGraph.unions`.
    public var unions: [UnionPoint]
    /// Every line drawn: partner to union, union to child, cross-bloodline.
    public var edges: [Edge]
    /// The extent of everything drawn, including the margin.
    public var width: Double
    /// The drawing's height, margin included.
    public var height: Double
    /// How many layers (generations, with the rows long lines need).
    public var layerCount: Int
    /// Top-down or left-right.
    public var direction: LayoutDirection
    /// Member indices of each layer, in drawn order.
    public var layers: [[Int]]

    /// A layout made by any engine.
    public init(boxes: [MemberBox], unions: [UnionPoint], edges: [Edge], width: Double, height: Double,
                layerCount: Int, direction: LayoutDirection, layers: [[Int]]) {
        self.boxes = boxes
        self.unions = unions
        self.edges = edges
        self.width = width
        self.height = height
        self.layerCount = layerCount
        self.direction = direction
        self.layers = layers
    }
}

/// Something that places a family graph.
public protocol LayoutEngine: Sendable {
    /// Lays out `graph`; deterministic for the same graph and options.
    func place(_ graph: FamilyGraph) throws -> Layout
}

/// A layout drawn with a graph it was not made of: a member or union it places is not in the graph.
public struct LayoutMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// What does not fit.
    public var reason: String

    public var description: String { "the layout was not made of this graph: \(reason)" }
}

extension Layout {
    /// Checks that every member and union the layout places is in `graph` (a layout is drawn
    /// with the graph it was made of; another one would be read out of its bounds).
    public func check(against graph: FamilyGraph) throws(LayoutMismatch) {
        let members = graph.members.count, unions = graph.unions.count
        func member(_ index: Int, _ place: @autoclosure () -> String) throws(LayoutMismatch) {
            guard (0..<members).contains(index) else { throw LayoutMismatch(reason: "\(place()) is member \(index), and the graph has \(members)") }
        }
        func union(_ index: Int, _ place: @autoclosure () -> String) throws(LayoutMismatch) {
            guard (0..<unions).contains(index) else { throw LayoutMismatch(reason: "\(place()) is union \(index), and the graph has \(unions)") }
        }
        for (position, box) in boxes.enumerated() { try member(box.member, "box \(position)") }
        for (position, point) in self.unions.enumerated() {
            try union(point.union, "union point \(position)")
            for partner in point.partners { try member(partner, "a partner of union point \(position)") }
            for child in point.children { try member(child, "a child of union point \(position)") }
        }
        for (position, edge) in edges.enumerated() {
            for end in [edge.from, edge.to] {
                switch end {
                case .member(let index): try member(index, "an end of edge \(position)")
                case .union(let index): try union(index, "an end of edge \(position)")
                }
            }
            if let index = edge.union { try union(index, "the union of edge \(position)") }
        }
        for (position, layer) in layers.enumerated() {
            for index in layer { try member(index, "a member of layer \(position)") }
        }
    }
}
