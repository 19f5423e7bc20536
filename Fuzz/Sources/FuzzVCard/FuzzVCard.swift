import FamilyTree
import FamilyTreeContacts
import FuzzSupport

/// vCard bytes: any file imports into a valid tree, whose GEDCOM export reads back whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVCard(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    let imported = ContactsImport(bytes: bytes)
    let graph: FamilyGraph
    do { graph = try FamilyGraph(document: imported.document) } catch { fatalError("vCard import made an invalid tree: \(error)") }
    PipelineChecks.checkRoundTrip(graph)
    return 0
}
