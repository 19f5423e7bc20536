#if Server
import FamilyTree
import FamilyTreeRemote
import FamilyTreeSync
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeServer

/// A share that hides living people's details from a viewer: every page, answer and stream the
/// viewer reaches shows the living as "Living", the documents are not pulled, and the rule is
/// the share's (set with it, lifted with it, refused for a role that edits).
/// Threads of its own: its change streams are read with blocking sockets, which on the cooperative
/// pool (two threads on CI) could keep the in-process server from answering them.
@Suite(.serialized, .threadsOfItsOwn, .timeLimit(.minutes(2))) struct PrivateSharesTests {
    /// alice's tree: Ann and Ben Byrne (no dates; their son was born in 1980, so living), Cy
    /// Byrne (born 1980, notes, a photo), and Tom Byrne (1850 to 1920). vera views it with the
    /// living hidden, walt views it whole, bob helps.
    func family() async throws -> (RunningServer, [String: String]) {
        let server = try await RunningServer()
        var tokens: [String: String] = [:]
        let (alice, aliceToken) = try await server.user("alice")
        tokens["alice"] = aliceToken
        for name in ["bob", "vera", "walt"] { tokens[name] = try await server.user(name).token }
        func record(_ collection: SyncCollection, _ id: String, _ body: String) -> DocumentWrite {
            DocumentWrite(key: DocumentKey(collection, id), body: body, baseVersion: 0)
        }
        let photo = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
        _ = try await alice.push(user: "alice", tree: "alice", [
            record(.familyTree, "ann", #"{"firstName":"Ann","id":"ann","lastName":"Byrne","notes":"Lives in Cork"}"#),
            record(.familyTree, "ben", #"{"firstName":"Ben","id":"ben","lastName":"Byrne"}"#),
            record(.familyTree, "cy", #"{"birthday":"1980-02-03","firstName":"Cyprian","id":"cy","lastName":"Byrne","notes":"Phone 555-0199","photo":"\#(photo)"}"#),
            record(.familyTree, "tom", #"{"birthday":"1850-02-05","deathDate":"1920-01-01","firstName":"Tomas","id":"tom","lastName":"Byrne"}"#),
            record(.unions, "u1", #"{"children":["cy"],"id":"u1","partners":["ann","ben"],"marriage":"1975-06-01"}"#),
        ])
        try await alice.share(tree: "alice", as: "alice", with: "bob", role: .helper)
        try await alice.share(tree: "alice", as: "alice", with: "vera", role: .viewer, hidingLiving: true)
        try await alice.share(tree: "alice", as: "alice", with: "walt", role: .viewer)
        return (server, tokens)
    }

    /// What a living person's details would show, anywhere in an answer.
    let livingDetails = ["Cyprian", "Ann", "Ben", "1980", "Lives in Cork", "555-0199", "base64", "1975"]

    func leaked(_ text: String) -> [String] { livingDetails.filter { text.contains($0) } }

    @Test func aViewerWhoseShareHidesTheLivingSeesThemAsLivingOnEveryPage() async throws {
        let (server, tokens) = try await family()
        let vera = tokens["vera"]!, walt = tokens["walt"]!
        for path in ["/trees/alice/chart.json", "/trees/alice", "/trees/alice/birthdays", "/trees/alice/month?m=2026-02"] {
            let hidden = try await server.send("GET", path, token: vera)
            #expect(hidden.status == 200, "\(path): \(hidden.status)")
            #expect(leaked(hidden.body).isEmpty, "\(path) shows \(leaked(hidden.body))")
            let whole = try await server.send("GET", path, token: walt)
            #expect(whole.body.contains("Cyprian"), "\(path) shows walt everyone")
        }
        // A change is sent whole (hiding reads a person's relatives too), and hides as much.
        let sequence = try #require((try JSONSerialization.jsonObject(with: Data(try await server.send("GET", "/trees/alice/chart.json", token: vera).body.utf8)) as? [String: Any])?["sequence"] as? Int)
        #expect(try await server.send("POST", "/trees/alice/edits", body: #"{"edits":[{"op":"edit","member":"cy","fields":{"notes":"Phone 555-0199 or 555-0100"}}]}"#, token: tokens["bob"]!).status == 200)
        let changed = try await server.send("GET", "/trees/alice/chart.json?since=\(sequence)", token: vera).body
        #expect(changed.contains(#""data":"#) && !changed.contains(#""patch":"#) && leaked(changed).isEmpty, "\(changed)")
        // The dead are shown whole, the living as "Living" with the surname, in the same shape.
        let chart = try await server.send("GET", "/trees/alice/chart.json", token: vera).body
        #expect(chart.contains("Tomas") && chart.contains("Living"), "\(chart)")
        #expect(try await server.send("GET", "/trees/alice", token: vera).body.contains(#"data-hides-living="true""#))
        #expect(!(try await server.send("GET", "/trees/alice", token: walt).body.contains("data-hides-living")))

        // What the page would ask for a card's form, and the documents whole, are refused.
        let fields = try await server.send("GET", "/trees/alice/people/cy", token: vera)
        #expect(fields.status == 403 && leaked(fields.body).isEmpty)
        let pulled = try await server.send("GET", "/api/v1/trees/alice/documents", token: vera)
        #expect(pulled.status == 403 && pulled.body.contains("living people hidden") && leaked(pulled.body).isEmpty, "\(pulled.body)")
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: walt).status == 200)

        // The calendar address of such a share has no living person's birthday (and the birthdays
        // of the dead are not in a birthday calendar), where walt's has them.
        for (token, shows) in [(vera, false), (walt, true)] {
            let made = try await server.send("POST", "/trees/alice/calendar-address", token: token)
            let path = try #require((try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])?["path"] as? String)
            let feed = try await server.send("GET", path)
            #expect(feed.status == 200 && feed.body.hasPrefix("BEGIN:VCALENDAR"))
            #expect(feed.body.contains("Cyprian") == shows && (shows || leaked(feed.body).isEmpty), "\(feed.body)")
        }
    }

    @Test func aChangeIsToldWithoutTheNamesItTouched() async throws {
        let (server, tokens) = try await family()
        let hidden = try EventStreamReader(address: server.address, path: "/trees/alice/events", headers: ["Authorization": "Bearer \(tokens["vera"]!)"])
        let whole = try EventStreamReader(address: server.address, path: "/trees/alice/events", headers: ["Authorization": "Bearer \(tokens["walt"]!)"])
        let saved = try await server.send("POST", "/trees/alice/edits", body: #"{"edits":[{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"Dorothea"}}]}"#, token: tokens["bob"]!)
        #expect(saved.status == 200)
        let told = try #require(try hidden.next(within: 10))
        #expect(told.name == "change" && told.data.contains("bob changed the tree"), "\(told.data)")
        #expect(!told.data.contains("Dorothea") && leaked(told.data).isEmpty, "\(told.data)")
        #expect(try #require(try whole.next(within: 10)).data.contains("Dorothea"))
        // And the new child, living, is hidden on the chart too.
        #expect(!(try await server.send("GET", "/trees/alice/chart.json", token: tokens["vera"]!).body.contains("Dorothea")))

        // A rule set while walt's stream is open holds on it from its next look at the store (5 s).
        let alice = ServerDocumentStore(address: try ServerAddress(server.address), user: "alice", token: tokens["alice"]!)
        try await alice.share(tree: "alice", as: "alice", with: "walt", role: .viewer, hidingLiving: true)
        try await Task.sleep(for: .seconds(WebApp.lookEverySeconds + 1))
        #expect(try await server.send("POST", "/trees/alice/edits", body: #"{"edits":[{"op":"addChild","member":"ann","other":"ben","fields":{"firstName":"Eleanora"}}]}"#, token: tokens["bob"]!).status == 200)
        var heard: [String] = []
        while let event = try whole.next(within: 10) {
            heard.append(event.data)
            if event.data.contains("changed the tree") || event.data.contains("Eleanora") { break }
        }
        #expect(heard.last?.contains("bob changed the tree") == true && !heard.joined().contains("Eleanora"), "\(heard)")
    }

    @Test func theRuleIsTheSharesSetAndLiftedWithItAndOnlyForViewers() async throws {
        let (server, tokens) = try await family()
        let address = try ServerAddress(server.address)
        let alice = ServerDocumentStore(address: address, user: "alice", token: tokens["alice"]!)
        let members = try await alice.members(of: "alice", as: "alice")
        #expect(members.first { $0.user == "vera" }?.hidesLiving == true)
        #expect(members.first { $0.user == "walt" }?.hidesLiving == false)
        let veras = ServerDocumentStore(address: address, user: "vera", token: tokens["vera"]!)
        #expect(try await veras.trees(of: "vera").first { $0.tree == "alice" }?.hidesLiving == true)

        // A role that edits sees what it edits: the rule is refused for it, by name.
        let refused = try await server.send("PUT", "/api/v1/trees/alice/members/bob", body: #"{"role":"helper","hidesLiving":true}"#, token: tokens["alice"]!)
        #expect(refused.status == 400 && refused.body.contains("viewers only"), "\(refused.status) \(refused.body)")
        let invite = try await server.send("POST", "/api/v1/trees/alice/invites", body: #"{"role":"admin","hidesLiving":true}"#, token: tokens["alice"]!)
        #expect(invite.status == 400 && invite.body.contains("viewers only"))

        // Sharing again without it lifts it.
        try await alice.share(tree: "alice", as: "alice", with: "vera", role: .viewer)
        #expect(try await server.send("GET", "/trees/alice/chart.json", token: tokens["vera"]!).body.contains("Cyprian"))
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: tokens["vera"]!).status == 200)
        // Set again, then taken away with the role and given back plain: not left behind.
        try await alice.share(tree: "alice", as: "alice", with: "vera", role: .viewer, hidingLiving: true)
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: tokens["vera"]!).status == 403)
        try await alice.unshare(tree: "alice", as: "alice", member: "vera")
        try await alice.share(tree: "alice", as: "alice", with: "vera", role: .viewer)
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: tokens["vera"]!).status == 200)
    }

    @Test func anInviteCanHideTheLivingFromTheViewerItMakes() async throws {
        let (server, tokens) = try await family()
        let alice = ServerDocumentStore(address: try ServerAddress(server.address), user: "alice", token: tokens["alice"]!)
        let (link, _) = try await alice.invite(tree: "alice", role: .viewer, invitee: "ivy@example.org", expiresInHours: 1, hidingLiving: true)
        let code = String(link.split(separator: "/").last!)
        let opened = try await server.send("GET", "/api/v1/invites/\(code)")
        #expect(opened.body.contains(#""hidesLiving":true"#), "\(opened.body)")
        let accepted = try await server.send("POST", "/api/v1/invites/\(code)/accept", body: #"{"user":"ivy","password":"correct horse","tokenLabel":"laptop"}"#)
        #expect(accepted.status == 201, "\(accepted.body)")
        let answer = try JSONSerialization.jsonObject(with: Data(accepted.body.utf8)) as? [String: Any]
        let token = try #require((answer?["token"] as? [String: Any])?["token"] as? String)
        let chart = try await server.send("GET", "/trees/alice/chart.json", token: token)
        #expect(chart.status == 200 && chart.body.contains("Tomas") && leaked(chart.body).isEmpty)
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: token).status == 403)

        // An invite without the rule, from an admin who has since lost the right to share, is
        // refused when vera (living hidden) accepts it: her rule stays as it was.
        let (ada, _) = try await server.user("ada")
        try await alice.share(tree: "alice", as: "alice", with: "ada", role: .admin)
        let (plain, _) = try await ada.invite(tree: "alice", role: .viewer, invitee: nil, expiresInHours: 1)
        try await alice.share(tree: "alice", as: "alice", with: "ada", role: .viewer)
        let refused = try await server.send(
            "POST", "/api/v1/invites/\(plain.split(separator: "/").last!)/accept", body: #"{"user":"vera","password":"correct horse"}"#)
        #expect(refused.status == 403, "\(refused.body)")
        #expect(try await server.send("GET", "/api/v1/trees/alice/documents", token: tokens["vera"]!).status == 403, "still hidden")
    }
}
#endif
