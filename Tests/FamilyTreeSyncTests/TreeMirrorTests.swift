import FamilyTree
import Testing
@testable import FamilyTreeSync

/// A tree as documents and back, at a size where the documents are read on every core.
@Suite struct TreeMirrorTests {
    /// `count` members, every second pair married, as a tree file's root.
    func tree(members count: Int) throws -> JSONValue {
        var file = TreeFile.empty()
        for number in 0..<count { try file.apply(.addMember(Member(id: "m\(number)", firstName: "Person \(number)"))) }
        for number in stride(from: 0, to: count - 1, by: 4) { try file.apply(.marry("m\(number)", "m\(number + 1)", union: "u\(number)")) }
        return file.root
    }

    @Test func documentsReadBackAsTheSameTreeInIdOrderWhateverTheirNumber() throws {
        for count in [0, 1, 7, 5_000] {
            let documents = try TreeMirror.documents(of: try tree(members: count))
            let back = try TreeMirror.tree(from: documents)
            #expect(try TreeMirror.documents(of: back) == documents)
            let ids = back["members"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(ids.count == count && ids == ids.sorted())
            #expect((back["unions"]?.arrayValue?.count ?? 0) == (count + 2) / 4)
        }
    }

    @Test func ofSeveralBrokenDocumentsTheFirstByIdIsNamedEveryTime() throws {
        var documents = try TreeMirror.documents(of: try tree(members: 5_000))
        documents[DocumentKey(.familyTree, "m4000")] = "{not json"
        documents[DocumentKey(.familyTree, "m2000")] = #"{"id":"someone else"}"#
        documents[DocumentKey(.familyTree, "m30")] = "[]"
        for _ in 0..<5 {
            #expect {
                try TreeMirror.tree(from: documents)
            } throws: { error in
                guard case .invalidDocument(let key?, let reason) = error as? SyncError else { return false }
                return key == DocumentKey(.familyTree, "m2000") && reason.contains("someone else")
            }
        }
    }
}
