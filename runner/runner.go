// Package runner turns a loaded configuration into a running workflow: it
// starts the sandboxes (the agent's and the oracle's), the oracle, the
// agent, the candidate archive and the recorders, runs workflow.Run and
// closes everything. The CLI and the benchmark runner both use it.
package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/replay"
	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/binding"
	"github.com/reconstruct/reconstruct/candidates"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/task"
	"github.com/reconstruct/reconstruct/workflow"
)

// ErrInfra marks failures of the infrastructure (sandbox, endpoints), as
// opposed to bad configuration.
var ErrInfra = errors.New("infrastructure failure")

// ErrConfig marks a configuration that cannot be run.
var ErrConfig = errors.New("configuration error")

// Options are the non-configuration parts of a run.
type Options struct {
	Log      *zap.Logger
	Progress io.Writer
	// RunID is generated when empty; a given one is kept exactly or
	// refused (CheckRunID).
	RunID string
	// Recorders are added to the workspace's file recorder.
	Recorders []workflow.Recorder
	// Bank, when set, records the run instead of the bank file of the
	// configuration (bank.enabled still decides whether a run is recorded).
	Bank *bank.Bank
	// Config, when set, replaces the recorded configuration of a resumed
	// run: a run continued on another machine, where the task's files and
	// the workspace are elsewhere. It must name the same task and function.
	Config *config.Config
	// Force uses a workspace that holds files this tool did not write.
	Force bool
	// Synth holds the lambda banks the built-in synthesizer shares with
	// other runs: a sweep's or a worker's tasks (nil: the run makes its
	// own).
	Synth *synth.Shared
	// Workspace and SandboxKind, when set, replace a resumed run's
	// recorded workspace (it was moved there) and sandbox.kind (where it
	// goes on): neither changes what the run computes.
	Workspace, SandboxKind string
}

// NewRunID returns a sortable, unique run id.
func NewRunID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// Run executes one configured run end to end. Everything that can be
// checked — the run id, the workspace, the agent's settings, the hidden
// program's and the generator's functions — is checked before anything is
// created; a failure there wraps ErrConfig.
func Run(ctx context.Context, c *config.Config, opts Options) (*workflow.Result, error) {
	l, err := newLaunch(ctx, c, opts)
	if err != nil {
		return nil, err
	}
	c = l.c
	if c.Bank.Enabled {
		ws := RunWorkspaceName(c.Task.Name, l.runID)
		l.started.BankWorkspace = ws
		l.record = func(ctx context.Context) (*BankRecorder, func() error, error) {
			b, closeBank, err := l.openBank(ctx, c.Bank.Path, WriteBank)
			if err != nil {
				return nil, nil, err
			}
			rec, err := NewRunWorkspace(ctx, b, ws, c.Task.FunctionName)
			if err != nil {
				closeBank()
				return nil, nil, err
			}
			return rec, closeBank, nil
		}
	}
	return l.execute(ctx)
}

