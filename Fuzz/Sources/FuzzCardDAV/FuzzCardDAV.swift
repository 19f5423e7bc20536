@_spi(Fuzzing) import FamilyTreeCardDAV
import FuzzSupport

/// A CardDAV server's answer: the multistatus reader never traps, reads the same whole as in any
/// pieces (the first byte picks their size), and what it accepts holds no control character XML
/// forbids and no carriage return (XML reads every line end as a line feed).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCardDAV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    let whole = MultistatusProbe.read(bytes, chunk: .max)
    let chunk = Int(bytes.first ?? 1) % 17 + 1
    let pieces = MultistatusProbe.read(bytes, chunk: chunk)
    if whole != pieces { fatalError("invariant broken: read whole: \(whole.prefix(300))\nread \(chunk) bytes at a time: \(pieces.prefix(300))") }
    if !whole.hasPrefix("error: ") {
        if let bad = whole.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0 == "\r" }) {
            fatalError("invariant broken: an accepted answer holds U+\(String(bad.value, radix: 16))")
        }
    }
    return 0
}
