import FamilyTree
import Testing
@testable import FamilyTreeSync

/// The three-way merge of one document: lists as sets, objects field by field, conflicts only
/// where both sides changed one value.
struct DocumentMergeTests {
    let union = DocumentKey(.unions, "heinrich+greta")
    let member = DocumentKey(.familyTree, "peter")

    func merge(_ key: DocumentKey, base: String?, local: String?, store: String?) -> DocumentMerge.Result {
        DocumentMerge.merge(key: key, base: base, local: local, store: store, storeVersion: 7)
    }

    func field(_ body: String?, _ name: String) -> JSONValue? { body.flatMap { try? JSONParser.parse($0).root[name] } }

    @Test func childrenAddedOnBothSidesAreBothKept() {
        let base = #"{"children":["karl","liesel"],"id":"heinrich+greta","partners":["heinrich","greta"]}"#
        let bob = #"{"children":["karl","liesel","bob-kid"],"id":"heinrich+greta","partners":["heinrich","greta"]}"#
        let carol = #"{"children":["karl","liesel","carol-kid"],"id":"heinrich+greta","partners":["heinrich","greta"]}"#
        let result = merge(union, base: base, local: carol, store: bob)
        #expect(result.conflicts.isEmpty)
        // The store's order, then what was added here.
        #expect(field(result.body, "children") == .array(["karl", "liesel", "bob-kid", "carol-kid"].map(JSONValue.string)))
    }

    @Test func aChildRemovedOnOneSideIsGoneAndAnEditedOneIsKept() {
        let base = #"{"children":["a",{"id":"b","kind":"adopted"},"c"],"id":"u","partners":["p"]}"#
        // Here: c removed. There: b's kind edited, d added.
        let local = #"{"children":["a",{"id":"b","kind":"adopted"}],"id":"u","partners":["p"]}"#
        let store = #"{"children":["a",{"id":"b","kind":"foster"},"c","d"],"id":"u","partners":["p"]}"#
        let result = merge(DocumentKey(.unions, "u"), base: base, local: local, store: store)
        #expect(result.conflicts.isEmpty)
        #expect(result.body == #"{"children":["a",{"id":"b","kind":"foster"},"d"],"id":"u","partners":["p"]}"#)
        // Removed there while edited here: the edit wins.
        let edited = #"{"children":["a",{"id":"b","kind":"step"},"c"],"id":"u","partners":["p"]}"#
        let removed = #"{"children":["a","c"],"id":"u","partners":["p"]}"#
        #expect(merge(DocumentKey(.unions, "u"), base: base, local: edited, store: removed).body == #"{"children":["a","c",{"id":"b","kind":"step"}],"id":"u","partners":["p"]}"#)
    }

    @Test func anItemEditedDifferentlyOnBothSidesIsAConflictAtItsPath() {
        let base = #"{"children":[{"id":"b","kind":"adopted"}],"id":"u","partners":["p"]}"#
        let local = #"{"children":[{"id":"b","kind":"step"}],"id":"u","partners":["p"]}"#
        let store = #"{"children":[{"id":"b","kind":"foster"}],"id":"u","partners":["p"]}"#
        let result = merge(DocumentKey(.unions, "u"), base: base, local: local, store: store)
        #expect(result.conflicts.count == 1)
        #expect(result.conflicts.first?.path.description == "children[b].kind")
        #expect(result.conflicts.first?.localValue == #""step""#)
        #expect(result.conflicts.first?.storeVersion == 7)
        // Restoring puts the local kind back at that path, nothing else.
        let restored = try? result.conflicts[0].restoring(into: [DocumentKey(.unions, "u"): result.body!])
        #expect(restored?[DocumentKey(.unions, "u")] == local)
    }