// Resume continues an interrupted run from the bank at location: no
// observed example is lost or asked again, and the archive and counts are
// restored. The run's own recorded configuration is used. A run stopped by
// Ctrl-C or SIGTERM, or ended by an infrastructure failure, resumes from
// its last checkpoint; one killed during its final selection completes it;
// one that reached a stop of the protocol and recorded its final selection
// is finished (workflow.ErrFinished).
func Resume(ctx context.Context, location, run string, opts Options) (*workflow.Result, error) {
	l := &launch{opts: opts}
	r, err := l.recorded(ctx, location, run, "")
	if err != nil {
		return nil, err
	}
	defer r.close()
	c := r.config
	if opts.Config != nil {
		if err := sameTask(opts.Config, run, c); err != nil {
			return nil, err
		}
		c = opts.Config
	}
	if c, err = c.Moved(opts.Workspace, opts.SandboxKind); err != nil {
		return nil, fmt.Errorf("%w: resume run %s: %w", ErrConfig, run, err)
	}
	st, err := workflow.StateFromEvents(r.events)
	if err != nil {
		return nil, fmt.Errorf("%w: resume run %s: %w", ErrConfig, run, err)
	}
	l.c, l.runID, l.state, l.finish = c, r.events[0].RunID, st, workflow.PendingFinal(r.events)
	l.record = func(ctx context.Context) (*BankRecorder, func() error, error) {
		// The candidates the workspace lost (it was moved, or emptied)
		// come back from the bank, or the run is refused before it goes
		// on: its final selection needs every one.
		ws, err := filepath.Abs(c.Workspace)
		if err != nil {
			return nil, nil, err
		}
		n, err := RestoreCandidates(ctx, r.bank, l.runID, ws, st.Archived)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: resume run %s: %w: give the workspace where it is now with --workspace DIR, or start anew from the run's examples with: reconstruct run --fork %s --config FILE",
				ErrConfig, run, err, run)
		}
		if n > 0 {
			what := fmt.Sprintf("%d archived candidates of run %s were", n, run)
			if n == 1 {
				what = "1 archived candidate of run " + run + " was"
			}
			notice := fmt.Sprintf("resume: %s missing from %s: restored from the bank\n", what, ws)
			if opts.Progress != nil {
				fmt.Fprint(opts.Progress, notice)
			} else if opts.Log != nil {
				opts.Log.Warn(strings.TrimSpace(notice))
			}
		}
		// The bank is the record: the workspace's journal files are
		// rewritten from it, so that both hold the same events one for one.
		return continueRecording(ctx, r.bank, r.workspace, c, r.events, st.Examples)
	}
	return l.execute(ctx)
}

// recordedRun is a run found in the bank, with the bank kept open.
type recordedRun struct {
	bank      *bank.Bank
	close     func() error
	workspace string
	events    []workflow.Event
	config    *config.Config
}

// recorded finds run in the bank at location; a bank or a run that is not
// there is a configuration error naming the bank. what prefixes messages.
func (l *launch) recorded(ctx context.Context, location, run, what string) (*recordedRun, error) {
	b, closeBank, err := l.openBank(ctx, location, UpdateBank)
	if errors.Is(err, ErrNoBank) {
		return nil, fmt.Errorf("%w: %sno run %q: %w", ErrConfig, what, run, err)
	}
	if err != nil {
		return nil, err
	}
	r := &recordedRun{bank: b, close: closeBank}
	if r.workspace, err = FindRun(ctx, b, run); err != nil {
		closeBank()
		return nil, fmt.Errorf("%w: %s%w in the bank %s", ErrConfig, what, err, location)
	}
	if r.events, err = RunEvents(ctx, b, r.workspace); err != nil {
		closeBank()
		return nil, err
	}
	if r.config, err = recordedConfig(r.events); err != nil {
		closeBank()
		return nil, fmt.Errorf("%w: run %s: %w", ErrConfig, run, err)
	}
	return r, nil
}

// continueRecording reopens a run's bank workspace and writes the
// workspace's journal files from the recorded events and examples.
func continueRecording(ctx context.Context, b *bank.Bank, ws string, c *config.Config, events []workflow.Event, examples []task.Example) (*BankRecorder, func() error, error) {
	rec, err := ContinueRunWorkspace(ctx, b, ws, c.Task.FunctionName, examples)
	if err != nil {
		return nil, nil, err
	}
	if err := workflow.WriteJournal(c.Workspace, events, examples); err != nil {
		return nil, nil, err
	}
	return rec, func() error { return nil }, nil
}

// newLaunch is the launch of a new run (Run and Fork) with the settings of
// c: the run id of opts, checked, or a new one, and c's task factory bound.
func newLaunch(ctx context.Context, c *config.Config, opts Options) (*launch, error) {
	runID := opts.RunID
	if runID == "" {
		runID = NewRunID()
	} else if err := CheckRunID(runID); err != nil {
		return nil, err
	}
	c, err := Bind(ctx, c, opts.Log)
	if err != nil {
		return nil, err
	}
	return &launch{c: c, opts: opts, runID: runID}, nil
}

