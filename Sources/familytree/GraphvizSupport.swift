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

    /// The chart engine `choice` names; Graphviz's only in a build with it.
    static func chartEngine(_ choice: EngineChoice) throws -> ChartEngine {
        switch choice {
        case .familytree: return .familytree
        case .graphviz:
            #if Graphviz
            return .graphviz
            #else
            throw CLIError.graphvizMissing
            #endif
        }
    }

    /// Graphviz's errors become the CLI's (exit status 1), with Graphviz's message.
    static func reported<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw CLIError.graphvizFailed(String(describing: error))
        }
    }

    static var versionNote: String { isBuiltIn ? "Graphviz support: built in" : "Graphviz support: not built in" }

    static func render(_ graph: FamilyGraph, labeler: Labeler, direction: LayoutDirection, format: String) throws -> [UInt8] {
        #if Graphviz
        return try reported { try GraphvizEngine(labeler: labeler, direction: direction).render(graph, format: format) }
        #else
        throw CLIError.graphvizMissing
        #endif
    }
}
