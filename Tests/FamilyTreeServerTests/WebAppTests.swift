#if Server
import FamilyTree
import FamilyTreeRemote
import FamilyTreeSync
import Foundation
import Testing
import TestSupport
@testable import FamilyTreeServer

/// The server's own pages over HTTP: what each serves, to whom, and under which policy. (The same
/// pages in a real browser: `WebAppBrowserTests`.)
@Suite(.serialized, .timeLimit(.minutes(2))) struct WebAppTests {
    /// A session cookie for `user` (`Cookie` header value).
    func session(_ server: RunningServer, _ user: String) async throws -> String {
        let answer = try await server.send("POST", "/api/v1/session", body: #"{"user":"\#(user)","password":"correct horse"}"#)
        try #require(answer.status == 200, "\(answer.body)")
        return String(try #require(answer.headers["set-cookie"]).split(separator: ";")[0])
    }

    /// Inline scripts in `html`: `<script>` elements with neither `src` nor a data type.
    func inlineScripts(_ html: String) -> Int {
        html.components(separatedBy: "<script").dropFirst().filter { element in
            let tag = element.prefix { $0 != ">" }
            return !tag.contains("src=") && !tag.contains("application/json")
        }.count
    }

    @Test func pagesAndTheirFilesAreServedUnderAPolicyWithNoInlineScript() async throws {
        let server = try await RunningServer()
        for path in ["/", "/invite/some-code"] {
            let page = try await server.send("GET", path)
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            let policy = try #require(page.headers["content-security-policy"])
            #expect(policy.contains("script-src 'self'") && policy.contains("default-src 'none'") && policy.contains("connect-src 'self'"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("http"), "\(policy)")
            #expect(inlineScripts(page.body) == 0)
            #expect(page.body.contains(#"<script src="/app/app.js"></script>"#))
        }
        #expect(try await server.send("GET", "/").body.contains(#"data-view="home""#))
        #expect(try await server.send("GET", "/invite/x").body.contains(#"data-view="invite""#))
        for (path, type, text) in [("/app/app.js", "text/javascript", WebAssets.script), ("/app/app.css", "text/css", WebAssets.styleSheet)] {
            let file = try await server.send("GET", path)
            #expect(file.status == 200 && file.headers["content-type"] == "\(type); charset=utf-8" && file.body == text, "\(path)")
        }
        #expect(try await server.send("GET", "/app/viewer.js").body.contains("family-tree-data"))
        #expect(try await server.send("GET", "/app/nothing.js").status == 404)
    }

    @Test func aTreesChartIsForItsFamilyOnlyAndNamesStayText() async throws {
        let server = try await RunningServer()
        let (alice, _) = try await server.user("alice")
        _ = try await server.user("dave")
        let hostile = #"</script><img src=x onerror=alert(1)>"#
        func person(_ id: String, _ first: String, _ last: String, base: Int64 = 0, deleted: Bool = false) -> DocumentWrite {
            let body = JSONWriter.string(from: .object(["id": .string(id), "firstName": .string(first), "lastName": .string(last)]))
            return DocumentWrite(key: DocumentKey(.familyTree, id), body: body, isDeleted: deleted, baseVersion: base)
        }
        _ = try await alice.push(user: "alice", tree: "alice", [person("m1", "Ann", "Byrne"), person("m2", hostile, "Byrne"), person("m3", "Gone", "Byrne")])
        _ = try await alice.push(user: "alice", tree: "alice", [person("m3", "Gone", "Byrne", base: 1, deleted: true)])

        // Not signed in: sent to sign in, and back here after.
        let anonymous = try await server.send("GET", "/trees/alice")
        #expect(anonymous.status == 303)
        #expect(anonymous.headers["location"] == "/?next=%2Ftrees%2Falice")
        #expect(!anonymous.body.contains("Ann"))

        let chart = try await server.send("GET", "/trees/alice", headers: ["Cookie": try await session(server, "alice")])
        #expect(chart.status == 200)
        #expect(chart.headers["content-security-policy"] == WebApp.contentSecurityPolicy)
        #expect(chart.body.contains("Ann Byrne") && chart.body.contains(#"id="family-tree-data""#))
        #expect(!chart.body.contains("Gone Byrne"), "a deleted member is not drawn")
        #expect(chart.body.contains(#"<script src="/app/viewer.js"></script>"#) && inlineScripts(chart.body) == 0)
        #expect(chart.body.contains(#"<link rel="stylesheet" href="/app/viewer.css">"#))
        #expect(!chart.body.contains(hostile) && !chart.body.contains("<img src=x"), "the hostile name is escaped")
        #expect(chart.body.contains(#"\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e"#))

        // Someone with no role in the tree learns nothing of it.
        let stranger = try await server.send("GET", "/trees/alice", headers: ["Cookie": try await session(server, "dave")])
        #expect(stranger.status == 403)
        #expect(!stranger.body.contains("Ann") && !stranger.body.contains("family-tree-data"))
        // A tree id is a user id.
        let hostilePath = try await server.send("GET", "/trees/%3Cscript%3E", headers: ["Cookie": try await session(server, "alice")])
        #expect(hostilePath.status == 400 && !hostilePath.body.contains("<script>"))
    }
    @Test func birthdaysComeInFourOrdersWithTheNextMonthMarked() throws {
        func person(_ id: String, _ first: String, born: String, died: String? = nil, nickname: String? = nil) -> (DocumentKey, String) {
            var fields: [String: JSONValue] = ["id": .string(id), "firstName": .string(first), "lastName": .string("Byrne"), "birthday": .string(born)]
            if let died { fields["deathDate"] = .string(died) }
            if let nickname { fields["nickname"] = .string(nickname) }
            return (DocumentKey(.familyTree, id), JSONWriter.string(from: .object(fields)))
        }
        let documents = Dictionary(uniqueKeysWithValues: [
            person("a", "Ann", born: "1950-12-01"), person("b", "Ben", born: "1990-01-15", nickname: "</td><script>alert(1)</script>"),
            person("c", "Cy", born: "--11-30"), person("d", "Dan", born: "1900-11-27", died: "1980-01-01"), person("e", "Eve", born: "2000-06-01"),
        ])
        let graph = try WebApp.graph(of: documents, tree: "alice")
        let today = CalendarDate.dayNumber(year: 2026, month: 11, day: 26)
        func names(_ page: String) -> [String] {
            page.components(separatedBy: "<tr><th scope=\"row\">").dropFirst().map { row in
                String(row.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
            }
        }
        let soonest = WebApp.birthdaysPage(of: graph, tree: "alice", order: .next, soonOnly: false, today: today)
        #expect(names(soonest) == ["Cy Byrne", "Ann Byrne", "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;", "Eve Byrne"], "the dead left out")
        #expect(soonest.components(separatedBy: #"class="soon""#).count - 1 == 2, "Cy in 4 days and Ann in 5 are marked")
        #expect(soonest.contains("4 days<span class=\"visually-hidden\"> (within 30 days)</span>"), "marked in words, not in colour only")
        #expect(!soonest.contains("<script>alert"))
        #expect(soonest.contains(#"<a class="chip" href="/trees/alice/birthdays?sort=next" aria-current="true">Soonest</a>"#))
        #expect(soonest.contains(#"href="/trees/alice#c">Cy Byrne</a>"#), "a name opens the chart on the person")
        #expect(names(WebApp.birthdaysPage(of: graph, tree: "alice", order: .name, soonOnly: false, today: today)).first?.hasPrefix("&lt;") == true)
        #expect(names(WebApp.birthdaysPage(of: graph, tree: "alice", order: .age, soonOnly: false, today: today)) == [
            "Ann Byrne", "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;", "Eve Byrne", "Cy Byrne"], "oldest first, no year last")
        #expect(names(WebApp.birthdaysPage(of: graph, tree: "alice", order: .birthday, soonOnly: false, today: today)).first?.hasPrefix("&lt;") == true, "January first")
        let soonOnly = WebApp.birthdaysPage(of: graph, tree: "alice", order: .next, soonOnly: true, today: today)
        #expect(names(soonOnly) == ["Cy Byrne", "Ann Byrne"] && soonOnly.contains("2 birthdays within 30 days."))
        #expect(soonOnly.contains("sort=age&amp;within=30"), "the orders keep the filter")
    }

    @Test func aMonthShowsFacesOnTheirDaysAndTheSameAsAList() throws {
        let png = "data:image/png;base64,iVBORw0KGgo="
        func person(_ id: String, _ first: String, born: String, photo: String? = nil) -> (DocumentKey, String) {
            var fields: [String: JSONValue] = ["id": .string(id), "firstName": .string(first), "lastName": .string("Byrne"), "birthday": .string(born)]
            if let photo { fields["photo"] = .string(photo) }
            return (DocumentKey(.familyTree, id), JSONWriter.string(from: .object(fields)))
        }
        let documents = Dictionary(uniqueKeysWithValues: [
            person("a", "Ann", born: "1950-12-01", photo: png), person("b", "<img src=x onerror=alert(1)>", born: "1990-12-24"),
            person("c", "Cy", born: "1980-11-30"), person("d", "Dee", born: "1970-06-01"),
        ])
        let graph = try WebApp.graph(of: documents, tree: "alice")
        let today = CalendarDate.dayNumber(year: 2026, month: 12, day: 1)
        let page = WebApp.monthPage(of: graph, tree: "alice", year: 2026, month: 12, today: today)
        #expect(page.contains("<h1>December 2026 in alice’s tree</h1>"))
        #expect(page.contains(#"<td class="today"><span class="date">1</span><ul><li title="Ann · 76"><img class="face" src="\#(png)" alt=""><span class="label">Ann · 76</span></li></ul></td>"#),
                "a face on today's cell")
        #expect(page.contains(#"<span class="face" aria-hidden="true">&lt;I</span>"#) || page.contains(#"aria-hidden="true">&lt;S</span>"#) || page.contains("&lt;img src=x"), "initials without a photo")
        #expect(!page.contains("<img src=x"), "the hostile name is text")
        #expect(page.contains(#"<td class="other"><span class="date">30</span><ul><li title="Cy · 46">"#), "November's last day, dimmed, with Cy")
        #expect(!page.contains("Dee"), "June is not December")
        let list = String(page[page.range(of: #"<ul id="month-list""#)!.lowerBound...])
        #expect(list.contains("Dec 1</strong> Ann · 76") && list.contains("Dec 24</strong> &lt;img") && !list.contains("Cy"), "the list is December's only")
        #expect(page.contains(#"href="/trees/alice/month?m=2026-11" rel="prev">← November</a>"#) && page.contains(#"href="/trees/alice/month?m=2027-01" rel="next">January →</a>"#))
        #expect(WebApp.monthPage(of: graph, tree: "alice", year: 2027, month: 1, today: today).contains("m=2026-12"))
    }

    @Test func theBirthdaysPageIsForTheFamilyOnly() async throws {
        let server = try await RunningServer()
        let (alice, _) = try await server.user("alice")
        _ = try await server.user("dave")
        _ = try await alice.push(user: "alice", tree: "alice", [memberWrite("m1", name: "Ann")])
        let anonymous = try await server.send("GET", "/trees/alice/birthdays")
        #expect(anonymous.status == 303 && anonymous.headers["location"] == "/?next=%2Ftrees%2Falice%2Fbirthdays")
        let page = try await server.send("GET", "/trees/alice/birthdays", headers: ["Cookie": try await session(server, "alice")])
        #expect(page.status == 200 && page.headers["content-security-policy"] == WebApp.contentSecurityPolicy)
        #expect(page.body.contains("No one in this tree has a birthday with a month and a day yet."))
        let badOrder = try await server.send("GET", "/trees/alice/birthdays?sort=%3Cx%3E", headers: ["Cookie": try await session(server, "alice")])
        #expect(badOrder.status == 400 && badOrder.body.contains("sort is one of name, age, birthday, next") && !badOrder.body.contains("<x>"))
        let stranger = try await server.send("GET", "/trees/alice/birthdays", headers: ["Cookie": try await session(server, "dave")])
        #expect(stranger.status == 403)
    }
}
#endif
