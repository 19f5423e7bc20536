import FamilyTree
import FamilyTreeLayout
import FamilyTreeRender
#if Graphviz
import FamilyTreeGraphviz
#endif

/// The Graphviz engine when this build has it (the Graphviz package trait), and a clear error when not.
enum GraphvizSupport {
    #if Graphviz
    static let isBuiltIn = true
    #else
    static let isBuiltIn = false
    #endif

    /// Graphviz's errors become the CLI's (exit status 1), with Graphviz's message.
    private static func reported<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw CLIError.graphvizFailed(String(describing: error))
        }
    }

    static var versionNote: String { isBuiltIn ? "Graphviz support: built in" : "Graphviz support: not built in" }

    static func place(_ graph: FamilyGraph, labeler: Labeler, direction: LayoutDirection) throws -> Layout {
        #if Graphviz
        return try reported { try GraphvizEngine(labeler: labeler, direction: direction).place(graph) }
        #else
        throw CLIError.graphvizMissing
        #endif
    }

    static func render(_ graph: FamilyGraph, labeler: Labeler, direction: LayoutDirection, format: String) throws -> [UInt8] {
        #if Graphviz
        return try reported { try GraphvizEngine(labeler: labeler, direction: direction).render(graph, format: format) }
        #else
        throw CLIError.graphvizMissing
        #endif
    }

    static func dot(_ graph: FamilyGraph, labeler: Labeler, direction: LayoutDirection) throws -> String {
        #if Graphviz
        return try reported { try GraphvizEngine(labeler: labeler, direction: direction).dot(graph) }
        #else
        throw CLIError.graphvizMissing
        #endif
    }
}
