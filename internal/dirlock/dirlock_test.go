package dirlock

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAcquire(t *testing.T) {
	dir := t.TempDir()
	first, err := Acquire(dir, Holder{What: "run", RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Stale != nil {
		t.Errorf("a fresh directory has a stale holder %v", first.Stale)
	}
	// A second descriptor is refused even in the same process (flock locks
	// belong to the open file), as another process would be.
	_, err = Acquire(dir, Holder{What: "run", RunID: "r2"})
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Holder.RunID != "r1" || busy.Holder.PID != os.Getpid() {
		t.Fatalf("second Acquire = %v, want busy with run r1", err)
	}
	if !strings.Contains(err.Error(), "in use by run r1 (pid ") {
		t.Errorf("message %q", err)
	}
	// The note is only a note: deleting it lets nobody in.
	if err := os.Remove(filepath.Join(dir, File)); err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(dir, Holder{What: "run"}); !errors.As(err, &busy) {
		t.Fatalf("Acquire with the note deleted = %v, want busy", err)
	}
	first.Release()
	first.Release()
	if _, err := os.Stat(filepath.Join(dir, File)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the note is left after Release: %v", err)
	}
	second, err := Acquire(dir, Holder{What: "run", RunID: "r2"})
	if err != nil {
		t.Fatal(err)
	}
	second.Release()
}

// A holder that died left its note but not its lock: the directory is
// taken over and the note it left reported.
func TestAcquireStale(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte(`{"what": "run", "run_id": "dead", "pid": 999999}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(dir, Holder{What: "run", RunID: "r3"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if l.Stale == nil || l.Stale.RunID != "dead" {
		t.Errorf("Stale = %v, want the dead run's note", l.Stale)
	}
	if h, err := ReadHolder(dir); err != nil || h.RunID != "r3" {
		t.Errorf("note = %v, %v, want run r3", h, err)
	}
}
