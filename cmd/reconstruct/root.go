package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"golang.org/x/term"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// app holds what every command shares: streams, environment and the logger.
type app struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	logLevel       string
	log            *zap.Logger
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

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (a *app) setupLog() error {
	lvl, err := zapcore.ParseLevel(a.logLevel)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("--log-level: %w", err))
	}
	encCfg := zap.NewProductionEncoderConfig()
	encCfg.EncodeTime = zapcore.ISO8601TimeEncoder
	var enc zapcore.Encoder
	if isTerminal(a.stderr) {
		encCfg.EncodeLevel = zapcore.CapitalColorLevelEncoder
		enc = zapcore.NewConsoleEncoder(encCfg)
	} else {
		enc = zapcore.NewJSONEncoder(encCfg)
	}
	a.log = zap.New(zapcore.NewCore(enc, zapcore.AddSync(a.stderr), lvl))
	return nil
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
			return a.setupLog()
		},
	}
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.PersistentFlags().StringVar(&a.logLevel, "log-level", envOr(a.getenv, "RECONSTRUCT_LOG_LEVEL", "warn"), "log level: debug, info, warn, error")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return withCode(exitUsage, err) })
	root.AddCommand(
		newRunCmd(a),
		newScoreCmd(a),
		newVersionCmd(a),
	)
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

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "reconstruct %s\n", version)
			return err
		},
	}
}
