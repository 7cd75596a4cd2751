package stamp

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
)

// Stamp says what format a record is in and what wrote it.
type Stamp struct {
	// Format is the major version of the record's format: a reader of a
	// lower major refuses the record. 0 (absent) is read as 1.
	Format int `json:"format,omitempty"`
	// Producer is the version of the reconstruct that wrote the record.
	Producer string `json:"producer,omitempty"`
	// Harness is the SHA-256 of the sandbox harness it ran with.
	Harness string `json:"harness_sha256,omitempty"`
}

// ErrNewerFormat marks a record of a newer major format than this build reads.
var ErrNewerFormat = errors.New("written in a newer format")

// Producer is the version of this reconstruct as records name it: the
// main module's version and VCS revision, read once from the build
// information. Nothing sets it at run time, so every record a process
// writes names the same producer.
func Producer() string { return producer() }

var producer = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	version := "devel"
	if v := info.Main.Version; v != "" && v != "(devel)" {
		version = v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			version += "+" + s.Value[:12]
		}
	}
	return version
})

// New is the stamp of a record of format (major) written now by a run
// whose sandboxes run the harness of that digest (sandbox.HarnessSHA256).
func New(format int, harness string) Stamp {
	return Stamp{Format: format, Producer: Producer(), Harness: harness}
}

// Major is the stamp's major format, 1 for a record written before stamps.
func (s Stamp) Major() int {
	if s.Format == 0 {
		return 1
	}
	return s.Format
}

// Check refuses a record (what names it: a file, an event) of a newer
// major format than reads, the newest this build reads.
func (s Stamp) Check(what string, reads int) error {
	if s.Major() <= reads {
		return nil
	}
	by := ""
	if s.Producer != "" {
		by = ", written by reconstruct " + s.Producer
	}
	return fmt.Errorf("%s: %w: format %d%s; this reconstruct (%s) reads format %d at most: use a newer reconstruct to read it",
		what, ErrNewerFormat, s.Major(), by, Producer(), reads)
}
