package main

import (
	"bufio"
	"bytes"
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

// bankOptions are the flags and dependencies of the bank command group.
type bankOptions struct {
	path   string
	getenv func(string) string
	log    *zap.Logger
	// runner runs program.apply in a sandbox; nil makes it fail clearly.
	runner bank.ProgramRunner
	// app, when set, supplies the logger and a sandbox program runner (with
	// the default sandbox settings) when log and runner are nil.
	app *app
}

// newBankCmd returns `reconstruct bank`, the command-line surface of
// BANK.md: create, act, register, checkout, list, log, events, serve.
func newBankCmd(a *app) *cobra.Command {
	return newBankCmdWith(&bankOptions{getenv: a.getenv, app: a})
}

func newBankCmdWith(o *bankOptions) *cobra.Command {
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
	cmd.PersistentFlags().StringVar(&o.path, "bank", "", "bank: a SQLite file or a postgres:// URL (default: RECONSTRUCT_BANK_PATH, else the per-user bank)")

	var ws, spec, msg string
	create := &cobra.Command{
		Use:   "create --workspace NAME --spec FILE",
		Short: "Create a workspace from a spec {inputs, nodes, outputs}",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			raw, err := readInput(c, spec)
			if err != nil {
				return err
			}
			return o.actMap(c, map[string]any{"action": "create", "workspace": ws, "spec": json.RawMessage(raw), "message": msg})
		},
	}
	create.Flags().StringVar(&ws, "workspace", "", "workspace name")
	create.Flags().StringVar(&spec, "spec", "", "spec file ('-' for stdin)")
	create.Flags().StringVar(&msg, "message", "", "revision message")
	mustFlags(create, "workspace", "spec")

	var commit string
	act := &cobra.Command{
		Use:   "act [FILE|-] | act --commit PROPOSAL.json",
		Short: "Run one protocol action and print its response",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if commit != "" {
				if len(args) > 0 {
					return withCode(exitUsage, errors.New("act: give either an action file or --commit, not both"))
				}
				raw, err := readInput(c, commit)
				if err != nil {
					return err
				}
				r, err := bank.DecodeReceipt(raw)
				if err != nil {
					return o.respond(c, bank.Response{Action: "commit", Error: asActionError(err)})
				}
				return o.actMap(c, map[string]any{"action": "commit", "receipt": r})
			}
			file := "-"
			if len(args) == 1 {
				file = args[0]
			}
			raw, err := readInput(c, file)
			if err != nil {
				return err
			}
			return o.act(c, raw, actionAccess(raw))
		},
	}
	act.Flags().StringVar(&commit, "commit", "", "commit a receipt or a whole proposal response from this file")

	var name, function, program, fromRun string
	register := &cobra.Command{
		Use:   "register --name NAME --function FILE",
		Short: "Register a function (a typed sub-graph) or, with --program or --from-run, a program",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			req := map[string]any{"action": "register", "name": name}
			given := 0
			for _, f := range []string{function, program, fromRun} {
				if f != "" {
					given++
				}
			}
			switch {
			case given != 1:
				return withCode(exitUsage, errors.New("register: give exactly one of --function, --program or --from-run"))
			case fromRun != "":
				prog, err := o.programOfRun(c.Context(), fromRun)
				if err != nil {
					return err
				}
				req["program"] = prog
			case function != "":
				raw, err := readInput(c, function)
				if err != nil {
					return err
				}
				req["function"] = json.RawMessage(raw)
			default:
				raw, err := readInput(c, program)
				if err != nil {
					return err
				}
				req["program"] = json.RawMessage(raw)
			}
			return o.actMap(c, req)
		},
	}
	register.Flags().StringVar(&name, "name", "", "operation name")
	register.Flags().StringVar(&function, "function", "", "function file {params, nodes, output}")
	register.Flags().StringVar(&program, "program", "", "program value file {kind: program, data}")
	register.Flags().StringVar(&fromRun, "from-run", "", "register the final program of run RUN (see reconstruct runs list)")
	mustFlags(register, "name")

	var rev, expected string
	checkout := &cobra.Command{
		Use:   "checkout --workspace NAME --revision rNNNNNN",
		Short: "Append a revision equal to a saved revision",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			req := map[string]any{"action": "checkout", "workspace": ws, "revision": rev}
			if expected != "" {
				req["expected_revision"] = expected
			}
			return o.actMap(c, req)
		},
	}
	checkout.Flags().StringVar(&ws, "workspace", "", "workspace name")
	checkout.Flags().StringVar(&rev, "revision", "", "revision to restore")
	checkout.Flags().StringVar(&expected, "expected-revision", "", "fail unless the head is this revision")
	mustFlags(checkout, "workspace", "revision")

	list := &cobra.Command{
		Use:   "list",
		Short: "List workspaces and registered functions",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.actMap(c, map[string]any{"action": "list"})
		},
	}
	check := &cobra.Command{
		Use:   "check",
		Short: "Run SQLite's full integrity_check on the bank file",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.check(c)
		},
	}
	logCmd := &cobra.Command{
		Use:   "log --workspace NAME",
		Short: "List a workspace's revisions",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.actMap(c, map[string]any{"action": "log", "workspace": ws})
		},
	}
	logCmd.Flags().StringVar(&ws, "workspace", "", "workspace name")
	mustFlags(logCmd, "workspace")
	events := &cobra.Command{
		Use:   "events --workspace NAME",
		Short: "Print a workspace's event journal",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return o.actMap(c, map[string]any{"action": "events", "workspace": ws})
		},
	}
	events.Flags().StringVar(&ws, "workspace", "", "workspace name")
	mustFlags(events, "workspace")

	var stdio bool
	serve := &cobra.Command{
		Use:   "serve --stdio",
		Short: "Serve actions as JSON lines: one action per line in, one response per line out",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !stdio {
				return withCode(exitUsage, errors.New("serve: only --stdio is supported"))
			}
			return o.serve(c, c.InOrStdin(), c.OutOrStdout())
		},
	}
	serve.Flags().BoolVar(&stdio, "stdio", false, "read actions from stdin, write responses to stdout")

	migrate := &cobra.Command{
		Use:   "migrate",
		Short: "Create the bank, or upgrade its schema to this build's version",
		Long: `Create the bank (for PostgreSQL, in a database that exists already), or upgrade
an older schema to this build's version, in one transaction.
Other commands never change a bank's schema: they refuse an older one (exit 2) until
this command has run, and always refuse a newer one.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return o.migrate(c) },
	}

	cmd.AddCommand(create, act, register, checkout, list, logCmd, events, serve, check, migrate)
	return cmd
}

// mustFlags makes the named flags required; a missing one is a usage error
// (exit status 2), checked before the command runs.
func mustFlags(c *cobra.Command, names ...string) {
	c.PreRunE = func(c *cobra.Command, _ []string) error {
		for _, n := range names {
			if !c.Flags().Changed(n) {
				return withCode(exitUsage, fmt.Errorf("%s: required flag --%s not set", c.Name(), n))
			}
		}
		return nil
	}
}

// readInput reads a file, or stdin for "-".
func readInput(c *cobra.Command, file string) ([]byte, error) {
	var r io.Reader
	if file == "-" {
		r = c.InOrStdin()
	} else {
		f, err := os.Open(file)
		if err != nil {
			return nil, withCode(exitUsage, err)
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxActionBytes+1))
	if err != nil {
		return nil, withCode(exitUsage, fmt.Errorf("read %s: %w", file, err))
	}
	if len(raw) > maxActionBytes {
		return nil, withCode(exitUsage, fmt.Errorf("read %s: larger than %d bytes", file, maxActionBytes))
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
// reconstruct) or a bad bank setting, 3 for anything else (unreachable,
// unreadable).
func openExit(err error) int {
	if errors.Is(err, bank.ErrSchema) || errors.Is(err, backend.ErrSetting) {
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
		pr = runner.NewProgramRunner(c, log)
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

// migrate creates the bank or upgrades its schema and prints what it did.
func (o *bankOptions) migrate(c *cobra.Command) error {
	loc, err := o.location()
	if err != nil {
		return err
	}
	from, to, err := backend.Migrate(c.Context(), loc, backend.Options{Logger: o.logger(), Getenv: o.getenv})
	if err != nil {
		return withCode(openExit(err), err)
	}
	return o.respond(c, bank.Response{OK: true, Action: "migrate", Result: map[string]any{
		"bank": backend.Describe(loc), "from_version": from, "version": to, "created": from == 0, "changed": from != to}})
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
func (o *bankOptions) openFailed(c *cobra.Command, action string, err error) error {
	switch {
	case errors.Is(err, runner.ErrNoBank):
		return o.respond(c, bank.Response{Action: action, Error: &bank.ActionError{Code: bank.CodeNotFound, Message: err.Error()}})
	case exitCode(err) == exitUsage:
		return err
	}
	return o.respond(c, bank.Response{Action: action, Error: &bank.ActionError{Code: bank.CodeInternal, Message: err.Error()}})
}

// check runs the full integrity check and reports it as a response.
func (o *bankOptions) check(c *cobra.Command) error {
	loc, err := o.location()
	if err != nil {
		return err
	}
	if backend.IsPostgres(loc) {
		return withCode(exitUsage, fmt.Errorf("bank check runs SQLite's integrity_check on a bank file; check a PostgreSQL bank (%s) with the server's own tools (pg_amcheck)", backend.Describe(loc)))
	}
	problems, err := runner.CheckBank(c.Context(), loc)
	switch {
	case err != nil:
		return o.openFailed(c, "check", err)
	case len(problems) > 0:
		return o.respond(c, bank.Response{Action: "check", Error: &bank.ActionError{Code: "integrity_failed",
			Message: fmt.Sprintf("%s fails SQLite's integrity_check (%d problems)", loc, len(problems)), Details: map[string]any{"bank": loc, "problems": problems}}})
	}
	return o.respond(c, bank.Response{OK: true, Action: "check", Result: map[string]any{"bank": loc, "integrity": "ok"}})
}

// programOfRun is the final program of a run recorded in this bank.
func (o *bankOptions) programOfRun(ctx context.Context, run string) (bank.Value, error) {
	b, closeBank, err := o.open(ctx, runner.ReadBank)
	if errors.Is(err, runner.ErrNoBank) {
		return bank.Value{}, withCode(exitUsage, fmt.Errorf("--from-run: no run %q: %w", run, err))
	}
	if err != nil {
		return bank.Value{}, err
	}
	defer closeBank()
	prog, err := runner.ProgramOfRun(ctx, b, run)
	if err != nil {
		loc, _ := o.location()
		return bank.Value{}, withCode(exitUsage, fmt.Errorf("--from-run: %w (in the bank %s)", err, loc))
	}
	return prog, nil
}

// actMap encodes a request built from flags and runs it. Flag values that
// are JSON documents are passed as they are, so their errors are reported
// like any action's.
func (o *bankOptions) actMap(c *cobra.Command, req map[string]any) error {
	if m, ok := req["message"].(string); ok && m == "" {
		delete(req, "message")
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return o.respond(c, bank.Response{Action: fmt.Sprint(req["action"]), Error: &bank.ActionError{Code: bank.CodeMalformed, Message: err.Error()}})
	}
	return o.act(c, raw, actionAccess(raw))
}

func (o *bankOptions) act(c *cobra.Command, raw []byte, access runner.BankAccess) error {
	b, closeBank, err := o.open(c.Context(), access)
	if err != nil {
		var head struct {
			Action string `json:"action"`
		}
		_ = json.Unmarshal(raw, &head)
		return o.openFailed(c, head.Action, err)
	}
	defer closeBank()
	return o.respond(c, b.Act(c.Context(), raw))
}

// respond prints the response and maps it to the exit status.
func (o *bankOptions) respond(c *cobra.Command, resp bank.Response) error {
	if err := writeResponse(c.OutOrStdout(), resp); err != nil {
		return withCode(exitInfra, err)
	}
	if resp.OK {
		return nil
	}
	return withCode(responseExit(resp), fmt.Errorf("bank %s: %s", resp.Action, resp.Error.Error()))
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		// A response that cannot be encoded is a bug; report it as data.
		buf.Reset()
		_ = enc.Encode(bank.Response{Action: resp.Action, Error: &bank.ActionError{Code: bank.CodeInternal, Message: "encode response: " + err.Error()}})
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// serve answers one JSON action per input line with one response line. A
// bad line gets a malformed_request response; the loop ends at EOF or when
// ctx is cancelled.
func (o *bankOptions) serve(c *cobra.Command, in io.Reader, out io.Writer) error {
	ctx := c.Context()
	b, closeBank, err := o.open(ctx, runner.WriteBank)
	if err != nil {
		return o.openFailed(c, "serve", err)
	}
	defer closeBank()
	return serveLines(ctx, b, in, out)
}

func serveLines(ctx context.Context, b *bank.Bank, in io.Reader, out io.Writer) error {
	// A read blocked on an idle stdin does not see ctx: the loop runs on its
	// own so that SIGTERM or Ctrl-C ends the server at once.
	done := make(chan error, 1)
	go func() { done <- serveLoop(ctx, b, in, out) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return nil
	}
}

func serveLoop(ctx context.Context, b *bank.Bank, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		if err := ctx.Err(); err != nil {
			return nil
		}
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			var resp bank.Response
			if tooLong {
				resp = bank.Response{Error: &bank.ActionError{Code: bank.CodeMalformed, Message: fmt.Sprintf("line longer than %d bytes", maxActionBytes)}}
			} else {
				resp = b.Act(ctx, line)
			}
			if werr := writeResponse(out, resp); werr != nil {
				return withCode(exitInfra, werr)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return withCode(exitInfra, fmt.Errorf("serve: read: %w", err))
		}
	}
}

// readLine reads one line; a line over maxActionBytes is consumed and
// reported as too long.
func readLine(r *bufio.Reader) ([]byte, bool, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) <= maxActionBytes {
			line = append(line, chunk...)
		} else {
			line = line[:0]
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			return nil, true, err
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, false, err
	}
}
