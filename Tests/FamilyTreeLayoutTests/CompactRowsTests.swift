import Testing
@testable import FamilyTreeLayout

/// Values grouped into rows end to end: each row keeps the order its values came in (the greedy
/// insertion of founders' trees adds link costs in that order, so a reordered row could change a
/// drawing), and rows nobody names are empty.
struct CompactRowsTests {
    @Test func eachRowKeepsItsValuesInTheOrderTheyCame() {
        let entries: [(row: Int, value: String)] = [(2, "c1"), (0, "a1"), (2, "c2"), (0, "a2"), (2, "c3"), (0, "a3")]
        let rows = CompactRows(entries, rows: 4)
        #expect(Array(rows[0]) == ["a1", "a2", "a3"])
        #expect(rows[1].isEmpty)
        #expect(Array(rows[2]) == ["c1", "c2", "c3"])
        #expect(rows[3].isEmpty)
        #expect(rows.start == [0, 3, 3, 6, 6])
    }

    @Test func noValuesGiveEmptyRows() {
        let rows = CompactRows([(row: Int, value: Double)](), rows: 3)
        #expect(rows.items.isEmpty)
        #expect((0..<3).allSatisfy { rows[$0].isEmpty })
    }
}
