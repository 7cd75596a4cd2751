package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// Defaults for Options.
const (
	DefaultMaxTurns       = 12
	DefaultRequestTimeout = 120 * time.Second
	DefaultRetries        = 4
	DefaultToolMode       = ToolModeTools
	// DefaultCheckTimeout bounds the reachability check made by New.
	DefaultCheckTimeout = 10 * time.Second
	// DefaultBackoff is the first retry delay; it doubles per retry, with
	// full jitter, up to DefaultMaxBackoff.
	DefaultBackoff    = time.Second
	DefaultMaxBackoff = 30 * time.Second
	// DefaultMaxRetryAfter caps how long a Retry-After header can make a
	// retry wait.
	DefaultMaxRetryAfter = 2 * time.Minute
	// DefaultToolTimeout bounds one tool call (bash has its own limit).
	DefaultToolTimeout = 60 * time.Second
	// DefaultShownFailures is how many failures check_candidate shows.
	DefaultShownFailures = 5
)

// Tool modes.
const (
	// ToolModeTools sends tool definitions and runs the model's tool calls.
	ToolModeTools = "tools"
	// ToolModeText sends no tools: the program is taken from the last fenced
	// python block of the model's reply, and proposals from the last fenced
	// block holding a JSON array.
	ToolModeText = "text"
)

// Setting names, as they appear in the run configuration; errors name them.
const (
	SettingBaseURL   = "agent.llm.base_url"
	SettingModel     = "agent.llm.model"
	SettingAPIKeyEnv = "agent.llm.api_key_env"
	SettingToolMode  = "agent.llm.tool_mode"
)

var (
	// ErrConfig marks a configuration the agent cannot work with: a missing
	// API key, an unknown tool mode, an endpoint that refuses the
	// credentials, the model or the request. The message names the setting.
	ErrConfig = errors.New("llm agent configuration")
	// ErrUnavailable marks an endpoint that could not be reached, or kept
	// failing after every retry. The message names agent.llm.base_url.
	ErrUnavailable = errors.New("llm endpoint unavailable")
)

// Sandbox is what the agent needs of its sandbox: the shell of the bash
// tool, run with the workspace as working directory (the sandbox must be
// bound to the same directory as WriteRequest.Workspace), and Call for
// check_candidate, which runs candidate.py's source on the observed inputs.
type Sandbox interface {
	sandbox.Executor
	Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error)
}

// Synthesizer is an optional program finder offered to the model as the
// synthesize tool (the built-in synthesizer, agent/synth, satisfies it). It
// is asked to write candidate.py in a scratch directory.
type Synthesizer interface {
	Write(ctx context.Context, req agent.WriteRequest) (agent.WriteResult, error)
}

// Options configures an Agent.
type Options struct {
	// BaseURL is the endpoint's OpenAI-compatible root, e.g.
	// https://api.openai.com/v1 or http://127.0.0.1:8000/v1.
	BaseURL string
	Model   string
	// APIKeyEnv names the environment variable holding the API key. Empty
	// means no key (local servers); set but empty in the environment is a
	// configuration error.
	APIKeyEnv string
	// Temperature is sent when non-nil. Zero is sent as the smallest
	// positive float, because the wire format drops a zero temperature and
	// servers would use their default instead.
	Temperature *float64
	// MaxTokens caps each completion; 0 leaves it to the server.
	MaxTokens int
	// MaxTurns caps the model requests of one session.
	MaxTurns       int
	RequestTimeout time.Duration
	// Retries is how many times a failed request (429, 5xx, timeout,
	// connection failure) is retried before ErrUnavailable.
	Retries  int
	ToolMode string
	Sandbox  Sandbox
	// Synth, when set, is offered to the model as the synthesize tool.
	Synth Synthesizer
	// Limits bound each call check_candidate makes (zero: sandbox defaults).
	Limits sandbox.Limits
	// Atol is the float tolerance of check_candidate (0: task.DefaultAtol).
	Atol float64
	// ShownFailures caps the failures check_candidate reports.
	ShownFailures int
	// Tools, when not empty, are the only built-in tools a write session
	// offers (done is always offered): a task bound from Python names them.
	Tools []string
	// TaskTools are the task's own tools, offered beside the built-in ones;
	// one named as a built-in tool replaces it.
	TaskTools []TaskTool
	// ScratchDir is where the synthesize tool makes its scratch
	// directories (empty: the system temporary directory).
	ScratchDir string
	Log        *zap.Logger
	// HTTPClient replaces the default HTTP client (tests).
	HTTPClient *http.Client
	// Backoff and MaxBackoff shape the retry delays (zero: defaults).
	Backoff    time.Duration
	MaxBackoff time.Duration
}

