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

	"golang.org/x/sys/unix"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	a := &app{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, lookupEnv: os.LookupEnv, environ: os.Environ}
	stopSignals := onSignals(cancel, a.progress(), a.onSecondSignal)
	stopPipe := onBrokenPipe(cancel)
	err := newRootCmd(a).ExecuteContext(ctx)
	stopSignals()
	cancel()
	if err != nil {
		a.printError(err, exitCode(err))
	}
	a.closeLog()
	// Until here a write into a closed pipe fails quietly.
	stopPipe()
	os.Exit(exitCode(err))
}

// onSignals makes the first Ctrl-C (SIGINT) or SIGTERM cancel the command,
// saying so at once on w; every later one goes to second, which says what
// it does when asked with a nil signal. The returned function stops
// listening.
func onSignals(cancel context.CancelFunc, w io.Writer, second func(os.Signal) string) func() {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			fmt.Fprintf(w, "reconstruct: %s: stopping… (everything so far is kept; once more to %s)\n", signalName(sig), second(nil))
			cancel()
		case <-done:
			return
		}
		for {
			select {
			case sig := <-ch:
				second(sig)
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// onBrokenPipe makes a write to a closed stdout or stderr (the reader of
// a pipe gone: "reconstruct run … 2>&1 | head") stop the command as Ctrl-C
// does, once, instead of the process dying on SIGPIPE in the middle of a
// run: the run is recorded as stopped, to be resumed, and its sandboxes are
// removed. Later writes fail quietly. The returned function stops
// listening.
//
// Once SIGPIPE is asked for, every broken pipe raises it, not only the
// standard streams': a hidden program run as a command on the host that
// exits before reading its input does too. Such a signal stops nothing:
// the run is stopped only when stdout or stderr has lost its reader.
func onBrokenPipe(cancel context.CancelFunc) func() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				if lostReader(os.Stdout) || lostReader(os.Stderr) {
					cancel()
				}
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// lostReader reports a stream that is the writing end of a pipe whose
// reader is gone: poll says so with POLLERR. A terminal or a file never
// does.
func lostReader(f *os.File) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLOUT}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n == 1 && fds[0].Revents&unix.POLLERR != 0
}

// onSecondSignal does what a second signal does: the command's own action
// when it set one (a worker hands its tasks back), once; otherwise, and
// after that, quit at once. With a nil signal it says what it would do.
func (a *app) onSecondSignal(sig os.Signal) string {
	if sig == nil {
		if h := a.secondSignal.Load(); h != nil {
			return h.what
		}
		return "quit at once"
	}
	if h := a.secondSignal.Swap(nil); h != nil {
		h.do()
		return h.what
	}
	fmt.Fprintf(a.progress(), "reconstruct: %s again: quitting at once\n", signalName(sig))
	os.Exit(exitRejected)
	return ""
}

func signalName(sig os.Signal) string {
	if sig == os.Interrupt {
		return "interrupt"
	}
	return sig.String()
}
