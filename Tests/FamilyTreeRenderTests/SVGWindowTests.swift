import Foundation
import Testing
import FamilyTree
import FamilyTreeLayout
@testable import FamilyTreeRender

/// A window of a chart (a poster's sheet): only what lies in it, in the chart's own coordinates.
@Suite struct SVGWindowTests {
    @Test func aWindowHoldsOnlyWhatLiesInIt() throws {
        let graph = try Paths.exampleGraph()
        let layout = LayeredLayout().place(graph)
        let whole = try SVGRenderer().render(layout, of: graph)
        var renderer = SVGRenderer()
        let leftmost = try #require(layout.boxes.min { $0.x < $1.x })
        renderer.window = .init(x: leftmost.x, y: leftmost.y, width: leftmost.width, height: leftmost.height)
        let part = try renderer.render(layout, of: graph)
        func members(_ svg: String) -> Int { svg.components(separatedBy: "data-member=").count - 1 }
        #expect(members(whole) == graph.members.count)
        #expect((1..<graph.members.count).contains(members(part)), "the box in the window and its near neighbours only")
        #expect(part.contains("data-member=\"\(graph.members[leftmost.member].id)\""))
        // The same coordinates: the viewBox is the whole chart's.
        #expect(part.components(separatedBy: "viewBox=").dropFirst().first?.prefix(30) == whole.components(separatedBy: "viewBox=").dropFirst().first?.prefix(30))
    }
}
