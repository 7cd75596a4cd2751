package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/runner"
)

// The bank commands that run one protocol action each (docs/bank.md).

type bankCreateOptions struct {
	*bankOptions
	workspace, spec, message string
}

func newBankCreateCmd(o *bankOptions) *cobra.Command {
	opts := &bankCreateOptions{bankOptions: o}
	cmd := &cobra.Command{
		Use:   "create --workspace NAME --spec FILE",
		Short: "Create a workspace from a spec {inputs, nodes, outputs}",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.streams(c)
			return runBankCreate(c.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.workspace, "workspace", "", "workspace name")
	cmd.Flags().StringVar(&opts.spec, "spec", "", "spec file ('-' for stdin)")
	cmd.Flags().StringVar(&opts.message, "message", "", "revision message")
	mustFlags(cmd, "workspace", "spec")
	return cmd
}

func runBankCreate(ctx context.Context, opts *bankCreateOptions) error {
	raw, err := opts.readInput("create", "--spec", opts.spec)
	if err != nil {
		return err
	}
	return opts.actMap(ctx, map[string]any{"action": "create", "workspace": opts.workspace, "spec": json.RawMessage(raw), "message": opts.message})
}

type bankActOptions struct {
	*bankOptions
	// file holds the action ("-": stdin); commit, when set, a receipt or
	// a whole proposal response to commit instead.
	file, commit string
}

func newBankActCmd(o *bankOptions) *cobra.Command {
	opts := &bankActOptions{bankOptions: o}
	cmd := &cobra.Command{
		Use:   "act [FILE|-] | act --commit PROPOSAL.json",
		Short: "Run one protocol action and print its response",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if opts.commit != "" && len(args) > 0 {
				return withCode(exitUsage, errors.New("act: give either an action file or --commit, not both"))
			}
			opts.file = "-"
			if len(args) == 1 {
				opts.file = args[0]
			}
			opts.streams(c)
			return runBankAct(c.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.commit, "commit", "", "commit a receipt or a whole proposal response from this file")
	return cmd
}

func runBankAct(ctx context.Context, opts *bankActOptions) error {
	if opts.commit != "" {
		raw, err := opts.readInput("commit", "--commit", opts.commit)
		if err != nil {
			return err
		}
		r, err := bank.DecodeReceipt(raw)
		if err != nil {
			return opts.respond(bank.Response{Action: "commit", Error: asActionError(err)})
		}
		return opts.actMap(ctx, map[string]any{"action": "commit", "receipt": r})
	}
	raw, err := opts.readInput("", "the action file", opts.file)
	if err != nil {
		return err
	}
	return opts.act(ctx, raw, actionAccess(raw))
}

type bankRegisterOptions struct {
	*bankOptions
	name string
	// Exactly one of function, program and fromRun is set.
	function, program, fromRun string
}

func newBankRegisterCmd(o *bankOptions) *cobra.Command {
	opts := &bankRegisterOptions{bankOptions: o}
	cmd := &cobra.Command{
		Use:   "register --name NAME --function FILE",
		Short: "Register a function (a typed sub-graph) or, with --program or --from-run, a program",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			given := 0
			for _, f := range []string{opts.function, opts.program, opts.fromRun} {
				if f != "" {
					given++
				}
			}
			if given != 1 {
				return withCode(exitUsage, errors.New("register: give exactly one of --function, --program or --from-run"))
			}
			opts.streams(c)
			return runBankRegister(c.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.name, "name", "", "operation name")
	cmd.Flags().StringVar(&opts.function, "function", "", "function file {params, nodes, output}")
	cmd.Flags().StringVar(&opts.program, "program", "", "program value file {kind: program, data}")
	cmd.Flags().StringVar(&opts.fromRun, "from-run", "", "register the final program of run RUN (see reconstruct runs list)")
	if o.app != nil {
		_ = cmd.RegisterFlagCompletionFunc("from-run", o.app.runIDs(func() string { return o.path }))
	}
	mustFlags(cmd, "name")
	return cmd
}

func runBankRegister(ctx context.Context, opts *bankRegisterOptions) error {
	req := map[string]any{"action": "register", "name": opts.name}
	switch {
	case opts.fromRun != "":
		prog, err := opts.programOfRun(ctx, opts.fromRun)
		if err != nil {
			return err
		}
		req["program"] = prog
	case opts.function != "":
		raw, err := opts.readInput("register", "--function", opts.function)
		if err != nil {
			return err
		}
		req["function"] = json.RawMessage(raw)
	default:
		raw, err := opts.readInput("register", "--program", opts.program)
		if err != nil {
			return err
		}
		req["program"] = json.RawMessage(raw)
	}
	return opts.actMap(ctx, req)
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

type bankCheckoutOptions struct {
	*bankOptions
	workspace, revision, expected string
}

func newBankCheckoutCmd(o *bankOptions) *cobra.Command {
	opts := &bankCheckoutOptions{bankOptions: o}
	cmd := &cobra.Command{
		Use:   "checkout --workspace NAME --revision rNNNNNN",
		Short: "Append a revision equal to a saved revision",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.streams(c)
			return runBankCheckout(c.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.workspace, "workspace", "", "workspace name")
	cmd.Flags().StringVar(&opts.revision, "revision", "", "revision to restore")
	cmd.Flags().StringVar(&opts.expected, "expected-revision", "", "fail unless the head is this revision")
	mustFlags(cmd, "workspace", "revision")
	return cmd
}

func runBankCheckout(ctx context.Context, opts *bankCheckoutOptions) error {
	req := map[string]any{"action": "checkout", "workspace": opts.workspace, "revision": opts.revision}
	if opts.expected != "" {
		req["expected_revision"] = opts.expected
	}
	return opts.actMap(ctx, req)
}

func newBankListCmd(o *bankOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List workspaces and registered functions",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o.streams(c)
			return runBankList(c.Context(), o)
		},
	}
}

func runBankList(ctx context.Context, opts *bankOptions) error {
	return opts.actMap(ctx, map[string]any{"action": "list"})
}

// bankWorkspaceOptions are the flags of a reading action on one workspace
// (log, events).
type bankWorkspaceOptions struct {
	*bankOptions
	action    string
	workspace string
}

func newBankLogCmd(o *bankOptions) *cobra.Command {
	return newBankWorkspaceCmd(o, "log", "List a workspace's revisions")
}

func newBankEventsCmd(o *bankOptions) *cobra.Command {
	return newBankWorkspaceCmd(o, "events", "Print a workspace's event journal")
}

func newBankWorkspaceCmd(o *bankOptions, action, short string) *cobra.Command {
	opts := &bankWorkspaceOptions{bankOptions: o, action: action}
	cmd := &cobra.Command{
		Use:   action + " --workspace NAME",
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts.streams(c)
			return runBankWorkspaceAction(c.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.workspace, "workspace", "", "workspace name")
	mustFlags(cmd, "workspace")
	return cmd
}

func runBankWorkspaceAction(ctx context.Context, opts *bankWorkspaceOptions) error {
	return opts.actMap(ctx, map[string]any{"action": opts.action, "workspace": opts.workspace})
}