func (o Options) withDefaults() Options {
	o.MaxTurns = positiveOr(o.MaxTurns, DefaultMaxTurns)
	o.RequestTimeout = positiveOr(o.RequestTimeout, DefaultRequestTimeout)
	// Retries alone tells a negative value (no retries) from 0 (the default).
	if o.Retries < 0 {
		o.Retries = 0
	} else if o.Retries == 0 {
		o.Retries = DefaultRetries
	}
	if o.ToolMode == "" {
		o.ToolMode = DefaultToolMode
	}
	o.Atol = positiveOr(o.Atol, task.DefaultAtol)
	o.ShownFailures = positiveOr(o.ShownFailures, DefaultShownFailures)
	o.Backoff = positiveOr(o.Backoff, DefaultBackoff)
	o.MaxBackoff = positiveOr(o.MaxBackoff, DefaultMaxBackoff)
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	return o
}

// positiveOr is v, or def when v is 0 or negative: a count, duration or
// tolerance left unset.
func positiveOr[T int | float64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Agent is an agent.Agent backed by a chat-completions endpoint.
type Agent struct {
	opts   Options
	client *openai.Client
	log    *zap.Logger
	// sleep waits between retries; tests replace it to record delays.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ agent.Agent = (*Agent)(nil)

// Close closes the synthesizer the agent offers as a tool, when it holds
// memory to give back (synth.Agent); the agent must not be used after.
func (a *Agent) Close() error {
	if c, ok := a.opts.Synth.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// New validates opts, builds the client and checks that the endpoint
// answers (Check). Configuration problems wrap ErrConfig, an unreachable
// endpoint wraps ErrUnavailable; both messages name the setting at fault.
func New(ctx context.Context, opts Options) (*Agent, error) {
	a, err := newAgent(opts)
	if err != nil {
		return nil, err
	}
	if err := a.Check(ctx); err != nil {
		return nil, err
	}
	return a, nil
}

func newAgent(opts Options) (*Agent, error) {
	opts = opts.withDefaults()
	if strings.TrimSpace(opts.BaseURL) == "" {
		return nil, fmt.Errorf("%w: %s is empty", ErrConfig, SettingBaseURL)
	}
	if strings.TrimSpace(opts.Model) == "" {
		return nil, fmt.Errorf("%w: %s is empty", ErrConfig, SettingModel)
	}
	if opts.ToolMode != ToolModeTools && opts.ToolMode != ToolModeText {
		return nil, fmt.Errorf("%w: %s is %q, want %q or %q", ErrConfig, SettingToolMode, opts.ToolMode, ToolModeTools, ToolModeText)
	}
	if opts.Sandbox == nil {
		return nil, errors.New("llm agent: Options.Sandbox is nil")
	}
	if err := CheckTools(opts.Tools, opts.Synth != nil); err != nil {
		return nil, err
	}
	if err := CheckTaskTools(opts.TaskTools); err != nil {
		return nil, err
	}
	key := ""
	if opts.APIKeyEnv != "" {
		key = os.Getenv(opts.APIKeyEnv)
		if key == "" {
			return nil, fmt.Errorf("%w: %s names the environment variable %s, which is empty or unset; export the API key in %s (or clear %s for a local server without a key)",
				ErrConfig, SettingAPIKeyEnv, opts.APIKeyEnv, opts.APIKeyEnv, SettingAPIKeyEnv)
		}
	}
	cfg := openai.DefaultConfig(key)
	cfg.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	if opts.HTTPClient != nil {
		cfg.HTTPClient = opts.HTTPClient
	}
	return &Agent{
		opts:   opts,
		client: openai.NewClientWithConfig(cfg),
		log:    opts.Log.With(zap.String("model", opts.Model)),
		sleep:  sleepCtx,
	}, nil
}

// Check asks the endpoint for its models (GET /models) within
// DefaultCheckTimeout. An unreachable endpoint or a server error wraps
// ErrUnavailable and names agent.llm.base_url; refused credentials or a
// missing route wrap ErrConfig.
func (a *Agent) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, min(DefaultCheckTimeout, a.opts.RequestTimeout))
	defer cancel()
	list, err := a.client.ListModels(ctx)
	if err == nil {
		a.noteModels(list)
		return nil
	}
	if ctxErr := context.Cause(ctx); ctxErr != nil && !errors.Is(ctxErr, context.DeadlineExceeded) {
		return fmt.Errorf("check llm endpoint: %w", ctxErr)
	}
	status := httpStatus(err)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Errorf("%w: %s refused the API key from %s (HTTP %d): %w", ErrConfig, SettingBaseURL, a.keySource(), status, err)
	case status == http.StatusNotFound || status == http.StatusMethodNotAllowed:
		// Some proxies serve chat completions but no model list.
		if perr := a.ping(ctx); perr != nil {
			return fmt.Errorf("%w: GET %s/models returned HTTP %d and a one-token chat completion failed; check %s (OpenAI-compatible servers usually end in /v1) and %s: %w",
				ErrConfig, a.opts.BaseURL, status, SettingBaseURL, SettingModel, perr)
		}
		return nil
	case status >= 400 && status < 500 && status != http.StatusTooManyRequests && status != http.StatusRequestTimeout:
		return fmt.Errorf("%w: GET %s/models returned HTTP %d; check %s: %w", ErrConfig, a.opts.BaseURL, status, SettingBaseURL, err)
	}
	return fmt.Errorf("%w: %s %s does not answer: %w", ErrUnavailable, SettingBaseURL, a.opts.BaseURL, err)
}

