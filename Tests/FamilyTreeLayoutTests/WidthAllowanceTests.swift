import Foundation
import Testing
import FamilyTree
import FamilyTreeGEDCOM
@testable import FamilyTreeLayout
import TestSupport

/// A chart may be at most a little wider than its widest generation packed tight: the shortest lines
/// alone let each generation drift from the one above into a parallelogram.
struct WidthAllowanceTests {
    /// The boxes' extent along the layers, and the widest layer's boxes packed with `gap` between them.
    static func extentAndPackedWidth(_ layout: Layout, gap: Double) -> (extent: Double, packed: Double) {
        let low = layout.boxes.map(\.x).min() ?? 0
        let high = layout.boxes.map { $0.x + $0.width }.max() ?? 0
        var widths: [Int: Double] = [:], counts: [Int: Int] = [:]
        for box in layout.boxes {
            widths[box.layer, default: 0] += box.width
            counts[box.layer, default: 0] += 1
        }
        let packed = widths.map { $0.value + gap * Double(counts[$0.key, default: 1] - 1) }.max() ?? 0
        return (high - low, packed)
    }

    /// Eight generations of an heir and his wife, each with three elder, childless siblings: every
    /// family's line is shortest with the couple's children centred under it, so each generation
    /// stands half a family to the right of the one above.
    static func staircase(generations: Int = 8, elders: Int = 3) throws -> FamilyGraph {
        var members = [Member(id: "heir0", firstName: "Heir 0"), Member(id: "wife0", firstName: "Wife 0")]
        var unions: [Union] = []
        for generation in 1...generations {
            let elderIDs = (0..<elders).map { "elder\(generation)-\($0)" }
            members += elderIDs.map { Member(id: $0, firstName: $0) }
            members.append(Member(id: "heir\(generation)", firstName: "Heir \(generation)"))
            if generation < generations { members.append(Member(id: "wife\(generation)", firstName: "Wife \(generation)")) }
            unions.append(Union(id: "u\(generation)", partners: ["heir\(generation - 1)", "wife\(generation - 1)"],
                                children: (elderIDs + ["heir\(generation)"]).map { ChildLink($0) }))
        }
        return try FamilyGraph(members: members, unions: unions)
    }

    @Test func aStaircaseOfGenerationsStandsUnderItself() throws {
        let graph = try Self.staircase()
        var options = LayeredLayout.Options()
        let allowed = LayeredLayout(options: options).place(graph)
        options.widthAllowance.weight = 0
        let drifting = LayeredLayout(options: options).place(graph)

        let (extent, packed) = Self.extentAndPackedWidth(allowed, gap: options.unitSpacing)
        let free = Self.extentAndPackedWidth(drifting, gap: options.unitSpacing).extent
        #expect(free > packed * 1.4, "without the allowance the generations drift: \(free) for a widest layer of \(packed)")
        #expect(extent <= packed * options.widthAllowance.ratio + 1, "\(extent) wide for a widest layer of \(packed)")
        // Still a clean drawing: every rule kept, every family's line to its children.
        #expect(layoutViolations(allowed, of: graph).isEmpty)
        let metrics = LayoutMetrics.measure(allowed, of: graph)
        #expect(metrics.crossings == 0 && metrics.overlaps == 0)
    }

    /// The Tudors drift too: within the allowance they are narrower, for a little more line and no
    /// more crossings.
    @Test(.requiresSharedData("gedcom-samples/EnglishTudorRoyalFamily.ged"))
    func theTudorsStayWithinTheirAllowance() throws {
        let imported = try GEDCOMImport(bytes: Array(try Data(contentsOf: SharedTrees.tudors)))
        let graph = try FamilyGraph(document: imported.document.hidingRemovedMembers())
        var options = LayeredLayout.Options()
        let allowed = LayoutMetrics.measure(LayeredLayout(options: options).place(graph), of: graph)
        options.widthAllowance.weight = 0
        let free = LayoutMetrics.measure(LayeredLayout(options: options).place(graph), of: graph)
        // 4.6% narrower (14,980 against 15,708) since in-law families stand beside the families
        // they married into: the free drawing drifts less than it did.
        #expect(allowed.width <= free.width * 0.97, "\(allowed.width) against \(free.width) without the allowance")
        #expect(allowed.totalEdgeLength <= free.totalEdgeLength * 1.1)
        #expect(allowed.crossings <= free.crossings + free.crossings / 50)
        #expect(allowed.overlaps == 0)
    }
}
