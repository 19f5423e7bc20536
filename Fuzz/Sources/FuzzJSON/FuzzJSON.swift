import FamilyTree
import FuzzSupport

/// tree.json bytes: the reader and the validator never trap, what they accept is a graph whose
/// GEDCOM export reads back whole, and the fast reader (a tape over the bytes) reads every record
/// exactly as the reader of the parsed value does. (FuzzPipeline takes trees through every writer.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    if let parsed = try? JSONParser.parse(bytes), parsed.duplicateKeys.isEmpty, let fast = try? TreeDocument(json: bytes) {
        let slow = TreeDocument(jsonValue: parsed.root)
        PipelineChecks.require(fast.members == slow.members, "the tape reader reads members differently")
        PipelineChecks.require(fast.unions == slow.unions, "the tape reader reads unions differently")
        PipelineChecks.require(fast.crossBloodlineConnections == slow.crossBloodlineConnections, "the tape reader reads connections differently")
        PipelineChecks.require(fast.problems.map(\.message) == slow.problems.map(\.message), "the tape reader reports other problems")
    }
    return fuzzTreeJSON(start, count, PipelineChecks.checkRoundTrip)
}
