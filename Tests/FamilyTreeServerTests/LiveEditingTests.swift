#if Server
import FamilyTree
import FamilyTreeRemote
import FamilyTreeSync
import Foundation
import Testing
import TestSupport
import FamilyTreeRender
@testable import FamilyTreeServer

/// The chart page's edits, undo and live changes over HTTP, with the real server and store. (The
/// same in two real browsers at once: `ServerProcessTests.aFamilyEditsOneTreeFromTwoBrowsers`.)
/// Threads of its own: its change streams are read with blocking sockets, which on the cooperative
/// pool (two threads on CI) could keep the in-process server from answering them.
@Suite(.serialized, .threadsOfItsOwn, .timeLimit(.minutes(2))) struct LiveEditingTests {
    /// A tree of alice's: Ann and Ben, married, with one child Cy; bob and carol helpers, vera a
    /// viewer, ada an admin, dave nobody. Returns the server and each user's token.
    func family(settings: ServerSettings = RunningServer.quickSettings) async throws -> (RunningServer, [String: String]) {
        let server = try await RunningServer(settings: settings)
        var tokens: [String: String] = [:]
        let (alice, aliceToken) = try await server.user("alice")
        tokens["alice"] = aliceToken
        for name in ["bob", "carol", "vera", "ada", "dave"] { tokens[name] = try await server.user(name).token }
        func record(_ collection: SyncCollection, _ id: String, _ body: String) -> DocumentWrite {
            DocumentWrite(key: DocumentKey(collection, id), body: body, baseVersion: 0)
        }
        _ = try await alice.push(user: "alice", tree: "alice", [
            record(.familyTree, "ann", #"{"firstName":"Ann","id":"ann","lastName":"Byrne","notes":"Born in Cork"}"#),
            record(.familyTree, "ben", #"{"firstName":"Ben","id":"ben","lastName":"Byrne"}"#),
            record(.familyTree, "cy", #"{"birthday":"1980-02-03","firstName":"Cy","id":"cy","lastName":"Byrne"}"#),
            record(.unions, "u1", #"{"children":["cy"],"id":"u1","partners":["ann","ben"]}"#),
        ])
        try await alice.share(tree: "alice", as: "alice", with: "bob", role: .helper)
        try await alice.share(tree: "alice", as: "alice", with: "carol", role: .helper)
        try await alice.share(tree: "alice", as: "alice", with: "vera", role: .viewer)
        try await alice.share(tree: "alice", as: "alice", with: "ada", role: .admin)
        return (server, tokens)
    }

    func edit(_ server: RunningServer, _ token: String, _ edits: String) async throws -> RunningServer.Answer {
        try await server.send("POST", "/trees/alice/edits", body: #"{"edits":[\#(edits)]}"#, token: token)
    }

    /// The tree as the store holds it, removed members included.
    func tree(_ server: RunningServer, _ token: String) async throws -> FamilyGraph {
        let store = ServerDocumentStore(address: try ServerAddress(server.address), user: "alice", token: token)
        var snapshot = TreeSnapshot()
        try await snapshot.update(from: store, user: "alice", tree: "alice")
        return try FamilyGraph(document: TreeDocument(jsonValue: TreeMirror.tree(from: snapshot.bodies)))
    }

    func object(_ answer: RunningServer.Answer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func relativesAddingChildrenToOneCoupleAtOnceKeepEveryOne() async throws {
        let (server, tokens) = try await family()
        // Twenty children added at once by two relatives, while a third edits the parents' notes.
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<20 {
                let token = tokens[number.isMultiple(of: 2) ? "bob" : "carol"]!
                group.addTask {
                    try await self.edit(server, token, #"{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"Kid \#(number)"}}"#).status
                }
            }
            group.addTask {
                try await self.edit(server, tokens["ada"]!, #"{"op":"edit","member":"ann","fields":{"notes":"Moved to Leeds"},"was":{"notes":"Born in Cork"}}"#).status
            }
            for try await status in group { #expect(status == 200) }
        }
        let graph = try await tree(server, tokens["alice"]!)
        let union = try #require(graph.unions.first { $0.id == "u1" })
        let names = Set(union.children.compactMap { graph.member($0.member)?.firstName })
        #expect(names == Set(["Cy"] + (0..<20).map { "Kid \($0)" }), "\(names.sorted())")
        #expect(graph.members.count == 23, "no child was added twice")
        #expect(graph.member("ann")?.notes == "Moved to Leeds")
    }

    @Test func aFieldSomeoneChangedSinceIsAConflictShowingBoth() async throws {
        let (server, tokens) = try await family()
        let seen = object(try await server.send("GET", "/trees/alice/people/ann", token: tokens["bob"]!))
        let fields = try #require(seen["fields"] as? [String: String])
        #expect(fields["notes"] == "Born in Cork" && fields["firstName"] == "Ann")

        // Carol saves first; bob's edit of the same field from what he saw is refused with both.
        #expect(try await edit(server, tokens["carol"]!, #"{"op":"edit","member":"ann","fields":{"notes":"Carol's"},"was":{"notes":"Born in Cork"}}"#).status == 200)
        let refused = try await edit(server, tokens["bob"]!, #"{"op":"edit","member":"ann","fields":{"notes":"Bob's","lastName":"Byrne-Ward"},"was":{"notes":"Born in Cork","lastName":"Byrne"}}"#)
        #expect(refused.status == 409)
        let conflicts = try #require(object(refused)["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1)
        #expect(conflicts.first?["field"] as? String == "notes" && conflicts.first?["theirs"] as? String == "Carol's" && conflicts.first?["yours"] as? String == "Bob's")
        #expect(try await tree(server, tokens["alice"]!).member("ann")?.lastName == "Byrne", "nothing of a refused batch is written")

        // Bob keeps his: he has now seen Carol's. A field nobody else changed needs no choice.
        #expect(try await edit(server, tokens["bob"]!, #"{"op":"edit","member":"ann","fields":{"notes":"Bob's","lastName":"Byrne-Ward"},"was":{"notes":"Carol's","lastName":"Byrne"}}"#).status == 200)
        // The same value typed differently is the same value: no conflict.
        #expect(try await edit(server, tokens["bob"]!, #"{"op":"edit","member":"cy","fields":{"lastName":" Byrne "},"was":{"lastName":"Burns"}}"#).status == 200)
        // Two people making the same change is no conflict.
        #expect(try await edit(server, tokens["carol"]!, #"{"op":"edit","member":"ann","fields":{"lastName":"Byrne-Ward"},"was":{"lastName":"Byrne"}}"#).status == 200)
        let ann = try #require(try await tree(server, tokens["alice"]!).member("ann"))
        #expect(ann.notes == "Bob's" && ann.lastName == "Byrne-Ward")
    }

    @Test func onlyTheRolesThatMayEditDoAndEveryBadEditIsRefusedByName() async throws {
        let (server, tokens) = try await family()
        let add = #"{"op":"addChild","member":"ann","fields":{"firstName":"Dee"}}"#
        #expect(try await edit(server, tokens["vera"]!, add).status == 403, "a viewer")
        #expect(try await edit(server, tokens["dave"]!, add).status == 403, "no role")
        #expect(try await server.send("POST", "/trees/alice/edits", body: #"{"edits":[\#(add)]}"#).status == 401)
        #expect(try await server.send("GET", "/trees/alice/chart.json", token: tokens["dave"]!).status == 403)
        #expect(try await server.send("GET", "/trees/alice/people/ann", token: tokens["dave"]!).status == 403)
        #expect(try await edit(server, tokens["bob"]!, #"{"op":"remove","member":"cy"}"#).status == 403, "removing is an admin's")
        #expect(try await edit(server, tokens["ada"]!, #"{"op":"remove","member":"cy"}"#).status == 200)
        #expect(try await tree(server, tokens["alice"]!).member("cy")?.isRemoved == true)

        for (bad, words) in [
            (#"{"op":"edit","member":"nobody","fields":{"notes":"x"}}"#, "nobody"),
            (#"{"op":"edit","member":"ann","fields":{"birthday":"the day after"}}"#, "not a date"),
            (#"{"op":"edit","member":"ann","fields":{"password":"x"}}"#, "password"),
            (#"{"op":"edit","member":"ann","fields":{"firstName":null}}"#, "first name"),
            (#"{"op":"edit","member":"ann","fields":{"sex":"robot"}}"#, "sex"),
            (#"{"op":"edit","member":"ann","fields":{"photo":"javascript:alert(1)"}}"#, "data: URL"),
            (#"{"op":"addChild","member":"ann","fields":{}}"#, "first name"),
            (#"{"op":"addParent","member":"cy","fields":{"firstName":"Third"}}"#, "already has two parents"),
            (#"{"op":"link","member":"ann","other":"ann"}"#, "themselves"),
            (#"{"op":"marry","member":"ann","other":"ghost"}"#, "ghost"),
            (#"{"op":"fly","member":"ann"}"#, "op"),
        ] {
            let refused = try await edit(server, tokens["bob"]!, bad)
            #expect((400...404).contains(refused.status), "\(bad): \(refused.status) \(refused.body)")
            #expect(refused.body.contains(words), "\(bad): \(refused.body)")
        }
        let tooMany = Array(repeating: add, count: 51).joined(separator: ",")
        #expect(try await edit(server, tokens["bob"]!, tooMany).status == 413)
        #expect(try await server.send("POST", "/trees/alice/edits", body: "{not json", token: tokens["bob"]!).status == 400)
        #expect(try await tree(server, tokens["alice"]!).members.count == 3, "no refused edit wrote anything")

        // A browser session's edits carry its CSRF token.
        let signIn = try await server.send("POST", "/api/v1/session", body: #"{"user":"bob","password":"correct horse"}"#)
        let cookie = String(try #require(signIn.headers["set-cookie"]).split(separator: ";")[0])
        let csrf = try #require(signIn.field("csrfToken"))
        #expect(try await server.send("POST", "/trees/alice/edits", body: #"{"edits":[\#(add)]}"#, headers: ["Cookie": cookie]).status == 403)
        #expect(try await server.send("POST", "/trees/alice/edits", body: #"{"edits":[\#(add)]}"#, headers: ["Cookie": cookie, "X-CSRF-Token": csrf]).status == 200)
        // And the chart page tells its script who is looking, with which role, at which version.
        let page = try await server.send("GET", "/trees/alice", headers: ["Cookie": cookie])
        #expect(page.body.contains(#"data-role="helper""#) && page.body.contains(#"data-user="bob""#) && page.body.contains(#"data-csrf="\#(csrf)""#))
        #expect(page.body.contains(#"<script src="/app/live.js"></script>"#))
    }

    @Test func anEmptyTreeOpensAndItsFirstPersonIsAddedFromTheBrowser() async throws {
        let server = try await RunningServer()
        let (_, token) = try await server.user("erin")
        let page = try await server.send("GET", "/trees/erin", token: token)
        #expect(page.status == 200 && page.body.contains(#""m":[]"#), "an empty chart, not an empty page")
        let added = try await server.send("POST", "/trees/erin/edits", body: #"{"edits":[{"op":"add","member":"-","fields":{"firstName":"Erin","lastName":"Byrne"}}]}"#, token: token)
        #expect(added.status == 200, "\(added.body)")
        let data = try await server.send("GET", "/trees/erin/chart.json", token: token)
        #expect(data.body.contains("Erin Byrne"))
        // The same version twice is laid out once: the second answer is the kept one, byte for byte.
        #expect(try await server.send("GET", "/trees/erin/chart.json", token: token).body == data.body)
    }

    @Test func anEditNoBoxShowsKeepsTheLayoutAndANameChangeRedoesIt() async throws {
        let (server, tokens) = try await family()
        func boxes() async throws -> (positions: [[Double]], text: String) {
            let answer = try await server.send("GET", "/trees/alice/chart.json", token: tokens["bob"]!)
            let data = try #require(object(answer)["data"] as? [String: Any])
            let members = try #require(data["m"] as? [[Any]])
            return (members.map { member in (2...5).map { (member[$0] as? NSNumber)?.doubleValue ?? -1 } }, answer.body)
        }
        let before = try await boxes()
        #expect(try await edit(server, tokens["bob"]!, #"{"op":"edit","member":"ann","fields":{"notes":"A new note"}}"#).status == 200)
        let noted = try await boxes()
        #expect(noted.text.contains("A new note") && noted.positions == before.positions)
        #expect(try await edit(server, tokens["bob"]!, #"{"op":"edit","member":"ann","fields":{"firstName":"Annabel Marguerite Josephine"}}"#).status == 200)
        let renamed = try await boxes()
        #expect(renamed.text.contains("Annabel Marguerite Josephine") && renamed.positions != before.positions, "a longer name, a wider box")
    }

    @Test func aPageIsSentOnlyThePeopleThatChangedWhileNoBoxMoves() async throws {
        let (server, tokens) = try await family()
        let bob = tokens["bob"]!
        func get(_ path: String) async throws -> [String: Any] { object(try await server.send("GET", path, token: bob)) }
        func members(_ answer: [String: Any]) throws -> [[Any]] { try #require((answer["data"] as? [String: Any])?["m"] as? [[Any]]) }
        let first = try await get("/trees/alice/chart.json")
        let start = try #require(first["sequence"] as? Int)
        var shown = try members(first)

        // A note, and a name that keeps its box's size: those two people's entries, nothing else.
        #expect(try await edit(server, bob, #"{"op":"edit","member":"ann","fields":{"notes":"A new note"}}"#).status == 200)
        #expect(try await edit(server, bob, #"{"op":"edit","member":"cy","fields":{"firstName":"Cyd"}}"#).status == 200)
        let patched = try await get("/trees/alice/chart.json?since=\(start)")
        let patch = try #require(patched["patch"] as? [String: Any], "\(patched)")
        #expect(patched["data"] == nil && patch["from"] as? Int == start)
        let entries = try #require(patch["m"] as? [[Any]])
        #expect(entries.compactMap { ($0[1] as? [Any])?.first as? String }.sorted() == ["ann", "cy"])
        for entry in entries { shown[try #require(entry[0] as? Int)] = try #require(entry[1] as? [Any]) }
        // The page with the patch shows what the whole chart of that version shows.
        let whole = try await get("/trees/alice/chart.json")
        #expect(whole["sequence"] as? Int == patched["sequence"] as? Int)
        #expect(NSArray(array: shown) == NSArray(array: try members(whole)))
        #expect(String(describing: shown).contains("A new note") && String(describing: shown).contains("Cyd Byrne"))

        // Hostile text in a patch stays text: escaped for a script element, read back exactly.
        let hostile = "</script><img src=x onerror=alert(1)> \\ \" '\nline"
        let shownBefore = try #require(patched["sequence"] as? Int)
        let hostileEdit = #"{"op":"edit","member":"ann","fields":{"notes":\#(String(decoding: try JSONEncoder().encode(hostile), as: UTF8.self))}}"#
        #expect(try await edit(server, bob, hostileEdit).status == 200)
        let hostileAnswer = try await server.send("GET", "/trees/alice/chart.json?since=\(shownBefore)", token: bob)
        #expect(!hostileAnswer.body.contains("</script") && !hostileAnswer.body.contains("<img"), "\(hostileAnswer.body)")
        let hostileEntry = try #require(((object(hostileAnswer)["patch"] as? [String: Any])?["m"] as? [[Any]])?.first?[1] as? [Any])
        #expect((hostileEntry[9] as? [String: Any])?["t"] as? String == hostile)

        // From the version shown now: an empty patch.
        let now = try #require(object(hostileAnswer)["sequence"] as? Int)
        #expect(((try await get("/trees/alice/chart.json?since=\(now)")["patch"] as? [String: Any])?["m"] as? [Any])?.isEmpty == true)
        // Someone added moves boxes: the whole chart. So does a version never given, or a bad one.
        #expect(try await edit(server, bob, #"{"op":"addChild","member":"ann","fields":{"firstName":"Dee"}}"#).status == 200)
        for since in [String(now), "1", "-5", "x", "99999999999999999999"] {
            let answer = try await get("/trees/alice/chart.json?since=\(since)")
            #expect(answer["patch"] == nil && answer["data"] != nil, "since=\(since)")
        }
        // A name too long for its box moves boxes too.
        let added = try #require(try await get("/trees/alice/chart.json")["sequence"] as? Int)
        #expect(try await edit(server, bob, #"{"op":"edit","member":"ben","fields":{"firstName":"Benedict Aloysius Fitzgerald"}}"#).status == 200)
        #expect(try await get("/trees/alice/chart.json?since=\(added)")["data"] != nil)
    }

    @Test func aPageOpenedWhileAChangeIsLaidOutShowsTheTreeAsItWasAndThenTheChange() async throws {
        // No wait at all for the new layout: as a 100,000-person tree's page would find it.
        var settings = RunningServer.quickSettings
        settings.earlierChartAfter = .zero
        let (server, tokens) = try await family(settings: settings)
        let bob = tokens["bob"]!
        func sequence(_ page: String) -> Int? {
            page.firstRange(of: #/data-sequence="(\d+)"/#).flatMap { Int(page[$0].dropFirst(15).dropLast()) }
        }
        let opened = try await server.send("GET", "/trees/alice", token: bob).body
        let first = try #require(sequence(opened))
        #expect(!opened.contains("data-earlier"))

        #expect(try await edit(server, bob, #"{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"Dorothea"}}"#).status == 200)
        let meanwhile = try await server.send("GET", "/trees/alice", token: bob).body
        #expect(meanwhile.contains(#"data-earlier="true""#) && sequence(meanwhile) == first && !meanwhile.contains("Dorothea"), "\(meanwhile)")
        // The page's first refresh (it hears of the change) waits for the new chart.
        let fresh = try await server.send("GET", "/trees/alice/chart.json", token: bob)
        #expect(fresh.body.contains("Dorothea") && (object(fresh)["sequence"] as? Int ?? 0) > first)
        let later = try await server.send("GET", "/trees/alice", token: bob).body
        #expect(later.contains("Dorothea") && !later.contains("data-earlier"))

        // A tree laid out within the wait (the default's 400 ms) opens on its newest version.
        let (quick, quickTokens) = try await family()
        _ = try await quick.send("GET", "/trees/alice", token: quickTokens["bob"]!)
        #expect(try await edit(quick, quickTokens["bob"]!, #"{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"Dorothea"}}"#).status == 200)
        #expect(try await quick.send("GET", "/trees/alice", token: quickTokens["bob"]!).body.contains("Dorothea"))
    }

    @Test func aChangedTreeIsLaidOutOnceChangesStopBeforeAnyoneAsks() async throws {
        // alice's pushes (through the API) and bob's edits (from the page) each leave the tree
        // to be laid out once it has been quiet half a second; the next page finds it made.
        let (server, tokens) = try await family()
        let bob = tokens["bob"]!
        func chart() async throws -> (timing: String, sequence: Int, body: String) {
            let answer = try await server.send("GET", "/trees/alice/chart.json", token: bob)
            #expect(answer.status == 200)
            return (answer.headers["server-timing"] ?? "", object(answer)["sequence"] as? Int ?? -1, answer.body)
        }
        try await Task.sleep(for: .seconds(3))
        let pushed = try await chart()
        #expect(pushed.timing == #"chart;desc="ready""#, "\(pushed.timing)")
        // A burst of edits: the chart made after the last one is the one the next page gets.
        for number in 0..<5 {
            #expect(try await edit(server, bob, #"{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"Child \#(number)"}}"#).status == 200)
        }
        try await Task.sleep(for: .seconds(3))
        let edited = try await chart()
        #expect(edited.timing == #"chart;desc="ready""#, "\(edited.timing)")
        #expect(edited.sequence > pushed.sequence && edited.body.contains("Child 4"))

        // With a page listening, the page asks for what it draws: nothing is made for it.
        let listening = try EventStreamReader(address: server.address, path: "/trees/alice/events", headers: ["Authorization": "Bearer \(tokens["carol"]!)"])
        #expect(try await edit(server, bob, #"{"op":"edit","member":"ann","fields":{"notes":"Seen"}}"#).status == 200)
        #expect(try listening.next(within: 10)?.name == "change")
        try await Task.sleep(for: .seconds(3))
        #expect(try await chart().timing.hasPrefix(#"chart;desc="made""#))

        // Without it, the same wait finds nothing made: the page's request waits for the layout.
        var settings = RunningServer.quickSettings
        settings.prepareChartsAfterQuiet = nil
        let (lazy, lazyTokens) = try await family(settings: settings)
        try await Task.sleep(for: .seconds(3))
        let made = try await lazy.send("GET", "/trees/alice/chart.json", token: lazyTokens["bob"]!)
        #expect(made.headers["server-timing"]?.hasPrefix(#"chart;desc="made";dur="#) == true, "\(made.headers)")
        #expect(try await lazy.send("GET", "/trees/alice/chart.json", token: lazyTokens["bob"]!).headers["server-timing"] == #"chart;desc="ready""#)
    }

    /// A server whose settings show a preview of trees over 20 people at once, with alice's
    /// tree of `count` generated people shared with bob and carol as helpers.
    func largeFamily(count: Int, settings change: (inout ServerSettings) -> Void = { _ in }) async throws -> (RunningServer, FamilyGraph, [String: String]) {
        var settings = RunningServer.quickSettings
        settings.previewPeople = 20
        settings.earlierChartAfter = .zero
        settings.prepareChartsAfterQuiet = nil
        change(&settings)
        let server = try await RunningServer(settings: settings)
        let (alice, aliceToken) = try await server.user("alice")
        var tokens = ["alice": aliceToken]
        for name in ["bob", "carol"] { tokens[name] = try await server.user(name).token }
        let document = TreeGenerator(memberCount: count, seed: 5).generate()
        let writes = try TreeMirror.documents(of: document.jsonValue).map { DocumentWrite(key: $0.key, body: $0.value, baseVersion: 0) }
        for start in stride(from: 0, to: writes.count, by: 200) {
            _ = try await alice.push(user: "alice", tree: "alice", Array(writes[start..<min(start + 200, writes.count)]))
        }
        for name in ["bob", "carol"] { try await alice.share(tree: "alice", as: "alice", with: name, role: .helper) }
        return (server, try FamilyGraph(document: document), tokens)
    }

    /// The chart data a page holds: its people's ids, and the position it starts at.
    func pageChart(_ page: String) throws -> (ids: [String], start: Int?, isPreview: Bool) {
        let opening = try #require(page.range(of: #"id="family-tree-data">"#))
        let closing = try #require(page.range(of: "</script>", range: opening.upperBound..<page.endIndex))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(page[opening.upperBound..<closing.lowerBound].utf8)) as? [String: Any])
        let members = try #require(data["m"] as? [[Any]])
        return (members.compactMap { $0.first as? String }, data["start"] as? Int, page.contains(#"data-preview="true""#))
    }

    @Test func aLargeTreeNotLaidOutYetOpensOnThePeopleNearestThenTheWhole() async throws {
        let (server, graph, tokens) = try await largeFamily(count: 200)
        let bob = tokens["bob"]!
        // bob says who he is: someone with parents and children, in the middle of the tree.
        func children(_ member: Int) -> [Int] { graph.topology.unionsOfMember[member].flatMap { graph.topology.children[$0] } }
        let myself = try #require(graph.members.indices.first { graph.parents(ofMemberAt: $0).count == 2 && children($0).count > 1 })
        let id = graph.members[myself].id
        #expect(try await server.send("PUT", "/trees/alice/myself", body: #"{"member":"\#(id)"}"#, token: bob).status == 200)

        let previewPage = try await server.send("GET", "/trees/alice", token: bob).body
        let preview = try pageChart(previewPage)
        #expect(preview.isPreview)
        #expect(previewPage.contains(#"aria-live="polite">Drawing the whole tree…</p>"#), "said from the first paint, before any script runs")
        #expect(preview.ids.count > 1 && preview.ids.count < 200, "\(preview.ids.count)")
        #expect(preview.start.map { preview.ids[$0] } == id, "it opens on him")
        for relative in graph.parents(ofMemberAt: myself) + children(myself) + graph.partners(ofMemberAt: myself) {
            #expect(preview.ids.contains(graph.members[relative].id))
        }
        // The page asks for the whole tree at once (being laid out meanwhile); then it opens whole.
        let whole = try await server.send("GET", "/trees/alice/chart.json", token: bob)
        #expect(((object(whole)["data"] as? [String: Any])?["m"] as? [Any])?.count == 200)
        let later = try pageChart(try await server.send("GET", "/trees/alice", token: bob).body)
        #expect(!later.isPreview && later.ids.count == 200)
        #expect(!(try await server.send("GET", "/trees/alice", token: bob).body.contains("live-status")))

        // Without a person of her own, carol's preview starts where the whole chart will.
        let (other, otherGraph, otherTokens) = try await largeFamily(count: 200)
        let carols = try pageChart(try await other.send("GET", "/trees/alice", token: otherTokens["carol"]!).body)
        let likely = try #require(HTMLRenderer.likelyStartingMember(in: otherGraph))
        #expect(carols.isPreview && carols.start.map { carols.ids[$0] } == otherGraph.members[likely].id)
        let otherWhole = try await other.send("GET", "/trees/alice/chart.json", token: otherTokens["carol"]!)
        let wholeData = try #require(object(otherWhole)["data"] as? [String: Any])
        let wholeIDs = try #require(wholeData["m"] as? [[Any]]).compactMap { $0.first as? String }
        #expect((wholeData["start"] as? Int).map { wholeIDs[$0] } == otherGraph.members[likely].id)

        // With previews off, the page waits for the whole tree.
        let (waiting, _, waitingTokens) = try await largeFamily(count: 200) { $0.previewPeople = nil }
        let waited = try pageChart(try await waiting.send("GET", "/trees/alice", token: waitingTokens["carol"]!).body)
        #expect(!waited.isPreview && waited.ids.count == 200)
    }

    @Test(.requiresBrowser) func aBrowserDrawsTheNearestPeopleFirstThenTheWholeTreeInPlace() async throws {
        let (server, graph, _) = try await largeFamily(count: 300)
        let screenshots = try ScratchFolder("preview-screenshots")
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/Browser/preview_check.py").path
        let result = try ChildProcess.run("python3", [script, server.address, "bob", "correct horse", "alice", "--screenshots", screenshots.url.path])
        try #require(result.status == 0, "\(result.stderr.suffix(3_000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let first = try #require(seen["first"] as? [String: Any])
        #expect(first["preview"] as? Bool == true && first["whole"] as? Bool == false, "\(first)")
        let people = first["people"] as? Int ?? 0
        #expect(people > 1 && people < 300, "\(people)")
        #expect((first["status"] as? String)?.hasPrefix("Drawing the whole tree") == true, "\(first)")
        let likely = try #require(HTMLRenderer.likelyStartingMember(in: graph))
        #expect(first["start"] as? String == graph.members[likely].id)
        // The whole tree came, everyone in it, the person it opened on where they were.
        #expect(seen["whole"] as? Bool == true)
        #expect(seen["wholePeople"] as? Int == 300 && seen["missing"] as? Int == 0, "\(seen["wholePeople"] ?? "") \(seen["missing"] ?? "")")
        let before = try #require(first["box"] as? [String: Double]), after = try #require(seen["boxAfter"] as? [String: Double])
        for side in ["x", "y", "width", "height"] { #expect(abs((before[side] ?? 0) - (after[side] ?? -99)) < 0.5, "\(side): \(before) then \(after)") }
        #expect(seen["statusAfter"] as? String == "", "the line about drawing went")
        #expect(seen["consoleErrors"] as? [String] == [], "\(seen["consoleErrors"] ?? "")")
    }

    @Test func relationshipsReadFromTheUsersOwnPerson() async throws {
        let (server, tokens) = try await family()
        #expect(try await server.send("GET", "/trees/alice/relation?from=cy&to=ann", token: tokens["vera"]!).body == #"{"words":"parent"}"#, "no sex recorded: the word for either")
        #expect(try await server.send("GET", "/trees/alice/relation?from=ann&to=cy", token: tokens["vera"]!).body == #"{"words":"child"}"#)
        #expect(try await server.send("GET", "/trees/alice/relation?from=cy&to=cy", token: tokens["vera"]!).body == #"{"words":"you"}"#)
        #expect(try await server.send("GET", "/trees/alice/relation?from=cy&to=nobody", token: tokens["vera"]!).status == 404)
        #expect(try await server.send("GET", "/trees/alice/relation?from=cy&to=ann", token: tokens["dave"]!).status == 403)
        // Joined only through marriages: the chain. Cy marries Dee, whose father is Ed.
        let dee = try #require(object(try await edit(server, tokens["ada"]!, #"{"op":"addPartner","member":"cy","fields":{"firstName":"Dee","sex":"female"}}"#))["created"] as? [String]).first ?? ""
        let ed = try #require(object(try await edit(server, tokens["ada"]!, #"{"op":"addParent","member":"\#(dee)","fields":{"firstName":"Ed","sex":"male"}}"#))["created"] as? [String]).first ?? ""
        #expect(try await server.send("GET", "/trees/alice/relation?from=ann&to=\(ed)", token: tokens["vera"]!).body == #"{"words":"daughter-in-law's father"}"#)
        #expect(try await server.send("GET", "/trees/alice/relation?from=ann&to=\(dee)", token: tokens["vera"]!).body == #"{"words":"daughter-in-law"}"#, "one marriage: its own word")
    }

    @Test func hostileTextStaysTextInEveryAnswer() async throws {
        let (server, tokens) = try await family()
        let hostile = #"</script><img src=x onerror=alert(1)>\"'&"#
        let saved = try await edit(server, tokens["bob"]!, #"{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"\#(hostile)"}}"#)
        #expect(saved.status == 200, "\(saved.body)")
        let data = try await server.send("GET", "/trees/alice/chart.json", token: tokens["bob"]!)
        #expect(!data.body.contains("<img") && !data.body.contains("</script>"))
        #expect(try JSONSerialization.jsonObject(with: Data(data.body.utf8)) is [String: Any], "valid JSON")
        let page = try await server.send("GET", "/trees/alice", token: tokens["bob"]!)
        #expect(!page.body.contains("<img src=x"))
    }

    @Test func undoTakesBackOnesOwnEditOnlyAndKeepsOthersChanges() async throws {
        let (server, tokens) = try await family()
        let added = object(try await edit(server, tokens["bob"]!, #"{"op":"addPartner","member":"cy","fields":{"firstName":"Dee"},"date":"2010-06-01"}"#))
        let partner = try #require((added["created"] as? [String])?.first)
        #expect(added["undo"] is String, "a partner added can be taken back")
        let married = object(try await edit(server, tokens["bob"]!, #"{"op":"marry","member":"ben","other":"\#(partner)"}"#))
        #expect(married["undo"] == nil, "a helper's marriage is not undone here (its union would be deleted): \(married)")
        let child = object(try await edit(server, tokens["bob"]!, #"{"op":"addChild","member":"cy","other":"\#(partner)","fields":{"firstName":"Eve"}}"#))
        let childID = try #require((child["created"] as? [String])?.first)
        let token = try #require(child["undo"] as? String)

        #expect(try await server.send("POST", "/trees/alice/undo", body: #"{"token":"\#(token)"}"#, token: tokens["carol"]!).status == 404, "not carol's")
        #expect(try await server.send("POST", "/trees/alice/undo", body: #"{"token":"\#(token)"}"#, token: tokens["bob"]!).status == 200)
        #expect(try await server.send("POST", "/trees/alice/undo", body: #"{"token":"\#(token)"}"#, token: tokens["bob"]!).status == 404, "once")
        #expect(try await tree(server, tokens["alice"]!).member(childID)?.isRemoved == true, "undoing an addition hides the person again")

        // An edit's undo puts the old values back, unless someone changed them since.
        let renamed = object(try await edit(server, tokens["bob"]!, #"{"op":"edit","member":"ben","fields":{"nickname":"Benny","notes":"Bob's"},"was":{"nickname":null,"notes":null}}"#))
        #expect(try await edit(server, tokens["carol"]!, #"{"op":"edit","member":"ben","fields":{"notes":"Carol's"},"was":{"notes":"Bob's"}}"#).status == 200)
        let undo = try await server.send("POST", "/trees/alice/undo", body: #"{"token":"\#(try #require(renamed["undo"] as? String))"}"#, token: tokens["bob"]!)
        #expect(undo.status == 409, "carol's notes are not undone silently: \(undo.body)")
        #expect(try await tree(server, tokens["alice"]!).member("ben")?.notes == "Carol's")
    }

    @Test func marriagesAndDivorcesAreTakenBackUnlessTheFamilyChangedSince() async throws {
        let (server, tokens) = try await family()
        let ada = tokens["ada"]!, bob = tokens["bob"]!
        func undo(_ answer: [String: Any], as token: String) async throws -> RunningServer.Answer {
            try await server.send("POST", "/trees/alice/undo", body: #"{"token":"\#(try #require(answer["undo"] as? String))"}"#, token: token)
        }
        func couples() async throws -> [Union] {
            try await tree(server, tokens["alice"]!).unions.filter { Set($0.partners) == ["ann", "ben"] }
        }
        // bob records Ann and Ben's divorce and takes it back: one union, not ended.
        let divorced = object(try await edit(server, bob, #"{"op":"divorce","member":"ann","other":"ben","date":"1999"}"#))
        #expect(try await couples().map(\.divorce) == [PartialDate("1999")])
        let back = try await undo(divorced, as: bob)
        #expect(back.status == 200, "\(back.body)")
        let now = try await couples()
        #expect(now.count == 1 && now.allSatisfy { $0.divorce == nil && $0.divorcePhrase == nil }, "\(now)")

        // ada (an admin) marries Cy to Zed, a new person, and takes it back: the union is gone.
        let zed = try #require((object(try await edit(server, ada, #"{"op":"add","member":"cy","fields":{"firstName":"Zed"}}"#))["created"] as? [String])?.first)
        let married = object(try await edit(server, ada, #"{"op":"marry","member":"cy","other":"\#(zed)","date":"2020"}"#))
        #expect(try await tree(server, tokens["alice"]!).unions.contains { Set($0.partners) == ["cy", zed] })
        #expect(try await undo(married, as: ada).status == 200)
        #expect(try await !tree(server, tokens["alice"]!).unions.contains { Set($0.partners) == ["cy", zed] })

        // Married again, and bob adds a child to the couple meanwhile: the marriage stays.
        let again = object(try await edit(server, ada, #"{"op":"marry","member":"cy","other":"\#(zed)"}"#))
        #expect(try await edit(server, bob, #"{"op":"addChild","member":"cy","other":"\#(zed)","fields":{"firstName":"Ivy"}}"#).status == 200)
        let refused = try await undo(again, as: ada)
        #expect(refused.status == 409 && refused.body.contains("have a child"), "\(refused.body)")
        #expect(try await tree(server, tokens["alice"]!).unions.contains { Set($0.partners) == ["cy", zed] && $0.children.count == 1 })

        // A divorce is not taken back once the couple married again.
        let ended = object(try await edit(server, ada, #"{"op":"divorce","member":"cy","other":"\#(zed)"}"#))
        #expect(try await edit(server, ada, #"{"op":"marry","member":"cy","other":"\#(zed)"}"#).status == 200)
        let stays = try await undo(ended, as: ada)
        #expect(stays.status == 400 && stays.body.contains("together again"), "\(stays.body)")
    }

    @Test func pagesListeningHearOfEveryChangeWithWhoMadeIt() async throws {
        let (server, tokens) = try await family()
        #expect(try await server.send("GET", "/trees/alice/events", token: tokens["dave"]!).status == 403)
        let stream = try EventStreamReader(address: server.address, path: "/trees/alice/events", headers: ["Authorization": "Bearer \(tokens["carol"]!)"])
        #expect(stream.head.hasPrefix("HTTP/1.1 200") && stream.head.lowercased().contains("content-type: text/event-stream"), "\(stream.head)")
        #expect(try stream.next(within: 0.5) == nil, "no change yet")

        _ = try await edit(server, tokens["bob"]!, #"{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"Dee"}}"#)
        let change = try #require(try stream.next(within: 10))
        #expect(change.name == "change")
        let said = try #require(try JSONSerialization.jsonObject(with: Data(change.data.utf8)) as? [String: Any])
        #expect(said["by"] as? String == "bob")
        #expect((said["summary"] as? String)?.contains("added Dee, a child of Ann Byrne") == true, "\(said)")
        let sequence = try #require(said["sequence"] as? Int)
        #expect(change.id == String(sequence))

        // A push through the sync API (the CLI) is heard as well.
        let alice = ServerDocumentStore(address: try ServerAddress(server.address), user: "alice", token: tokens["alice"]!)
        _ = try await alice.push(user: "alice", tree: "alice", [memberWrite("zed", name: "Zed")])
        let pushed = try #require(try stream.next(within: 10))
        #expect(pushed.data.contains("alice synced 1 change"))

        // A page reconnecting after sequence N hears of what it missed, from the store.
        let late = try EventStreamReader(address: server.address, path: "/trees/alice/events", headers: ["Authorization": "Bearer \(tokens["vera"]!)", "Last-Event-ID": String(sequence - 1)])
        let missed = try #require(try late.next(within: 10))
        #expect(missed.name == "change" && Int(missed.id ?? "") ?? 0 > sequence - 1)
    }

    @Test func aCalendarAddressListsTheBirthdaysReadsNothingElseAndStops() async throws {
        let (server, tokens) = try await family()
        #expect(try await server.send("POST", "/trees/alice/calendar-address", token: tokens["dave"]!).status == 403, "no role, no address")
        let first = object(try await server.send("POST", "/trees/alice/calendar-address", token: tokens["bob"]!))
        let firstPath = try #require(first["path"] as? String)
        let made = object(try await server.send("POST", "/trees/alice/calendar-address", token: tokens["bob"]!))
        let path = try #require(made["path"] as? String)
        #expect(path.hasPrefix("/calendar/") && path.hasSuffix(".ics") && path != firstPath)
        #expect(try await server.send("GET", firstPath).status == 404, "a new address stops the last one")

        // Read with no sign-in at all, as a calendar app would, and by a real iCalendar parser.
        let feed = try await server.send("GET", path)
        #expect(feed.status == 200 && feed.headers["content-type"] == "text/calendar; charset=utf-8")
        let file = server.folder.path("feed.ics")
        try feed.body.write(to: file, atomically: true, encoding: .utf8)
        let parsed = try ChildProcess.run("python3", ["-c", """
            import sys
            from icalendar import Calendar
            calendar = Calendar.from_ical(open(sys.argv[1], 'rb').read())
            for event in calendar.walk('VEVENT'):
                print(str(event.get('SUMMARY')), event.decoded('DTSTART').isoformat(), event.get('RRULE').to_ical().decode())
            """, file.path])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        #expect(parsed.stdout.contains("Cy's birthday 1980-02-03") && parsed.stdout.contains("FREQ=YEARLY"), "\(parsed.stdout)")

        // The address is no key to anything else.
        let secret = String(path.dropFirst("/calendar/".count).dropLast(4))
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: secret).status == 401)
        #expect(try await server.send("GET", "/trees/alice/chart.json", token: secret).status == 401)
        #expect(try await server.send("GET", "/calendar/\(tokens["bob"]!).ics").status == 404, "a token is no calendar address")
        let listed = try await server.send("GET", "/api/v1/tokens", token: tokens["bob"]!)
        #expect(listed.body.contains("calendar address for alice's tree"), "listed with the tokens, to revoke: \(listed.body)")

        // Stopped by its owner; and an address stops working when its owner loses the tree.
        #expect(try await server.send("DELETE", "/trees/alice/calendar-address", token: tokens["bob"]!).body == #"{"stopped":1}"#)
        #expect(try await server.send("GET", path).status == 404)
        let carols = try #require(object(try await server.send("POST", "/trees/alice/calendar-address", token: tokens["carol"]!))["path"] as? String)
        #expect(try await server.send("GET", carols).status == 200)
        let alice = ServerDocumentStore(address: try ServerAddress(server.address), user: "alice", token: tokens["alice"]!)
        try await alice.unshare(tree: "alice", as: "alice", member: "carol")
        #expect(try await server.send("GET", carols).status == 404)
    }

    @Test func thePersonAUserSaysIsThemIsKeptWithTheAccountOnEveryDevice() async throws {
        let (server, tokens) = try await family()
        func say(_ member: String?, as user: String, headers: [String: String] = [:]) async throws -> Int {
            let body = member.map { #"{"member":\#(String(decoding: try! JSONEncoder().encode($0), as: UTF8.self))}"# } ?? #"{"member":null}"#
            return try await server.send("PUT", "/trees/alice/myself", body: body, token: tokens[user], headers: headers).status
        }
        func pageSays(_ token: String?, headers: [String: String] = [:]) async throws -> String? {
            let page = try await server.send("GET", "/trees/alice", token: token, headers: headers).body
            guard let start = page.range(of: #"data-myself=""#) else { return nil }
            return String(page[start.upperBound...].prefix { $0 != "\"" })
        }
        #expect(try await pageSays(tokens["vera"]) == nil, "no one said yet")
        // A viewer may say who she is: it changes no one's tree.
        #expect(try await say("cy", as: "vera") == 200)
        #expect(try await pageSays(tokens["vera"]) == "cy")
        #expect(try await pageSays(tokens["bob"]) == nil, "it is vera's, not the tree's")
        // Another device: a browser session signed in afresh reads it from the account.
        let signIn = try await server.send("POST", "/api/v1/session", body: #"{"user":"vera","password":"correct horse"}"#)
        let cookie = String(try #require(signIn.headers["set-cookie"]).split(separator: ";")[0])
        let csrf = try #require(signIn.field("csrfToken"))
        #expect(try await pageSays(nil, headers: ["Cookie": cookie]) == "cy")
        // The session changes it only with its CSRF token; then the other device sees the change.
        #expect(try await server.send("PUT", "/trees/alice/myself", body: #"{"member":"ann"}"#, headers: ["Cookie": cookie]).status == 403)
        #expect(try await server.send("PUT", "/trees/alice/myself", body: #"{"member":"ann"}"#, headers: ["Cookie": cookie, "X-CSRF-Token": csrf]).status == 200)
        #expect(try await pageSays(tokens["vera"]) == "ann")
        // Relationship words from her person, as the card asks them.
        let words = try await server.send("GET", "/trees/alice/relation?from=ann&to=cy", token: tokens["vera"])
        #expect(words.field("words") == "child", "\(words.body)")
        // None, and refusals: someone not in the tree, hostile text, no role, not signed in, a malformed body.
        #expect(try await say(nil, as: "vera") == 200)
        #expect(try await pageSays(tokens["vera"]) == nil)
        #expect(try await say("nobody", as: "bob") == 404)
        #expect(try await say(#""><script>alert(1)</script>"#, as: "bob") == 404)
        #expect(try await say("ann", as: "dave") == 403)
        #expect(try await server.send("PUT", "/trees/alice/myself", body: #"{"member":"ann"}"#).status == 401)
        #expect(try await server.send("PUT", "/trees/alice/myself", body: #"{"member":5}"#, token: tokens["bob"]).status == 400)
        #expect(try await server.send("PUT", "/trees/alice/myself", body: "not json", token: tokens["bob"]).status == 400)
        #expect(try await pageSays(tokens["bob"]) == nil, "nothing refused was kept")

        // A person whose id is hostile text: said, and written into the page as an attribute's text.
        let hostile = #"x" onload="alert(1)"><img src=x>"#
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["firstName": "Hostile", "id": hostile]), as: UTF8.self)
        let alice = ServerDocumentStore(address: try ServerAddress(server.address), user: "alice", token: tokens["alice"]!)
        _ = try await alice.push(user: "alice", tree: "alice", [DocumentWrite(key: DocumentKey(.familyTree, hostile), body: body, baseVersion: 0)])
        #expect(try await say(hostile, as: "bob") == 200)
        let page = try await server.send("GET", "/trees/alice", token: tokens["bob"]).body
        #expect(page.contains(#"data-myself="x&quot; onload=&quot;alert(1)&quot;&gt;&lt;img src=x&gt;""#), "escaped in its attribute")
        #expect(!page.contains(#"onload="alert"#) && !page.contains("<img src=x>"))
    }
}
#endif
