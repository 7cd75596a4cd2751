package benchmarks

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/runner"
	"github.com/reconstruct/reconstruct/workflow"
)

// Every task of a sweep gets the sweep's one Shared of the synthesizer's
// lambda banks, made by Execute when the sweep was given none.
func TestSweepSharesLambdaBanks(t *testing.T) {
	given := synth.NewShared(synth.SharedOptions{})
	for _, tc := range []struct {
		name  string
		given *synth.Shared
	}{{"made by the sweep", nil}, {"given", given}} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []*synth.Shared
			sw := &Sweep{TasksDir: filepath.Join("testdata", "tasks"), Out: t.TempDir(), Repeat: 2, Parallel: 2,
				Filter: regexp.MustCompile("^(reverse|negate)$"), Synth: tc.given,
				Run: func(ctx context.Context, c *config.Config, o runner.Options) (*workflow.Result, error) {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, o.Synth)
					return nil, errors.New("not run")
				}}
			if _, err := sw.Execute(context.Background()); err != nil {
				t.Fatal(err)
			}
			if len(got) != 4 {
				t.Fatalf("%d runs, want 4", len(got))
			}
			for i, s := range got {
				if s == nil || s != got[0] || (tc.given != nil && s != tc.given) {
					t.Errorf("run %d: lambda banks %p, want the sweep's one (%p, given %p)", i, s, got[0], tc.given)
				}
			}
		})
	}
}
