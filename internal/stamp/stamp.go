package stamp

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
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

// version is the version a release names itself by, set as it is linked:
//
//	go build -ldflags "-X github.com/reconstruct/reconstruct/internal/stamp.version=v1.2.0" ./cmd/reconstruct
//
// Empty, the module version of the build information is used. Nothing
// writes it at run time: every record a process writes, and `reconstruct
// version`, name the same version.
var version string

// VersionVar is the name of the variable a release's version is set in
// as it is linked (go build -ldflags "-X VersionVar=v1.2.0").
const VersionVar = "github.com/reconstruct/reconstruct/internal/stamp.version"

// Build is what the build says of this reconstruct.
type Build struct {
	// Version is the version set when it was linked (version), else the
	// main module's version, else "devel" ("unknown" without build
	// information).
	Version string `json:"version"`
	// Revision is the VCS revision ("" when none was recorded), Time its
	// commit time, and Modified set for a build with uncommitted changes.
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go_version,omitempty"`
	// Text is the version as `reconstruct version` prints it.
	Text string `json:"text"`
}

// This is this reconstruct's build, read once.
func This() Build { return this() }

var this = sync.OnceValue(func() Build {
	info, ok := debug.ReadBuildInfo()
	return BuildOf(info, ok, version)
})

// BuildOf reads build information (info, and ok as debug.ReadBuildInfo
// returns them) of a build linked with the version set (or "").
func BuildOf(info *debug.BuildInfo, ok bool, set string) Build {
	b := Build{Version: set}
	if !ok {
		if b.Version == "" {
			b.Version = "unknown"
			b.Text = "unknown (built without module information)"
		} else {
			b.Text = b.Version
		}
		return b
	}
	if b.Version == "" {
		b.Version = info.Main.Version
	}
	if b.Version == "" || b.Version == "(devel)" {
		b.Version = "devel"
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	b.GoVersion = info.GoVersion
	var parts []string
	if rev := short(b.Revision); rev != "" {
		if b.Modified {
			rev += "+dirty"
		}
		parts = append(parts, "revision "+rev)
		if b.Time != "" {
			parts = append(parts, b.Time)
		}
	} else {
		parts = append(parts, "no VCS revision recorded")
	}
	if b.GoVersion != "" {
		parts = append(parts, b.GoVersion)
	}
	b.Text = b.Version + " (" + strings.Join(parts, ", ") + ")"
	return b
}

// Producer is the build as records name their producer: its version and
// the first 12 digits of its VCS revision ("v1.2.0+7ad7bbdae606").
func (b Build) Producer() string {
	if rev := short(b.Revision); rev != "" {
		return b.Version + "+" + rev
	}
	return b.Version
}

// short is a VCS revision's first 12 digits.
func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// Producer is the version of this reconstruct as records name it
// (This().Producer()).
func Producer() string { return This().Producer() }

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
