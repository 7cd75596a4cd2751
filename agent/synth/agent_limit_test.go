package synth

import (
	"testing"
	"time"
)

func TestSessionLimit(t *testing.T) {
	tests := []struct {
		name     string
		session  time.Duration
		run      time.Duration
		searched time.Duration
		want     time.Duration
	}{
		{"no run bound", 20 * time.Second, 0, time.Hour, 20 * time.Second},
		{"plenty left", 20 * time.Second, 45 * time.Second, 10 * time.Second, 20 * time.Second},
		{"cut to what is left", 20 * time.Second, 45 * time.Second, 40 * time.Second, 5 * time.Second},
		{"spent: the least a session gets", 20 * time.Second, 45 * time.Second, 50 * time.Second, minSessionTime},
		{"run bound below a session", 20 * time.Second, 3 * time.Second, 0, 3 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{TimeLimit: tc.session, RunTimeLimit: tc.run})
			a.searched = tc.searched
			if got := a.sessionLimit(); got != tc.want {
				t.Errorf("sessionLimit() = %v, want %v", got, tc.want)
			}
		})
	}
}
