package docker

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// aptSource is one "deb" entry of the machine's apt configuration: where
// debootstrap can fetch Debian's packages from.
type aptSource struct {
	URI   string
	Suite string
	// Keyring is the Signed-By file of the entry, when it names one.
	Keyring string
}

// readAptSources returns the "deb" entries configured under root (normally
// "/"): etc/apt/sources.list, then etc/apt/sources.list.d/*.list and
// *.sources in name order. Files apt would ignore (other suffixes) are
// ignored too.
func readAptSources(root string) ([]aptSource, error) {
	var out []aptSource
	main := filepath.Join(root, "etc/apt/sources.list")
	if b, err := os.ReadFile(main); err == nil {
		out = append(out, parseOneLineSources(string(b))...)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", main, err)
	}
	dir := filepath.Join(root, "etc/apt/sources.list.d")
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		switch filepath.Ext(name) {
		case ".list":
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", path, err)
			}
			out = append(out, parseOneLineSources(string(b))...)
		case ".sources":
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", path, err)
			}
			out = append(out, parseDeb822Sources(string(b))...)
		}
	}
	return out, nil
}

// parseOneLineSources parses the classic format:
// "deb [signed-by=/path arch=amd64] http://host/debian bookworm main".
func parseOneLineSources(text string) []aptSource {
	var out []aptSource
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) < 3 || fields[0] != "deb" {
			continue
		}
		fields = fields[1:]
		var src aptSource
		if strings.HasPrefix(fields[0], "[") {
			// Options run until the field that ends with "]".
			for len(fields) > 0 {
				opt := strings.Trim(fields[0], "[]")
				if k, v, ok := strings.Cut(opt, "="); ok && k == "signed-by" {
					src.Keyring = v
				}
				done := strings.HasSuffix(fields[0], "]")
				fields = fields[1:]
				if done {
					break
				}
			}
		}
		if len(fields) < 2 {
			continue
		}
		src.URI, src.Suite = fields[0], fields[1]
		out = append(out, src)
	}
	return out
}

// parseDeb822Sources parses the deb822 format of *.sources files: stanzas
// separated by blank lines with Types, URIs, Suites and Signed-By fields.
func parseDeb822Sources(text string) []aptSource {
	var out []aptSource
	flush := func(st map[string]string) {
		if st["enabled"] == "no" || !containsField(st["types"], "deb") {
			return
		}
		signed := st["signed-by"]
		if strings.Contains(signed, "\n") || strings.HasPrefix(signed, "-----") {
			signed = "" // an inline key, not a file debootstrap can use
		}
		for _, uri := range strings.Fields(st["uris"]) {
			for _, suite := range strings.Fields(st["suites"]) {
				out = append(out, aptSource{URI: uri, Suite: suite, Keyring: signed})
			}
		}
	}
	st := map[string]string{}
	last := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "#"):
			continue
		case strings.TrimSpace(line) == "":
			flush(st)
			st, last = map[string]string{}, ""
		case line[0] == ' ' || line[0] == '\t':
			if last != "" {
				st[last] += "\n" + strings.TrimSpace(line)
			}
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			last = strings.ToLower(strings.TrimSpace(k))
			st[last] = strings.TrimSpace(v)
		}
	}
	flush(st)
	return out
}

func containsField(list, word string) bool {
	for _, f := range strings.Fields(list) {
		if f == word {
			return true
		}
	}
	return false
}

// debianSource picks the entry debootstrap should use: the first whose suite
// is a release (no "-updates", "-security" or "/updates" suffix).
func debianSource(sources []aptSource) (aptSource, bool) {
	for _, s := range sources {
		if !strings.ContainsAny(s.Suite, "-/") && strings.HasPrefix(s.URI, "http") {
			return s, true
		}
	}
	return aptSource{}, false
}
