import Testing
import FamilyTree
@testable import FamilyTreeLayout

/// The layout's one search by halving, against the first index a look at every element finds.
@Suite struct PartitioningIndexTests {
    @Test(arguments: 0...40 as ClosedRange<UInt64>)
    func findsTheFirstElementOfTheSecondPartition(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let values = (0..<Int(random.next() % 30)).map { _ in Double(random.next() % 10) }.sorted()
        for bound in stride(from: -1.0, through: 11.0, by: 0.5) {
            #expect(values.partitioningIndex { $0 >= bound } == values.firstIndex { $0 >= bound } ?? values.endIndex)
            #expect(values.partitioningIndex { $0 > bound } == values.firstIndex { $0 > bound } ?? values.endIndex)
            // A slice's indices are the array's.
            let slice = values.dropFirst(values.count / 3)
            #expect(slice.partitioningIndex { $0 > bound } == slice.firstIndex { $0 > bound } ?? slice.endIndex)
        }
    }
}
