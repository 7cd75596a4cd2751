package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Safety margins of the Go-side deadline on a request. Past the deadline the
// harness is considered broken: the request fails and the Client refuses
// further requests, so that the backend restarts the harness.
const (
	// DeadlineMargin is added to every request's computed deadline.
	DeadlineMargin = 10 * time.Second
	// perInputSlack covers the IPC and, after a timeout, the fork of a fresh
	// child, per input of a call.
	perInputSlack = 25 * time.Millisecond
	// analyseDeadline bounds an analyse request (the harness itself stops
	// the analysis after 10 s).
	analyseDeadline = 10 * time.Second
	// pingDeadline bounds a ping, the first of which waits for the
	// interpreter to start: on a loaded machine that took more than 10 s.
	pingDeadline = 30 * time.Second
	// maxResponseLine bounds one response line; the harness caps the outputs
	// of one call at 256 MiB.
	maxResponseLine = 512 << 20
)

// ErrHarnessExited is returned (wrapped) by every pending and later request
// once the harness's output stream ended: the harness process died or was
// killed.
var ErrHarnessExited = errors.New("sandbox harness exited")

// ErrClientBroken is returned (wrapped) by requests made after the Client was
// abandoned: a request was cancelled or overran its safety deadline while the
// harness was working on it, so the harness's state is unknown.
var ErrClientBroken = errors.New("sandbox harness connection abandoned")

// ErrDeadline is returned (wrapped, with ErrClientBroken) by a request that
// got no response within its safety deadline: the harness is stuck.
var ErrDeadline = errors.New("sandbox harness missed its deadline")

// RemoteError is a request the harness answered with ok=false: a generator
// that raised, a malformed request. The harness itself is still healthy.
type RemoteError struct {
	Op      string
	Message string
	// Program is set when the program asked for failed (a generator that
	// raised, returned something else than a list of inputs or could not
	// be loaded), not the harness.
	Program bool
}

func (e *RemoteError) Error() string { return fmt.Sprintf("harness %s: %s", e.Op, e.Message) }

// Client speaks the harness's JSON-lines protocol over a reader (the
// harness's stdout) and a writer (its stdin). It is safe for concurrent use:
// requests are serialized, one in flight at a time, because the harness
// handles them one at a time and the safety deadline of a request must not
// include time spent queued behind another. Responses are still matched by
// id, so a late answer to an abandoned request is never taken for another's.
//
// A request whose ctx is cancelled returns ctx.Err(); a request that overruns
// its safety deadline returns an error. In both cases the Client is broken
// (Err returns non-nil) and the backend must restart the harness.
type Client struct {
	w   io.WriteCloser
	log *zap.Logger

	sem chan struct{}

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan envelope
	err     error
	failed  chan struct{}
}

type envelope struct {
	ID       *int64 `json:"id"`
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Program  bool   `json:"program"`
	Version  string `json:"version"`
	UID      *int   `json:"uid"`
	ReadOnly bool   `json:"readonly"`
	Private  bool   `json:"private_root"`
	PIDNS    bool   `json:"pid_namespace"`
	// A call's outcomes, as columns: one status code per input, its
	// nanoseconds, and its output (code "o") or error text (a JSON string).
	Codes    *string           `json:"s"`
	Nanos    []int64           `json:"ns"`
	Values   json.RawMessage   `json:"v"`
	Analysis *Analysis         `json:"analysis"`
	Inputs   []json.RawMessage `json:"inputs"`
	// split holds the elements of Values when decodeCall split them.
	split []json.RawMessage
}

// NewClient starts reading responses from r; requests are written to w.
// Closing the Client closes w, which makes the harness exit.
func NewClient(r io.Reader, w io.WriteCloser, log *zap.Logger) *Client {
	if log == nil {
		log = zap.NewNop()
	}
	c := &Client{
		w:       w,
		log:     log,
		sem:     make(chan struct{}, 1),
		pending: make(map[int64]chan envelope),
		failed:  make(chan struct{}),
	}
	go c.read(r)
	return c
}

