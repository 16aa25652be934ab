// Package team shares wings of a palace with other members through
// PostgreSQL: the schema there (an append-only operation log with a
// server-assigned sequence, the wings, who may read and write each, and
// the row-level security policies that enforce it), and push and pull
// between that log and the local queue core/store keeps. Each member's
// palace stays a local SQLite file; only the palace's own data of shared
// wings travels, never derived data.
package team

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// schemaVersion is the version of the PostgreSQL schema this binary
// writes; migrations are forward only, as the local ones are.
const schemaVersion = 1

// migrations are applied in order, each in one transaction with the
// version bump, by the first member whose role may create the schema.
var migrations = []string{
	// v1. Every role that may connect to the database may join; who reads
	// and writes a wing is palace.access, enforced on palace.ops by
	// row-level security (forced, so the schema's owner is held to it as
	// well). The SECURITY DEFINER functions read palace.access for the
	// policies and change it for members, who have no write grant on it.
	`
CREATE TABLE palace.members (
	role      name PRIMARY KEY DEFAULT current_user,
	joined_at timestamptz NOT NULL DEFAULT now(),
	last_sync timestamptz
);
CREATE TABLE palace.wings (
	wing       text PRIMARY KEY,
	owner      name NOT NULL DEFAULT current_user,
	created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE palace.access (
	wing      text NOT NULL REFERENCES palace.wings ON DELETE CASCADE,
	role      name NOT NULL,
	can_write boolean NOT NULL,
	PRIMARY KEY (wing, role)
);
-- The log. seq is assigned by PostgreSQL under a lock every push takes
-- (pg_advisory_xact_lock), so sequence order is commit order and a member
-- reading after its last seq never skips a row committed late. op_id is
-- the member's stable id for the operation: a replayed push is a no-op.
CREATE TABLE palace.ops (
	seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	op_id     text NOT NULL UNIQUE,
	wing      text NOT NULL REFERENCES palace.wings,
	member    name NOT NULL DEFAULT current_user,
	kind      text NOT NULL,
	key       text NOT NULL,
	gone      boolean NOT NULL,
	at        text NOT NULL,
	rows      jsonb,
	pushed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ops_wing_seq ON palace.ops (wing, seq);
CREATE INDEX ops_key ON palace.ops (wing, kind, key);

CREATE FUNCTION palace.can_read(w text, r name) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = palace, pg_temp AS
$$ SELECT EXISTS (SELECT 1 FROM palace.access WHERE wing = w AND role = r) $$;
CREATE FUNCTION palace.can_write(w text, r name) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = palace, pg_temp AS
$$ SELECT EXISTS (SELECT 1 FROM palace.access WHERE wing = w AND role = r AND can_write) $$;

-- share: a new wing is created with its creator as writer; sharing a wing
-- that exists changes nothing (what the caller may do is access's).
CREATE FUNCTION palace.share(w text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = palace, pg_temp AS $$
BEGIN
	INSERT INTO palace.wings (wing, owner) VALUES (w, session_user) ON CONFLICT DO NOTHING;
	IF FOUND THEN
		INSERT INTO palace.access (wing, role, can_write) VALUES (w, session_user, true);
	END IF;
END $$;
-- grant: a writer of a wing gives a role read (write false) or write
-- access to it; revoke takes it away.
CREATE FUNCTION palace.grant_access(w text, r name, write boolean) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = palace, pg_temp AS $$
BEGIN
	IF NOT palace.can_write(w, session_user) THEN
		RAISE EXCEPTION 'role % may not grant access to wing %: not a writer of it', session_user, w USING ERRCODE = '42501';
	END IF;
	INSERT INTO palace.access (wing, role, can_write) VALUES (w, r, write)
	ON CONFLICT (wing, role) DO UPDATE SET can_write = excluded.can_write;
END $$;
CREATE FUNCTION palace.revoke_access(w text, r name) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = palace, pg_temp AS $$
BEGIN
	IF NOT palace.can_write(w, session_user) THEN
		RAISE EXCEPTION 'role % may not revoke access to wing %: not a writer of it', session_user, w USING ERRCODE = '42501';
	END IF;
	DELETE FROM palace.access WHERE wing = w AND role = r;
END $$;

ALTER TABLE palace.ops ENABLE ROW LEVEL SECURITY;
ALTER TABLE palace.ops FORCE ROW LEVEL SECURITY;
CREATE POLICY ops_read ON palace.ops FOR SELECT USING (palace.can_read(wing, current_user));
CREATE POLICY ops_write ON palace.ops FOR INSERT WITH CHECK (member = current_user AND palace.can_write(wing, current_user));
-- A purge rewrites the earlier operations of its drawer as the tombstone,
-- so the content leaves PostgreSQL too; nothing else updates the log.
CREATE POLICY ops_purge ON palace.ops FOR UPDATE USING (palace.can_write(wing, current_user));
ALTER TABLE palace.members ENABLE ROW LEVEL SECURITY;
ALTER TABLE palace.members FORCE ROW LEVEL SECURITY;
CREATE POLICY members_read ON palace.members FOR SELECT USING (true);
CREATE POLICY members_own ON palace.members FOR ALL USING (role = current_user) WITH CHECK (role = current_user);

GRANT USAGE ON SCHEMA palace TO PUBLIC;
GRANT SELECT ON palace.wings, palace.access TO PUBLIC;
GRANT SELECT, INSERT, UPDATE ON palace.members TO PUBLIC;
GRANT SELECT, INSERT ON palace.ops TO PUBLIC;
GRANT UPDATE (rows) ON palace.ops TO PUBLIC;
`,
}

