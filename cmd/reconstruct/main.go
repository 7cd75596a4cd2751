// Command reconstruct runs black-box program reconstruction: a workflow
// that queries a hidden program, asks an agent for candidate programs and
// informative inputs, evaluates every candidate in a sandbox and records
// everything in a versioned bank.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	stopSignals := onSignals(cancel, os.Stderr, func() { os.Exit(exitRejected) })
	a := &app{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	err := newRootCmd(a).ExecuteContext(ctx)
	stopSignals()
	cancel()
	a.closeLog()
	if err != nil {
		fmt.Fprintln(os.Stderr, "reconstruct:", err)
	}
	os.Exit(exitCode(err))
}

// onSignals makes the first Ctrl-C (SIGINT) or SIGTERM cancel the command,
// saying so at once on w; a second one calls quit. The returned function
// stops listening.
func onSignals(cancel context.CancelFunc, w io.Writer, quit func()) func() {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			fmt.Fprintf(w, "reconstruct: %s: stopping… (everything so far is kept; once more to quit at once)\n", signalName(sig))
			cancel()
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			fmt.Fprintf(w, "reconstruct: %s again: quitting at once\n", signalName(sig))
			quit()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

func signalName(sig os.Signal) string {
	if sig == os.Interrupt {
		return "interrupt"
	}
	return sig.String()
}
