// Command reconstruct runs black-box program reconstruction: a workflow
// that queries a hidden program, asks an agent for candidate programs and
// informative inputs, evaluates every candidate in a sandbox and records
// everything in a versioned bank.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	a := &app{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	err := newRootCmd(a).ExecuteContext(ctx)
	stop()
	a.closeLog()
	if err != nil {
		fmt.Fprintln(os.Stderr, "reconstruct:", err)
	}
	os.Exit(exitCode(err))
}
