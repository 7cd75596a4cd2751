package dirlock

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/reconstruct/reconstruct/internal/atomicfile"
)

// File is the note of the holder, inside the locked directory. It is only
// a note: the lock is on the directory, so a note deleted or forged (by an
// agent writing in its workspace, say) cannot let a second process in.
const File = ".reconstruct-lock"

// Holder describes the process holding a directory.
type Holder struct {
	// What names the holder's work ("run", "bench run").
	What  string    `json:"what"`
	RunID string    `json:"run_id,omitempty"`
	PID   int       `json:"pid"`
	Host  string    `json:"host,omitempty"`
	Since time.Time `json:"since"`
}

func (h Holder) String() string {
	what := h.What
	if what == "" {
		what = "another reconstruct"
	}
	if h.RunID != "" {
		what += " " + h.RunID
	}
	var parts []string
	if h.PID > 0 {
		parts = append(parts, fmt.Sprintf("pid %d", h.PID))
	}
	if h.Host != "" {
		parts = append(parts, "on "+h.Host)
	}
	if !h.Since.IsZero() {
		parts = append(parts, "since "+h.Since.Local().Format("2006-01-02 15:04:05"))
	}
	if len(parts) == 0 {
		return what
	}
	return what + " (" + strings.Join(parts, ", ") + ")"
}

// BusyError is a directory another process holds.
type BusyError struct {
	Dir    string
	Holder Holder
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is in use by %s", e.Dir, e.Holder)
}

// Lock is a held directory.
type Lock struct {
	dir string
	f   *os.File
	// Stale is the note a holder that ended without releasing the
	// directory left (a crash, kill -9), when there was one: its lock went
	// with it, and the directory was taken over.
	Stale *Holder
}

// Acquire locks dir, which must exist, for h (its PID, Host and Since are
// filled when zero). A directory another process holds is a *BusyError.
func Acquire(dir string, h Holder) (*Lock, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			held, _ := ReadHolder(dir)
			return nil, &BusyError{Dir: dir, Holder: held}
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	l := &Lock{dir: dir, f: f}
	if old, err := ReadHolder(dir); err == nil {
		l.Stale = &old
	}
	if h.PID == 0 {
		h.PID = os.Getpid()
	}
	if h.Host == "" {
		h.Host, _ = os.Hostname()
	}
	if h.Since.IsZero() {
		h.Since = time.Now().UTC()
	}
	data, _ := json.Marshal(h)
	if err := atomicfile.Write(filepath.Join(dir, File), append(data, '\n'), 0o644); err != nil {
		l.Release()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return l, nil
}

// ReadHolder reads the note of dir's holder.
func ReadHolder(dir string) (Holder, error) {
	var h Holder
	data, err := os.ReadFile(filepath.Join(dir, File))
	if err != nil {
		return h, err
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return Holder{}, fmt.Errorf("%s: %w", filepath.Join(dir, File), err)
	}
	return h, nil
}

// Release removes the note and drops the lock; it is safe to call more
// than once.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	_ = os.Remove(filepath.Join(l.dir, File))
	_ = l.f.Close() // closing the descriptor drops the lock
	l.f = nil
}
