package runner

import (
	"context"
	"testing"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/llm"
	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/workflow"
)

// TestSynthDefaultsAgree checks that the synthesizer used as a library and
// the one a configuration builds get the same defaults.
func TestSynthDefaultsAgree(t *testing.T) {
	tests := []struct {
		key  string
		want any
	}{
		{key: "agent.synth.memory_mb", want: int(synth.DefaultMemoryBytes >> 20)},
		{key: "agent.synth.time_limit", want: synth.DefaultTimeLimit},
		{key: "agent.synth.propose_time_limit", want: synth.DefaultProposeTimeLimit},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			for _, k := range config.Table {
				if k.Name != tc.key {
					continue
				}
				if got := k.Default; got != tc.want {
					t.Errorf("%s defaults to %v (%T) in the configuration, %v (%T) in the synthesizer", tc.key, got, got, tc.want, tc.want)
				}
				return
			}
			t.Fatalf("no configuration key %s", tc.key)
		})
	}
}

// plainAgent is an agent with none of the workflow's optional interfaces,
// as the LLM agent is.
type plainAgent struct{}

func (plainAgent) Write(context.Context, agent.WriteRequest) (agent.WriteResult, error) {
	return agent.WriteResult{}, nil
}

func (plainAgent) Propose(context.Context, agent.ProposeRequest) (agent.ProposeResult, error) {
	return agent.ProposeResult{}, nil
}

// The wrapper that classifies an agent's errors keeps what the workflow
// asks of a synthesizer (its rival searches, its search left) and adds
// nothing to an agent without them: the LLM agent keeps the rules without
// rivals.
func TestWithInfraKeepsTheSearchersInterfaces(t *testing.T) {
	tests := []struct {
		name           string
		agent          agent.Agent
		rivals, search bool
	}{
		{name: "the synthesizer", agent: synth.New(synth.Options{}), rivals: true, search: true},
		{name: "an agent without them", agent: plainAgent{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := withInfra(tt.agent)
			_, rivals := a.(workflow.RivalSearcher)
			_, search := a.(workflow.Searcher)
			if rivals != tt.rivals || search != tt.search {
				t.Errorf("wrapped: RivalSearcher %v, Searcher %v; want %v, %v", rivals, search, tt.rivals, tt.search)
			}
			if _, ok := a.(agent.Resumer); !ok {
				t.Errorf("wrapped: not a Resumer")
			}
		})
	}
	var _ agent.Agent = (*llm.Agent)(nil)
	if _, ok := any((*llm.Agent)(nil)).(workflow.RivalSearcher); ok {
		t.Errorf("the LLM agent searches rivals: the rules of early stop would change for it")
	}
}