// Fork starts a new run, with the settings of c, from an earlier run's
// examples and candidates, recorded as a fork of its bank workspace.
func Fork(ctx context.Context, c *config.Config, fromRun string, opts Options) (*workflow.Result, error) {
	l, err := newLaunch(ctx, c, opts)
	if err != nil {
		return nil, err
	}
	c = l.c
	r, err := l.recorded(ctx, c.Bank.Path, fromRun, "--fork: ")
	if err != nil {
		return nil, err
	}
	defer r.close()
	b, src, events, parent := r.bank, r.workspace, r.events, r.config
	if err := sameTask(c, fromRun, parent); err != nil {
		return nil, err
	}
	st, err := workflow.ForkState(events)
	if err != nil {
		return nil, fmt.Errorf("%w: fork run %s: %w", ErrConfig, fromRun, err)
	}
	ws := RunWorkspaceName(c.Task.Name, l.runID)
	l.state, l.fork = st, true
	l.started = workflow.RunStarted{BankWorkspace: ws, ForkedFrom: events[0].RunID}
	l.record = func(ctx context.Context) (*BankRecorder, func() error, error) {
		if err := copyCandidates(parent.Workspace, c.Workspace, l.runID, st); err != nil {
			return nil, nil, err
		}
		head, err := b.Load(ctx, src, "")
		if err != nil {
			return nil, nil, err
		}
		if _, err := b.Fork(ctx, src, ws, head.Name); err != nil {
			return nil, nil, fmt.Errorf("fork bank workspace %s: %w", src, err)
		}
		return continueRecording(ctx, b, ws, c, nil, st.Examples)
	}
	return l.execute(ctx)
}

// sameTask checks that c reconstructs the task that run (recorded with
// configuration rc) reconstructs.
func sameTask(c *config.Config, run string, rc *config.Config) error {
	if rc.Task.Name != c.Task.Name || rc.Task.FunctionName != c.Task.FunctionName {
		return fmt.Errorf("%w: %s: run %s reconstructs %s (%s), this configuration %s (%s)", ErrConfig, c.File,
			run, rc.Task.Name, rc.Task.FunctionName, c.Task.Name, c.Task.FunctionName)
	}
	return nil
}

// recordedConfig is the configuration a run recorded when it started,
// defaulted and validated as a file is (config.Recorded).
func recordedConfig(events []workflow.Event) (*config.Config, error) {
	for _, ev := range events {
		if ev.Type != workflow.EventRunStarted {
			continue
		}
		rs, err := workflow.DecodeRunStarted(ev)
		if err != nil {
			return nil, err
		}
		if len(rs.Config) == 0 {
			return nil, errors.New("its run_started event holds no configuration")
		}
		return config.Recorded(rs.Config, "the configuration recorded by run "+ev.RunID, nil)
	}
	return nil, errors.New("no run_started event")
}

// copyCandidates copies the archived candidates of a forked run into the
// new run's archive, under the new run id.
func copyCandidates(fromWorkspace, toWorkspace, runID string, st *workflow.State) error {
	if len(st.Archived) == 0 {
		return nil
	}
	from, err := candidates.OpenExisting(fromWorkspace)
	if err != nil {
		return fmt.Errorf("fork: %w", err)
	}
	to, err := candidates.Open(toWorkspace)
	if err != nil {
		return err
	}
	for i, rec := range st.Archived {
		src, err := from.Source(rec)
		if err != nil {
			return fmt.Errorf("fork: %w", err)
		}
		tr, err := from.Transcript(rec)
		if err != nil {
			return fmt.Errorf("fork: %w", err)
		}
		rec.RunID = runID
		if st.Archived[i], err = to.Add(rec, src, tr); err != nil {
			return err
		}
	}
	return nil
}

// archiveAfterFailure bounds storing the workspace archive of a run that
// failed.
const archiveAfterFailure = 10 * time.Second

