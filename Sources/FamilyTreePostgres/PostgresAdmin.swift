#if PostgreSQL
import FamilyTreeSync
import Logging
import PostgresNIO

/// Setting up the PostgreSQL store, as a database administrator: the tables, their row-level
/// security, the application role, and one login role per user.
public enum PostgresAdmin {
    /// The schema's version, kept as the documents table's comment: `install` brings an older one up to it.
    static let schemaVersion = "familytree schema 7"

    /// The statements that create the store; each is safe to run again.
    ///
    /// Roles on shared trees live in `familytree_members`; `familytree_role(tree)` is the caller's
    /// role on a tree (a membership, or owner of their own namespace while no one else owns it).
    /// Every table has row-level security, forced: users (members of `familytree_app`) read and
    /// write what their role allows; the membership table and the audit trail are changed only by
    /// functions owned by `familytree_definer`, which check the caller's role first and run with a
    /// fixed `search_path`. A trigger writes each document change to the audit trail with the
    /// session's user, which no user can set.
    static let schema: [String] = [
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'familytree_app') THEN CREATE ROLE familytree_app NOLOGIN; END IF; END $$",
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'familytree_definer') THEN CREATE ROLE familytree_definer NOLOGIN; END IF; END $$",
        // The administrator hands the functions to the definer role, which takes being a member of it.
        "GRANT familytree_definer TO CURRENT_USER",
        // The login roles of `familytree serve`: they act for the signed-in user (below).
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'familytree_server') THEN CREATE ROLE familytree_server NOLOGIN; END IF; END $$",
        // Who the caller is: the login role, or, for a login that is a direct member of
        // `familytree_server`, the user it set for this session's current request
        // (`familytree.acting_user`). Nobody else can claim to be another user: the setting is read
        // only for the server's logins, and a superuser is not a member unless granted.
        """
        CREATE OR REPLACE FUNCTION public.familytree_uid() RETURNS text
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF EXISTS (
                SELECT 1 FROM pg_catalog.pg_auth_members m
                JOIN pg_catalog.pg_roles g ON g.oid = m.roleid JOIN pg_catalog.pg_roles u ON u.oid = m.member
                WHERE g.rolname = 'familytree_server' AND u.rolname = session_user) THEN
                RETURN nullif(current_setting('familytree.acting_user', true), '');
            END IF;
            RETURN session_user::text;
        END $$
        """,
        "CREATE TABLE IF NOT EXISTS public.familytree_owners (owner_uid text PRIMARY KEY, last_seq bigint NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS public.familytree_documents (
            owner_uid text NOT NULL, collection text NOT NULL, doc_id text NOT NULL, body jsonb NOT NULL,
            version bigint NOT NULL, deleted boolean NOT NULL, seq bigint NOT NULL,
            PRIMARY KEY (owner_uid, collection, doc_id))
        """,
        "CREATE UNIQUE INDEX IF NOT EXISTS familytree_documents_by_seq ON public.familytree_documents (owner_uid, seq)",
        """
        CREATE TABLE IF NOT EXISTS public.familytree_members (
            tree_uid text NOT NULL, member_uid text NOT NULL,
            role text NOT NULL CHECK (role IN ('owner', 'admin', 'helper', 'viewer')),
            granted_by text NOT NULL, granted_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (tree_uid, member_uid))
        """,
        "CREATE INDEX IF NOT EXISTS familytree_members_by_member ON public.familytree_members (member_uid, tree_uid)",
        "CREATE UNIQUE INDEX IF NOT EXISTS familytree_one_owner ON public.familytree_members (tree_uid) WHERE role = 'owner'",
        """
        CREATE TABLE IF NOT EXISTS public.familytree_audit (
            id bigserial PRIMARY KEY, tree_uid text NOT NULL, collection text NOT NULL, doc_id text NOT NULL,
            version bigint NOT NULL, deleted boolean NOT NULL, seq bigint NOT NULL,
            changed_by text NOT NULL, changed_at timestamptz NOT NULL DEFAULT now())
        """,
        "CREATE INDEX IF NOT EXISTS familytree_audit_by_tree ON public.familytree_audit (tree_uid, id)",
        """
        CREATE OR REPLACE FUNCTION public.familytree_role(tree text) RETURNS text
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        DECLARE
            caller text := public.familytree_uid();
        BEGIN
            RETURN coalesce(
                (SELECT role FROM public.familytree_members WHERE tree_uid = tree AND member_uid = caller),
                CASE WHEN tree = caller AND NOT EXISTS (
                    SELECT 1 FROM public.familytree_members WHERE tree_uid = tree AND role = 'owner') THEN 'owner' END);
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION public.familytree_require(tree text, needed text, what text) RETURNS text
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        DECLARE
            held text := public.familytree_role(tree);
            ranks constant text[] := ARRAY['viewer', 'helper', 'admin', 'owner'];
        BEGIN
            IF held IS NULL OR array_position(ranks, held) < array_position(ranks, needed) THEN
                RAISE EXCEPTION '% is % of %''s tree; % needs % or above', public.familytree_uid(),
                    CASE WHEN held IS NULL THEN 'no member' WHEN held IN ('admin', 'owner') THEN 'an ' || held ELSE 'a ' || held END, tree, what, needed
                    USING ERRCODE = '42501';
            END IF;
            RETURN held;
        END $$
        """,
        // The trees the caller holds `needed` or more on, as one array: policies compare rows with it
        // through a scalar subquery, which PostgreSQL evaluates once a statement, not once a row.
        // PL/pgSQL (here and above) keeps each query's plan for the session: an SQL function that
        // cannot be inlined (SECURITY DEFINER) is planned again at every call.
        """
        CREATE OR REPLACE FUNCTION public.familytree_trees(needed text) RETURNS text[]
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        DECLARE
            caller text := public.familytree_uid();
        BEGIN
            RETURN (SELECT coalesce(array_agg(tree_uid), '{}') FROM (
                SELECT tree_uid FROM public.familytree_members WHERE member_uid = caller
                    AND array_position(ARRAY['viewer', 'helper', 'admin', 'owner'], role)
                        >= array_position(ARRAY['viewer', 'helper', 'admin', 'owner'], needed)
                UNION
                SELECT caller WHERE caller IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM public.familytree_members WHERE tree_uid = caller AND role = 'owner')
            ) AS held);
        END $$
        """,
        // The namespace's user owns it until they hand it on: written down before anyone else gets a role.
        """
        CREATE OR REPLACE FUNCTION public.familytree_claim(tree text) RETURNS void
        LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            INSERT INTO public.familytree_members (tree_uid, member_uid, role, granted_by)
            SELECT tree, tree, 'owner', tree
            WHERE NOT EXISTS (SELECT 1 FROM public.familytree_members WHERE tree_uid = tree AND role = 'owner')
            ON CONFLICT DO NOTHING
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION public.familytree_share(tree text, member text, new_role text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            PERFORM public.familytree_require(tree, 'admin', 'sharing');
            IF new_role NOT IN ('admin', 'helper', 'viewer') THEN
                RAISE EXCEPTION 'a tree has one owner; hand it on with transfer' USING ERRCODE = '42501';
            END IF;
            PERFORM public.familytree_claim(tree);
            IF EXISTS (SELECT 1 FROM public.familytree_members WHERE tree_uid = tree AND member_uid = member AND role = 'owner') THEN
                RAISE EXCEPTION '% owns %''s tree; the owner''s role cannot be changed', member, tree USING ERRCODE = '42501';
            END IF;
            INSERT INTO public.familytree_members (tree_uid, member_uid, role, granted_by) VALUES (tree, member, new_role, public.familytree_uid())
            ON CONFLICT (tree_uid, member_uid) DO UPDATE SET role = excluded.role, granted_by = excluded.granted_by, granted_at = now();
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION public.familytree_unshare(tree text, member text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            -- Anyone may leave a tree; taking another's role away is an admin's.
            IF member <> public.familytree_uid() OR public.familytree_role(tree) IS NULL THEN
                PERFORM public.familytree_require(tree, 'admin', 'unsharing');
            END IF;
            PERFORM public.familytree_claim(tree);
            IF EXISTS (SELECT 1 FROM public.familytree_members WHERE tree_uid = tree AND member_uid = member AND role = 'owner') THEN
                RAISE EXCEPTION '% owns %''s tree; hand it on first (transfer)', member, tree USING ERRCODE = '42501';
            END IF;
            DELETE FROM public.familytree_members WHERE tree_uid = tree AND member_uid = member;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION public.familytree_transfer(tree text, new_owner text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            PERFORM public.familytree_require(tree, 'owner', 'handing it on');
            IF new_owner = public.familytree_uid() THEN RETURN; END IF;
            PERFORM public.familytree_claim(tree);
            UPDATE public.familytree_members SET role = 'admin', granted_by = new_owner, granted_at = now()
                WHERE tree_uid = tree AND member_uid = public.familytree_uid();
            INSERT INTO public.familytree_members (tree_uid, member_uid, role, granted_by) VALUES (tree, new_owner, 'owner', public.familytree_uid())
            ON CONFLICT (tree_uid, member_uid) DO UPDATE SET role = 'owner', granted_by = excluded.granted_by, granted_at = now();
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION public.familytree_delete_tree(tree text) RETURNS void
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            PERFORM public.familytree_require(tree, 'owner', 'deleting the tree');
            DELETE FROM public.familytree_documents WHERE owner_uid = tree;
            DELETE FROM public.familytree_owners WHERE owner_uid = tree;
            DELETE FROM public.familytree_audit WHERE tree_uid = tree;
            DELETE FROM public.familytree_members WHERE tree_uid = tree;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION public.familytree_audit_change() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            INSERT INTO public.familytree_audit (tree_uid, collection, doc_id, version, deleted, seq, changed_by)
            VALUES (NEW.owner_uid, NEW.collection, NEW.doc_id, NEW.version, NEW.deleted, NEW.seq, public.familytree_uid());
            RETURN NULL;
        END $$
        """,
        "DROP TRIGGER IF EXISTS familytree_audit ON public.familytree_documents",
        "CREATE TRIGGER familytree_audit AFTER INSERT OR UPDATE ON public.familytree_documents FOR EACH ROW EXECUTE FUNCTION public.familytree_audit_change()",
        """
        DO $$ DECLARE f text; BEGIN
            FOREACH f IN ARRAY ARRAY['familytree_uid()', 'familytree_role(text)', 'familytree_trees(text)', 'familytree_require(text, text, text)', 'familytree_claim(text)',
                'familytree_share(text, text, text)', 'familytree_unshare(text, text)', 'familytree_transfer(text, text)',
                'familytree_delete_tree(text)', 'familytree_audit_change()'] LOOP
                EXECUTE 'ALTER FUNCTION public.' || f || ' OWNER TO familytree_definer';
                EXECUTE 'REVOKE ALL ON FUNCTION public.' || f || ' FROM PUBLIC';
            END LOOP;
        END $$
        """,
        """
        GRANT EXECUTE ON FUNCTION public.familytree_uid(), public.familytree_role(text), public.familytree_trees(text), public.familytree_share(text, text, text),
            public.familytree_unshare(text, text), public.familytree_transfer(text, text),
            public.familytree_delete_tree(text) TO familytree_app
        """,
        "REVOKE ALL ON public.familytree_owners, public.familytree_documents, public.familytree_members, public.familytree_audit FROM PUBLIC",
        // No DELETE for users: a user's deletes are tombstones, and a tree goes whole through familytree_delete_tree.
        "GRANT SELECT, INSERT, UPDATE ON public.familytree_owners, public.familytree_documents TO familytree_app",
        "GRANT SELECT ON public.familytree_members, public.familytree_audit TO familytree_app",
        "GRANT SELECT, INSERT, UPDATE, DELETE ON public.familytree_owners, public.familytree_documents, public.familytree_members, public.familytree_audit TO familytree_definer",
        "GRANT USAGE ON SEQUENCE public.familytree_audit_id_seq TO familytree_definer",
    ] + serverTables + rowSecurity + ["COMMENT ON TABLE public.familytree_documents IS '\(schemaVersion)'"]

    /// The server's accounts, sessions and tokens, invites and failed sign-ins: read and written by
    /// the server's logins only (users never reach them, not even their own rows).
    static let serverTables: [String] = [
        """
        CREATE TABLE IF NOT EXISTS public.familytree_server_accounts (
            user_id text PRIMARY KEY, password_hash text NOT NULL, is_administrator boolean NOT NULL, created_at bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS public.familytree_server_credentials (
            id text PRIMARY KEY, user_id text NOT NULL, kind text NOT NULL CHECK (kind IN ('session', 'token')), label text NOT NULL,
            secret_hash text NOT NULL UNIQUE, csrf_token text NOT NULL, created_at bigint NOT NULL, last_used_at bigint, expires_at bigint)
        """,
        "CREATE INDEX IF NOT EXISTS familytree_server_credentials_by_user ON public.familytree_server_credentials (user_id, kind)",
        """
        CREATE TABLE IF NOT EXISTS public.familytree_server_invites (
            id text PRIMARY KEY, code_hash text NOT NULL UNIQUE, tree text NOT NULL, role text NOT NULL, invitee text NOT NULL,
            invited_by text NOT NULL, created_at bigint NOT NULL, expires_at bigint NOT NULL, accepted_by text, accepted_at bigint)
        """,
        // Added in schema 6: whether an invite's share hides living people.
        "ALTER TABLE public.familytree_server_invites ADD COLUMN IF NOT EXISTS hides_living boolean NOT NULL DEFAULT false",
        "CREATE TABLE IF NOT EXISTS public.familytree_server_private_shares (tree text NOT NULL, user_id text NOT NULL, PRIMARY KEY (tree, user_id))",
        "CREATE TABLE IF NOT EXISTS public.familytree_server_sign_in_failures (key text NOT NULL, at bigint NOT NULL)",
        // Added in schema 7: the member of a tree each user said is them.
        """
        CREATE TABLE IF NOT EXISTS public.familytree_server_own_people (
            tree text NOT NULL, user_id text NOT NULL, member text NOT NULL, PRIMARY KEY (tree, user_id))
        """,
        "CREATE INDEX IF NOT EXISTS familytree_server_sign_in_failures_by_key ON public.familytree_server_sign_in_failures (key, at)",
        """
        REVOKE ALL ON public.familytree_server_accounts, public.familytree_server_credentials, public.familytree_server_invites,
            public.familytree_server_private_shares, public.familytree_server_sign_in_failures, public.familytree_server_own_people FROM PUBLIC
        """,
        """
        GRANT SELECT, INSERT, UPDATE, DELETE ON public.familytree_server_accounts, public.familytree_server_credentials,
            public.familytree_server_invites, public.familytree_server_private_shares, public.familytree_server_sign_in_failures,
            public.familytree_server_own_people TO familytree_server
        """,
    ]

    /// Row-level security on every table, forced for the tables' owner too.
    static let rowSecurity: [String] = {
        var statements: [String] = []
        func held(_ role: String, _ column: String = "owner_uid") -> String { "\(column) = ANY ((SELECT public.familytree_trees('\(role)'))::text[])" }
        let writer = held("helper")
        let policies: [(table: String, [(name: String, command: String, using: String?, check: String?)])] = [
            ("familytree_documents", [
                ("tree_read", "SELECT", held("viewer"), nil),
                // A helper writes, but never a tombstone.
                ("tree_insert", "INSERT", nil, "\(writer) AND (NOT deleted OR \(held("admin")))"),
                ("tree_update", "UPDATE", writer, "\(writer) AND (NOT deleted OR \(held("admin")))"),
            ]),
            ("familytree_owners", [
                ("tree_read", "SELECT", held("viewer"), nil),
                ("tree_insert", "INSERT", nil, writer),
                ("tree_update", "UPDATE", writer, writer),
            ]),
            ("familytree_members", [
                ("tree_read", "SELECT", "member_uid = public.familytree_uid() OR \(held("viewer", "tree_uid"))", nil),
            ]),
            ("familytree_audit", [
                ("tree_read", "SELECT", held("admin", "tree_uid"), nil),
            ]),
        ]
        for (table, list) in policies {
            statements += [
                "ALTER TABLE public.\(table) ENABLE ROW LEVEL SECURITY",
                "ALTER TABLE public.\(table) FORCE ROW LEVEL SECURITY",
                "DROP POLICY IF EXISTS own_rows ON public.\(table)",
                "DROP POLICY IF EXISTS definer_all ON public.\(table)",
                // The functions' own role: the only one that changes memberships and the audit trail.
                "CREATE POLICY definer_all ON public.\(table) TO familytree_definer USING (true) WITH CHECK (true)",
            ]
            for (name, command, using, check) in list {
                statements.append("DROP POLICY IF EXISTS \(name) ON public.\(table)")
                statements.append("CREATE POLICY \(name) ON public.\(table) FOR \(command) TO familytree_app"
                    + (using.map { " USING (\($0))" } ?? "") + (check.map { " WITH CHECK (\($0))" } ?? ""))
            }
        }
        return statements
    }()

    /// Creates the tables, policies and the application role, unless they are all in place
    /// (DDL on tables in use would wait on, and could deadlock with, users' transactions).
    public static func install(adminURL: String) async throws(SyncError) {
        try await withConnection(adminURL) { connection, logger in try await install(connection: connection, logger: logger) }
    }

    /// One administrator at a time installs: setting up policies and roles concurrently races.
    private static func install(connection: PostgresConnection, logger: Logger) async throws {
        guard try await installedVersion(connection: connection, logger: logger) != schemaVersion else { return }
        _ = try await connection.rows(PostgresQuery(unsafeSQL: installation), logger: logger)
    }

    /// The whole installation as one statement the server runs to its end: it takes the
    /// administrators' lock, checks again (another may have installed meanwhile) and runs every
    /// schema statement, so the lock is held only while the server works. Sent a statement at a
    /// time, the lock was held across round trips, and an installer whose client stalled (a busy
    /// machine, a starved thread pool) kept every other administrator waiting past its limit.
    static let installation: String = {
        var block = "DO $familytree_install$ BEGIN\n"
        block += "PERFORM pg_advisory_xact_lock(\(administratorsLock));\n"
        block += "IF coalesce(obj_description(to_regclass('public.familytree_documents'), 'pg_class'), '') = '\(schemaVersion)' THEN RETURN; END IF;\n"
        for (index, statement) in schema.enumerated() {
            // Each statement in a dollar quote of its own, which no statement contains.
            let quote = "$familytree_\(index)$"
            precondition(!statement.contains(quote) && !statement.contains("$familytree_install$"))
            block += "EXECUTE \(quote)\(statement)\(quote);\n"
        }
        return block + "END $familytree_install$"
    }()

    private static func installedVersion(connection: PostgresConnection, logger: Logger) async throws -> String? {
        let check = try await connection.rows("""
            SELECT coalesce(obj_description(to_regclass('public.familytree_documents'), 'pg_class'), '')
            """, logger: logger)
        return try check.first?.decode(String.self)
    }

    /// The longest role name PostgreSQL keeps whole (NAMEDATALEN - 1), in UTF-8 bytes.
    static let maximumUserBytes = 63

    /// The advisory lock administrators take to change roles and the schema one at a time.
    static let administratorsLock: Int64 = 7_246_001

    /// Creates (or updates the password of) the login role of user `uid`, a member of the
    /// application role: it reaches its own documents and no one else's.
    public static func createUser(_ uid: String, password: String, adminURL: String) async throws(SyncError) {
        guard !uid.isEmpty else { throw .missingUser }
        guard !uid.hasPrefix("pg_"), uid != "familytree_app", uid != "postgres" else { throw .accessDenied("\"\(uid)\" is reserved") }
        // PostgreSQL would cut a longer name short, and the user could not log in by theirs.
        guard uid.utf8.count <= maximumUserBytes else {
            throw .store("a user id names a PostgreSQL role, at most \(maximumUserBytes) bytes; this one is \(uid.utf8.count)")
        }
        try await withConnection(adminURL) { connection, logger in
            try await install(connection: connection, logger: logger)
            // The name and password reach the server as parameters of this session (which ends
            // with the call) and are quoted there (%I, %L).
            // The role is made in one statement, which holds the administrators' lock only while
            // the server runs it: a client that stalls between round trips (a busy machine, a
            // starved thread pool) never keeps every other administrator waiting.
            _ = try await connection.rows("""
                SELECT set_config('familytree.new_role', \(uid), false), set_config('familytree.new_password', \(password), false)
                """, logger: logger)
            _ = try await connection.rows(PostgresQuery(unsafeSQL: """
                DO $$
                DECLARE
                    name text := current_setting('familytree.new_role');
                    secret text := current_setting('familytree.new_password');
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(administratorsLock));
                    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = name) THEN
                        EXECUTE format('ALTER ROLE %I WITH LOGIN PASSWORD %L', name, secret);
                    ELSE
                        EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L', name, secret);
                    END IF;
                    EXECUTE format('GRANT familytree_app TO %I', name);
                END $$
                """), logger: logger)
        }
    }

    /// Creates (or updates the password of) the login role `familytree serve` connects as: a
    /// member of the application role and of `familytree_server`, so it acts for the user each
    /// request signed in as, within that user's roles, and keeps the server's accounts.
    public static func createServerLogin(_ name: String, password: String, adminURL: String) async throws(SyncError) {
        guard !name.isEmpty, name.utf8.count <= maximumUserBytes, !name.hasPrefix("pg_") else {
            throw .store("a server login is a PostgreSQL role name of 1 to \(maximumUserBytes) bytes")
        }
        try await createUser(name, password: password, adminURL: adminURL)
        try await withConnection(adminURL) { connection, logger in
            _ = try await connection.rows("SELECT set_config('familytree.new_role', \(name), false)", logger: logger)
            _ = try await connection.rows(PostgresQuery(unsafeSQL: """
                DO $$ BEGIN
                    PERFORM pg_advisory_xact_lock(\(administratorsLock));
                    EXECUTE format('GRANT familytree_server TO %I', current_setting('familytree.new_role'));
                END $$
                """), logger: logger)
        }
    }

    private static func withConnection(_ url: String, _ body: (PostgresConnection, Logger) async throws -> Void) async throws(SyncError) {
        let address = try PostgresURL(url)
        let logger = Logger(label: "familytree.postgres.admin")
        do {
            let connection = try await PostgresConnection.connect(configuration: try address.configuration(), id: 2, logger: logger)
            do {
                try await body(connection, logger)
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            throw PostgresDocumentStore.syncError(error)
        }
    }
}

#endif
