import FamilyTreeSync

// The document stores' values as the API sends them, and back. The API's own types are generated
// from openapi.yaml; these are the only hand-written mappings, shared by the server and the client.

extension Components.Schemas.Document {
    /// A stored document as the API sends it.
    package init(_ document: StoredDocument) {
        self.init(
            collection: .init(document.key.collection), id: document.key.id, body: document.body, version: document.version,
            deleted: document.isDeleted, sequence: document.sequence)
    }

    /// The stored document this is.
    package var stored: StoredDocument {
        StoredDocument(key: DocumentKey(collection.syncCollection, id), body: body, version: version, isDeleted: deleted, sequence: sequence)
    }
}

extension Components.Schemas.Collection {
    package init(_ collection: SyncCollection) {
        switch collection {
        case .familyTree: self = .familyTree
        case .crossBloodlineConnections: self = .crossBloodlineConnections
        case .unions: self = .unions
        }
    }

    package var syncCollection: SyncCollection {
        switch self {
        case .familyTree: .familyTree
        case .crossBloodlineConnections: .crossBloodlineConnections
        case .unions: .unions
        }
    }
}

extension Components.Schemas.Write {
    package init(_ write: DocumentWrite) {
        self.init(collection: .init(write.key.collection), id: write.key.id, body: write.body, deleted: write.isDeleted, baseVersion: write.baseVersion)
    }

    package var documentWrite: DocumentWrite {
        DocumentWrite(key: DocumentKey(collection.syncCollection, id), body: body, isDeleted: deleted ?? false, baseVersion: baseVersion)
    }
}

extension Components.Schemas.Outcome {
    package init(_ outcome: WriteOutcome) {
        switch outcome {
        case .applied(let version, let sequence): self.init(result: .applied, version: version, sequence: sequence)
        case .unchanged(let version): self.init(result: .unchanged, version: version)
        case .conflict(let current): self.init(result: .conflict, version: current.version, current: .init(current))
        }
    }

    /// The outcome this is; `nil` for an answer no store gives (a conflict without the document).
    package var writeOutcome: WriteOutcome? {
        switch result {
        case .applied: sequence.map { .applied(version: version, sequence: $0) }
        case .unchanged: .unchanged(version: version)
        case .conflict: current.map { .conflict(current: $0.stored) }
        }
    }
}

extension Components.Schemas.Role {
    package init(_ role: TreeRole) {
        switch role {
        case .viewer: self = .viewer
        case .helper: self = .helper
        case .admin: self = .admin
        case .owner: self = .owner
        }
    }

    package var treeRole: TreeRole {
        switch self {
        case .viewer: .viewer
        case .helper: .helper
        case .admin: .admin
        case .owner: .owner
        }
    }
}

extension Components.Schemas.Membership {
    package init(_ membership: TreeMembership) {
        self.init(
            tree: membership.tree, user: membership.user, role: .init(membership.role), grantedBy: membership.grantedBy,
            grantedAt: membership.grantedAt, hidesLiving: membership.hidesLiving ? true : nil)
    }

    package var treeMembership: TreeMembership {
        TreeMembership(tree: tree, user: user, role: role.treeRole, grantedBy: grantedBy, grantedAt: grantedAt, hidesLiving: hidesLiving ?? false)
    }
}

extension Components.Schemas.AuditEntry {
    package init(_ entry: FamilyTreeSync.AuditEntry) {
        self.init(
            tree: entry.tree, collection: .init(entry.key.collection), id: entry.key.id, version: entry.version, deleted: entry.isDeleted,
            sequence: entry.sequence, user: entry.user, time: entry.time)
    }

    package var auditEntry: FamilyTreeSync.AuditEntry {
        FamilyTreeSync.AuditEntry(
            tree: tree, key: DocumentKey(collection.syncCollection, id), version: version, isDeleted: deleted, sequence: sequence, user: user,
            time: time)
    }
}
