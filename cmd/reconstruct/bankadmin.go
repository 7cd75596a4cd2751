package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/runner"
)

// The bank commands that look after the bank itself: check and migrate.

func newBankCheckCmd(o *bankOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Check the bank file: SQLite's integrity_check, every value against its hash, every run's examples against its journal",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.streams(c)
			return runBankCheck(c.Context(), o)
		},
	}
}

// runBankCheck runs the full integrity check and reports it as a response.
func runBankCheck(ctx context.Context, opts *bankOptions) error {
	loc, err := opts.location()
	if err != nil {
		return err
	}
	if backend.IsPostgres(loc) {
		return withCode(exitUsage, fmt.Errorf("bank check runs SQLite's integrity_check on a bank file; check a PostgreSQL bank (%s) with the server's own tools (pg_amcheck)", backend.Describe(loc)))
	}
	problems, err := runner.CheckBank(ctx, loc)
	switch {
	case err != nil:
		return opts.openFailed("check", err)
	case len(problems) > 0:
		return opts.respond(bank.Response{Action: "check", Error: &bank.ActionError{Code: "integrity_failed",
			Message: fmt.Sprintf("%s fails its checks (%d problems): %s", loc, len(problems), problems[0]), Details: map[string]any{"bank": loc, "problems": problems}}})
	}
	return opts.respond(bank.Response{OK: true, Action: "check", Result: map[string]any{"bank": loc, "integrity": "ok"}})
}

func newBankMigrateCmd(o *bankOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Create the bank, or upgrade its schema to this build's version",
		Long: `Create the bank (for PostgreSQL, in a database that exists already), or upgrade
an older schema to this build's version, in one transaction. A SQLite bank made by an
earlier version (schema 1 or 2) kept its receipt key in the database, and its bytes
stayed in the file's free space once the key moved to the key file: migrating it
wipes them (secure deletion, VACUUM, and a truncated write-ahead log) and says so
("cleaned").
Other commands never change a bank's schema: they refuse an older one (exit 2) until
this command has run, and always refuse a newer one.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.streams(c)
			return runBankMigrate(c.Context(), o)
		},
	}
}

// runBankMigrate creates the bank or upgrades its schema and prints what
// it did.
func runBankMigrate(ctx context.Context, opts *bankOptions) error {
	loc, err := opts.location()
	if err != nil {
		return err
	}
	m, err := backend.Migrate(ctx, loc, backend.Options{Logger: opts.logger(), Getenv: opts.getenv})
	if err != nil {
		return withCode(openExit(err), err)
	}
	res := map[string]any{"bank": backend.Describe(loc), "from_version": m.From, "version": m.To, "created": m.From == 0, "changed": m.From != m.To}
	if m.Cleaned {
		res["cleaned"] = "the receipt key, which an earlier version kept in the database (and whose bytes stayed in its free space), was wiped from the file: it is now only in the key file"
	}
	return opts.respond(bank.Response{OK: true, Action: "migrate", Result: res})
}
