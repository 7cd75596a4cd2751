package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reconstruct/reconstruct/bank/sqlite"
	"github.com/reconstruct/reconstruct/internal/testenv"
)

// quickstartTask copies the quickstart's task into a directory of its own
// (task.yaml beside its files) with extra appended to task.yaml, and
// returns the file.
func quickstartTask(t *testing.T, dir, extra string) string {
	t.Helper()
	src := filepath.Dir(quickstartPath(t))
	files := map[string]string{"task.yaml": strings.ReplaceAll(mustRead(t, quickstartPath(t)), "quickstart/", "") + extra}
	for _, name := range []string{"hidden.py", "generator.py", "heldout.jsonl", "replay.yaml"} {
		files[name] = mustRead(t, filepath.Join(src, "quickstart", name))
	}
	testenv.WriteFiles(t, dir, files)
	return filepath.Join(dir, "task.yaml")
}

// Finding 3 of the security issue: opening a bank made mode 0600 files
// that were not banks — a file given with --bank or as bank.path in a task
// file, or the target of a -wal, -shm or .key link shipped in a task
// directory — before the open failed. Each is refused with exit 2 naming
// the file or the link, and the file keeps its mode and content.
func TestBankPathChangesNoFileItDidNotMake(t *testing.T) {
	testenv.NeedPython(t)
	const content = "root's own file\n"
	tests := []struct {
		name string
		// args returns the command line; dir is a fresh directory, victim
		// the file that must not change.
		args func(t *testing.T, dir, victim string) []string
		want string
	}{
		{name: "runs list --bank FILE", want: "is not a SQLite database", args: func(t *testing.T, dir, victim string) []string {
			return []string{"runs", "list", "--bank", victim}
		}},
		{name: "bank --bank FILE list", want: "is not a SQLite database", args: func(t *testing.T, dir, victim string) []string {
			return []string{"bank", "--bank", victim, "list"}
		}},
		{name: "bank --bank FILE migrate", want: "is not a SQLite database", args: func(t *testing.T, dir, victim string) []string {
			return []string{"bank", "--bank", victim, "migrate"}
		}},
		{name: "bank.path in a task file", want: "is not a SQLite database", args: func(t *testing.T, dir, victim string) []string {
			cfg := quickstartTask(t, filepath.Join(dir, "task"), "bank: {path: "+victim+"}\n")
			return []string{"run", "--config", cfg, "--workspace", filepath.Join(dir, "ws"), "--sandbox", "process"}
		}},
		{name: "a -wal link in the task directory", want: "bank.db-wal is a symbolic link", args: func(t *testing.T, dir, victim string) []string {
			cfg := quickstartTask(t, filepath.Join(dir, "task"), "bank: {path: bank.db}\n")
			if err := os.Symlink(victim, filepath.Join(dir, "task", "bank.db-wal")); err != nil {
				t.Fatal(err)
			}
			return []string{"run", "--config", cfg, "--workspace", filepath.Join(dir, "ws"), "--sandbox", "process"}
		}},
		{name: "a -shm link in the task directory", want: "bank.db-shm is a symbolic link", args: func(t *testing.T, dir, victim string) []string {
			cfg := quickstartTask(t, filepath.Join(dir, "task"), "bank: {path: bank.db}\n")
			if err := os.Symlink(victim, filepath.Join(dir, "task", "bank.db-shm")); err != nil {
				t.Fatal(err)
			}
			return []string{"run", "--config", cfg, "--workspace", filepath.Join(dir, "ws"), "--sandbox", "process"}
		}},
		{name: "a .key link in the task directory", want: "bank.db.key is a symbolic link", args: func(t *testing.T, dir, victim string) []string {
			cfg := quickstartTask(t, filepath.Join(dir, "task"), "bank: {path: bank.db}\n")
			if err := os.Symlink(victim, filepath.Join(dir, "task", "bank.db.key")); err != nil {
				t.Fatal(err)
			}
			return []string{"run", "--config", cfg, "--workspace", filepath.Join(dir, "ws"), "--sandbox", "process"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(victim, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			args := tt.args(t, dir, victim)
			r := cli(t, dir, nil, args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, want 2 with a message saying %q; stderr:\n%s", r.code, tt.want, r.stderr)
			}
			fi, err := os.Stat(victim)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o644 {
				t.Errorf("the file's mode is now %v, want 0644 as it was", fi.Mode().Perm())
			}
			if got := mustRead(t, victim); got != content {
				t.Errorf("the file now holds %q", got)
			}
			for _, p := range []string{filepath.Join(dir, "task", "bank.db"), filepath.Join(dir, "ws")} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("a refused run left %s", p)
				}
			}
		})
	}
}

