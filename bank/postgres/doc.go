// Package postgres is the shared bank.Store: one PostgreSQL database that
// several machines record into, through a pgx connection pool.
//
// The schema matches bank/sqlite's: values and graph structures are
// content-addressed blobs (values over bank.ChunkThreshold as trees of
// chunk blobs), revisions refer to them by hash, and revisions,
// events, blobs, workspaces, functions and the receipt key are append-only,
// enforced by triggers in the database (UPDATE, DELETE and TRUNCATE are
// refused whoever asks). Every write is one transaction; writes to one
// workspace take a transaction-scoped advisory lock (no privilege beyond
// SELECT and INSERT is needed) and the (workspace, seq) primary key makes a
// second revision with the same number impossible, so of several processes
// committing against one head exactly one wins and the others get
// bank.ErrStale.
//
// Schema versions are embedded SQL files (migrations/NNNN_*.sql) applied in
// order by Migrate, in one transaction, and logged in schema_migrations.
// Open never changes the schema: a database without a bank, or with an
// older or newer schema, is refused with bank.ErrSchema.
//
// Calls that fail because the server is unreachable (restarting, a
// connection killed) are retried with exponential backoff for a bounded
// time (Options.RetryFor); a write whose commit outcome is unknown is
// recognised on retry by looking for what it wrote, so it is neither lost
// nor applied twice.
package postgres
