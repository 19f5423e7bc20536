import FamilyTree
import FuzzSupport

/// tree.json bytes: the reader and the validator never trap, and what they accept is a graph
/// whose GEDCOM export reads back whole. (FuzzPipeline takes trees through every writer.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    guard let graph = try? FamilyGraph(json: bytes, file: "fuzz.json") else { return 0 }
    PipelineChecks.checkRoundTrip(graph)
    return 0
}