// launch is one run about to execute.
type launch struct {
	c     *config.Config
	opts  Options
	runID string
	state *workflow.State
	fork  bool
	// finish is the stop a resumed run reached without recording its
	// final selection (workflow.Spec.Finish).
	finish string
	// started is recorded in the run_started event (the workflow adds the
	// task and the settings).
	started workflow.RunStarted
	// record, when the run is recorded in a bank, makes the run's bank
	// workspace (and whatever else must be written before the run starts)
	// once every check passed; it returns the recorder and a closer.
	record func(ctx context.Context) (*BankRecorder, func() error, error)
}

func (l *launch) openBank(ctx context.Context, location string, access BankAccess) (*bank.Bank, func() error, error) {
	if l.opts.Bank != nil {
		return l.opts.Bank, func() error { return nil }, nil
	}
	b, closeFn, err := OpenBank(ctx, location, access, BankOptions{Log: l.opts.Log})
	if errors.Is(err, bank.ErrSchema) || errors.Is(err, backend.ErrSetting) || errors.Is(err, bank.ErrForeign) {
		return nil, nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err != nil {
		if errors.Is(err, ErrNoBank) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%w: %w", ErrInfra, err)
	}
	return b, closeFn, nil
}

// execute checks, prepares and runs. Nothing is written before the checks
// passed: a configuration the run cannot use creates no workspace, no bank
// workspace and no bank file.
func (l *launch) execute(ctx context.Context) (res *workflow.Result, err error) {
	c, opts := l.c, l.opts
	log := opts.Log
	if log == nil {
		log = zap.NewNop()
	}
	log = log.With(zap.String("run", l.runID), zap.String("task", c.Task.Name))
	workspace, err := filepath.Abs(c.Workspace)
	if err != nil {
		return nil, err
	}
	// A resumed run's workspace is its own by definition.
	if err := checkLaunch(c, workspace, opts.Force || (l.state != nil && !l.fork)); err != nil {
		return nil, err
	}
	// The workspace is this run's alone until it is over: another run
	// there is refused before it starts anything.
	lock, err := workflow.LockWorkspace(workspace, l.runID)
	if err != nil {
		return nil, workspaceProblem(c, err)
	}
	if lock.Stale != nil {
		log.Info("took over the workspace of a run that ended without releasing it", zap.String("workspace", workspace), zap.Stringer("holder", *lock.Stale))
	}
	started := false
	defer func() {
		lock.Release()
		if !started {
			workflow.DiscardWorkspace(workspace, lock.Created)
		}
	}()
	shared := opts.Synth
	if shared == nil {
		shared = synth.NewShared(synth.SharedOptions{})
	}
	// The synthesizer's default lambda banks (a second or more of CPU,
	// once per Shared) are built while the sandboxes start, so that its
	// first session finds them ready; the run waits for the build to end
	// before it returns.
	if c.Agent.Kind == "synth" {
		prepCtx, stopPrep := context.WithCancel(ctx)
		prepared := make(chan struct{})
		go func() {
			defer close(prepared)
			shared.Prepare(prepCtx)
		}()
		defer func() {
			stopPrep()
			<-prepared
		}()
	}
	// An agent that needs no sandbox of its own is made before the
	// sandboxes start.
	var ag agent.Agent
	defer func() {
		// The synthesizer gives its searches' memory back (a sweep runs
		// the next task in this process).
		if c, ok := ag.(io.Closer); ok {
			if err := c.Close(); err != nil {
				log.Warn("closing the agent", zap.Error(err))
			}
		}
	}()
	if !needsAgentBox(c.Agent) {
		if ag, err = NewAgent(ctx, c, nil, shared, log); err != nil {
			return nil, err
		}
	}
	// The sandboxes outlive a cancelled run long enough to select the final
	// program among the archived candidates; they are closed on return.
	boxCtx, cancelBoxes := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBoxes()
	boxes, err := OpenSandboxes(boxCtx, c, l.runID, log)
	if err != nil {
		return nil, err
	}
	// The Docker sandbox gives the workspace to the agent container's user;
	// it is given back on every way out, once the containers are gone.
	restoreOwner := func() {}
	defer func() {
		boxes.Close()
		restoreOwner()
	}()
	bindingNotice, err := checkTask(ctx, c, boxes.Oracle)
	if err != nil {
		return nil, err
	}

	if _, err := workflow.PrepareWorkspace(workspace, l.runID); err != nil {
		return nil, err
	}
	var bankRec *BankRecorder
	if l.record != nil {
		rec, closeBank, err := l.record(ctx)
		if err != nil {
			return nil, err
		}
		defer closeBank()
		bankRec = rec
	}
	restoreOwner = keepOwner(workspace, log)
	if err := boxes.OpenAgent(boxCtx, c, l.runID, workspace, log); err != nil {
		return nil, err
	}
	orc, err := NewOracle(c, boxes.Oracle)
	if err != nil {
		return nil, err
	}
	for _, notice := range []string{HostOracleNotice(c), bindingNotice} {
		switch {
		case notice == "":
		case opts.Progress != nil:
			fmt.Fprint(opts.Progress, notice)
		default:
			log.Warn(strings.TrimSpace(notice))
		}
	}
	defer orc.Close()
	if line := config.SettingsLine(c.TaskDefaults()); line != "" {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "settings: %s\n", line)
		} else {
			log.Info("settings: " + line)
		}
	}
	if ag == nil {
		if ag, err = NewAgent(ctx, c, boxes, shared, log); err != nil {
			return nil, err
		}
	}
	archive, err := candidates.Open(workspace)
	if err != nil {
		return nil, err
	}
	if bankRec != nil {
		bankRec.KeepCandidates(archive)
	}
	files, err := workflow.NewFileRecorder(workspace, l.state != nil)
	if err != nil {
		return nil, err
	}
	defer files.Close()
	var recorders []workflow.Recorder
	if bankRec != nil {
		// The bank first: it is the record a resumed run reads back.
		recorders = append(recorders, bankRec)
	}
	recorders = append(append(recorders, files), opts.Recorders...)
	deps := workflow.Deps{Agent: ag, Oracle: orc, Evaluator: boxes.Eval, Archive: archive, Recorders: recorders,
		Domain: taskDomain{c.Task.Describe()}}
	if g := c.Task.RandomInputs; g != nil {
		deps.Random = oracle.NewGenerator(boxes.Oracle, g.Python, g.Function, c.Sandbox.Limits())
	}
	if c.Task.Factory != "" {
		p, err := factoryTask(c, boxes, workspace, log)
		if err != nil {
			return nil, err
		}
		deps.Hook = p.hook
		if p.random != nil {
			deps.Random = p.random
		}
		if p.recorder != nil {
			deps.Recorders = append(deps.Recorders, p.recorder)
		}
	}
	startData := l.started
	if startData.Config, err = json.Marshal(c.Stamped()); err != nil {
		return nil, fmt.Errorf("record the configuration: %w", err)
	}
	spec := workflow.Spec{
		Task: c.Task.Describe(), Settings: c.Workflow, Origins: c.Origins, Workspace: workspace, RunID: l.runID,
		Limits: c.Sandbox.Limits(), Log: log, Progress: opts.Progress, Resume: l.state, Fork: l.fork, Finish: l.finish, Started: startData,
	}
	started = true
	res, runErr := workflow.Run(ctx, spec, deps)
	if bankRec != nil {
		// Another machine sharing the bank can then inspect the run's
		// candidates; the workspace on disk stays the run's own record.
		actx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		if runErr != nil {
			// The bank may be what failed: do not wait out its retries twice.
			actx, cancel = context.WithTimeout(actx, archiveAfterFailure)
		}
		aerr := bankRec.RecordArchive(actx, workspace)
		cancel()
		if aerr != nil {
			log.Warn("the workspace archive was not stored in the bank", zap.Error(aerr))
		}
	}
	return res, runErr
}