// ping asks for a one-token completion.
func (a *Agent) ping(ctx context.Context) error {
	req := openai.ChatCompletionRequest{
		Model:    a.opts.Model,
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "ping"}},
	}
	req.MaxTokens = 1
	if errors.Is(openai.NewReasoningValidator().Validate(req), openai.ErrReasoningModelMaxTokensDeprecated) {
		req.MaxTokens, req.MaxCompletionTokens = 0, 16
	}
	_, err := a.client.CreateChatCompletion(ctx, req)
	return err
}

func (a *Agent) keySource() string {
	if a.opts.APIKeyEnv == "" {
		return SettingAPIKeyEnv + " (unset: no key sent)"
	}
	return SettingAPIKeyEnv + "=" + a.opts.APIKeyEnv
}

// noteModels warns when the endpoint lists models but not the configured
// one; servers alias names, so this is not an error.
func (a *Agent) noteModels(list openai.ModelsList) {
	if len(list.Models) == 0 {
		return
	}
	ids := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		if m.ID == a.opts.Model {
			return
		}
		ids = append(ids, m.ID)
	}
	a.log.Warn("configured model is not among the endpoint's models",
		zap.String("setting", SettingModel), zap.Strings("models", ids))
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// marshalTranscript encodes a session record; encoding plain structs
// cannot fail, so a failure yields no transcript rather than an error.
func marshalTranscript(t *Transcript) json.RawMessage {
	b, err := json.Marshal(t)
	if err != nil {
		return nil
	}
	return b
}

// CheckTools checks tool names for Options.Tools (synth: the synthesize
// tool is offered); an unknown one wraps ErrConfig.
func CheckTools(names []string, synth bool) error {
	for _, name := range names {
		if !writeToolNames[name] || (name == synthesizeToolName && !synth) {
			return fmt.Errorf("%w: the task's tools name %q, not a tool of this agent (%s)", ErrConfig, name, strings.Join(knownWriteTools(synth), ", "))
		}
	}
	return nil
}

// writeToolNames are the tools a write session can offer.
var writeToolNames = map[string]bool{
	bashToolName: true, fileReadToolName: true, fileWriteToolName: true, applyPatchToolName: true,
	checkCandidateToolName: true, synthesizeToolName: true, doneToolName: true,
}

func knownWriteTools(synth bool) []string {
	var out []string
	for n := range writeToolNames {
		if n != synthesizeToolName || synth {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
