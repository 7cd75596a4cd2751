package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func act(t *testing.T, b *bank.Bank, action string) map[string]any {
	t.Helper()
	raw, err := json.Marshal(b.Act(context.Background(), []byte(action)))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// dbKey is the receipt key the meta table holds (nil when none), read
// without going through Open.
func dbKey(t *testing.T, path string) []byte {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return nil
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var key []byte
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'receipt_key'`).Scan(&key); err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	return key
}

// copyFixture copies a bank made by an earlier version (the receipt key in
// its meta table, mode 0644) and returns its path.
func copyFixture(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "v1-key-in-db.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The bank's files are its owner's only: a candidate or another user
// cannot read its outputs or its receipt key.
func TestBankFilesAreOwnerOnly(t *testing.T) {
	t.Setenv(bank.KeyEnv, "")
	dir := filepath.Join(t.TempDir(), "data", "reconstruct")
	path := filepath.Join(dir, "bank.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	b := bank.New(st, bank.Options{})
	if m := act(t, b, `{"action":"create","workspace":"w","spec":{"inputs":{"x":{"kind":"index","data":1}},"nodes":[],"outputs":{}}}`); m["ok"] != true {
		t.Fatalf("create: %v", m)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600, path + "-wal": 0o600, path + "-shm": 0o600, sqlite.KeyFile(path): 0o600} {
		if got := mode(t, p); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
	}
	st.Close()
	// An existing bank's files are made owner-only when it is opened.
	for _, p := range []string{path, path + "-wal", path + "-shm", sqlite.KeyFile(path)} {
		if err := os.Chmod(p, 0o644); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	st, err = sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm", sqlite.KeyFile(path)} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v after reopening, want 0600", p, fi.Mode().Perm())
		}
	}
	if key := dbKey(t, path); key != nil {
		t.Errorf("a new bank keeps its receipt key in the database")
	}
}

// A bank made by an earlier version keeps its key in the database: opening
// it moves the key to the key file, and a receipt it issued before still
// commits.
func TestReceiptKeyMovesOutOfAnOldBank(t *testing.T) {
	t.Setenv(bank.KeyEnv, "")
	path := copyFixture(t)
	old := dbKey(t, path)
	if len(old) != bank.KeySize {
		t.Fatalf("the fixture holds a %d-byte key", len(old))
	}
	receipt, err := os.ReadFile(filepath.Join("testdata", "v1-receipt.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if key := dbKey(t, path); key != nil {
		t.Errorf("the receipt key is still in the database")
	}
	raw, err := os.ReadFile(sqlite.KeyFile(path))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(raw)); got != hex.EncodeToString(old) {
		t.Errorf("key file holds %s, want the database's key", got)
	}
	if got := mode(t, sqlite.KeyFile(path)); got != 0o600 {
		t.Errorf("key file mode %v, want 0600", got)
	}
	if got := mode(t, path); got != 0o600 {
		t.Errorf("bank mode %v, want 0600", got)
	}
	if m := act(t, bank.New(st, bank.Options{}), `{"action":"commit","receipt":`+string(receipt)+`}`); m["ok"] != true {
		t.Errorf("a receipt issued before the move does not commit: %v", m)
	}
}

func TestReceiptKeySources(t *testing.T) {
	envKey := strings.Repeat("ab", bank.KeySize)
	tests := []struct {
		name string
		// prepare returns the bank path.
		prepare func(t *testing.T) string
		env     string
		wantErr string
		wantKey string
	}{
		{name: "the environment wins over the key file", env: envKey, wantKey: envKey, prepare: func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "bank.db")
		}},
		{name: "a key in the environment that is not hex", env: "zz", wantErr: bank.KeyEnv, prepare: func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "bank.db")
		}},
		{name: "a key in the environment too short", env: "abcd", wantErr: "want at least 32", prepare: func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "bank.db")
		}},
		{name: "the key file is missing", wantErr: "receipt key file", prepare: func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "bank.db")
			st, err := sqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			if err := os.Remove(sqlite.KeyFile(path)); err != nil {
				t.Fatal(err)
			}
			return path
		}},
		{name: "a key file that differs from the database's key", wantErr: "differs from the key file", prepare: func(t *testing.T) string {
			path := copyFixture(t)
			if err := os.WriteFile(sqlite.KeyFile(path), []byte(envKey+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}},
		{name: "a move interrupted after the key file was written", prepare: func(t *testing.T) string {
			path := copyFixture(t)
			if err := os.WriteFile(sqlite.KeyFile(path), []byte(hex.EncodeToString(dbKey(t, path))+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(bank.KeyEnv, tt.env)
			path := tt.prepare(t)
			before := dbKey(t, path)
			st, err := sqlite.Open(context.Background(), path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Open: %v, want an error saying %q", err, tt.wantErr)
				}
				if after := dbKey(t, path); string(after) != string(before) {
					t.Errorf("a refused Open changed the database's key")
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer st.Close()
			key, err := st.Key(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantKey != "" && hex.EncodeToString(key) != tt.wantKey {
				t.Errorf("key %x, want %s", key, tt.wantKey)
			}
			if dbKey(t, path) != nil {
				t.Errorf("the receipt key is still in the database")
			}
			if _, err := os.Stat(sqlite.KeyFile(path)); err != nil {
				t.Errorf("no key file: %v", err)
			}
		})
	}
}
