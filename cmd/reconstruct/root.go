package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"golang.org/x/term"

	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/internal/stamp"
)

// app holds what every command shares: streams, environment and the logger.
type app struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	// lookupEnv tells an empty variable from an unset one (nil: getenv,
	// where empty is unset); environ lists the environment (nil: none is
	// checked for unknown RECONSTRUCT_* variables).
	lookupEnv func(string) (string, bool)
	environ   func() []string
	logLevel  string
	logFormat string
	log       *zap.Logger
	// lines writes the lines a command prints on stderr for people
	// (progress, the final error) as JSON entries when --log-format is
	// json; nil for text.
	lines *zap.Logger
	// pending holds the end of a progress line not written yet; the
	// signal handler writes beside the command.
	pendingMu sync.Mutex
	pending   []byte
	// secondSignal, when set, is what a second Ctrl-C or SIGTERM does
	// instead of quitting at once (main); a third one quits.
	secondSignal atomic.Pointer[signalAction]
}

// signalAction is a command's answer to a second signal.
type signalAction struct {
	what string // "hand the running tasks back", for the first signal's message
	do   func()
}

func (a *app) logger() *zap.Logger {
	if a.log == nil {
		return zap.NewNop()
	}
	return a.log
}

func (a *app) closeLog() {
	if a.log != nil {
		_ = a.log.Sync()
	}
}

// printJSON prints v on stdout as indented JSON.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// setupLog makes the logger: human-readable lines on stderr (text), or
// one JSON object per line for machines (json).
func (a *app) setupLog() error {
	lvl, err := zapcore.ParseLevel(a.logLevel)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("--log-level: %w", err))
	}
	var enc zapcore.Encoder
	switch a.logFormat {
	case "text":
		enc = newTextEncoder()
	case "json":
		encCfg := zap.NewProductionEncoderConfig()
		encCfg.EncodeTime = zapcore.ISO8601TimeEncoder
		enc = zapcore.NewJSONEncoder(encCfg)
	default:
		return withCode(exitUsage, fmt.Errorf("--log-format: want text or json, got %q", a.logFormat))
	}
	a.log = zap.New(zapcore.NewCore(enc, zapcore.AddSync(a.stderr), lvl))
	if a.logFormat == "json" {
		// Every level: these lines are the command's output, not logs.
		a.lines = zap.New(zapcore.NewCore(enc.Clone(), zapcore.AddSync(a.stderr), zapcore.DebugLevel))
	}
	return nil
}

// progress is where a command writes its lines for people on stderr (one
// per iteration, a sweep's tasks): stderr as it is, or, with --log-format
// json, one JSON entry per line.
func (a *app) progress() io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		if a.lines == nil {
			return a.stderr.Write(p)
		}
		a.pendingMu.Lock()
		defer a.pendingMu.Unlock()
		a.pending = append(a.pending, p...)
		for {
			i := bytes.IndexByte(a.pending, '\n')
			if i < 0 {
				return len(p), nil
			}
			if line := strings.TrimRight(string(a.pending[:i]), "\r"); line != "" {
				a.lines.Info(strings.TrimPrefix(line, "reconstruct: "), zap.String("stream", "progress"))
			}
			a.pending = a.pending[i+1:]
		}
	})
}

// writerFunc is a function as an io.Writer.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// printError prints the error a command ended with on stderr: a line
// "reconstruct: …", or with --log-format json an error entry with the exit
// status.
func (a *app) printError(err error, code int) {
	if a.lines != nil {
		a.lines.Error(err.Error(), zap.Int("exit", code))
		_ = a.lines.Sync()
		return
	}
	fmt.Fprintln(a.stderr, "reconstruct:", err)
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "reconstruct",
		Short: "Black-box program reconstruction",
		Long: `reconstruct queries a hidden program, asks an agent for candidate Python programs
and informative inputs, evaluates every candidate in a sandbox, applies verification
gates, archives every candidate and records every example and event.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.setupLog(); err != nil {
				return err
			}
			if a.environ != nil {
				for _, w := range config.UnknownEnv(a.environ()) {
					a.logger().Warn(w)
				}
			}
			return nil
		},
	}
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.PersistentFlags().StringVar(&a.logLevel, "log-level", envOr(a.getenv, "RECONSTRUCT_LOG_LEVEL", "warn"), "log level: debug, info, warn, error")
	root.PersistentFlags().StringVar(&a.logFormat, "log-format", envOr(a.getenv, "RECONSTRUCT_LOG_FORMAT", "text"), "log lines on stderr: text (for people) or json (for machines)")
	root.Version = stamp.This().Text
	root.SetVersionTemplate("reconstruct {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return withCode(exitUsage, err) })
	_ = root.RegisterFlagCompletionFunc("log-level", cobra.FixedCompletions([]string{"debug", "info", "warn", "error"}, cobra.ShellCompDirectiveNoFileComp))
	_ = root.RegisterFlagCompletionFunc("log-format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	addCommands(root, a)
	wrapUsageErrors(root)
	return root
}

// wrapUsageErrors makes argument-count errors exit with status 2.
func wrapUsageErrors(c *cobra.Command) {
	if c.Args != nil {
		args := c.Args
		c.Args = func(cmd *cobra.Command, a []string) error { return withCode(exitUsage, args(cmd, a)) }
	}
	for _, sub := range c.Commands() {
		wrapUsageErrors(sub)
	}
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// isUsageError recognises cobra's own usage errors.
func isUsageError(err error) bool {
	return err != nil && (strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag"))
}