// Err is nil while the Client is usable; otherwise it says why not.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Failed is closed when the Client becomes unusable.
func (c *Client) Failed() <-chan struct{} { return c.failed }

// Close abandons the Client and closes the harness's input.
func (c *Client) Close() error {
	c.fail(fmt.Errorf("%w: client closed", ErrClientBroken))
	return nil
}

func (c *Client) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	close(c.failed)
	if cerr := c.w.Close(); cerr != nil {
		c.log.Debug("close harness input", zap.Error(cerr))
	}
}

func (c *Client) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, maxResponseLine)
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.fail(ErrHarnessExited)
			} else {
				c.fail(fmt.Errorf("%w: reading its responses: %w", ErrHarnessExited, err))
			}
			return
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var env envelope
		if err := decodeEnvelope(line, &env); err != nil {
			c.fail(fmt.Errorf("%w: undecodable response: %w", ErrClientBroken, err))
			return
		}
		if env.ID == nil {
			c.log.Warn("harness response without id", zap.String("error", env.Error))
			continue
		}
		c.mu.Lock()
		ch, ok := c.pending[*env.ID]
		delete(c.pending, *env.ID)
		c.mu.Unlock()
		if !ok {
			c.log.Debug("harness response to an abandoned request", zap.Int64("id", *env.ID))
			continue
		}
		ch <- env
	}
}

// readLine reads one '\n'-terminated line of at most max bytes.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max {
			return nil, fmt.Errorf("response line over %d bytes", max)
		}
		if err == nil {
			if buf == nil {
				return append([]byte(nil), chunk...), nil
			}
			return append(buf, chunk...), nil
		}
		buf = append(buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// do sends one request (its fields in req) and waits for its response.
func (c *Client) do(ctx context.Context, op string, req map[string]any, deadline time.Duration) (envelope, error) {
	return c.send(ctx, op, func(id int64) ([]byte, error) {
		req["id"] = id
		req["op"] = op
		return json.Marshal(req)
	}, deadline)
}

// send sends the request that encode returns for id and waits for its
// response.
func (c *Client) send(ctx context.Context, op string, encode func(id int64) ([]byte, error), deadline time.Duration) (envelope, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return envelope{}, ctx.Err()
	case <-c.failed:
		return envelope{}, c.Err()
	}
	defer func() { <-c.sem }()
	// select picks at random among ready cases: a request whose ctx was
	// already done must not be sent (and then abandoned, breaking the client).
	if err := ctx.Err(); err != nil {
		return envelope{}, err
	}

	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return envelope{}, err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan envelope, 1)
	c.pending[id] = ch
	c.mu.Unlock()

	line, err := encode(id)
	if err != nil {
		c.forget(id)
		return envelope{}, fmt.Errorf("encode %s request: %w", op, err)
	}
	line = append(line, '\n')

	timer := time.NewTimer(deadline)
	defer timer.Stop()
	written := make(chan error, 1)
	go func() {
		_, err := c.w.Write(line)
		written <- err
	}()
	for {
		select {
		case err := <-written:
			if err != nil {
				c.fail(fmt.Errorf("%w: writing a request: %w", ErrHarnessExited, err))
				return envelope{}, c.Err()
			}
			written = nil
		case env := <-ch:
			if !env.OK {
				return env, &RemoteError{Op: op, Message: env.Error, Program: env.Program}
			}
			return env, nil
		case <-ctx.Done():
			c.fail(fmt.Errorf("%w: %s request cancelled", ErrClientBroken, op))
			return envelope{}, ctx.Err()
		case <-timer.C:
			c.fail(fmt.Errorf("%w: %w: %s request got no response within %s", ErrClientBroken, ErrDeadline, op, deadline))
			return envelope{}, c.Err()
		case <-c.failed:
			// A response may have arrived just before the failure.
			select {
			case env := <-ch:
				if !env.OK {
					return env, &RemoteError{Op: op, Message: env.Error, Program: env.Program}
				}
				return env, nil
			default:
			}
			return envelope{}, c.Err()
		}
	}
}

