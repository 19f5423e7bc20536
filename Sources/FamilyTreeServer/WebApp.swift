#if Server
import FamilyTree
import FamilyTreeCalendar
import FamilyTreeRender
import FamilyTreeSync
internal import Foundation
import Hummingbird

/// The family's pages in a browser: sign in, accept an invite, the trees the user reaches, and each
/// tree's chart (the HTML chart's viewer, fed by the server).
///
/// Every page is HTML the server writes, with its style sheet and scripts served from `/app/`: the
/// Content-Security-Policy allows this server's own files and no inline script, and no request to
/// another host. What users typed (names, notes) reaches a page only as escaped text or as the
/// chart's script-safe JSON. The pages use the same API and the same checks as every other client;
/// the chart page reads the tree as the signed-in user, through the store's role checks.
struct WebApp: Sendable {
    let store: any SharedTreeStore
    let accounts: Accounts
    let fairShare: FairShare
    let live: LiveTrees

    /// Only this server's own files; no inline script or style, no frame, no other host.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func register(on router: Router<ServerRequestContext>) {
        router.get("/") { _, _ in Self.page(title: "familytree", view: "home") }
        router.get("/invite/:code") { _, _ in Self.page(title: "An invite to a family tree", view: "invite") }
        router.get("/app/app.css") { _, _ in Self.asset(WebAssets.styleSheet, type: "text/css") }
        router.get("/app/app.js") { _, _ in Self.asset(WebAssets.script, type: "text/javascript") }
        // The viewer's own style sheet, and the rules for what the server adds to its page.
        router.get("/app/viewer.css") { _, _ in Self.asset(HTMLRenderer.viewerStyleSheet + "\n" + WebAssets.chartStyleSheet, type: "text/css") }
        router.get("/app/viewer.js") { _, _ in Self.asset(HTMLRenderer.viewerScript, type: "text/javascript") }
        router.get("/app/live.js") { _, _ in Self.asset(WebAssets.liveScript, type: "text/javascript") }
        router.get("/trees/:tree") { _, context in
            try await chart(of: context.parameters.get("tree") ?? "")
        }
        router.get("/trees/:tree/birthdays") { request, context in
            try await birthdays(of: context.parameters.get("tree") ?? "", sort: request.uri.queryParameters["sort"].map(String.init),
                                soonOnly: request.uri.queryParameters["within"] != nil)
        }
        registerLiveEditing(on: router)
        registerCalendarFeeds(on: router)
        registerMonthPage(on: router)
        router.get("/app/calendar.js") { _, _ in Self.asset(WebAssets.calendarScript, type: "text/javascript") }
    }

    /// Today as a day number (days since 1970-01-01, UTC): the pages' ages and countdowns.
    static var today: Int { Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)) }

    /// What a page of a tree shows: the signed-in user, their role, and the tree as it is now.
    struct TreeView {
        let caller: Caller
        let role: TreeRole
        let snapshot: TreeSnapshot
        let tree: String
        /// The user's share hides living people's details from them.
        let hidesLiving: Bool
        var sequence: Int64 { snapshot.sequence }
        /// The members the documents make (removed ones left out), the living hidden when the share says so.
        func graph() throws -> FamilyGraph { try WebApp.graph(of: snapshot, tree: tree, hidingLiving: hidesLiving) }
    }

    /// The tree as the signed-in user reaches it, or the page to answer instead: sign in first
    /// (303 back to `path` after), or a refusal.
    func view(of tree: String, returningTo path: String) async throws -> Result<TreeView, PageAnswer> {
        guard UserID.isValid(tree) else { return .failure(PageAnswer(Self.notice(.badRequest, title: "No such tree", text: UserID.rule(tree)))) }
        let caller: Caller
        do {
            caller = try await accounts.caller()
        } catch let failure as APIFailure where failure.status == .unauthorized {
            var headers = HTTPFields()
            headers[.location] = "/?next=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            return .failure(PageAnswer(Response(status: .seeOther, headers: headers)))
        }
        let snapshot: TreeSnapshot
        let role: TreeRole?
        do {
            snapshot = try await self.snapshot(of: tree, as: caller.user)
            role = try await store.role(of: caller.user, in: tree)
        } catch SyncError.accessDenied(let reason) {
            return .failure(PageAnswer(Self.notice(.forbidden, title: "Not your family's tree", text: "\(reason). Ask its owner for an invite.")))
        }
        guard let role else { return .failure(PageAnswer(Self.notice(.forbidden, title: "Not your family's tree", text: "Ask its owner for an invite."))) }
        let hidesLiving = try await accounts.hidesLiving(from: caller.user, in: tree, role: role)
        return .success(TreeView(caller: caller, role: role, snapshot: snapshot, tree: tree, hidesLiving: hidesLiving))
    }

    /// A page to answer with instead of the one asked for.
    struct PageAnswer: Error {
        let response: Response
        init(_ response: Response) { self.response = response }
    }

    /// The members (removed ones left out) the documents make.
    static func graph(of documents: [DocumentKey: String], tree: String, hidingLiving: Bool = false) throws -> FamilyGraph {
        try graph(of: TreeFile.droppingDanglingReferences(try TreeMirror.tree(from: documents)).root, tree: tree, hidingLiving: hidingLiving)
    }

    /// The members (removed ones left out) of the tree as `snapshot` has it: not read again
    /// from every document when an edit saved here left the tree read.
    static func graph(of snapshot: TreeSnapshot, tree: String, hidingLiving: Bool = false) throws -> FamilyGraph {
        guard let parsed = snapshot.parsedTree else { return try graph(of: snapshot.bodies, tree: tree, hidingLiving: hidingLiving) }
        // With no one removed, the tree's own graph is the one drawn: not checked again.
        if !parsed.graph.members.contains(where: \.isRemoved) { return try livingRuleApplied(to: parsed.graph, if: hidingLiving) }
        return try graph(of: parsed.root, tree: tree, hidingLiving: hidingLiving)
    }

    private static func graph(of root: JSONValue, tree: String, hidingLiving: Bool) throws -> FamilyGraph {
        try livingRuleApplied(to: FamilyGraph(document: TreeDocument(jsonValue: root).hidingRemovedMembers(), file: "\(tree)'s tree"), if: hidingLiving)
    }

    private static func livingRuleApplied(to graph: FamilyGraph, if hidingLiving: Bool) throws -> FamilyGraph {
        guard hidingLiving else { return graph }
        // The rule of `render --private living`, with its defaults, as of today.
        return graph.privatizingLiving(LivingRule().living(in: graph, today: today), names: .surname).graph
    }

    /// Whether `user` reads `tree` with living people hidden (their share says so).
    func hidesLiving(from user: String, in tree: String) async throws -> Bool {
        try await accounts.hidesLiving(from: user, in: tree, role: try await store.role(of: user, in: tree))
    }

    // MARK: The chart

    /// The tree's chart as the signed-in user sees it; a visitor not signed in is sent to sign in
    /// first, and comes back here after.
    func chart(of tree: String) async throws -> Response {
        let asked = ContinuousClock.now
        switch try await view(of: tree, returningTo: "/trees/\(tree)") {
        case .failure(let answer): return answer.response
        case .success(let view):
            let myself = try await accounts.store.ownPerson(tree: tree, user: view.caller.user)
            if let earlier = await earlierChart(of: view) {
                return Self.html(Self.chartPage(around: earlier.data, of: view, tree: tree, sequence: earlier.sequence, myself: myself))
            }
            // A preview that fails is no reason to fail the page: the whole chart is made as always.
            if let preview = (try? await previewChart(of: view, myself: myself, deadline: asked + accounts.settings.earlierChartAfter)) ?? nil {
                return Self.html(Self.chartPage(around: preview, of: view, tree: tree, sequence: view.sequence, myself: myself, isPreview: true))
            }
            let data = try await chartData(of: tree, snapshot: view.snapshot, hidingLiving: view.hidesLiving)
            return Self.html(Self.chartPage(around: data, of: view, tree: tree, sequence: view.sequence, myself: myself))
        }
    }

    /// The chart of an earlier version of the tree, when the current one takes long to make: a
    /// large tree's layout after a change that moves boxes takes seconds, and a page opened then
    /// shows the tree as it was a moment ago at once, and the change when it is laid out (the
    /// page hears of it as of any change). `nil` when the current chart is ready soon enough, or
    /// there is no earlier one.
    func earlierChart(of view: TreeView) async -> (sequence: Int64, data: String)? {
        let key = Self.chartKey(of: view.tree, hidingLiving: view.hidesLiving), today = Self.today
        guard let earlier = await live.newestChart(of: key, day: today), earlier.sequence < view.sequence else { return nil }
        // Made on, whether this page waits for it or not: the page's first refresh asks for it.
        Task { [self] in _ = try? await chartData(of: view.tree, snapshot: view.snapshot, hidingLiving: view.hidesLiving) }
        // A tree whose last chart took longer than the wait is not waited for at all.
        let wait = accounts.settings.earlierChartAfter
        let expected = await live.lastMakingTime(of: key) ?? .zero
        if await live.chartWhenMade(of: key, at: view.sequence, day: today, within: expected > wait ? .zero : wait) != nil { return nil }
        return earlier
    }

    /// The chart page around its data: the viewer, and for the live page the facts its script
    /// needs (the user, their role, the version shown, the session's CSRF token, the person they
    /// said is them, whether the data is a preview of a tree being laid out) as `data-` attributes.
    static func chartPage(around data: String, of view: TreeView, tree: String, sequence: Int64, myself: String? = nil, isPreview: Bool = false) -> String {
        var renderer = HTMLRenderer(assets: pageAssets)
        renderer.pageData = [
            "tree": tree, "user": view.caller.user, "role": view.role.rawValue, "sequence": String(sequence),
            "csrf": view.caller.isSession ? view.caller.credential.csrfToken : "",
        ]
        if sequence < view.sequence { renderer.pageData["earlier"] = "true" }
        if isPreview {
            renderer.pageData["preview"] = "true"
            // Shown from the first paint, before the page's script has loaded and says it again.
            renderer.statusLine = "Drawing the whole tree\u{2026}"
        }
        if view.hidesLiving { renderer.pageData["hides-living"] = "true" }
        if let myself { renderer.pageData["myself"] = myself }
        return renderer.page(around: data, title: "\(tree)’s family tree")
    }

    /// Where the chart page's style sheet and scripts are.
    static let pageAssets = HTMLRenderer.Assets.linked(styleSheet: "/app/viewer.css", script: "/app/viewer.js", home: .init("← Trees", to: "/"), moreScripts: ["/app/live.js"])

    /// The renderer of a tree's chart page and of its data alone.
    static func chartRenderer(for prepared: Chart.Prepared, tree: String, today: Int) -> HTMLRenderer {
        let count = prepared.graph.members.count
        return HTMLRenderer(
            labeler: prepared.labeler, title: "\(tree)’s family tree (\(count) \(count == 1 ? "person" : "people"))",
            openOn: prepared.openOn, today: today, assets: pageAssets)
    }

    // MARK: Birthdays

    /// The sorts offered, in the order shown, with their words.
    static let sorts: [(BirthdaySort, String)] = [(.next, "Soonest"), (.name, "Name"), (.age, "Oldest first"), (.birthday, "Calendar")]

    /// Everyone's birthdays in the tree (seed 000's list): age, birthday, the time until the next
    /// one, in one of four orders, those within 30 days marked; or only those.
    func birthdays(of tree: String, sort: String?, soonOnly: Bool) async throws -> Response {
        guard let order = sort.map({ BirthdaySort(rawValue: $0) }) ?? .next else {
            return Self.notice(.badRequest, title: "No such order", text: "sort is one of \(BirthdaySort.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        switch try await view(of: tree, returningTo: "/trees/\(tree)/birthdays") {
        case .failure(let answer): return answer.response
        case .success(let view): return Self.html(Self.birthdaysPage(of: try view.graph(), tree: tree, order: order, soonOnly: soonOnly, today: Self.today))
        }
    }

    static func birthdaysPage(of graph: FamilyGraph, tree: String, order: BirthdaySort, soonOnly: Bool, today: Int) -> String {
        var list = BirthdayList(graph: graph, today: today).sorted(by: order)
        if soonOnly { list = list.within(days: BirthdayListFormat.soonDays) }
        let base = "/trees/\(tree)/birthdays"
        func address(_ order: BirthdaySort, soonOnly: Bool) -> String { "\(base)?sort=\(order.rawValue)\(soonOnly ? "&within=30" : "")" }
        var sortLinks = ""
        for (candidate, words) in sorts {
            let current = candidate == order ? #" aria-current="true""# : ""
            sortLinks += #"<a class="chip" href="\#(escaped(address(candidate, soonOnly: soonOnly)))"\#(current)>\#(escaped(words))</a> "#
        }
        let filter = soonOnly
            ? #"<a class="chip" href="\#(escaped(address(order, soonOnly: false)))">Everyone</a>"#
            : #"<a class="chip" href="\#(escaped(address(order, soonOnly: true)))">Within 30 days</a>"#
        var rows = ""
        for entry in list.entries {
            let soon = entry.countdown.days <= BirthdayListFormat.soonDays
            let age = entry.age.map { entry.isDeceased ? "†\($0)" : $0.description } ?? (entry.isDeceased ? "†" : "")
            let next = soon ? #"<strong class="soon">\#(escaped(entry.countdown.description))<span class="visually-hidden"> (within 30 days)</span></strong>"#
                : escaped(entry.countdown.description)
            let turning = entry.turning.map { "turns \($0)" } ?? ""
            rows += """
                <tr><th scope="row"><a href="/trees/\(escaped(tree))#\(escaped(entry.memberID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))">\(escaped(entry.name))</a></th>\
                <td>\(next)</td><td>\(escaped(age))</td><td class="day">\(escaped(entry.birthday.displayText))</td><td class="turns">\(escaped(turning))</td></tr>

                """
        }
        let count = list.entries.count
        let summary = count == 0
            ? (soonOnly ? "No birthday within 30 days." : "No one in this tree has a birthday with a month and a day yet.")
            : "\(count) \(count == 1 ? "birthday" : "birthdays")\(soonOnly ? " within 30 days" : "")."
        return """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Birthdays in \(escaped(tree))’s tree</title><link rel="stylesheet" href="/app/app.css"></head>
            <body class="wide" data-tree="\(escaped(tree))">
            <header><a class="brand" href="/">familytree</a><nav aria-label="This tree"><a href="/">← Trees</a> <a href="/trees/\(escaped(tree))">Chart</a> <a href="/trees/\(escaped(tree))/month">Month</a></nav></header>
            <main>
            <h1>Birthdays in \(escaped(tree))’s tree</h1>
            <nav class="chips" aria-label="Order">\(sortLinks)</nav>
            <nav class="chips" aria-label="Which">\(filter)</nav>
            <p id="summary" role="status">\(escaped(summary))</p>
            <div class="table-scroll"><table id="birthdays">
            <thead><tr><th scope="col">Name</th><th scope="col">Next</th><th scope="col">Age</th><th scope="col">Birthday</th><th scope="col" class="turns"><span class="visually-hidden">Turns</span></th></tr></thead>
            <tbody>
            \(rows)</tbody></table></div>
            <section id="calendar-address" aria-labelledby="calendar-title">
            <h2 id="calendar-title">In your phone’s calendar</h2>
            <p>A private address your calendar app subscribes to: everyone’s birthdays in this tree, kept up to date. Anyone with the address can read them, so keep it to yourself; you can stop it here at any time.</p>
            <p class="buttons"><button id="calendar-make" type="button">Make my calendar address</button> <button id="calendar-stop" class="quiet" type="button">Stop my calendar address</button></p>
            <p id="calendar-message" class="message" role="status" aria-live="polite"></p>
            <p id="calendar-result" hidden><label for="calendar-url">Your calendar address</label> <input id="calendar-url" readonly> <a id="calendar-subscribe" href="#">Subscribe</a></p>
            </section>
            </main>
            <script src="/app/calendar.js"></script>
            </body>
            </html>

            """
    }

    // MARK: Pages

    /// The page shell; `app.js` fills in the view (`home`: sign in or the trees; `invite`: join).
    static func page(title: String, view: String) -> Response {
        html("""
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title))</title>
            <link rel="stylesheet" href="/app/app.css">
            </head>
            <body data-view="\(escaped(view))">
            <header>
              <a class="brand" href="/">familytree</a>
              <div id="account" hidden><span id="who"></span> <button id="signout" class="quiet" type="button">Sign out</button></div>
            </header>
            <main>
              <noscript><p>These pages need JavaScript. The command line works without it: <code>familytree login</code>.</p></noscript>
              <section id="signin" hidden aria-labelledby="signin-title">
                <h1 id="signin-title">Sign in to your family's trees</h1>
                <form id="signin-form">
                  <label for="signin-user">User id <input id="signin-user" name="user" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="63"></label>
                  <label for="signin-password">Password <input id="signin-password" name="password" type="password" autocomplete="current-password" required maxlength="1024"></label>
                  <button type="submit">Sign in</button>
                  <p id="signin-message" class="message" role="status" aria-live="polite"></p>
                </form>
                <p class="muted">No account? A relative who keeps the tree can send you an invite link.</p>
              </section>
              <section id="invite" hidden aria-labelledby="invite-title">
                <h1 id="invite-title">You are invited to a family tree</h1>
                <p>Choose a user id and a password (at least 8 characters), or give the ones you already have on this server.</p>
                <form id="invite-form">
                  <label for="invite-user">User id <input id="invite-user" name="user" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="63"></label>
                  <label for="invite-password">Password <input id="invite-password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="1024"></label>
                  <label for="invite-repeat">The password again <input id="invite-repeat" name="repeat" type="password" autocomplete="new-password" required minlength="8" maxlength="1024"></label>
                  <button type="submit">Join</button>
                  <p id="invite-message" class="message" role="status" aria-live="polite"></p>
                </form>
                <p class="muted">The invite works once, and only until it expires. From the command line: <code>familytree join</code> with this page's address.</p>
              </section>
              <section id="trees" hidden aria-labelledby="trees-title">
                <h1 id="trees-title">Your family's trees</h1>
                <p id="trees-message" class="message" role="status" aria-live="polite"></p>
                <ul id="tree-list" class="trees"></ul>
              </section>
            </main>
            <script src="/app/app.js"></script>
            </body>
            </html>

            """)
    }

    /// A short page saying why there is nothing to show.
    static func notice(_ status: HTTPResponse.Status, title: String, text: String) -> Response {
        html("""
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title))</title><link rel="stylesheet" href="/app/app.css"></head>
            <body><header><a class="brand" href="/">familytree</a></header>
            <main><h1>\(escaped(title))</h1><p>\(escaped(text))</p><p><a href="/">Your family's trees</a></p></main></body>
            </html>

            """, status: status)
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "\(type); charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `text` for HTML text and quoted attribute values (as the charts escape it).
    static func escaped(_ text: String) -> String { SafeText.xmlEscaped(text) }
}
#endif