// NewOracle builds the configured oracle, its answers bounded by
// task.oracle.max_output_depth and max_output_kb: an answer beyond them is
// a configuration error (the task's) naming the bound.
func NewOracle(c *config.Config, box oracle.Runner) (oracle.Oracle, error) {
	o, err := newOracle(c, box)
	if err != nil {
		return nil, err
	}
	b := oracle.Bounds{MaxDepth: c.Task.Oracle.MaxOutputDepth, MaxBytes: c.Task.Oracle.MaxOutputKB << 10}
	return taskOracle{oracle.Bounded(o, b), c.File}, nil
}

func newOracle(c *config.Config, box oracle.Runner) (oracle.Oracle, error) {
	o := c.Task.Oracle
	// A Python hidden program's outputs are bounded in its sandbox too.
	lim := c.Sandbox.Limits()
	lim.Timeout = o.Timeout
	lim.OutputBytes = int64(o.MaxOutputKB) << 10
	switch {
	case c.Task.Factory != "":
		b, err := loadBinding(c)
		if err != nil {
			return nil, err
		}
		return oracle.NewPythonProgram(box, b.Program(binding.EntryOracle), "task.factory "+c.Task.Factory, lim), nil
	case o.Python != "":
		return oracle.NewPython(box, o.Python, o.Function, lim).Rejecting(o.RejectExceptions, "task.oracle.reject_exceptions"), nil
	case len(o.Command) > 0 && o.OnHost:
		return oracle.NewHostCommand(o.Command, filepath.Dir(c.File), o.Timeout), nil
	case len(o.Command) > 0:
		return oracle.NewCommand(box, sandboxArgv(c), o.Timeout, c.Sandbox.Limits()), nil
	case o.HTTP != "":
		return oracle.NewHTTP(o.HTTP, o.Timeout, o.Retries), nil
	}
	return nil, fmt.Errorf("%w: %s: task.oracle: no hidden program configured", ErrConfig, c.File)
}

