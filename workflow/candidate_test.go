package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent"
)

func TestReadCandidateRefusesLinksAndSpecialFiles(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "hidden.py")
	os.WriteFile(secret, []byte("def hidden(x): return 42\n"), 0o644)
	tests := []struct {
		name    string
		setup   func(ws string)
		want    string // substring of the error; "" means success
		content string
	}{
		{name: "regular file", content: "def solve(x): return x\n",
			setup: func(ws string) {
				os.WriteFile(filepath.Join(ws, agent.CandidateFile), []byte("def solve(x): return x\n"), 0o644)
			}},
		{name: "missing", setup: func(string) {}, want: "not written"},
		{name: "link out of the workspace", want: "cannot be read",
			setup: func(ws string) { os.Symlink(secret, filepath.Join(ws, agent.CandidateFile)) }},
		// os.Root follows links that stay inside the workspace: harmless.
		{name: "link inside the workspace", content: "x = 1\n",
			setup: func(ws string) {
				os.WriteFile(filepath.Join(ws, "other.py"), []byte("x = 1\n"), 0o644)
				os.Symlink("other.py", filepath.Join(ws, agent.CandidateFile))
			}},
		{name: "FIFO does not hang", want: "not a regular file",
			setup: func(ws string) { syscall.Mkfifo(filepath.Join(ws, agent.CandidateFile), 0o644) }},
		{name: "directory", want: "not a regular file",
			setup: func(ws string) { os.Mkdir(filepath.Join(ws, agent.CandidateFile), 0o755) }},
		{name: "too large", want: "more than",
			setup: func(ws string) {
				os.WriteFile(filepath.Join(ws, agent.CandidateFile), []byte(strings.Repeat("#", MaxCandidateBytes+1)), 0o644)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			tt.setup(ws)
			done := make(chan struct{})
			var got []byte
			var err error
			go func() {
				got, err = readCandidate(ws)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("readCandidate hung")
			}
			if tt.want == "" {
				if err != nil || string(got) != tt.content {
					t.Errorf("readCandidate = %q, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestJournalsAreOwnerOnly(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, EventsFile), nil, 0o644)
	r, err := NewFileRecorder(ws, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, f := range []string{EventsFile, ExamplesFile} {
		st, err := os.Stat(filepath.Join(ws, f))
		if err != nil || st.Mode().Perm() != JournalPerm {
			t.Errorf("%s mode %v, %v; want %v", f, st.Mode().Perm(), err, os.FileMode(JournalPerm))
		}
	}
	link := t.TempDir()
	os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), filepath.Join(link, EventsFile))
	if _, err := NewFileRecorder(link, false); err == nil {
		t.Error("a journal behind a symbolic link was opened")
	}
}
