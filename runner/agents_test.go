package runner

import (
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/config"
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
