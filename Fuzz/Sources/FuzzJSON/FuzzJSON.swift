import FamilyTree
import FuzzSupport

/// tree.json bytes: the reader and the validator never trap, and what they accept is a graph
/// whose GEDCOM export reads back whole. (FuzzPipeline takes trees through every writer.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzTreeJSON(start, count, PipelineChecks.checkRoundTrip)
}
