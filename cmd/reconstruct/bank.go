package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
)

// maxActionBytes bounds one action read from a file, stdin or a stdio line.
const maxActionBytes = 64 << 20

// bankOptions are the flags and dependencies every bank command shares.
type bankOptions struct {
	path   string
	getenv func(string) string
	log    *zap.Logger
	// runner runs program.apply in a sandbox; nil makes it fail clearly.
	runner bank.ProgramRunner
	// app, when set, supplies the logger and a sandbox program runner (with
	// the default sandbox settings) when log and runner are nil.
	app *app
	// in and out are the running command's streams (streams).
	in  io.Reader
	out io.Writer
}

// newBankCmd returns `reconstruct bank`, the command-line surface of
// docs/bank.md: create, act, register, checkout, list, log, events, serve,
// check, migrate. The actions are in bankactions.go, check and migrate
// in bankadmin.go, serve in bankserve.go.
func newBankCmd(o *bankOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bank",
		Short: "Versioned store of typed computations (observe, propose, commit, fork, undo, compare)",
		Long: `The bank holds workspaces of typed computations with append-only revisions.
Every command prints one JSON response {"ok", "action", "result"|"error"} on stdout.
The bank is --bank, else RECONSTRUCT_BANK_PATH, else the per-user bank
($XDG_DATA_HOME/reconstruct/bank.db or ~/.local/share/reconstruct/bank.db); commands
that only read (list, log, events, check, and act with a reading action) never create it.
--bank takes a SQLite file or a postgres:// URL.
Exit status: 0 ok, 1 rejected (stale, tampered, constraint, not found, ...), 2 malformed
request or a bank whose schema needs "bank migrate" (or a newer reconstruct), 3 the bank
could not be opened or reached (or fails its checks).`,
	}
	cmd.PersistentFlags().StringVar(&o.path, "bank", "", bankUsage("bank the command works on", false))
	return cmd
}

// streams takes the running command's input and output streams.
func (o *bankOptions) streams(c *cobra.Command) {
	o.in, o.out = c.InOrStdin(), c.OutOrStdout()
}

// mustFlags makes the named flags required; a missing one is a usage error
// (exit status 2), checked before the command runs.
func mustFlags(c *cobra.Command, names ...string) {
	c.PreRunE = func(c *cobra.Command, _ []string) error {
		for _, n := range names {
			if err := requireFlag(c, n); err != nil {
				return err
			}
		}
		return nil
	}
}

// readInput reads a file, or the command's input for "-". A file that
// cannot be read is the action's malformed_request, answered as every
// response is (one JSON line on stdout, exit 2); what names the file
// ("--spec", "the action file").
func (o *bankOptions) readInput(action, what, file string) ([]byte, error) {
	failed := func(err error) error {
		return o.respond(bank.Response{Action: action, Error: &bank.ActionError{Code: bank.CodeMalformed, Message: what + ": " + err.Error()}})
	}
	var r io.Reader
	if file == "-" {
		r = o.in
	} else {
		f, err := os.Open(file)
		if err != nil {
			return nil, failed(err)
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxActionBytes+1))
	if err != nil {
		return nil, failed(fmt.Errorf("read %s: %w", file, err))
	}
	if len(raw) > maxActionBytes {
		return nil, failed(fmt.Errorf("read %s: larger than %d bytes", file, maxActionBytes))
	}
	return raw, nil
}

// location is the bank the command works on (config.ResolveBank).
func (o *bankOptions) location() (string, error) {
	loc, err := config.ResolveBank(o.path, o.getenv, nil)
	if err != nil {
		return "", withCode(exitUsage, err)
	}
	if loc.Warning != "" {
		o.logger().Warn(loc.Warning)
	}
	return loc.Location, nil
}

func (o *bankOptions) logger() *zap.Logger {
	switch {
	case o.log != nil:
		return o.log
	case o.app != nil:
		return o.app.logger()
	}
	return zap.NewNop()
}

// openExit is the exit status of a bank that cannot be opened: 2 for a
// schema this build does not use as it is (run bank migrate, or a newer
// reconstruct), a bad bank setting or a path that holds something else
// (no bank, a side file that is a link), 3 for anything else
// (unreachable, unreadable).
func openExit(err error) int {
	if errors.Is(err, bank.ErrSchema) || errors.Is(err, backend.ErrSetting) || errors.Is(err, bank.ErrForeign) {
		return exitUsage
	}
	return exitInfra
}

