package testenv

import (
	"errors"
	"fmt"
	"testing"
)

// recorder stands in for the test WantErr is given, keeping what it failed
// with instead of ending the test.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Fatal(args ...any)         { r.failed = fmt.Sprint(args...) }
func (r *recorder) Fatalf(f string, a ...any) { r.failed = fmt.Sprintf(f, a...) }

func TestWantErr(t *testing.T) {
	boom := errors.New("open x: boom")
	tests := []struct {
		name       string
		err        error
		want       string
		wantFailed bool   // what WantErr returns
		wantFatal  string // "" when the test goes on
	}{
		{"success wanted and had", nil, "", false, ""},
		{"failure wanted and had", boom, "boom", true, ""},
		{"unexpected error", boom, "", true, "open x: boom"},
		{"missing error", nil, "boom", true, `err = <nil>, want it to contain "boom"`},
		{"another error", boom, "bang", true, `err = open x: boom, want it to contain "bang"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			if got := WantErr(r, tt.err, tt.want); got != tt.wantFailed {
				t.Errorf("WantErr = %v, want %v", got, tt.wantFailed)
			}
			if r.failed != tt.wantFatal {
				t.Errorf("the test failed with %q, want %q", r.failed, tt.wantFatal)
			}
		})
	}
}
