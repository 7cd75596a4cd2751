package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/llm"
	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/binding"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/docker"
	"github.com/reconstruct/reconstruct/sandbox/process"
	"github.com/reconstruct/reconstruct/workflow"
)

// newSynth builds the built-in synthesizer from its section of the
// agent's and the run's seed (workflow.seed), with the lambda banks of
// shared.
func newSynth(s config.Synth, seed int64, shared *synth.Shared, log *zap.Logger) *synth.Agent {
	return synth.New(synth.Options{
		Seed:             seed,
		TimeLimit:        s.TimeLimit,
		RunTimeLimit:     s.RunTimeLimit,
		ProposeTimeLimit: s.ProposeTimeLimit,
		MaxPrograms:      int64(s.MaxPrograms),
		MemoryBytes:      int64(s.MemoryMB) << 20,
		Shared:           shared,
		Log:              log.With(zap.String("agent", "synth")),
	})
}

// infraAgent marks the errors of an agent that are failures of its
// infrastructure with workflow.ErrAgentInfrastructure, so that they end
// the run (exit 3); anything else the agent returns is its own mistake,
// which the workflow counts against the session or the proposal.
type infraAgent struct {
	agent.Agent
}

var _ agent.Resumer = infraAgent{}

func (a infraAgent) Write(ctx context.Context, req agent.WriteRequest) (agent.WriteResult, error) {
	res, err := a.Agent.Write(ctx, req)
	return res, classifyAgentError(err)
}

func (a infraAgent) Propose(ctx context.Context, req agent.ProposeRequest) (agent.ProposeResult, error) {
	res, err := a.Agent.Propose(ctx, req)
	return res, classifyAgentError(err)
}

// infraSearcher is infraAgent for an agent that searches, as the
// synthesizer does: the workflow's questions about its rival searches and
// its search left (workflow.RivalSearcher, workflow.Searcher) reach it
// through the wrapper.
type infraSearcher struct {
	infraAgent
	workflow.RivalSearcher
	workflow.Searcher
}

var (
	_ workflow.RivalSearcher = infraSearcher{}
	_ workflow.Searcher      = infraSearcher{}
)

// withInfra wraps an agent in infraAgent, keeping the optional interfaces
// of the workflow that it implements.
func withInfra(a agent.Agent) agent.Agent {
	rs, rivals := a.(workflow.RivalSearcher)
	se, search := a.(workflow.Searcher)
	if rivals && search {
		return infraSearcher{infraAgent{a}, rs, se}
	}
	return infraAgent{a}
}

// Close closes agents that hold something to give back (the
// synthesizer's memory) when the run is over.
func (a infraAgent) Close() error {
	if c, ok := a.Agent.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Resume passes a resumed run's position on to agents that keep one.
func (a infraAgent) Resume(writes, proposes int) {
	if r, ok := a.Agent.(agent.Resumer); ok {
		r.Resume(writes, proposes)
	}
}

// classifyAgentError marks an endpoint that is down or refuses the
// settings, a broken sandbox, and a file-system failure as infrastructure.
func classifyAgentError(err error) error {
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	var errno syscall.Errno
	switch {
	case err == nil, errors.Is(err, workflow.ErrAgentInfrastructure):
		return err
	case errors.Is(err, llm.ErrUnavailable), errors.Is(err, llm.ErrConfig), errors.Is(err, llm.ErrToolInfrastructure),
		errors.Is(err, sandbox.ErrHarnessExited), errors.Is(err, sandbox.ErrClientBroken),
		errors.Is(err, docker.ErrClosed), errors.Is(err, process.ErrClosed),
		errors.As(err, &pathErr), errors.As(err, &linkErr), errors.As(err, &errno):
		return fmt.Errorf("%w: %w", workflow.ErrAgentInfrastructure, err)
	}
	return err
}

// newAgentKind builds the synth and llm agents; boxes is nil for the
// synthesizer, which needs no sandbox.
func newAgentKind(ctx context.Context, c *config.Config, boxes *Sandboxes, shared *synth.Shared, log *zap.Logger) (agent.Agent, error) {
	var d *binding.Description // a factory task's
	if c.Task.Factory != "" {
		var err error
		if d, err = boundDescription(c); err != nil {
			return nil, err
		}
	}
	switch c.Agent.Kind {
	case "synth":
		if d != nil && len(d.CallableTools) > 0 {
			log.Info("the synthesizer does not call the task's own tools; the LLM agent does",
				zap.Strings("tools", toolNames(d.CallableTools)))
		}
		return newSynth(c.Agent.Synth, c.Workflow.Seed, shared, log), nil
	case "llm":
		var box sandbox.Sandbox
		if boxes != nil {
			box = boxes.Agent
		}
		tools, ok := box.(llm.Sandbox)
		if !ok {
			return nil, fmt.Errorf("%w: the %T sandbox cannot run the agent's tools", ErrInfra, box)
		}
		l := c.Agent.LLM
		temp := l.Temperature
		var named []string // the built-in tools a factory's task names
		var own []llm.TaskTool
		if d != nil {
			named = d.Tools
			var err error
			if own, err = taskTools(c, d, boxes.Eval); err != nil {
				return nil, err
			}
		}
		a, err := llm.New(ctx, llm.Options{
			BaseURL: l.BaseURL, Model: l.Model, APIKeyEnv: l.APIKeyEnv, Temperature: &temp,
			MaxTokens: l.MaxTokens, MaxTurns: l.MaxTurns, RequestTimeout: l.RequestTimeout,
			Retries: llmRetries(l.Retries), ToolMode: l.ToolMode, Sandbox: tools, Synth: newSynth(c.Agent.Synth, c.Workflow.Seed, shared, log),
			Limits: c.Sandbox.Limits(), Atol: c.Workflow.Atol, ShownFailures: c.Workflow.MaxFailures, Tools: named,
			TaskTools: own, Log: log.With(zap.String("agent", "llm")),
		})
		if errors.Is(err, llm.ErrConfig) {
			return nil, fmt.Errorf("%w: %s: %w", ErrConfig, c.File, err)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInfra, err)
		}
		return a, nil
	}
	return nil, fmt.Errorf("%w: %s: agent.kind: unknown agent %q", ErrConfig, c.File, c.Agent.Kind)
}

// llmRetries maps the configuration's retries (0 = none) to the agent's
// option, where 0 means its default and a negative value none.
func llmRetries(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
