// Package pgtest gives tests PostgreSQL databases of their own: a fresh
// database per test on the server named by RECONSTRUCT_TEST_POSTGRES
// (dropped when the test ends), or a private server the test may stop and
// restart (scripts/postgres.sh). Without the variable the tests skip, or
// fail under RECONSTRUCT_REQUIRE_ALL=1.
package pgtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// Database creates an empty database for the test on the test server and
// returns its URL; the database is dropped when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	return DatabaseOn(t, testenv.NeedPostgres(t))
}

// DatabaseOn creates an empty database for the test on the server at
// admin (a URL whose user may create databases).
func DatabaseOn(t testing.TB, admin string) string {
	t.Helper()
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", testenv.PostgresEnv, err)
	}
	name := dbName(t.Name())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connect to the test server: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP DATABASE IF EXISTS `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// DatabaseFrom creates a database for the test, like Database, and runs
// the SQL script dump (a pg_dump in plain format, say) in it.
func DatabaseFrom(t testing.TB, dump []byte) string {
	t.Helper()
	loc := Database(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, string(dump)); err != nil {
		t.Fatalf("restore the dump: %v", err)
	}
	return loc
}

// dbName is a valid, unique database name that says which test made it.
func dbName(test string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(test) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > 40 {
		s = s[:40]
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return "t_" + s + "_" + hex.EncodeToString(rnd[:])
}

// Cluster is a private PostgreSQL server for tests that stop and restart
// it.
type Cluster struct {
	dir    string
	script string
	// URL is the server's admin URL (database postgres).
	URL string
}

// StartCluster starts a private server in a temporary directory; it is
// stopped and removed when the test ends.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	testenv.NeedPostgres(t)
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: the server's user must be able to reach the directory.
	dir, err := os.MkdirTemp("", "reconstruct-pg-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{dir: dir, script: filepath.Join(root, "scripts", "postgres.sh")}
	t.Cleanup(func() {
		_, _ = c.run("stop")
		os.RemoveAll(dir)
	})
	out, err := c.run("start")
	if err != nil {
		t.Fatalf("start a private PostgreSQL server: %v", err)
	}
	c.URL = out
	return c
}

func (c *Cluster) run(cmd string) (string, error) {
	var out, errb bytes.Buffer
	x := exec.Command("bash", c.script, cmd, c.dir)
	x.Stdout, x.Stderr = &out, &errb
	if err := x.Run(); err != nil {
		return "", fmt.Errorf("postgres.sh %s: %w: %s", cmd, err, errb.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// Stop stops the server (fast shutdown: open connections are closed).
func (c *Cluster) Stop(t testing.TB) {
	t.Helper()
	if _, err := c.run("stop"); err != nil {
		t.Fatal(err)
	}
}

// Start starts the stopped server again on the same port.
func (c *Cluster) Start(t testing.TB) {
	t.Helper()
	x := exec.Command("bash", c.script, "restart", c.dir)
	if out, err := x.CombinedOutput(); err != nil {
		t.Fatalf("restart the private PostgreSQL server: %v: %s", err, out)
	}
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test's directory")
		}
		dir = parent
	}
}