    @Test func partnersPastTwoAreAConflictNotThreePartners() {
        let base = #"{"id":"u","partners":["a"]}"#
        let result = merge(DocumentKey(.unions, "u"), base: base, local: #"{"id":"u","partners":["a","c"]}"#, store: #"{"id":"u","partners":["a","b"]}"#)
        #expect(field(result.body, "partners") == .array([.string("a"), .string("b")]))
        #expect(result.conflicts.map(\.path.description) == ["partners"])
    }

    @Test func aCardsPhonesMergeAsASetAndOtherFieldsOfTheCardOneByOne() {
        let base = #"{"contact":{"phones":[{"label":"home","value":"1"}],"revision":"r1","uid":"x"},"firstName":"Peter","id":"peter"}"#
        let local = #"{"contact":{"phones":[{"label":"home","value":"1"},{"label":"work","value":"2"}],"revision":"r1","uid":"x"},"firstName":"Peter","id":"peter"}"#
        let store = #"{"contact":{"phones":[{"label":"mobile","value":"3"}],"revision":"r2","uid":"x"},"firstName":"Peter","id":"peter"}"#
        let result = merge(member, base: base, local: local, store: store)
        #expect(result.conflicts.isEmpty)
        #expect(result.body == #"{"contact":{"phones":[{"label":"mobile","value":"3"},{"label":"work","value":"2"}],"revision":"r2","uid":"x"},"firstName":"Peter","id":"peter"}"#)
    }

    @Test func eventsAndCitationsAddedOnBothSidesAreAllKept() {
        // One relative adds a burial, another an occupation and a source: the merge keeps all.
        let burial = #"{"kind":"burial","place":{"name":"Mount Vernon"}}"#
        let occupation = #"{"kind":"occupation","value":"Planter"}"#
        let base = #"{"events":[{"kind":"birth"}],"firstName":"George","id":"peter"}"#
        let local = #"{"events":[{"kind":"birth"},\#(burial)],"firstName":"George","id":"peter"}"#
        let store = #"{"citations":[{"source":"S1"}],"events":[{"kind":"birth"},\#(occupation)],"firstName":"George","id":"peter"}"#
        let result = merge(member, base: base, local: local, store: store)
        #expect(result.conflicts.isEmpty)
        let kinds = field(result.body, "events")?.arrayValue?.compactMap { $0["kind"]?.stringValue }
        #expect(kinds.map(Set.init) == ["birth", "burial", "occupation"])
        #expect(field(result.body, "citations")?.arrayValue?.count == 1)
        // An event removed on one side and untouched on the other goes.
        let removed = merge(member, base: local, local: base, store: local)
        #expect(field(removed.body, "events")?.arrayValue?.count == 1)
    }

    @Test func aListFamilytreeDoesNotKnowStaysOneValue() {
        let base = #"{"id":"peter","tags":["a"]}"#
        let result = merge(member, base: base, local: #"{"id":"peter","tags":["a","b"]}"#, store: #"{"id":"peter","tags":["a","c"]}"#)
        #expect(field(result.body, "tags") == .array([.string("a"), .string("c")]))
        #expect(result.conflicts.map(\.path.description) == ["tags"])
    }

    @Test func aConflictReadsInWords() {
        let documents = [
            member: #"{"firstName":"Peter","id":"peter","lastName":"Müller"}"#,
            DocumentKey(.familyTree, "emily"): #"{"firstName":"Emily","id":"emily","lastName":"Carter"}"#,
            DocumentKey(.unions, "pe"): #"{"id":"pe","partners":["peter","emily"]}"#,
        ]
        let nickname = MergeConflict(key: member, path: FieldPath([.field("nickname")]), localValue: #""Petey""#, storeValue: #""Pete""#)
        #expect(nickname.described(documents: documents, author: "bob", time: "2026-11-25T14:02:11Z")
            == #"Peter Müller's nickname: kept "Pete" from bob (2026-11-25T14:02:11Z), yours was "Petey""#)
        let marriage = MergeConflict(key: DocumentKey(.unions, "pe"), path: FieldPath([.field("marriage")]), localValue: nil, storeValue: #""1970""#)
        #expect(marriage.described(documents: documents) == #"the family of Peter Müller and Emily Carter's marriage date: kept "1970", yours was nothing"#)
    }

    @Test func aMemberNamingRelativesIsToldFromItsBytes() {
        #expect(SyncSession.namesRelatives(#"{"children":["a"],"id":"x"}"#))
        #expect(SyncSession.namesRelatives(#"{"id":"x","spouse":"y"}"#))
        #expect(!SyncSession.namesRelatives(#"{"firstName":"Spouse","id":"x","notes":"children of"}"#))
        #expect(!SyncSession.namesRelatives(#"{"id":"x"}"#))
    }

    @Test func aPathSurvivesTheDeviceStateAsJSON() {
        let path = FieldPath([.field("children"), .item("b"), .field("kind")])
        #expect(FieldPath(jsonValue: path.jsonValue) == path)
        #expect(FieldPath(jsonValue: .string("x")) == nil)
    }
}

/// A library's message names no command-line option; the command line adds its own hints.
@Suite struct SyncErrorWordingTests {
    @Test func messagesNameNoCommandLineOption() {
        let errors: [SyncError] = [
            .documentTooLarge(DocumentKey(.familyTree, "a"), bytes: 2_000_000), .missingUser, .accessDenied("r"), .unsupportedStore("x:"),
            .busy("l"), .store("r"), .invalidDocument(nil, "r"), .storeBehind(acknowledged: 7),
        ]
        for error in errors { #expect(!error.description.contains("--"), "\(error)") }
    }
}
