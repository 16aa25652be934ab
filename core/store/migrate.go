package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are applied in order; migration i moves the schema from
// user_version i to i+1. They are forward only: never edit one that has
// shipped, append a new one.
var migrations = []string{
	// v1: drawers with their FTS index, mined sources, taxonomy, meta, and the
	// knowledge-graph tables so later features need no table rewrite.
	`
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

CREATE TABLE drawers (
	seq          INTEGER PRIMARY KEY,          -- FTS rowid
	id           TEXT NOT NULL UNIQUE,
	wing         TEXT NOT NULL,
	room         TEXT NOT NULL,
	kind         TEXT NOT NULL CHECK (kind IN ('file', 'conversation', 'note', 'diary')),
	source       TEXT NOT NULL,
	line_start   INTEGER NOT NULL DEFAULT 0,
	line_end     INTEGER NOT NULL DEFAULT 0,
	content      TEXT NOT NULL,                 -- verbatim
	index_text   TEXT,                          -- what FTS indexes when it differs from content
	content_hash TEXT NOT NULL,
	created_at   TEXT NOT NULL,
	source_mtime INTEGER,
	importance   REAL NOT NULL DEFAULT 0,
	deleted_at   TEXT,
	metadata     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX drawers_wing_room ON drawers (wing, room);
CREATE INDEX drawers_source ON drawers (source);

-- FTS5 reads its text through this view, so index_text (segmented Chinese,
-- noise stripped) can differ from the verbatim content; soft-deleted drawers
-- are not part of it, which keeps FTS5's integrity-check meaningful.
CREATE VIEW drawers_search AS
	SELECT seq, coalesce(index_text, content) AS body FROM drawers WHERE deleted_at IS NULL;

-- porter: FTS5's own Porter stemmer, so index and query stem identically
-- inside SQLite with no Go-side tokenizer to keep in step.
CREATE VIRTUAL TABLE drawers_fts USING fts5 (
	body,
	content = 'drawers_search',
	content_rowid = 'seq',
	tokenize = 'porter unicode61 remove_diacritics 2'
);

-- The triggers keep FTS in the same transaction as the drawer write.
-- Soft-deleted drawers (deleted_at set) leave the index.
CREATE TRIGGER drawers_ai AFTER INSERT ON drawers WHEN new.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (rowid, body) VALUES (new.seq, coalesce(new.index_text, new.content));
END;
CREATE TRIGGER drawers_ad AFTER DELETE ON drawers WHEN old.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (drawers_fts, rowid, body) VALUES ('delete', old.seq, coalesce(old.index_text, old.content));
END;
CREATE TRIGGER drawers_au_old AFTER UPDATE OF content, index_text, deleted_at ON drawers WHEN old.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (drawers_fts, rowid, body) VALUES ('delete', old.seq, coalesce(old.index_text, old.content));
END;
CREATE TRIGGER drawers_au_new AFTER UPDATE OF content, index_text, deleted_at ON drawers WHEN new.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (rowid, body) VALUES (new.seq, coalesce(new.index_text, new.content));
END;

CREATE TABLE sources (
	wing         TEXT NOT NULL,
	path         TEXT NOT NULL,
	kind         TEXT NOT NULL,
	content_hash TEXT NOT NULL,
	mtime        INTEGER NOT NULL,   -- nanoseconds since the epoch
	size         INTEGER NOT NULL,
	drawers      INTEGER NOT NULL,
	mined_at     TEXT NOT NULL,
	PRIMARY KEY (wing, path)
);

CREATE TABLE taxonomy (
	wing         TEXT NOT NULL,
	room         TEXT NOT NULL,
	display_name TEXT NOT NULL DEFAULT '',
	keywords     TEXT NOT NULL DEFAULT '[]',  -- JSON array of lowercase words
	PRIMARY KEY (wing, room)
);

CREATE TABLE entities (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	type       TEXT NOT NULL DEFAULT 'unknown',
	properties TEXT NOT NULL DEFAULT '{}',
	created_at TEXT NOT NULL
);

CREATE TABLE triples (
	id            TEXT PRIMARY KEY,
	subject       TEXT NOT NULL,
	predicate     TEXT NOT NULL,
	object        TEXT NOT NULL,
	valid_from    TEXT,
	valid_to      TEXT,
	confidence    REAL NOT NULL DEFAULT 1.0,
	source_drawer TEXT,
	created_at    TEXT NOT NULL
);
CREATE INDEX triples_subject ON triples (subject);
CREATE INDEX triples_object ON triples (object);
CREATE INDEX triples_predicate ON triples (predicate);
CREATE INDEX triples_valid ON triples (valid_from, valid_to);
`,
	// v2: when a drawer's content happened (message times for conversations,
	// the file's mtime for files), apart from when it was mined.
	`
ALTER TABLE drawers ADD COLUMN occurred_at TEXT;
ALTER TABLE drawers ADD COLUMN occurred_end TEXT;
CREATE INDEX drawers_occurred ON drawers (occurred_at);
`,
	// v3: which model a drawer's vector came from (NULL: none yet). The
	// vectors live in vec_drawers, created when a model's dimension is known.
	`
ALTER TABLE drawers ADD COLUMN vec_model TEXT;
CREATE INDEX drawers_vec_pending ON drawers (seq) WHERE vec_model IS NULL AND deleted_at IS NULL;
`,
	// v4: a scope column in the FTS index, so a search inside a wing (and
	// kind) is narrowed by FTS5 itself instead of after it has scored every
	// match in the palace. scope is one token per drawer, 'w' || hex(wing) ||
	// 'k' || kind: hex keeps any wing name a single unicode61 token, and 'k'
	// (not a hex digit) ends the wing, so "w<hex>k"* selects a wing of any
	// kind. Searches give scope weight 0 in bm25 and match words in body only
	// (see SearchFTS). The update trigger now also fires on wing and kind,
	// since scope depends on them, and is one trigger so the old row always
	// leaves the index before the new one enters it.
	`
DROP TRIGGER drawers_ai;
DROP TRIGGER drawers_ad;
DROP TRIGGER drawers_au_old;
DROP TRIGGER drawers_au_new;
DROP TABLE drawers_fts;
DROP VIEW drawers_search;

CREATE VIEW drawers_search AS
	SELECT seq, coalesce(index_text, content) AS body, 'w' || hex(wing) || 'k' || kind AS scope
	FROM drawers WHERE deleted_at IS NULL;

CREATE VIRTUAL TABLE drawers_fts USING fts5 (
	body,
	scope,
	content = 'drawers_search',
	content_rowid = 'seq',
	tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER drawers_ai AFTER INSERT ON drawers WHEN new.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (rowid, body, scope)
	VALUES (new.seq, coalesce(new.index_text, new.content), 'w' || hex(new.wing) || 'k' || new.kind);
END;
CREATE TRIGGER drawers_ad AFTER DELETE ON drawers WHEN old.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (drawers_fts, rowid, body, scope)
	VALUES ('delete', old.seq, coalesce(old.index_text, old.content), 'w' || hex(old.wing) || 'k' || old.kind);
END;
-- One update trigger, not v1's pair: SQLite promises no order among
-- triggers, and the old row must leave the index before the new one enters
-- it (both happen when a live drawer changes wing, kind or text).
CREATE TRIGGER drawers_au AFTER UPDATE OF content, index_text, deleted_at, wing, kind ON drawers BEGIN
	INSERT INTO drawers_fts (drawers_fts, rowid, body, scope)
	SELECT 'delete', old.seq, coalesce(old.index_text, old.content), 'w' || hex(old.wing) || 'k' || old.kind
	WHERE old.deleted_at IS NULL;
	INSERT INTO drawers_fts (rowid, body, scope)
	SELECT new.seq, coalesce(new.index_text, new.content), 'w' || hex(new.wing) || 'k' || new.kind
	WHERE new.deleted_at IS NULL;
END;

INSERT INTO drawers_fts (drawers_fts) VALUES ('rebuild');
`,
	// v5: whether a mined source's drawers had their secrets redacted, so a
	// mine in the other mode (--keep-secrets, or back) redoes the file even
	// when it did not change. Sources mined before redaction existed kept
	// their secrets: 0, and the next default mine redacts them.
	`
ALTER TABLE sources ADD COLUMN redacted INTEGER NOT NULL DEFAULT 0;
`,
	// v6: purged drawers. A purge empties the row (content, index text,
	// metadata) and keeps it as a tombstone with purged_at set; for a mined
	// drawer the tombstone keeps the content hash, so mining the same chunk
	// of the same source again skips it (see replaceDrawers). The partial
	// index holds only tombstones, so that lookup costs nothing on a palace
	// without them.
	`
ALTER TABLE drawers ADD COLUMN purged_at TEXT;
CREATE INDEX drawers_purged ON drawers (wing, source, content_hash) WHERE purged_at IS NOT NULL;
`,
	// v7: whether the full-text index holds Han text (meta cjk.han_text,
	// see HoldsHan), so a Chinese query in a palace without Chinese never
	// loads the segmenter (seconds and 180 MB per CLI call). A new palace
	// starts at 0 and every drawer write sets 1 when its text holds Han. A
	// palace that already has drawers is left unknown, which counts as
	// holding Han, until `palace repair` scans it (RecordHan): a scan here
	// would hold every upgrade up for a read of the whole palace.
	`
INSERT INTO meta (key, value) SELECT 'cjk.han_text', '0' WHERE NOT EXISTS (SELECT 1 FROM drawers);
`,
	// v8: where the next mine of an append-only session log resumes (JSON
	// owned by core/mine; '' for files and whole-document exports), so a
	// log that grew costs only its new part. It stays with the palace, as
	// the sources do. The covering index lets VecInfo count live drawers
	// and their vectors from small index entries instead of reading every
	// drawer's row, which cost an agent hook half a second per run in a
	// palace holding one long session.
	`
ALTER TABLE sources ADD COLUMN resume TEXT NOT NULL DEFAULT '';
CREATE INDEX drawers_live_vec ON drawers (vec_model, deleted_at) WHERE deleted_at IS NULL;
`,
	// v9: a code index beside the body. Three columns FTS5 reads for a
	// file drawer (see CodeIndex): the names it defines (symbols), its
	// file's name and folder (path), and the parts of its identifiers that
	// have case boundaries (parts), each with its own bm25 weight in
	// SearchFTS, so the drawer that defines SearchFTS outranks the twenty
	// that call it, and "search fts" finds SearchFTS. They are derived:
	// mining writes them, an import derives them again. Mined files are
	// marked changed (content_hash 'v9'), so the next mine cuts them again
	// at their definitions and fills the columns; until then their drawers
	// are found by their body as before.
	`
ALTER TABLE drawers ADD COLUMN code_symbols TEXT;
ALTER TABLE drawers ADD COLUMN code_path TEXT;
ALTER TABLE drawers ADD COLUMN code_parts TEXT;
UPDATE sources SET content_hash = 'v9', mtime = 0 WHERE kind = 'file';

DROP TRIGGER drawers_ai;
DROP TRIGGER drawers_ad;
DROP TRIGGER drawers_au;
DROP TABLE drawers_fts;
DROP VIEW drawers_search;

CREATE VIEW drawers_search AS
	SELECT seq, coalesce(index_text, content) AS body, 'w' || hex(wing) || 'k' || kind AS scope,
		code_symbols AS symbols, code_path AS path, code_parts AS parts
	FROM drawers WHERE deleted_at IS NULL;

CREATE VIRTUAL TABLE drawers_fts USING fts5 (
	body,
	scope,
	symbols,
	path,
	parts,
	content = 'drawers_search',
	content_rowid = 'seq',
	tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER drawers_ai AFTER INSERT ON drawers WHEN new.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (rowid, body, scope, symbols, path, parts)
	VALUES (new.seq, coalesce(new.index_text, new.content), 'w' || hex(new.wing) || 'k' || new.kind,
		new.code_symbols, new.code_path, new.code_parts);
END;
CREATE TRIGGER drawers_ad AFTER DELETE ON drawers WHEN old.deleted_at IS NULL BEGIN
	INSERT INTO drawers_fts (drawers_fts, rowid, body, scope, symbols, path, parts)
	VALUES ('delete', old.seq, coalesce(old.index_text, old.content), 'w' || hex(old.wing) || 'k' || old.kind,
		old.code_symbols, old.code_path, old.code_parts);
END;
CREATE TRIGGER drawers_au AFTER UPDATE OF content, index_text, deleted_at, wing, kind, code_symbols, code_path, code_parts
ON drawers BEGIN
	INSERT INTO drawers_fts (drawers_fts, rowid, body, scope, symbols, path, parts)
	SELECT 'delete', old.seq, coalesce(old.index_text, old.content), 'w' || hex(old.wing) || 'k' || old.kind,
		old.code_symbols, old.code_path, old.code_parts
	WHERE old.deleted_at IS NULL;
	INSERT INTO drawers_fts (rowid, body, scope, symbols, path, parts)
	SELECT new.seq, coalesce(new.index_text, new.content), 'w' || hex(new.wing) || 'k' || new.kind,
		new.code_symbols, new.code_path, new.code_parts
	WHERE new.deleted_at IS NULL;
END;

INSERT INTO drawers_fts (drawers_fts) VALUES ('rebuild');
`,
	// kg proposals: facts the extractor (core/extract) read in notes,
	// diaries and conversations, waiting for review (core/kg/review.go),
	// with the sentence and drawer they came from; rejected ones stay, so
	// they are not proposed again. drawers.facts_read is the extractor
	// version that read a drawer (NULL: not yet), so extraction resumes
	// where a budget stopped it; the partial index holds only the drawers
	// left to read, so finding them costs nothing in a palace of code.
	`
CREATE TABLE kg_proposals (
	id            TEXT PRIMARY KEY,
	subject       TEXT NOT NULL,  -- as written
	subject_id    TEXT NOT NULL,  -- normalised, as entities.id
	predicate     TEXT NOT NULL,
	object        TEXT NOT NULL,
	object_id     TEXT NOT NULL,
	replaces      TEXT,           -- a move's old object, as written
	valid_from    TEXT,
	confidence    REAL NOT NULL,
	sentence      TEXT NOT NULL,
	source_drawer TEXT NOT NULL,
	status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
	triple        TEXT,           -- the fact accepting it wrote or found
	created_at    TEXT NOT NULL,
	decided_at    TEXT
);
CREATE INDEX kg_proposals_fact ON kg_proposals (subject_id, predicate, object_id);
CREATE INDEX kg_proposals_status ON kg_proposals (status, confidence);
ALTER TABLE drawers ADD COLUMN facts_read INTEGER;
CREATE INDEX drawers_facts_unread ON drawers (wing, seq)
	WHERE facts_read IS NULL AND deleted_at IS NULL AND kind IN ('conversation', 'note', 'diary');
`,
	// team palace (core/team): the wings this palace shares, the local
	// writes to them waiting to be pushed (team_outbox: one row per write,
	// its op id fixed when written so a retried push is a no-op), and the
	// hard removals pulled from other members (team_gone), so an older add
	// pulled later does not bring a removed row back. The triggers fill the
	// outbox from every write path (mine, remember, diary, kg, taxonomy,
	// forget, purge) without those paths knowing about the team; a pull
	// sets meta team.applying inside its transaction so what it applies is
	// not queued again.
	`
CREATE TABLE team_wings (
	wing      TEXT PRIMARY KEY,
	shared_at TEXT NOT NULL
);
CREATE TABLE team_outbox (
	n     INTEGER PRIMARY KEY,
	op_id TEXT NOT NULL UNIQUE,
	wing  TEXT NOT NULL,
	kind  TEXT NOT NULL CHECK (kind IN ('drawer', 'room', 'triple', 'entity')),
	key   TEXT NOT NULL,
	gone  INTEGER NOT NULL DEFAULT 0,
	at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE team_gone (
	kind TEXT NOT NULL,
	key  TEXT NOT NULL,
	at   TEXT NOT NULL,
	PRIMARY KEY (kind, key)
);

CREATE TRIGGER team_drawer_ai AFTER INSERT ON drawers
WHEN new.wing IN (SELECT wing FROM team_wings) AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key) VALUES (lower(hex(randomblob(16))), new.wing, 'drawer', new.id);
END;
CREATE TRIGGER team_drawer_au AFTER UPDATE OF room, content, metadata, deleted_at, purged_at ON drawers
WHEN new.wing IN (SELECT wing FROM team_wings) AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key) VALUES (lower(hex(randomblob(16))), new.wing, 'drawer', new.id);
END;
CREATE TRIGGER team_drawer_ad AFTER DELETE ON drawers
WHEN old.wing IN (SELECT wing FROM team_wings) AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key, gone) VALUES (lower(hex(randomblob(16))), old.wing, 'drawer', old.id, 1);
END;

CREATE TRIGGER team_room_ai AFTER INSERT ON taxonomy
WHEN new.wing IN (SELECT wing FROM team_wings) AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key) VALUES (lower(hex(randomblob(16))), new.wing, 'room', new.room);
END;
CREATE TRIGGER team_room_au AFTER UPDATE ON taxonomy
WHEN new.wing IN (SELECT wing FROM team_wings) AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key) VALUES (lower(hex(randomblob(16))), new.wing, 'room', new.room);
END;
CREATE TRIGGER team_room_ad AFTER DELETE ON taxonomy
WHEN old.wing IN (SELECT wing FROM team_wings) AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key, gone) VALUES (lower(hex(randomblob(16))), old.wing, 'room', old.room, 1);
END;

-- A fact belongs to the wing of the drawer it was read from, as in a
-- one-wing export; a fact with no drawer stays local.
CREATE TRIGGER team_triple_ai AFTER INSERT ON triples
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key)
	SELECT lower(hex(randomblob(16))), d.wing, 'triple', new.id FROM drawers d
	WHERE d.id = new.source_drawer AND d.wing IN (SELECT wing FROM team_wings);
END;
CREATE TRIGGER team_triple_au AFTER UPDATE ON triples
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key)
	SELECT lower(hex(randomblob(16))), d.wing, 'triple', new.id FROM drawers d
	WHERE d.id = new.source_drawer AND d.wing IN (SELECT wing FROM team_wings);
END;
CREATE TRIGGER team_triple_ad AFTER DELETE ON triples
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key, gone)
	SELECT lower(hex(randomblob(16))), d.wing, 'triple', old.id, 1 FROM drawers d
	WHERE d.id = old.source_drawer AND d.wing IN (SELECT wing FROM team_wings);
END;
CREATE TRIGGER team_entity_au AFTER UPDATE OF name, type, properties ON entities
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'team.applying') BEGIN
	INSERT INTO team_outbox (op_id, wing, kind, key)
	SELECT lower(hex(randomblob(16))), w, 'entity', new.id FROM (SELECT DISTINCT d.wing AS w FROM triples t
		JOIN drawers d ON d.id = t.source_drawer
		WHERE (t.subject = new.id OR t.object = new.id) AND d.wing IN (SELECT wing FROM team_wings));
END;
`,
	// kg proposals that end a fact: "Alice does not work on Orion
	// anymore" proposes ending (Alice, works_on, Orion) at the day it was
	// said, not adding it. A retraction and an assertion of the same fact
	// are different proposals, so the column is part of what a repeat is.
	`
ALTER TABLE kg_proposals ADD COLUMN ends INTEGER NOT NULL DEFAULT 0 CHECK (ends IN (0, 1));
`,
	// facts tied to a wing without a drawer: what an agent records in a
	// project session belongs to that project (its wake-up lists it),
	// though no drawer says it. NULL: no wing but the source drawer's.
	// provenance is where the fact was said (store.Provenance as JSON:
	// the agent session, its turns), NULL when unknown.
	`
ALTER TABLE triples ADD COLUMN wing TEXT;
ALTER TABLE triples ADD COLUMN provenance TEXT;
CREATE INDEX triples_wing ON triples (wing) WHERE wing IS NOT NULL;
`,
	// files a mine read and refused for what they hold (binary, not
	// UTF-8), at the size and mtime it read them: the next mine skips
	// them unread, as it skips an unchanged source.
	`
CREATE TABLE skipped_files (
	wing   TEXT NOT NULL,
	path   TEXT NOT NULL,
	reason TEXT NOT NULL,
	detail TEXT NOT NULL,
	mtime  INTEGER NOT NULL,   -- nanoseconds since the epoch
	size   INTEGER NOT NULL,
	PRIMARY KEY (wing, path)
);
`,
}

// SchemaVersion is the user_version this binary writes.
func SchemaVersion() int { return len(migrations) }

// migrate applies every migration above the database's user_version, each in
// its own transaction together with the user_version bump, so a crash leaves
// the schema at a whole version.
func (s *Store) migrate(ctx context.Context) error {
	return migrateTo(ctx, s.w, len(migrations))
}

func migrateTo(ctx context.Context, db *sql.DB, target int) error {
	var v int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this palace binary understands (%d): upgrade palace", v, len(migrations))
	}
	for i := v; i < target; i++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		// Re-read inside the write lock: another process may have migrated
		// while we waited for it.
		var cur int
		if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&cur); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		if cur > i {
			tx.Rollback()
			i = cur - 1
			continue
		}
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, i+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %d: commit: %w", i+1, err)
		}
	}
	return nil
}

// SchemaVersionOf reports the database's user_version.
func (s *Store) SchemaVersionOf(ctx context.Context) (int, error) {
	var v int
	err := s.r.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
