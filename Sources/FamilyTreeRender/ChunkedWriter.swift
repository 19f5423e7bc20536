import FamilyTree

/// A destination for rendered bytes, handed over in chunks of about 64 KiB, so that a drawing of a
/// million members never has to sit in memory whole.
public protocol RenderedOutput {
    mutating func write(_ chunk: ArraySlice<UInt8>) throws
}

/// Collects rendered bytes in memory.
public struct CollectedOutput: RenderedOutput {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty buffer.
    public init() {}

    /// Appends `chunk`.
    public mutating func write(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
    }

    /// The bytes as text (the renderers write UTF-8).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Builds UTF-8 output in a buffer and passes it to a `RenderedOutput` whenever the buffer fills.
struct ChunkedWriter<Output: RenderedOutput> {
    private var buffer: [UInt8] = []
    private(set) var output: Output
    private static var chunkSize: Int { 1 << 16 }

    init(_ output: Output) {
        self.output = output
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Bytes already rendered.
    mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// `text` escaped for XML character data and quoted attributes (`SafeText.appendXMLEscaped`).
    mutating func appendEscaped(_ text: String) {
        SafeText.appendXMLEscaped(text, to: &buffer)
    }

    /// A coordinate with at most one decimal and no trailing ".0", exactly as `Formatting.number`.
    mutating func appendNumber(_ value: Double) {
        let tenths = Int((value * 10).rounded())
        if tenths < 0 { buffer.append(UInt8(ascii: "-")) }
        let magnitude = tenths.magnitude
        appendDigits(magnitude / 10)
        if magnitude % 10 != 0 {
            buffer.append(UInt8(ascii: "."))
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
        }
    }

    private mutating func appendDigits(_ value: UInt) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var remaining = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { storage in
            repeat {
                storage[19 - count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            } while remaining > 0
            buffer.append(contentsOf: storage[(20 - count)...])
        }
    }

    /// Appends the records at `indices`, each written by `record` into a writer of its own: a batch
    /// at a time, the batch's parts on every core, handed on in order. The same bytes as one pass,
    /// and never more than a batch in memory.
    mutating func appendRecords(
        _ indices: Range<Int>, _ record: @escaping @Sendable (Int, inout ChunkedWriter<CollectedOutput>) -> Void
    ) throws {
        let (batchSize, partSize) = (16_384, 2_048)
        for batch in stride(from: indices.lowerBound, to: indices.upperBound, by: batchSize) {
            let batchEnd = min(batch + batchSize, indices.upperBound)
            let parts = stride(from: batch, to: batchEnd, by: partSize).map { $0..<min($0 + partSize, batchEnd) }
            let written = Parallel.map(parts) { part in
                var partWriter = ChunkedWriter<CollectedOutput>(CollectedOutput())
                for index in part { record(index, &partWriter) }
                try! partWriter.flush()  // Collecting in memory cannot fail.
                return partWriter.output.bytes
            }
            for bytes in written {
                append(bytes)
                try flushIfFull()
            }
        }
    }

    /// Hands the buffer on when it is full; call between records.
    mutating func flushIfFull() throws {
        if buffer.count >= Self.chunkSize { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try output.write(buffer[...])
        buffer.removeAll(keepingCapacity: true)
    }
}
