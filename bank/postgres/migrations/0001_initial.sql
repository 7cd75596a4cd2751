-- Version 1: the bank's tables. Values and graph structures are blobs
-- addressed by their SHA-256; a revision refers to them by hash. Every table
-- but schema_migrations' version log is append-only: triggers refuse UPDATE,
-- DELETE and TRUNCATE, whoever asks. The receipt key is inserted into meta
-- by the migration code.
CREATE TABLE schema_migrations (
	version integer PRIMARY KEY,
	applied timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE meta (
	key text PRIMARY KEY,
	value bytea NOT NULL
);

CREATE TABLE blobs (
	hash text PRIMARY KEY,
	data bytea NOT NULL
);

CREATE TABLE workspaces (
	name text PRIMARY KEY,
	created timestamptz NOT NULL,
	forked_from text NOT NULL DEFAULT ''
);

CREATE TABLE revisions (
	workspace text NOT NULL REFERENCES workspaces (name),
	seq integer NOT NULL CHECK (seq > 0),
	parent text NOT NULL,
	inputs text NOT NULL,
	graph text NOT NULL REFERENCES blobs (hash),
	registry text NOT NULL,
	time timestamptz NOT NULL,
	action text NOT NULL,
	message text NOT NULL,
	forked_from text NOT NULL,
	PRIMARY KEY (workspace, seq)
);

CREATE TABLE functions (
	seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name text NOT NULL UNIQUE,
	kind text NOT NULL,
	definition bytea NOT NULL,
	time timestamptz NOT NULL
);

CREATE TABLE events (
	workspace text NOT NULL REFERENCES workspaces (name),
	seq integer NOT NULL CHECK (seq > 0),
	time timestamptz NOT NULL,
	run_id text NOT NULL,
	type text NOT NULL,
	data bytea NOT NULL,
	PRIMARY KEY (workspace, seq)
);

CREATE FUNCTION reconstruct_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% are append-only: % refused', TG_TABLE_NAME, TG_OP;
END
$$;

DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['schema_migrations', 'meta', 'blobs', 'workspaces', 'revisions', 'functions', 'events'] LOOP
		EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION reconstruct_append_only()', t || '_append_only', t);
		EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION reconstruct_append_only()', t || '_no_truncate', t);
	END LOOP;
END
$$;
