import FamilyTree
import FamilyTreeGEDCOM
import FuzzSupport

/// GEDCOM bytes: the import never fails on what it accepts (its trees are valid), and its
/// GEDCOM export reads back whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGEDCOM(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    guard let imported = try? GEDCOMImport(bytes: bytes) else { return 0 }
    let graph: FamilyGraph
    do { graph = try FamilyGraph(document: imported.document) } catch { fatalError("GEDCOM import made an invalid tree: \(error)") }
    PipelineChecks.checkRoundTrip(graph)
    return 0
}
