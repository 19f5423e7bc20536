import Dispatch

/// Work split over this machine's cores, for the few passes over a large tree whose items are
/// independent. Results come back in the input's order, so output stays deterministic.
package enum Parallel {
    /// `transform` of each element, on as many threads as Dispatch gives (one per core), in the
    /// input's order.
    package static func map<Element: Sendable, Result: Sendable>(
        _ elements: some Collection<Element>, _ transform: @Sendable (Element) -> Result
    ) -> [Result] {
        let input = Array(elements)
        guard input.count > 1 else { return input.map(transform) }
        let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: input.count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        nonisolated(unsafe) let shared = results
        DispatchQueue.concurrentPerform(iterations: input.count) { index in shared[index] = transform(input[index]) }
        return results.map { $0! }
    }
}

extension Parallel {
    /// `transform` of each element, the elements taken in chunks of `chunkSize` (one chunk per
    /// task, so a task's start is nothing beside its work), in the input's order.
    package static func mapInChunks<Result: Sendable>(
        _ elements: Range<Int>, chunkSize: Int, _ transform: @Sendable (Int) -> Result
    ) -> [Result] {
        let chunks = stride(from: elements.lowerBound, to: elements.upperBound, by: max(1, chunkSize)).map {
            $0..<min($0 + chunkSize, elements.upperBound)
        }
        return map(chunks) { $0.map(transform) }.flatMap { $0 }
    }
}

/// A value handed between threads that the compiler cannot prove safe to share: each one is
/// made on one thread and read on another only after that thread is done with it.
package struct Unchecked<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