func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Ping checks that the harness answers and returns its version (compare it
// with HarnessVersion).
func (c *Client) Ping(ctx context.Context) (string, error) {
	info, err := c.Info(ctx)
	return info.Version, err
}

// HarnessInfo is what a harness says about itself in answer to a ping.
type HarnessInfo struct {
	Version string
	// UID is the user id untrusted code runs as; nil when it keeps the
	// harness's own.
	UID *int
	// ReadOnly: the harness made the filesystem read-only (--harden).
	ReadOnly bool
	// PrivateRoot: the harness sees a root of its own (the system
	// directories and its directory), not the host's files (--harden).
	PrivateRoot bool
	// PIDNamespace: the harness is PID 1 of its own PID namespace.
	PIDNamespace bool
}

// Info pings the harness and returns what it reports about itself.
func (c *Client) Info(ctx context.Context) (HarnessInfo, error) {
	env, err := c.do(ctx, "ping", map[string]any{}, pingDeadline)
	if err != nil {
		return HarnessInfo{}, err
	}
	return HarnessInfo{Version: env.Version, UID: env.UID, ReadOnly: env.ReadOnly, PrivateRoot: env.Private, PIDNamespace: env.PIDNS}, nil
}

type wireLimits struct {
	Timeout     float64 `json:"timeout"`
	MemoryBytes int64   `json:"memory_bytes"`
	OutputBytes int64   `json:"output_bytes"`
}

func toWire(l Limits) wireLimits {
	l = l.WithDefaults()
	return wireLimits{Timeout: l.Timeout.Seconds(), MemoryBytes: l.MemoryBytes, OutputBytes: l.OutputBytes}
}

func rawList(vs []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		out[i] = v
	}
	return out
}

// CallDeadline is the Go-side safety deadline of a call of n inputs: every
// input and the program's load may take the full timeout, plus slack.
func CallDeadline(l Limits, n int) time.Duration {
	l = l.WithDefaults()
	return time.Duration(n+1)*l.Timeout + time.Duration(n)*perInputSlack + DeadlineMargin
}

// Call runs req.Program on every input; see Sandbox.Call.
func (c *Client) Call(ctx context.Context, req CallRequest) ([]Outcome, error) {
	if len(req.Inputs) == 0 {
		return []Outcome{}, nil
	}
	env, err := c.send(ctx, "call", func(id int64) ([]byte, error) {
		return encodeCall(id, req)
	}, CallDeadline(req.Limits, len(req.Inputs)))
	if err != nil {
		return nil, err
	}
	return outcomes(env, len(req.Inputs))
}

// statusCodes maps the harness's one-letter status codes to Status values.
var statusCodes = [256]Status{
	'o': StatusOK,
	'e': StatusError,
	't': StatusTimeout,
	'm': StatusMemory,
	'l': StatusOutputLimit,
	'b': StatusBadOutput,
	'c': StatusCrashed,
	'L': StatusLoad,
	'x': StatusUnexpected,
}

// outcomes turns a call response's columns into one Outcome per input. A
// response that does not describe exactly n outcomes is an error (the
// harness is broken, not the candidate).
func outcomes(env envelope, n int) ([]Outcome, error) {
	if env.Codes == nil {
		return nil, errors.New("harness call: response without outcomes")
	}
	codes := *env.Codes
	values := env.split
	if values == nil {
		var err error
		if values, err = splitArray(env.Values); err != nil {
			return nil, fmt.Errorf("harness call: values: %w", err)
		}
	}
	if len(codes) != n || len(env.Nanos) != n || len(values) != n {
		return nil, fmt.Errorf("harness call: %d status codes, %d times and %d values for %d inputs", len(codes), len(env.Nanos), len(values), n)
	}
	out := make([]Outcome, n)
	for i := range out {
		o := &out[i]
		o.Status = statusCodes[codes[i]]
		if o.Status == "" {
			return nil, fmt.Errorf("harness call: input %d: unknown status code %q", i, codes[i])
		}
		o.Seconds = float64(env.Nanos[i]) / 1e9
		if o.Status == StatusOK {
			o.Output = values[i]
		} else if err := json.Unmarshal(values[i], &o.Error); err != nil {
			return nil, fmt.Errorf("harness call: input %d: error text: %w", i, err)
		}
	}
	return out, nil
}

