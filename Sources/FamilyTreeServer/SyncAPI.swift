#if Server
package import FamilyTreeAPI
import FamilyTreeSync
package import Foundation

/// The HTTP sync API (openapi.yaml), answered from a document store and the server's accounts.
///
/// Every tree operation runs as the signed-in user through the store's own role checks: the API
/// adds no rule of its own about who may read or write which tree, so it cannot grant more than
/// the store does. Every refusal is thrown (`APIFailure`, `SyncError`) and answered as a JSON
/// `Error` by `APIMiddleware`.
struct SyncAPI: APIProtocol {
    let store: any SharedTreeStore
    let accounts: Accounts
    let fairShare: FairShare
    /// The pages watching trees, told of every push.
    let live: LiveTrees
    /// The server's address for links (known once it listens).
    let baseURL: @Sendable () -> String

    /// The caller, with the request counted in their share.
    private func asCaller<T: Sendable>(_ body: @Sendable (Caller) async throws -> T) async throws -> T {
        let caller = try await accounts.caller()
        return try await fairShare.run(for: caller.user) { try await body(caller) }
    }

    // MARK: Accounts

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try await accounts.caller()
        let account = try await accounts.store.account(caller.user)
        return .ok(.init(body: .json(.init(
            user: caller.user, isAdministrator: account?.isAdministrator ?? false, csrfToken: caller.isSession ? caller.credential.csrfToken : nil))))
    }

    func signIn(_ input: Operations.SignIn.Input) async throws -> Operations.SignIn.Output {
        guard case .json(let credentials) = input.body else { throw APIFailure.invalid("send a JSON body") }
        let account = try await accounts.verify(user: credentials.user, password: credentials.password)
        let (session, cookie) = try await accounts.startSession(for: account.user)
        RequestFacts.current?.setCookie(cookie)
        return .ok(.init(body: .json(.init(user: account.user, csrfToken: session.csrfToken))))
    }

    func signOut(_ input: Operations.SignOut.Input) async throws -> Operations.SignOut.Output {
        let caller = try await accounts.caller()
        _ = try await accounts.store.deleteCredential(id: caller.credential.id, of: caller.user)
        if caller.isSession { RequestFacts.current?.setCookie(accounts.sessionCookie("", maxAge: 0)) }
        return .noContent(.init())
    }

    func signOutEverywhere(_ input: Operations.SignOutEverywhere.Input) async throws -> Operations.SignOutEverywhere.Output {
        let caller = try await accounts.caller()
        try await accounts.store.deleteCredentials(of: caller.user)
        if caller.isSession { RequestFacts.current?.setCookie(accounts.sessionCookie("", maxAge: 0)) }
        return .noContent(.init())
    }

    func listTokens(_ input: Operations.ListTokens.Input) async throws -> Operations.ListTokens.Output {
        let caller = try await accounts.caller()
        let tokens = try await accounts.store.tokens(of: caller.user)
        return .ok(.init(body: .json(tokens.map {
            .init(id: $0.id, label: $0.label, createdAt: Self.time($0.createdAt), lastUsedAt: $0.lastUsedAt.map(Self.time))
        })))
    }

    func createToken(_ input: Operations.CreateToken.Input) async throws -> Operations.CreateToken.Output {
        guard case .json(let request) = input.body else { throw APIFailure.invalid("send a JSON body") }
        let user: String
        if let name = request.user, let password = request.password {
            user = try await accounts.verify(user: name, password: password).user
        } else if request.user == nil, request.password == nil {
            // A signed-in browser makes a token for its own account (its CSRF token checked).
            user = try await accounts.caller().user
        } else {
            throw APIFailure.invalid("send both user and password, or neither (with a session)")
        }
        let label = try Self.text(request.label, "label", atMost: 200) ?? ""
        let (record, secret) = try await accounts.makeToken(for: user, label: label)
        return .created(.init(body: .json(.init(id: record.id, token: secret, user: user))))
    }

    func revokeToken(_ input: Operations.RevokeToken.Input) async throws -> Operations.RevokeToken.Output {
        let caller = try await accounts.caller()
        guard try await accounts.store.deleteCredential(id: input.path.tokenId, of: caller.user) else {
            throw APIFailure.notFound("\(caller.user) has no token \(input.path.tokenId)")
        }
        return .noContent(.init())
    }

    // MARK: Invites

    func createInvite(_ input: Operations.CreateInvite.Input) async throws -> Operations.CreateInvite.Output {
        guard case .json(let request) = input.body else { throw APIFailure.invalid("send a JSON body") }
        let tree = try Self.userID(input.path.tree)
        return try await asCaller { caller in
            let role = request.role.treeRole
            guard TreeRole.shareable.contains(role) else {
                throw APIFailure.invalid("an invite gives admin, helper or viewer; the owner's role is handed on with a transfer")
            }
            let hidesLiving = request.hidesLiving ?? false
            try Accounts.checkHidingLiving(hidesLiving, role: role)
            // Refused now, in the store's words, rather than when the invite is accepted.
            let own = try await store.role(of: caller.user, in: tree)
            guard own?.allows(.share) == true, role <= (own ?? .viewer) else {
                throw SyncError.notAllowed(user: caller.user, tree: tree, role: own, operation: .share)
            }
            let invitee = try Self.text(request.invitee, "invitee", atMost: 320) ?? ""
            let code = Secrets.random()
            let now = Accounts.now()
            let hours = Int64(min(max(request.expiresInHours ?? 72, 1), 720))
            let invite = InviteRecord(
                id: Secrets.random(bytes: 12), codeHash: Secrets.hash(code), tree: tree, role: role, invitee: invitee,
                invitedBy: caller.user, createdAt: now, expiresAt: now + hours * 3600, acceptedBy: nil, hidesLiving: hidesLiving)
            try await accounts.store.insertInvite(invite)
            return .created(.init(body: .json(.init(code: code, link: "\(baseURL())/invite/\(code)", expiresAt: Self.time(invite.expiresAt)))))
        }
    }

    /// The open invite with this code, or 404 (unknown, used and expired invites alike, so a
    /// guesser learns nothing).
    private func openInvite(_ code: String) async throws -> InviteRecord {
        guard let invite = try await accounts.store.invite(codeHash: Secrets.hash(code)) else {
            throw APIFailure.notFound("no such invite: it may have been used, or mistyped")
        }
        guard invite.acceptedBy == nil else { throw APIFailure.notFound("this invite has been used; ask for a new one") }
        guard invite.expiresAt > Accounts.now() else { throw APIFailure.notFound("this invite expired on \(Self.time(invite.expiresAt)); ask for a new one") }
        return invite
    }

    func getInvite(_ input: Operations.GetInvite.Input) async throws -> Operations.GetInvite.Output {
        let invite = try await openInvite(input.path.code)
        return .ok(.init(body: .json(.init(
            tree: invite.tree, role: .init(invite.role), invitedBy: invite.invitedBy, invitee: invite.invitee.isEmpty ? nil : invite.invitee,
            expiresAt: Self.time(invite.expiresAt), hidesLiving: invite.hidesLiving ? true : nil))))
    }

    func acceptInvite(_ input: Operations.AcceptInvite.Input) async throws -> Operations.AcceptInvite.Output {
        guard case .json(let acceptance) = input.body else { throw APIFailure.invalid("send a JSON body") }
        let code = input.path.code
        let tokenLabel = try Self.text(acceptance.tokenLabel, "tokenLabel", atMost: 200)
        let invite = try await openInvite(code)
        let isNew = try await accounts.store.account(acceptance.user) == nil
        if isNew {
            try Accounts.checkNewAccount(user: acceptance.user, password: acceptance.password)
        } else {
            // An existing account joins with its password.
            _ = try await accounts.verify(user: acceptance.user, password: acceptance.password)
        }
        // Claimed before anything is made: of two relatives opening the link at once, one goes on,
        // and the other leaves no account behind.
        guard try await accounts.store.claimInvite(codeHash: Secrets.hash(code), by: acceptance.user, now: Accounts.now()) else {
            throw APIFailure.notFound("this invite has been used or has expired; ask for a new one")
        }
        do {
            if isNew { _ = try await accounts.createAccount(user: acceptance.user, password: acceptance.password) }
            // Granted as the inviter: if they have lost the right to share since, the store refuses.
            try await share(tree: invite.tree, as: invite.invitedBy, with: acceptance.user, role: invite.role, hidingLiving: invite.hidesLiving)
        } catch {
            try? await accounts.store.releaseInvite(codeHash: Secrets.hash(code))
            throw error
        }
        var token: Components.Schemas.NewToken?
        if let label = tokenLabel, !label.isEmpty {
            let (record, secret) = try await accounts.makeToken(for: acceptance.user, label: label)
            token = .init(id: record.id, token: secret, user: acceptance.user)
        }
        return .created(.init(body: .json(.init(user: acceptance.user, tree: invite.tree, role: .init(invite.role), token: token))))
    }

    // MARK: Trees

    func listTrees(_ input: Operations.ListTrees.Input) async throws -> Operations.ListTrees.Output {
        try await asCaller { caller in
            var trees = try await store.trees(of: caller.user)
            for index in trees.indices {
                trees[index].hidesLiving = try await accounts.hidesLiving(from: caller.user, in: trees[index].tree, role: trees[index].role)
            }
            return .ok(.init(body: .json(trees.map(Components.Schemas.Membership.init))))
        }
    }

    func deleteTree(_ input: Operations.DeleteTree.Input) async throws -> Operations.DeleteTree.Output {
        try await asCaller { caller in
            let tree = try Self.userID(input.path.tree)
            try await store.deleteTree(tree, as: caller.user)
            for user in try await accounts.store.usersHidingLiving(in: tree) { try await accounts.store.setHidesLiving(false, tree: tree, user: user) }
            return .noContent(.init())
        }
    }

    func getRole(_ input: Operations.GetRole.Input) async throws -> Operations.GetRole.Output {
        try await asCaller { caller in
            let role = try await store.role(of: caller.user, in: try Self.userID(input.path.tree))
            return .ok(.init(body: .json(.init(role: role.map(Components.Schemas.Role.init)))))
        }
    }

    func pullDocuments(_ input: Operations.PullDocuments.Input) async throws -> Operations.PullDocuments.Output {
        let after = input.query.after ?? 0
        let limit = input.query.limit ?? 500
        guard after >= 0 else { throw APIFailure.invalid("after must be 0 or more") }
        guard (1...5000).contains(limit) else { throw APIFailure.invalid("limit must be from 1 to 5000") }
        return try await asCaller { caller in
            let tree = try Self.userID(input.path.tree)
            // The documents are the tree whole; a share that hides the living reads it only as pages.
            if try await accounts.hidesLiving(from: caller.user, in: tree, role: try await store.role(of: caller.user, in: tree)) {
                throw APIFailure.forbidden(
                    "\(caller.user) sees \(tree)'s tree with living people hidden, so its documents are not pulled: open it in the browser, or ask for a share without that rule")
            }
            let documents = try await store.pull(user: caller.user, tree: tree, after: after, limit: limit)
            return .ok(.init(body: .json(.init(documents: documents.map(Components.Schemas.Document.init)))))
        }
    }

    func pushDocuments(_ input: Operations.PushDocuments.Input) async throws -> Operations.PushDocuments.Output {
        guard case .json(let request) = input.body else { throw APIFailure.invalid("send a JSON body") }
        guard request.writes.count <= SyncLimits.maximumBatchDocuments else {
            throw APIFailure.tooLarge("a batch may hold at most \(SyncLimits.maximumBatchDocuments) writes; this one has \(request.writes.count)")
        }
        let writes = request.writes.map(\.documentWrite)
        guard writes.allSatisfy({ $0.baseVersion >= 0 }) else { throw APIFailure.invalid("baseVersion must be 0 or more") }
        // The generated code checks types, not the document's limits: a store only ever holds
        // records a client can read back.
        for write in writes {
            guard !write.key.id.isEmpty, write.key.id.utf8.count <= SyncLimits.maximumIdentifierBytes else {
                throw APIFailure.invalid(
                    "a document id has 1 to \(SyncLimits.maximumIdentifierBytes) bytes; \(write.key.collection.rawValue) has one of \(write.key.id.utf8.count)")
            }
            try TreeMirror.record(write.body, of: write.key)
        }
        let bytes = writes.reduce(0) { $0 + $1.body.utf8.count }
        guard bytes <= SyncLimits.maximumBatchBytes else {
            throw APIFailure.tooLarge("a batch's bodies may hold at most \(SyncLimits.maximumBatchBytes) bytes; this one has \(bytes)")
        }
        return try await asCaller { caller in
            let tree = try Self.userID(input.path.tree)
            let outcomes = try await store.push(user: caller.user, tree: tree, writes)
            let applied = outcomes.compactMap { if case .applied(_, let sequence) = $0 { sequence } else { nil } }
            if let newest = applied.max() {
                let summary = "\(caller.user) synced \(applied.count) \(applied.count == 1 ? "change" : "changes")"
                await live.publish(LiveTrees.Change(sequence: newest, by: caller.user, summary: summary), to: tree)
            }
            return .ok(.init(body: .json(.init(outcomes: outcomes.map(Components.Schemas.Outcome.init)))))
        }
    }

    func listMembers(_ input: Operations.ListMembers.Input) async throws -> Operations.ListMembers.Output {
        try await asCaller { caller in
            let tree = try Self.userID(input.path.tree)
            var members = try await store.members(of: tree, as: caller.user)
            let hiding = try await accounts.store.usersHidingLiving(in: tree)
            for index in members.indices where members[index].role == .viewer { members[index].hidesLiving = hiding.contains(members[index].user) }
            return .ok(.init(body: .json(members.map(Components.Schemas.Membership.init))))
        }
    }

    func shareTree(_ input: Operations.ShareTree.Input) async throws -> Operations.ShareTree.Output {
        guard case .json(let grant) = input.body else { throw APIFailure.invalid("send a JSON body") }
        return try await asCaller { caller in
            // Refused for the caller's role first, so nobody learns which accounts exist.
            let own = try await store.role(of: caller.user, in: try Self.userID(input.path.tree))
            guard own?.allows(.share) == true else {
                throw SyncError.notAllowed(user: caller.user, tree: try Self.userID(input.path.tree), role: own, operation: .share)
            }
            guard try await accounts.store.account(try Self.userID(input.path.user)) != nil else {
                throw APIFailure.notFound("this server has no user \(try Self.userID(input.path.user)): invite them instead")
            }
            let tree = try Self.userID(input.path.tree), member = try Self.userID(input.path.user)
            let hidesLiving = grant.hidesLiving ?? false
            try Accounts.checkHidingLiving(hidesLiving, role: grant.role.treeRole)
            try await share(tree: tree, as: caller.user, with: member, role: grant.role.treeRole, hidingLiving: hidesLiving)
            return .noContent(.init())
        }
    }

    /// Gives `member` `role` on `tree` as `user`, with or without the rule that hides the living,
    /// in the order that never shows more than the share allows: the rule is set before the share
    /// it guards, and lifted only once the share that no longer needs it is made (a share the
    /// store refuses leaves the rule as it was).
    private func share(tree: String, as user: String, with member: String, role: TreeRole, hidingLiving: Bool) async throws {
        if hidingLiving { try await accounts.store.setHidesLiving(true, tree: tree, user: member) }
        try await store.share(tree: tree, as: user, with: member, role: role)
        if !hidingLiving { try await accounts.store.setHidesLiving(false, tree: tree, user: member) }
    }

    func unshareTree(_ input: Operations.UnshareTree.Input) async throws -> Operations.UnshareTree.Output {
        try await asCaller { caller in
            let tree = try Self.userID(input.path.tree), member = try Self.userID(input.path.user)
            try await store.unshare(tree: tree, as: caller.user, member: member)
            try await accounts.store.setHidesLiving(false, tree: tree, user: member)
            return .noContent(.init())
        }
    }

    func transferTree(_ input: Operations.TransferTree.Input) async throws -> Operations.TransferTree.Output {
        guard case .json(let newOwner) = input.body else { throw APIFailure.invalid("send a JSON body") }
        return try await asCaller { caller in
            let own = try await store.role(of: caller.user, in: try Self.userID(input.path.tree))
            guard own?.allows(.transfer) == true else {
                throw SyncError.notAllowed(user: caller.user, tree: try Self.userID(input.path.tree), role: own, operation: .transfer)
            }
            guard try await accounts.store.account(try Self.userID(newOwner.user)) != nil else {
                throw APIFailure.notFound("this server has no user \(try Self.userID(newOwner.user))")
            }
            try await store.transfer(tree: try Self.userID(input.path.tree), as: caller.user, to: try Self.userID(newOwner.user))
            return .noContent(.init())
        }
    }

    func readLog(_ input: Operations.ReadLog.Input) async throws -> Operations.ReadLog.Output {
        let limit = input.query.limit ?? 100
        guard (1...1000).contains(limit) else { throw APIFailure.invalid("limit must be from 1 to 1000") }
        var key: DocumentKey?
        switch (input.query.collection, input.query.id) {
        case (let collection?, let id?): key = DocumentKey(collection.syncCollection, id)
        case (nil, nil): key = nil
        default: throw APIFailure.invalid("give both collection and id, or neither")
        }
        return try await asCaller { [key] caller in
            let entries = try await store.log(of: try Self.userID(input.path.tree), as: caller.user, key: key, limit: limit)
            return .ok(.init(body: .json(entries.map(Components.Schemas.AuditEntry.init))))
        }
    }

    /// A tree or user named by the request: a user id, or 400 (the generated code checks types,
    /// not the document's patterns).
    static func userID(_ id: String) throws -> String {
        guard UserID.isValid(id) else { throw APIFailure.invalid(UserID.rule(id)) }
        return id
    }

    /// A text field within the document's length, or 400.
    static func text(_ value: String?, _ field: String, atMost limit: Int) throws -> String? {
        guard let value, value.count > limit else { return value }
        throw APIFailure.invalid("\(field) may have at most \(limit) characters; this one has \(value.count)")
    }

    /// A time as ISO 8601, UTC.
    static func time(_ seconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
#endif
