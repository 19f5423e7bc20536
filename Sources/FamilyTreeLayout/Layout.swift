import FamilyTree

/// A point in layout coordinates: x grows to the right, y grows downward.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The width and height of a box.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double

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
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        /// The generation, 0 for the oldest drawn.
        public var layer: Int

        public init(member: Int, x: Double, y: Double, width: Double, height: Double, layer: Int) {
            self.member = member
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.layer = layer
        }

        public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    }

    /// The point a union's lines meet at: between adjacent partners, or below a single parent.
    public struct UnionPoint: Sendable, Hashable {
        /// The union's position in `FamilyGraph.unions`.
        public var union: Int
        public var x: Double
        public var y: Double
        /// Member indices of the partners, left to right (top to bottom when left-right).
        public var partners: [Int]
        /// Member indices of the children drawn under this union, in drawn order.
        public var children: [Int]

        public init(union: Int, x: Double, y: Double, partners: [Int], children: [Int]) {
            self.union = union
            self.x = x
            self.y = y
            self.partners = partners
            self.children = children
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
        public var kind: EdgeKind
        public var from: Endpoint
        public var to: Endpoint
        public var points: [Point]

        public init(kind: EdgeKind, from: Endpoint, to: Endpoint, points: [Point]) {
            self.kind = kind
            self.from = from
            self.to = to
            self.points = points
        }
    }

    /// Boxes indexed like `FamilyGraph.members`.
    public var boxes: [MemberBox]
    /// Union points indexed like `FamilyGraph.unions`.
    public var unions: [UnionPoint]
    public var edges: [Edge]
    /// The extent of everything drawn, including the margin.
    public var width: Double
    public var height: Double
    public var layerCount: Int
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
