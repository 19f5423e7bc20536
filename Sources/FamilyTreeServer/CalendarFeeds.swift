#if Server
import FamilyTreeCalendar
import FamilyTreeSync
internal import Foundation
import HTTPTypes
import Hummingbird

/// Calendar addresses: a secret address per user and tree that a phone's calendar subscribes to
/// (`/calendar/SECRET.ics`), listing the tree's birthdays and kept up to date. The address reads
/// that calendar and nothing else; its owner replaces or stops it from the birthdays page, and it
/// stops by itself when they lose their role on the tree.
extension WebApp {
    func registerCalendarFeeds(on router: Router<ServerRequestContext>) {
        router.post("/trees/:tree/calendar-address") { _, context in
            let tree = try Self.treeID(context)
            let caller = try await accounts.caller()
            guard try await store.role(of: caller.user, in: tree) != nil else {
                throw SyncError.notAllowed(user: caller.user, tree: tree, role: nil, operation: .read)
            }
            let secret = try await accounts.makeCalendarFeed(for: caller.user, tree: tree)
            return try Self.json(["path": "/calendar/\(secret).ics"])
        }
        router.delete("/trees/:tree/calendar-address") { _, context in
            let tree = try Self.treeID(context)
            let caller = try await accounts.caller()
            return try Self.json(["stopped": try await accounts.stopCalendarFeeds(of: caller.user, tree: tree)])
        }
        router.get("/calendar/:file") { _, context in
            try await calendar(file: context.parameters.get("file") ?? "")
        }
    }

    /// The birthdays of the address's tree as iCalendar, read as the address's owner.
    func calendar(file: String) async throws -> Response {
        guard file.hasSuffix(".ics"), let feed = try await accounts.calendarFeed(secret: String(file.dropLast(4))) else {
            throw APIFailure.notFound("no such calendar address: it was stopped, or never was")
        }
        let snapshot: TreeSnapshot
        do {
            snapshot = try await self.snapshot(of: feed.tree, as: feed.user)
        } catch SyncError.accessDenied {
            throw APIFailure.notFound("this calendar address's owner no longer has a role on the tree")
        }
        let graph = try Self.graph(of: snapshot, tree: feed.tree, hidingLiving: try await hidesLiving(from: feed.user, in: feed.tree))
        var headers = HTTPFields()
        headers[.contentType] = "text/calendar; charset=utf-8"
        headers[.contentDisposition] = "inline; filename=\"\(feed.tree)-birthdays.ics\""
        let text = ICSWriter().write(FamilyEvents(graph: graph), today: Self.today)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
