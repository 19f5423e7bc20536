import FamilyTree
import FuzzSupport

/// tree.json bytes through the whole pipeline: read, validate, lay out, and every writer (SVG,
/// structure and positioned DOT, layout JSON, GEDCOM 7.0 and 5.5.1, .ics, CSV, the table), each
/// output checked to parse back with nothing of a name escaping its field.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzTreeJSON(start, count, PipelineChecks.check)
}
