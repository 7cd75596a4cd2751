package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

// copyV2 copies a bank made by the version before the key left the
// database for good (schema 2: its key in the key file, and its bytes
// still in the database's free space) with its key file.
func copyV2(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bank.db")
	for _, suffix := range []string{"", ".key"} {
		data, err := os.ReadFile(filepath.Join("testdata", "v2-key-in-free-pages.db"+suffix))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+suffix, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// keyTraces lists the bank's files that hold the receipt key's bytes or
// the text receipt_key.
func keyTraces(t *testing.T, path string, key []byte) []string {
	t.Helper()
	var found []string
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, key) {
			found = append(found, filepath.Base(p)+" holds the key's bytes")
		}
		if bytes.Contains(data, []byte("receipt_key")) {
			found = append(found, filepath.Base(p)+" holds the text receipt_key")
		}
	}
	return found
}

func keyOf(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(sqlite.KeyFile(path))
	if err != nil {
		t.Fatal(err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// Finding 4 of the security issue: the receipt key could be read from
// bank.db alone — a new bank inserted it in its meta table and deleted it
// once moved to the key file, leaving its bytes in the free space right
// after the text receipt_key. No bank file holds it: not a new bank's,
// and not an older bank's once migrated (secure deletion and VACUUM).
func TestReceiptKeyNeverInTheBankFiles(t *testing.T) {
	t.Setenv(bank.KeyEnv, "")
	tests := []struct {
		name    string
		prepare func(t *testing.T) string
		// from is the schema version Migrate finds (0: opened with Open).
		from int
	}{
		{name: "a new bank", prepare: func(t *testing.T) string { return filepath.Join(t.TempDir(), "bank.db") }},
		{name: "a schema 2 bank, migrated", prepare: copyV2, from: 2},
		{name: "a schema 1 bank, migrated", prepare: copyFixture, from: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.prepare(t)
			var key []byte
			if tt.from == 2 {
				key = keyOf(t, path)
				if len(keyTraces(t, path, key)) == 0 {
					t.Fatal("the fixture does not hold its key's bytes: it reproduces nothing")
				}
			}
			if tt.from == 1 {
				key = dbKey(t, path)
			}
			var st *sqlite.Store
			var err error
			if tt.from == 0 {
				st, err = sqlite.Open(context.Background(), path)
			} else {
				var from int
				st, from, err = sqlite.Migrate(context.Background(), path)
				if err == nil && from != tt.from {
					t.Errorf("Migrate found schema %d, want %d", from, tt.from)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			b := bank.New(st, bank.Options{})
			if m := act(t, b, `{"action":"create","workspace":"w2","spec":{"inputs":{"x":{"kind":"index","data":1}},"nodes":[],"outputs":{}}}`); m["ok"] != true {
				t.Fatalf("create: %v", m)
			}
			if tt.from == 0 {
				key = keyOf(t, path)
			}
			// While the bank is open, and after.
			if traces := keyTraces(t, path, key); len(traces) > 0 {
				t.Errorf("open: %s", strings.Join(traces, "; "))
			}
			st.Close()
			if traces := keyTraces(t, path, key); len(traces) > 0 {
				t.Errorf("closed: %s", strings.Join(traces, "; "))
			}
			if got := keyOf(t, path); !bytes.Equal(got, key) {
				t.Errorf("the key file holds another key")
			}
		})
	}
}

// A bank of schema 2 is refused by Open (its key's bytes are still in its
// free space) until Migrate cleans it.
func TestOpenRefusesAnUncleanedBank(t *testing.T) {
	t.Setenv(bank.KeyEnv, "")
	path := copyV2(t)
	before, _ := os.ReadFile(path)
	_, err := sqlite.Open(context.Background(), path)
	if !errors.Is(err, bank.ErrSchema) || !strings.Contains(err.Error(), "bank migrate") {
		t.Fatalf("Open: %v, want a schema error naming bank migrate", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Errorf("a refused Open changed the file")
	}
}

// Finding 3 of the security issue: opening a bank made mode 0600 files
// that are not banks (a file named as the bank, or a -wal, -shm or .key
// file that is a symbolic link, as a task directory may ship one) before
// the open failed; SQLite would even have written its log through such a
// link. A path that is not a bank's own is refused (bank.ErrForeign)
// before anything touches it.
func TestOpenChangesNoFileItDidNotMake(t *testing.T) {
	t.Setenv(bank.KeyEnv, "")
	const content = "someone else's file\n"
	tests := []struct {
		name string
		// prepare returns the bank path and the victim file.
		prepare func(t *testing.T, dir, victim string) string
		want    string
	}{
		{name: "a text file named as the bank", want: "is not a SQLite database", prepare: func(t *testing.T, dir, victim string) string {
			return victim
		}},
		{name: "a link to a text file named as the bank", want: "is not a SQLite database", prepare: func(t *testing.T, dir, victim string) string {
			p := filepath.Join(dir, "bank.db")
			symlink(t, victim, p)
			return p
		}},
		{name: "another program's SQLite database", want: "holds no bank", prepare: func(t *testing.T, dir, victim string) string {
			p := filepath.Join(dir, "app.sqlite")
			db, err := sql.Open("sqlite", p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`CREATE TABLE notes (text TEXT)`); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if err := os.Chmod(p, 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{name: "a -wal link beside a new bank", want: "bank.db-wal is a symbolic link", prepare: func(t *testing.T, dir, victim string) string {
			symlink(t, victim, filepath.Join(dir, "bank.db-wal"))
			return filepath.Join(dir, "bank.db")
		}},
		{name: "a -shm link beside a new bank", want: "bank.db-shm is a symbolic link", prepare: func(t *testing.T, dir, victim string) string {
			symlink(t, victim, filepath.Join(dir, "bank.db-shm"))
			return filepath.Join(dir, "bank.db")
		}},
		{name: "a .key link beside a new bank", want: "bank.db.key is a symbolic link", prepare: func(t *testing.T, dir, victim string) string {
			symlink(t, victim, filepath.Join(dir, "bank.db.key"))
			return filepath.Join(dir, "bank.db")
		}},
		{name: "a .key link beside a bank", want: "bank.db.key is a symbolic link", prepare: func(t *testing.T, dir, victim string) string {
			p := filepath.Join(dir, "bank.db")
			st, err := sqlite.Open(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			if err := os.Remove(sqlite.KeyFile(p)); err != nil {
				t.Fatal(err)
			}
			symlink(t, victim, sqlite.KeyFile(p))
			return p
		}},
		{name: "a -wal that is a directory", want: "bank.db-wal is not a regular file", prepare: func(t *testing.T, dir, victim string) string {
			if err := os.Mkdir(filepath.Join(dir, "bank.db-wal"), 0o755); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "bank.db")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(victim, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			path := tt.prepare(t, dir, victim)
			before := listing(t, dir)
			for _, open := range []func(context.Context, string) (*sqlite.Store, error){sqlite.Open, sqlite.OpenChecked, migrate} {
				st, err := open(context.Background(), path)
				if err == nil {
					st.Close()
					t.Fatalf("opened %s", path)
				}
				if !errors.Is(err, bank.ErrForeign) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %v, want bank.ErrForeign saying %q", err, tt.want)
				}
			}
			if got := mode(t, victim); got != 0o644 {
				t.Errorf("the victim's mode is %v, want 0644 as it was", got)
			}
			if data, _ := os.ReadFile(victim); string(data) != content {
				t.Errorf("the victim now holds %q", data)
			}
			if after := listing(t, dir); after != before {
				t.Errorf("the directory changed: %s, was %s", after, before)
			}
		})
	}
}

// A bank reached through a symbolic link is still a bank.
func TestBankThroughALink(t *testing.T) {
	t.Setenv(bank.KeyEnv, "")
	dir := t.TempDir()
	real := filepath.Join(dir, "real.db")
	st, err := sqlite.Open(context.Background(), real)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	link := filepath.Join(dir, "bank.db")
	symlink(t, real, link)
	if err := os.Rename(sqlite.KeyFile(real), sqlite.KeyFile(link)); err != nil {
		t.Fatal(err)
	}
	st, err = sqlite.Open(context.Background(), link)
	if err != nil {
		t.Fatalf("Open through a link: %v", err)
	}
	st.Close()
}

func migrate(ctx context.Context, path string) (*sqlite.Store, error) {
	st, _, err := sqlite.Migrate(ctx, path)
	return st, err
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// listing names the directory's entries with their modes and sizes.
func listing(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, e := range entries {
		fi, err := os.Lstat(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, e.Name()+" "+fi.Mode().String()+" "+strings.Repeat("#", min(int(fi.Size()), 1)))
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			parts[len(parts)-1] += hex.EncodeToString(data[:min(len(data), 64)])
		}
	}
	return strings.Join(parts, ", ")
}