// taskOracle marks an answer beyond the task's bounds (oracle.BoundError)
// as a configuration error of the task file.
type taskOracle struct {
	oracle.Oracle
	file string
}

func (o taskOracle) Query(ctx context.Context, inputs []json.RawMessage) ([]oracle.Answer, error) {
	answers, err := o.Oracle.Query(ctx, inputs)
	var bound *oracle.BoundError
	if errors.As(err, &bound) {
		return nil, fmt.Errorf("%w: %s: %w", ErrConfig, o.file, err)
	}
	return answers, err
}

// sandboxArgv is the command of a command oracle as its sandbox runs it:
// a path to the command is made relative to the task directory, the
// sandbox's working directory (configuration checks keep it inside).
func sandboxArgv(c *config.Config) []string {
	argv := append([]string(nil), c.Task.Oracle.Command...)
	if dir := filepath.Dir(c.File); filepath.IsAbs(argv[0]) {
		if rel, err := filepath.Rel(dir, argv[0]); err == nil && !strings.HasPrefix(rel, "..") {
			argv[0] = "./" + filepath.ToSlash(rel)
		}
	}
	return argv
}

// HostOracleNotice is what a run says when it starts if its hidden program
// runs on this machine rather than in a sandbox ("" otherwise).
func HostOracleNotice(c *config.Config) string {
	o := c.Task.Oracle
	if !o.OnHost || len(o.Command) == 0 {
		return ""
	}
	return fmt.Sprintf("warning: task.oracle.on_host is set: the hidden program %q runs on this machine, outside any sandbox, as this user, in %s, with only %s of the environment\n",
		strings.Join(o.Command, " "), filepath.Dir(c.File), strings.Join(oracle.HostEnvAllowed, ", ")+" and LC_*")
}

// NewAgent builds the configured agent, with the run's sandboxes when it
// needs them (nil for agents without tools) and the built-in synthesizer
// with the lambda banks of shared (nil: its own); its infrastructure
// failures are marked with workflow.ErrAgentInfrastructure.
func NewAgent(ctx context.Context, c *config.Config, boxes *Sandboxes, shared *synth.Shared, log *zap.Logger) (agent.Agent, error) {
	switch c.Agent.Kind {
	case "replay":
		a, err := replay.Load(c.Agent.Replay.Script)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		return withInfra(a), nil
	}
	a, err := newAgentKind(ctx, c, boxes, shared, log)
	if err != nil {
		return nil, err
	}
	return withInfra(a), nil
}
