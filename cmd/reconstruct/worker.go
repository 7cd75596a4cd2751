package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/backend"
	"github.com/reconstruct/reconstruct/benchmarks/cluster"
	"github.com/reconstruct/reconstruct/config"
)

// clusterFlags reach the Temporal server and the shared bank.
var clusterFlags = []configFlag{
	keyFlag("cluster.temporal", "temporal", "Temporal server HOST:PORT", ""),
	keyFlag("cluster.namespace", "namespace", "Temporal namespace", ""),
	keyFlag("cluster.task_queue", "task-queue", "Temporal task queue of the sweeps", ""),
}

// bankFlag names the shared bank (bench run has its own --bank).
var bankFlag = configFlag{"bank.path", "bank", bankUsage("bank every machine records into (a postgres:// URL when the workers are on several machines)", true)}

// workerFlags are a worker's own settings.
var workerFlags = []configFlag{
	keyFlag("cluster.parallel", "parallel", "tasks this worker runs at once", ""),
	keyFlag("cluster.workdir", "workdir", "directory for the task directories and running workspaces (default: the user cache directory)", ""),
	keyFlag("cluster.drain_timeout", "drain-timeout", "time running tasks get to finish after SIGTERM before they are handed back", ""),
}

// clusterSettings loads the cluster section and the bank from --config,
// RECONSTRUCT_* and the flags; the Temporal address is required, and so is
// the bank when needBank.
func clusterSettings(a *app, file string, flags map[string]*pflag.Flag, needBank bool) (config.Cluster, string, error) {
	cl, bankLoc, err := config.LoadCluster(config.Options{File: file, Env: true, Getenv: a.getenv, Flags: flags})
	if err != nil {
		return cl, "", withCode(exitUsage, err)
	}
	if cl.Temporal == "" {
		return cl, "", withCode(exitUsage, errors.New("no Temporal server: give --temporal HOST:PORT (or cluster.temporal in --config, or RECONSTRUCT_CLUSTER_TEMPORAL)"))
	}
	if needBank && bankLoc == "" {
		return cl, "", withCode(exitUsage, errors.New("no shared bank: give --bank with the bank every machine records into, a postgres:// URL (or bank.path in --config, or RECONSTRUCT_BANK_PATH)"))
	}
	return cl, bankLoc, nil
}

// clusterConn is a command's connection to the cluster: its settings, the
// Temporal client and, when asked for, the shared bank.
type clusterConn struct {
	settings  config.Cluster
	temporal  client.Client
	bank      *bank.Bank
	closeBank func() error
}

// connectCluster loads the cluster settings from file, RECONSTRUCT_* and
// flags, connects to the Temporal server (exit 3 when it cannot) and, when
// withBank, opens the shared bank (exit 2 for a schema this build does not
// use as it is or a bad bank setting, 3 when it cannot be reached).
func connectCluster(ctx context.Context, a *app, file string, flags map[string]*pflag.Flag, withBank bool) (*clusterConn, error) {
	cl, bankLoc, err := clusterSettings(a, file, flags, withBank)
	if err != nil {
		return nil, err
	}
	cc := &clusterConn{settings: cl}
	if cc.temporal, err = cluster.Dial(ctx, cl.Temporal, cl.Namespace, a.logger()); err != nil {
		return nil, withCode(exitInfra, err)
	}
	if !withBank {
		return cc, nil
	}
	st, err := backend.Open(ctx, bankLoc, backend.Options{Logger: a.logger(), Getenv: a.getenv})
	if err != nil {
		cc.temporal.Close()
		if errors.Is(err, backend.ErrSetting) {
			// A variable of the environment is wrong, not the bank:
			// say which bank it was for (the stores' own errors name it).
			err = fmt.Errorf("open bank %s: %w", backend.Describe(bankLoc), err)
		}
		return nil, withCode(openExit(err), err)
	}
	cc.bank, cc.closeBank = bank.New(st, bank.Options{Logger: a.logger()}), st.Close
	return cc, nil
}

func (cc *clusterConn) Close() {
	cc.temporal.Close()
	if cc.closeBank != nil {
		cc.closeBank()
	}
}

