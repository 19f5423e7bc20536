/// A tree file as written, changed only by typed edits that keep everything else in it.
///
/// The file's JSON is the source of truth: fields familytree does not know, numbers as written,
/// the seed app's `spouse` and `children` fields and key order aside, everything survives an
/// edit. Each edit changes exactly the records it names; a batch of edits is validated as a whole
/// (edits later in the batch see the ones before them), and a tree with any problem is refused
/// with every problem, the file staying as it was.
///
/// ```swift
/// var file = TreeFile.empty()
/// try file.apply(.addMember(Member(id: "ada", firstName: "Ada", lastName: "Lovelace")))
/// try file.apply(.marry("ada", "william", date: PartialDate("1835-07-08")))
/// let text = file.text   // tree.json, keys sorted, two-space indent
/// ```
public struct TreeFile: Sendable {
    /// The file's JSON with every edit applied.
    public private(set) var root: JSONValue
    /// The validated tree the JSON makes (removed members included).
    public private(set) var graph: FamilyGraph
    /// The file's name, for messages.
    public let file: String?

    /// Reads and validates tree.json bytes.
    public init(json bytes: [UInt8], file: String? = nil) throws(FamilyTreeError) {
        let parsed: JSONDocument
        do { parsed = try JSONParser.parse(bytes) } catch { throw .malformedJSON(file: file, error) }
        root = parsed.root
        graph = try FamilyGraph(document: TreeDocumentReader.read(parsed), file: file)
        self.file = file
    }

    /// Validates a tree already parsed (no text is printed and read again).
    public init(root: JSONValue, file: String? = nil) throws(FamilyTreeError) {
        self.root = root
        graph = try FamilyGraph(document: TreeDocument(jsonValue: root), file: file)
        self.file = file
    }

    /// A tree with no one in it yet.
    public static func empty(file: String? = nil) -> TreeFile {
        // An empty tree is valid.
        try! TreeFile(root: .object(["members": .array([]), "unions": .array([]), "crossBloodlineConnections": .array([])]), file: file)
    }

    /// The file's text: keys sorted, two-space indent, a final line break.
    public var text: String { JSONWriter.string(from: root) }

    /// Applies `edits` in order and validates the result; on any problem throws all of them and
    /// leaves the file unchanged.
    public mutating func apply(_ edits: TreeEdit...) throws(FamilyTreeError) {
        try apply(edits)
    }

    /// Applies `edits` in order and validates the result; on any problem throws all of them and
    /// leaves the file unchanged.
    public mutating func apply(_ edits: [TreeEdit]) throws(FamilyTreeError) {
        var records = try RawTree(root, file: file)
        var current = graph
        var isCurrent = true
        for edit in edits {
            if !isCurrent, edit.readsCurrentGraph {
                current = try FamilyGraph(document: TreeDocument(jsonValue: records.root), file: file)
            }
            try edit.apply(to: &records, graph: current, file: file)
            isCurrent = false
        }
        if !isCurrent { current = try FamilyGraph(document: TreeDocument(jsonValue: records.root), file: file) }
        root = records.root
        graph = current
    }
}

extension TreeDocument {
    /// Reads a parsed tree.json value (locations are paths; there are no lines to give).
    public init(jsonValue: JSONValue) {
        self = TreeDocumentReader.read(JSONDocument(root: jsonValue, elementLocations: [:]))
    }
}
