// Package replay is an agent that plays back a recorded script of
// candidates and proposals, so that the workflow can be exercised
// deterministically and a recorded session re-run under other gates.
package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/internal/atomicfile"
	"github.com/reconstruct/reconstruct/task"
)

// Script is a recorded session. Candidates are played in order, one per
// Write; the last one repeats when the script runs out. Proposals are played
// in order, one per Propose call (retries included).
type Script struct {
	Candidates []Candidate `yaml:"candidates" json:"candidates"`
	Proposals  []Proposal  `yaml:"proposals" json:"proposals"`
}

// Candidate is one recorded program: inline source or a file relative to
// the script.
type Candidate struct {
	Source string     `yaml:"source,omitempty" json:"source,omitempty"`
	File   string     `yaml:"file,omitempty" json:"file,omitempty"`
	Usage  task.Usage `yaml:"usage,omitempty" json:"usage,omitempty"`
	Notes  string     `yaml:"notes,omitempty" json:"notes,omitempty"`
}

// Proposal is one recorded answer to a Propose call.
type Proposal struct {
	Inputs []any      `yaml:"inputs" json:"inputs"`
	Usage  task.Usage `yaml:"usage,omitempty" json:"usage,omitempty"`
}

// ErrExhausted is returned when a Propose call finds no proposal left.
var ErrExhausted = errors.New("replay script has no proposal left")

// Agent replays a Script.
type Agent struct {
	mu       sync.Mutex
	script   Script
	dir      string
	writes   int
	proposes int
}

var _ agent.Agent = (*Agent)(nil)

// Load reads a script file (YAML or JSON).
func Load(path string) (*Agent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read replay script: %w", err)
	}
	var s Script
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("replay script %s: %w", path, err)
	}
	a := New(s, filepath.Dir(path))
	for i, c := range s.Candidates {
		if (c.Source == "") == (c.File == "") {
			return nil, fmt.Errorf("replay script %s: candidates[%d]: give exactly one of source or file", path, i)
		}
		if c.File != "" {
			if _, err := os.Stat(a.resolve(c.File)); err != nil {
				return nil, fmt.Errorf("replay script %s: candidates[%d].file: %w", path, i, err)
			}
		}
	}
	if len(s.Candidates) == 0 {
		return nil, fmt.Errorf("replay script %s: candidates: at least one candidate is required", path)
	}
	return a, nil
}

// New returns an agent replaying s; relative candidate files resolve against dir.
func New(s Script, dir string) *Agent { return &Agent{script: s, dir: dir} }

func (a *Agent) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.dir, p)
}

// Write writes the next recorded candidate to the workspace.
func (a *Agent) Write(ctx context.Context, req agent.WriteRequest) (agent.WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return agent.WriteResult{}, err
	}
	a.mu.Lock()
	i := min(a.writes, len(a.script.Candidates)-1)
	a.writes++
	a.mu.Unlock()
	if i < 0 {
		return agent.WriteResult{}, errors.New("replay script has no candidates")
	}
	c := a.script.Candidates[i]
	src := []byte(c.Source)
	if c.File != "" {
		var err error
		if src, err = os.ReadFile(a.resolve(c.File)); err != nil {
			return agent.WriteResult{}, fmt.Errorf("replay candidate %d: %w", i, err)
		}
	}
	if err := atomicfile.Write(filepath.Join(req.Workspace, agent.CandidateFile), src, 0o644); err != nil {
		return agent.WriteResult{}, err
	}
	notes := c.Notes
	if notes == "" {
		notes = fmt.Sprintf("replayed candidate %d of %d", i+1, len(a.script.Candidates))
	}
	return agent.WriteResult{Usage: c.Usage, Notes: notes}, nil
}

// Propose returns the next recorded proposal, whatever k is: validating it
// is the workflow's job.
func (a *Agent) Propose(ctx context.Context, req agent.ProposeRequest) (agent.ProposeResult, error) {
	if err := ctx.Err(); err != nil {
		return agent.ProposeResult{}, err
	}
	a.mu.Lock()
	i := a.proposes
	a.proposes++
	a.mu.Unlock()
	if i >= len(a.script.Proposals) {
		return agent.ProposeResult{}, ErrExhausted
	}
	p := a.script.Proposals[i]
	out := make([]json.RawMessage, len(p.Inputs))
	for j, v := range p.Inputs {
		raw, err := json.Marshal(normalize(v))
		if err != nil {
			return agent.ProposeResult{}, fmt.Errorf("replay proposal %d input %d: %w", i, j, err)
		}
		out[j] = raw
	}
	return agent.ProposeResult{Inputs: out, Usage: p.Usage}, nil
}

// normalize turns YAML's map[string]any / map[any]any into JSON-able values.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = normalize(e)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = normalize(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

var _ agent.Resumer = (*Agent)(nil)

// Resume moves the script to where an interrupted run was.
func (a *Agent) Resume(writes, proposes int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.writes, a.proposes = writes, proposes
}