// encodeCall is the line of a call request. The inputs are copied as they
// are (json.Marshal would re-encode every one): each is checked to be one
// JSON value, and compacted if it spans lines.
func encodeCall(id int64, req CallRequest) ([]byte, error) {
	head, err := json.Marshal(struct {
		ID      int64      `json:"id"`
		Op      string     `json:"op"`
		Program Program    `json:"program"`
		Limits  wireLimits `json:"limits"`
		Rejects []string   `json:"rejects,omitempty"`
	}{id, "call", req.Program, toWire(req.Limits), req.Rejects})
	if err != nil {
		return nil, err
	}
	size := len(head) + len(`,"inputs":[]`) + len(req.Inputs)
	for _, in := range req.Inputs {
		size += len(in)
	}
	line := make([]byte, 0, size+4)
	line = append(line, head[:len(head)-1]...)
	line = append(line, `,"inputs":[`...)
	for i, in := range req.Inputs {
		if i > 0 {
			line = append(line, ',')
		}
		switch {
		case len(in) == 0:
			line = append(line, "null"...)
		case !json.Valid(in):
			return nil, fmt.Errorf("input %d is not one JSON value: %.60q", i, in)
		case bytes.ContainsAny(in, "\n\r"):
			var buf bytes.Buffer
			if err := json.Compact(&buf, in); err != nil {
				return nil, fmt.Errorf("input %d: %w", i, err)
			}
			line = append(line, buf.Bytes()...)
		default:
			line = append(line, in...)
		}
	}
	return append(line, "]}"...), nil
}

// Analyse computes the static analysis of a candidate; see Sandbox.Analyse.
func (c *Client) Analyse(ctx context.Context, req AnalyseRequest) (Analysis, error) {
	env, err := c.do(ctx, "analyse", map[string]any{
		"source":        req.Source,
		"function_name": req.FunctionName,
		"inputs":        rawList(req.Inputs),
		"outputs":       rawList(req.Outputs),
	}, analyseDeadline+DeadlineMargin)
	if err != nil {
		return Analysis{}, err
	}
	if env.Analysis == nil {
		return Analysis{}, errors.New("harness analyse: response without analysis")
	}
	a := *env.Analysis
	if a.Literals == nil {
		a.Literals = []string{}
	}
	if a.Embedded == nil {
		a.Embedded = []int{}
	}
	return a, nil
}

// Generate asks a generator for req.K inputs; see Sandbox.Generate. The
// generator's load and its call share req.Limits.Timeout.
func (c *Client) Generate(ctx context.Context, req GenerateRequest) ([]json.RawMessage, error) {
	if req.K < 0 {
		return nil, fmt.Errorf("generate: k = %d", req.K)
	}
	exclude := rawList(req.Exclude)
	env, err := c.do(ctx, "generate", map[string]any{
		"program": req.Program,
		"k":       req.K,
		"exclude": exclude,
		"seed":    req.Seed,
		"limits":  toWire(req.Limits),
	}, 2*req.Limits.WithDefaults().Timeout+DeadlineMargin)
	if err != nil {
		return nil, err
	}
	if len(env.Inputs) > req.K {
		return nil, fmt.Errorf("harness generate: %d inputs, asked for %d", len(env.Inputs), req.K)
	}
	return env.Inputs, nil
}

// splitArray returns the elements of raw, a JSON array that json.Unmarshal
// has already checked (so only its structure is followed here, not
// validated). The elements share raw's memory.
func splitArray(raw json.RawMessage) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, errors.New("not an array")
	}
	body := raw[1 : len(raw)-1]
	if len(bytes.TrimSpace(body)) == 0 {
		return []json.RawMessage{}, nil
	}
	out := make([]json.RawMessage, 0, bytes.Count(body, []byte{','})+1)
	depth, start := 0, 0
	inString, escaped := false, false
	for i, c := range body {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, json.RawMessage(bytes.TrimSpace(body[start:i])))
			start = i + 1
		}
	}
	return append(out, json.RawMessage(bytes.TrimSpace(body[start:]))), nil
}