// install creates or migrates the schema when this role may, and checks
// that the schema is one this binary understands.
func install(ctx context.Context, conn *pgx.Conn) error {
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'palace')`).Scan(&exists); err != nil {
		return fmt.Errorf("team schema: %w", err)
	}
	if !exists {
		// Two members joining at once: the lock makes the second wait and
		// then find the schema made.
		tx, err := conn.Begin(ctx)
		if err != nil {
			return fmt.Errorf("team schema: %w", err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7061636501)`); err != nil {
			return fmt.Errorf("team schema: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS palace;
			CREATE TABLE IF NOT EXISTS palace.version (v integer NOT NULL);
			GRANT USAGE ON SCHEMA palace TO PUBLIC;
			GRANT SELECT ON palace.version TO PUBLIC;
			INSERT INTO palace.version (v) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM palace.version)`); err != nil {
			return fmt.Errorf("create the team schema (the role needs CREATE on the database, or a database administrator runs the first join): %w", err)
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("team schema: %w", err)
		}
	}
	var v int
	if err := conn.QueryRow(ctx, `SELECT v FROM palace.version`).Scan(&v); err != nil {
		return fmt.Errorf("team schema version: %w", err)
	}
	if v > schemaVersion {
		return fmt.Errorf("the team schema is version %d, newer than this palace binary understands (%d): upgrade palace", v, schemaVersion)
	}
	for v < schemaVersion {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return fmt.Errorf("team schema: %w", err)
		}
		var cur int
		if err := tx.QueryRow(ctx, `SELECT v FROM palace.version FOR UPDATE`).Scan(&cur); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("team schema v%d: a member whose role owns the schema runs the first join after an upgrade: %w", v+1, err)
		}
		if cur == v {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				tx.Rollback(ctx)
				return fmt.Errorf("team schema v%d: %w", v+1, err)
			}
			if _, err := tx.Exec(ctx, `UPDATE palace.version SET v = $1`, v+1); err != nil {
				tx.Rollback(ctx)
				return fmt.Errorf("team schema v%d: %w", v+1, err)
			}
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("team schema v%d: %w", v+1, err)
		}
		if err := conn.QueryRow(ctx, `SELECT v FROM palace.version`).Scan(&v); err != nil {
			return fmt.Errorf("team schema version: %w", err)
		}
	}
	return nil
}