// open opens the bank for access; reading never creates it.
func (o *bankOptions) open(ctx context.Context, access runner.BankAccess) (*bank.Bank, func(), error) {
	loc, err := o.location()
	if err != nil {
		return nil, nil, err
	}
	log := o.logger()
	programs := o.runner
	var pr *runner.ProgramRunner
	if programs == nil && o.app != nil {
		c, err := config.Defaults(o.getenv)
		if err != nil {
			return nil, nil, err
		}
		pr = runner.NewProgramRunner(c.Sandbox, log)
		programs = pr
	}
	b, closeBank, err := runner.OpenBank(ctx, loc, access, runner.BankOptions{Log: log.With(zap.String("bank", backend.Describe(loc))), Programs: programs, Getenv: o.getenv})
	if err != nil {
		if pr != nil {
			pr.Close()
		}
		if errors.Is(err, runner.ErrNoBank) {
			return nil, nil, err
		}
		return nil, nil, withCode(openExit(err), err)
	}
	closeAll := func() {
		if pr != nil {
			pr.Close()
		}
		closeBank()
	}
	return b, closeAll, nil
}

// readingActions change nothing in the bank.
var readingActions = map[string]bool{"observe": true, "propose": true, "compare": true, "list": true, "log": true, "events": true}

// actionAccess is how an action uses the bank: reading actions must find
// it, the others create it when missing.
func actionAccess(raw []byte) runner.BankAccess {
	var head struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(raw, &head) == nil && readingActions[head.Action] {
		return runner.ReadBank
	}
	return runner.WriteBank
}

// openFailed answers an action whose bank could not be opened: a missing
// bank is not_found (exit 1), one that cannot be opened or fails its
// checks internal_error (exit 3); a usage error stays one.
func (o *bankOptions) openFailed(action string, err error) error {
	switch {
	case errors.Is(err, runner.ErrNoBank):
		return o.respond(bank.Response{Action: action, Error: &bank.ActionError{Code: bank.CodeNotFound, Message: err.Error()}})
	case exitCode(err) == exitUsage:
		return err
	}
	return o.respond(bank.Response{Action: action, Error: &bank.ActionError{Code: bank.CodeInternal, Message: err.Error()}})
}

// actMap encodes a request built from flags and runs it. Flag values that
// are JSON documents are passed as they are, so their errors are reported
// like any action's.
func (o *bankOptions) actMap(ctx context.Context, req map[string]any) error {
	if m, ok := req["message"].(string); ok && m == "" {
		delete(req, "message")
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return o.respond(bank.Response{Action: fmt.Sprint(req["action"]), Error: &bank.ActionError{Code: bank.CodeMalformed, Message: err.Error()}})
	}
	return o.act(ctx, raw, actionAccess(raw))
}

func (o *bankOptions) act(ctx context.Context, raw []byte, access runner.BankAccess) error {
	b, closeBank, err := o.open(ctx, access)
	if err != nil {
		var head struct {
			Action string `json:"action"`
		}
		_ = json.Unmarshal(raw, &head)
		return o.openFailed(head.Action, err)
	}
	defer closeBank()
	return o.respond(b.Act(ctx, raw))
}

// respond prints the response and maps it to the exit status.
func (o *bankOptions) respond(resp bank.Response) error {
	if err := writeResponse(o.out, resp); err != nil {
		return withCode(exitInfra, err)
	}
	if resp.OK {
		return nil
	}
	action := resp.Action
	if action == "" {
		action = "act" // an action that could not be read
	}
	return withCode(responseExit(resp), fmt.Errorf("bank %s: %s", action, resp.Error.Error()))
}

func responseExit(resp bank.Response) int {
	switch {
	case resp.OK:
		return exitOK
	case resp.Error.Code == bank.CodeMalformed:
		return exitUsage
	case resp.Error.Code == bank.CodeInternal:
		return exitInfra
	}
	return exitRejected
}

func asActionError(err error) *bank.ActionError {
	var ae *bank.ActionError
	if errors.As(err, &ae) {
		return ae
	}
	return &bank.ActionError{Code: bank.CodeMalformed, Message: err.Error()}
}

func writeResponse(w io.Writer, resp bank.Response) error {
	out, err := resp.AppendJSON(nil)
	if err != nil {
		// A response that cannot be encoded is a bug; report it as data.
		out, _ = bank.Response{Action: resp.Action, Error: &bank.ActionError{Code: bank.CodeInternal, Message: "encode response: " + err.Error()}}.AppendJSON(nil)
	}
	_, err = w.Write(append(out, '\n'))
	return err
}
