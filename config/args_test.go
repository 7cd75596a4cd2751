package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FromArgs maps the original workflow's keys onto the configuration, with
// the original's defaults of random_share and coverage_gate, and without
// the selection gate the original did not have.
func TestFromArgs(t *testing.T) {
	tests := []struct {
		args    string
		want    map[string]any
		wantErr string
	}{
		{args: `{"task": "b:make", "task_args": {"name": "a", "n": 3, "xs": [1.5]}, "random_share": 0.5, "budget": 1000, "early_stop": 4,
			"memorisation_gate": true, "complexity_gate": true, "domain_check": true, "initial_batch": 3, "batch_step": 1, "max_iterations": 9, "propose_attempts": 0}`,
			want: map[string]any{"task.factory": "b:make", "task.args": map[string]any{"name": "a", "n": int64(3), "xs": []any{1.5}},
				"workflow.random_share": 0.5, "workflow.coverage_gate": false, "workflow.token_budget": 1000, "workflow.early_stop": 4,
				"workflow.memorisation_gate": true, "workflow.complexity_gate": true, "workflow.domain_check": true,
				"workflow.initial_batch": 3, "workflow.batch_step": 1, "workflow.max_iterations": 9, "workflow.propose_attempts": 0,
				"workflow.selection_gate": false}},
		{args: `{"task": "b:make", "coverage_gate": true}`,
			want: map[string]any{"task.factory": "b:make", "workflow.random_share": 0.0, "workflow.coverage_gate": true, "workflow.selection_gate": false}},
		{args: `{"tsk": "b:make"}`, wantErr: "--args (tsk): unknown key; did you mean task?"},
		{args: `{"coverage_gate": "yes"}`, wantErr: "--args (coverage_gate): want true or false, got \"yes\""},
		{args: `{"task_args": [1]}`, wantErr: "--args (task_args): want a mapping of names to values, got [1]"},
		{args: `{"task": 3}`, wantErr: "--args (task): want a string, got 3"},
		{args: `{"agent": "llm"}`, wantErr: "--args (agent): unknown key (the keys are batch_step, budget,"},
		{args: `{} {}`, wantErr: "--args: want a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			got, err := FromArgs(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("FromArgs: %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("FromArgs (-want +got):\n%s", diff)
			}
		})
	}
}
