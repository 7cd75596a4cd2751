package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/runner"
)

type bankServeOptions struct {
	*bankOptions
	stdio bool
}

func newBankServeCmd(o *bankOptions) *cobra.Command {
	opts := &bankServeOptions{bankOptions: o}
	cmd := &cobra.Command{
		Use:   "serve --stdio",
		Short: "Serve actions as JSON lines: one action per line in, one response per line out",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !opts.stdio {
				return withCode(exitUsage, errors.New("serve: only --stdio is supported"))
			}
			opts.streams(c)
			return runBankServe(c.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.stdio, "stdio", false, "read actions from stdin, write responses to stdout")
	return cmd
}

// runBankServe answers one JSON action per input line with one response
// line. A bad line gets a malformed_request response; the loop ends at
// EOF or when ctx is cancelled.
func runBankServe(ctx context.Context, opts *bankServeOptions) error {
	b, closeBank, err := opts.open(ctx, runner.WriteBank)
	if err != nil {
		return opts.openFailed("serve", err)
	}
	defer closeBank()
	return serveLines(ctx, b, opts.in, opts.out)
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
