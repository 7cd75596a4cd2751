// Package backend opens a bank.Store from a location string, the value of
// --bank, RECONSTRUCT_BANK_PATH or bank.path: a postgres:// or
// postgresql:// URL opens the shared PostgreSQL bank (bank/postgres),
// anything else is a SQLite file (bank/sqlite). Which location a command
// uses is decided elsewhere (the one bank resolver); this package only
// opens it.
package backend
