// Package sqlite is the embedded bank.Store: one SQLite file through the
// pure-Go modernc.org/sqlite driver, in WAL mode, with schema migrations
// recorded in a version table. Values and graph structures are stored
// content-addressed in a blobs table (values over bank.ChunkThreshold as
// trees of chunk blobs, listed in the revision's trees column); revisions
// and events are append-only (triggers refuse updates and deletes); every
// write is one immediate transaction that checks the expected head first.
package sqlite