// Finding 4: a bank made by an earlier version held its receipt key's
// bytes in its free space. Other commands refuse it (exit 2, saying to
// run bank migrate); bank migrate wipes them and says so.
func TestBankMigrateCleansTheReceiptKey(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "bank.db")
	for _, suffix := range []string{"", ".key"} {
		data, err := os.ReadFile(repoPath(t, "bank", "sqlite", "testdata", "v2-key-in-free-pages.db"+suffix))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(db+suffix, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	key, err := hex.DecodeString(strings.TrimSpace(mustRead(t, sqlite.KeyFile(db))))
	if err != nil {
		t.Fatal(err)
	}
	holds := func() bool {
		data, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Contains(data, key)
	}
	if !holds() {
		t.Fatal("the fixture does not hold its key's bytes")
	}
	r := cli(t, dir, nil, "bank", "--bank", db, "list")
	if r.code != 2 || !strings.Contains(r.stderr, "bank migrate") {
		t.Fatalf("list: exit %d, want 2 saying to run bank migrate: %s", r.code, r.stderr)
	}
	r = cli(t, dir, nil, "bank", "--bank", db, "migrate")
	if r.code != 0 {
		t.Fatalf("migrate: exit %d: %s", r.code, r.stderr)
	}
	var resp struct {
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &resp); err != nil {
		t.Fatalf("migrate printed %q: %v", r.stdout, err)
	}
	if s, _ := resp.Result["cleaned"].(string); !strings.Contains(s, "receipt key") {
		t.Errorf("migrate does not say the key was wiped: %s", r.stdout)
	}
	if holds() {
		t.Errorf("bank.db still holds the receipt key's bytes after migrate")
	}
	r = cli(t, dir, nil, "bank", "--bank", db, "migrate")
	if r.code != 0 || strings.Contains(r.stdout, "cleaned") {
		t.Errorf("a second migrate: exit %d, %s; want nothing cleaned", r.code, r.stdout)
	}
	if r := cli(t, dir, nil, "bank", "--bank", db, "list"); r.code != 0 {
		t.Errorf("list after migrate: exit %d: %s", r.code, r.stderr)
	}
}

// Finding 10: a full disk while the bank was created left a malformed
// bank.db that every later run tripped on until it was deleted by hand
// (the checkpoint that moved the new bank from its log into the file
// failed, unnoticed). Each creation here gets a tmpfs of its own, of a
// size that runs out somewhere during the creation; whatever the point,
// it either makes a sound bank or leaves nothing: no bank, no key file,
// not the directory it made.
func TestFailedBankCreationLeavesNothing(t *testing.T) {
	probe := exec.Command("sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt")
	probe.SysProcAttr = userMountNS()
	if out, err := probe.CombinedOutput(); err != nil {
		testenv.Skip(t, fmt.Sprintf("cannot mount a tmpfs in a user and mount namespace of its own (%v: %s)", err, out))
	}
	spec := writeFile(t, t.TempDir(), "spec.json", `{"inputs":{"x":{"kind":"index","data":1}},"nodes":[],"outputs":{}}`)
	failed := 0
	for kb := 40; kb <= 200; kb += 8 {
		// The bank and its listing, inside the namespace (the tmpfs goes
		// with it).
		script := fmt.Sprintf(`mount -t tmpfs -o size=%dk tmpfs /mnt || exit 99
"$CLI" bank --bank /mnt/d/bank.db create --workspace w --spec %s >/dev/null 2>/mnt/.err
code=$?
echo "exit $code"
echo "left: $(ls -A /mnt | grep -v '^.err$' | tr '\n' ' ')$(ls -A /mnt/d 2>/dev/null | tr '\n' ' ')"
if [ $code = 0 ]; then "$CLI" bank --bank /mnt/d/bank.db list >/dev/null 2>&1 || echo "unsound bank"; fi
cat /mnt/.err`, kb, spec)
		cmd := exec.Command("sh", "-c", script)
		cmd.SysProcAttr = userMountNS()
		cmd.Env = append(os.Environ(), asCLI+"=1", "CLI="+os.Args[0], "XDG_DATA_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%d KB: %v: %s", kb, err, out)
		}
		text := string(out)
		switch {
		case strings.HasPrefix(text, "exit 0\n"):
			if strings.Contains(text, "unsound bank") {
				t.Errorf("%d KB: the bank it made is not sound:\n%s", kb, text)
			}
		default:
			failed++
			// Nothing but the error text is left in /mnt.
			if !strings.Contains(text, "\nleft: \n") {
				t.Errorf("%d KB: a failed creation left files:\n%s", kb, text)
			}
		}
	}
	if failed == 0 {
		t.Fatal("no creation ran out of space: the test proves nothing")
	}
}

// userMountNS puts a command in user and mount namespaces of its own, as
// root there, so that it may mount a tmpfs.
func userMountNS() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
}