// sweepExit maps a failure to reach a sweep to an exit status: 2 for a
// sweep the server does not know, 3 otherwise.
func sweepExit(err error) error {
	if errors.Is(err, cluster.ErrNoSweep) {
		return withCode(exitUsage, err)
	}
	return withCode(exitInfra, err)
}

type workerOptions struct {
	app      *app
	config   string
	identity string
	flags    map[string]*pflag.Flag
}

func newWorkerCmd(a *app) *cobra.Command {
	opts := &workerOptions{app: a}
	cmd := &cobra.Command{
		Use:   "worker --temporal HOST:PORT --bank URL",
		Short: "Run the tasks of sweeps submitted to a Temporal server, until stopped",
		Long: `Run the tasks of sweeps submitted with "bench run --engine temporal" on this machine
until stopped: the worker polls --task-queue of the Temporal server --temporal (in
--namespace), fetches each task's directory from the shared bank --bank into --workdir,
runs it, records the run there as it goes (any machine's "runs" and "candidates" can
inspect it), scores the final program on the held-out tests (read from the bank straight
into the scoring sandbox) and hands the result back to the sweep. --parallel tasks run at
once. Start as many workers as you like, on any machines reaching the server and the bank.

The machine needs a sandbox: a Docker engine and the sandbox image ("reconstruct sandbox
build-image"), or Python 3 for the process sandbox (RECONSTRUCT_SANDBOX_KIND=process). The
sandbox and bank settings are the worker's own (RECONSTRUCT_SANDBOX_*, RECONSTRUCT_BANK_*);
those of the experiment (workflow, agent) come with the sweep. An LLM agent's API key is
read from this worker's environment. Every flag may also come from RECONSTRUCT_CLUSTER_*
(RECONSTRUCT_CLUSTER_TASK_QUEUE, say), RECONSTRUCT_BANK_PATH, or the cluster: section and
bank.path of --config.

SIGTERM or Ctrl-C stops taking tasks and lets the running ones finish (at most
--drain-timeout); a second signal, or the timeout, hands them back instead: each stops at
its next safe point, everything so far recorded, and another worker continues its run;
a third quits at once (as a kill would). A worker killed outright loses nothing either: its tasks go to another worker once their
heartbeats stop (the sweep's --heartbeat-timeout), and their runs resume from their last
checkpoint in the bank. A task that fails for a task reason (its configuration does not
load here, say) is recorded as its error at once; one that fails for an infrastructure
reason (the Docker engine does not answer, say) is tried again, up to the sweep's
--max-attempts, by any worker.

Exit status: 0 when stopped by a signal, 2 for bad settings, 3 when the Temporal server
or the bank cannot be reached as it starts (afterwards it keeps trying to reach them).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runWorker(cmd.Context(), opts) },
	}
	f := cmd.Flags()
	f.StringVarP(&opts.config, "config", "c", "", "configuration file whose cluster: section and bank.path apply")
	f.StringVar(&opts.identity, "identity", "", "name of this worker in the sweeps' records (default PID@HOST)")
	opts.flags = addFlags(f, append(append([]configFlag{bankFlag}, clusterFlags...), workerFlags...))
	return cmd
}

func runWorker(ctx context.Context, opts *workerOptions) error {
	a := opts.app
	cc, err := connectCluster(ctx, a, opts.config, opts.flags, true)
	if err != nil {
		return err
	}
	defer cc.Close()
	cl := cc.settings
	workdir := cl.Workdir
	if workdir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("no worker directory: give --workdir (%w)", err))
		}
		workdir = filepath.Join(cache, "reconstruct", "worker")
	}
	// The first signal cancels ctx (main): the worker drains. The second
	// hands the running tasks back; a third quits at once.
	handBack := make(chan struct{})
	a.secondSignal.Store(&signalAction{what: "hand the running tasks back", do: func() { close(handBack) }})
	defer a.secondSignal.Store(nil)
	w := &cluster.Worker{Bank: cc.bank, Workdir: workdir, Identity: opts.identity, Getenv: a.getenv, Log: a.logger()}
	err = cluster.Serve(ctx, cc.temporal, w, cluster.ServeOptions{TaskQueue: cl.TaskQueue, Parallel: cl.Parallel,
		DrainTimeout: cl.DrainTimeout, Status: a.progress()}, handBack)
	return withCode(exitInfra, err)
}
