package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docExample returns the lines of the code block that follows marker in
// a document of the repository.
func docExample(t *testing.T, doc, marker string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", doc))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), marker)
	if !ok {
		t.Fatalf("%s has no %q", doc, marker)
	}
	_, block, ok := strings.Cut(after, "```\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatalf("%s: no code block after %q", doc, marker)
	}
	return strings.Split(strings.TrimSpace(block), "\n")
}

var (
	echoLine     = regexp.MustCompile(`^echo '(.*)' \| reconstruct (.*)$`)
	commandLine  = regexp.MustCompile(`^reconstruct (.*?)(?: > (\S+))?$`)
	trailingNote = regexp.MustCompile(`\s+#.*$`)
)

// The bank session of docs/bank.md runs as written, from the top of the
// repository, and does what its comments say.
func TestDocsBankExample(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	dir := t.TempDir()
	// The example's relative paths name files of the repository; what it
	// writes goes to dir.
	if err := os.Symlink(filepath.Join(root, "bank"), filepath.Join(dir, "bank")); err != nil {
		t.Fatal(err)
	}
	lines := docExample(t, "docs/bank.md", "A complete session")
	if len(lines) < 8 {
		t.Fatalf("the example has %d lines", len(lines))
	}
	var last map[string]any
	for _, line := range lines {
		note := ""
		if m := trailingNote.FindString(line); m != "" {
			note = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m), "#"))
			line = strings.TrimSpace(strings.TrimSuffix(line, m))
		}
		var stdin, redirect string
		var args []string
		if m := echoLine.FindStringSubmatch(line); m != nil {
			stdin, args = m[1], strings.Fields(m[2])
		} else if m := commandLine.FindStringSubmatch(line); m != nil {
			args, redirect = strings.Fields(m[1]), m[2]
		} else {
			t.Fatalf("cannot run %q", line)
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), asCLI+"=1", "RECONSTRUCT_BANK_PATH="+filepath.Join(dir, "bank.db"), "RECONSTRUCT_SANDBOX_KIND=process")
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s%s", line, err, out.String(), errb.String())
		}
		if err := json.Unmarshal(out.Bytes(), &last); err != nil || last["ok"] != true {
			t.Fatalf("%s: response %s", line, out.String())
		}
		if redirect != "" {
			os.WriteFile(filepath.Join(dir, redirect), out.Bytes(), 0o644)
		}
		if rev := regexp.MustCompile(`r\d{6}`).FindString(note); rev != "" && !strings.Contains(out.String(), `"`+rev+`"`) {
			t.Errorf("%s: the comment says %s, the response is %s", line, rev, out.String())
		}
	}
	if res, _ := last["result"].(map[string]any); res == nil || res["identical"] != false {
		t.Errorf("the example's last step (compare) = %v", last)
	}
}
