package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/bank"
)

func open(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "b", "bank.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func blob(s string) (string, []byte) { return bank.HashBytes([]byte(s)), []byte(s) }

func rev(ws string, graph string, inputs map[string]string) bank.RevisionRecord {
	return bank.RevisionRecord{Workspace: ws, Inputs: inputs, Graph: graph, Registry: "sha256:r", Time: time.Unix(1700000000, 0), Action: "create"}
}

func TestStoreSemantics(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	gh, gd := blob(`{"nodes":[],"outputs":{}}`)
	vh, vd := blob(`{"data":1,"kind":"index"}`)
	blobs := map[string][]byte{gh: gd, vh: vd}

	r1, err := s.Append(ctx, "", nil, rev("w", gh, map[string]string{"a": vh}), blobs)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Name != "r000001" {
		t.Errorf("first revision = %s", r1.Name)
	}
	if _, err := s.Append(ctx, "", nil, rev("w", gh, nil), nil); !errors.Is(err, bank.ErrExists) {
		t.Errorf("create twice: %v, want ErrExists", err)
	}
	if _, err := s.Append(ctx, "r000009", nil, rev("w", gh, nil), nil); !errors.Is(err, bank.ErrStale) {
		t.Errorf("stale append: %v, want ErrStale", err)
	}
	if _, err := s.Append(ctx, "r000001", nil, rev("nope", gh, nil), nil); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("append to a missing workspace: %v, want ErrNotFound", err)
	}
	missing := bank.HashBytes([]byte("missing"))
	if _, err := s.Append(ctx, "r000001", nil, rev("w", gh, map[string]string{"a": missing}), nil); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("append referencing a missing blob: %v, want ErrNotFound", err)
	}
	r2, err := s.Append(ctx, "r000001", nil, rev("w", gh, map[string]string{"a": vh, "b": vh}), nil)
	if err != nil || r2.Name != "r000002" {
		t.Fatalf("append = %v, %v", r2, err)
	}
	head, err := s.Revision(ctx, "w", "")
	if err != nil || head.Name != "r000002" || head.Inputs["b"] != vh {
		t.Errorf("head = %+v, %v", head, err)
	}
	if _, err := s.Revision(ctx, "w", "r000003"); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("missing revision: %v", err)
	}
	if err := s.AppendEvents(ctx, "w", []bank.Event{{Type: "start", Data: []byte("{}")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddFunction(ctx, bank.FunctionRecord{Name: "g", Kind: "function", Definition: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	// Append-only: the triggers refuse changes even through raw SQL.
	for _, q := range []string{`UPDATE revisions SET message = 'x'`, `DELETE FROM revisions`, `DELETE FROM blobs`, `UPDATE events SET type = 'x'`, `DELETE FROM functions`} {
		if _, err := s.db.ExecContext(ctx, q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: err = %v, want append-only", q, err)
		}
	}
	// Events need a workspace.
	if err := s.AppendEvents(ctx, "nope", []bank.Event{{Type: "x", Data: []byte("1")}}); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("events of a missing workspace: %v", err)
	}
	if err := s.AddFunction(ctx, bank.FunctionRecord{Name: "f", Kind: "function", Definition: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddFunction(ctx, bank.FunctionRecord{Name: "f", Kind: "function", Definition: []byte("{}")}); !errors.Is(err, bank.ErrExists) {
		t.Errorf("duplicate function: %v", err)
	}
	k1, err := s.Key(ctx)
	if err != nil || len(k1) != 32 {
		t.Fatalf("key = %x, %v", k1, err)
	}
	s.Close()
	// Reopening keeps the key and the data; migrations are not re-run.
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	k2, _ := s2.Key(ctx)
	if string(k1) != string(k2) {
		t.Error("the receipt key changed on reopen")
	}
	var mode string
	if err := s2.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode = %q, %v; want wal", mode, err)
	}
	var v int
	if err := s2.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil || v != SchemaVersion() {
		t.Errorf("schema version = %d, %v", v, err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	if _, err := s.db.ExecContext(ctx, `UPDATE schema_version SET version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer than this build") {
		t.Errorf("open of a newer schema: %v", err)
	}
}

// objectsBank returns a bank whose workspace "w" holds a 30×30 grid, some
// small inputs and a graph of 200 nodes.
func objectsBank(t testing.TB) (*bank.Bank, *Store, string) {
	t.Helper()
	s, path := open(t)
	b := bank.New(s, bank.Options{})
	rows := make([][]int, 30)
	for i := range rows {
		rows[i] = make([]int, 30)
		for j := range rows[i] {
			rows[i][j] = (i * j) % 10
		}
	}
	grid, err := bank.NewGrid(rows)
	if err != nil {
		t.Fatal(err)
	}
	g := &bank.Graph{Inputs: map[string]bank.Value{"grid": grid, "bg": bank.Color(0), "k": bank.Index(1)}, Outputs: map[string]string{}}
	prev := "k"
	for i := 0; i < 200; i++ {
		id := fmt.Sprintf("n%03d", i)
		g.Nodes = append(g.Nodes, bank.Node{ID: id, Op: "number.add", Args: map[string]string{"a": prev, "b": "k"}})
		prev = id
	}
	g.Nodes = append(g.Nodes, bank.Node{ID: "objs", Op: "grid.components", Args: map[string]string{"grid": "grid", "background": "bg"}})
	g.Outputs["sum"], g.Outputs["objs"] = prev, "objs"
	if _, err := b.Create(context.Background(), "w", g, ""); err != nil {
		t.Fatal(err)
	}
	return b, s, path
}

func fileSize(t testing.TB, s *Store, path string) int64 {
	t.Helper()
	if _, err := s.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	var pages, size int64
	s.db.QueryRowContext(context.Background(), `PRAGMA page_count`).Scan(&pages)
	s.db.QueryRowContext(context.Background(), `PRAGMA page_size`).Scan(&size)
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	return pages * size
}

// growth appends n revisions that each change the small input k and
// returns the bytes the file grew by per revision, and the size of the
// workspace's content (inputs and graph).
func growth(t testing.TB, n int) (perRev float64, content int) {
	ctx := context.Background()
	b, s, path := objectsBank(t)
	head, err := b.Load(ctx, "w", "")
	if err != nil {
		t.Fatal(err)
	}
	content = len(head.Graph.Structure())
	for _, v := range head.Graph.Inputs {
		content += len(v.Canonical())
	}
	before := fileSize(t, s, path)
	name := head.Name
	for i := 0; i < n; i++ {
		rec, err := b.Update(ctx, "w", name, map[string]bank.Value{"k": bank.Index(int64(i + 2))}, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		name = rec.Name
	}
	after := fileSize(t, s, path)
	return float64(after-before) / float64(n), content
}

func TestStorageGrowth(t *testing.T) {
	perRev, content := growth(t, 100)
	t.Logf("workspace content %d bytes; 100 revisions changing one small input: %.0f bytes per revision", content, perRev)
	// Content addressing: a revision costs its record and the changed value,
	// far less than a copy of the workspace.
	if perRev > float64(content)/4 {
		t.Errorf("%.0f bytes per revision for a %d-byte workspace: revisions copy the content", perRev, content)
	}
}

func BenchmarkStorageGrowth100(b *testing.B) {
	for b.Loop() {
		perRev, content := growth(b, 100)
		b.ReportMetric(perRev, "bytes/rev")
		b.ReportMetric(float64(content), "workspace-bytes")
	}
}

// Processes that open one new bank at once (a sweep's tasks in parallel)
// all open the same sound bank: none sees the file empty, and all hold one
// receipt key. A new bank appears at its path whole or not at all.
func TestConcurrentCreate(t *testing.T) {
	ctx := context.Background()
	for round := range 5 {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("r%d", round), "bank.db")
		const n = 6
		stores := make([]*Store, n)
		errs := make([]error, n)
		start := make(chan struct{})
		done := make(chan int)
		for i := range n {
			go func() {
				<-start
				stores[i], errs[i] = OpenChecked(ctx, path)
				done <- i
			}()
		}
		close(start)
		for range n {
			<-done
		}
		creators := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("round %d: open %d: %v", round, i, errs[i])
			}
			defer stores[i].Close()
			if string(stores[i].key) != string(stores[0].key) {
				t.Errorf("round %d: store %d holds another receipt key", round, i)
			}
			if stores[i].foundVersion == 0 {
				creators++
			}
		}
		if creators != 1 {
			t.Errorf("round %d: %d opens report creating the bank, want 1", round, creators)
		}
		left, err := filepath.Glob(path + ".new-*")
		if err != nil || len(left) > 0 {
			t.Errorf("round %d: temporary files left: %v %v", round, left, err)
		}
		var version int
		if err := stores[0].db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version); err != nil || version != SchemaVersion() {
			t.Errorf("round %d: schema version %d, %v; want %d", round, version, err, SchemaVersion())
		}
	}
}

// TestTextTime: a time column reads back what the store wrote, as text or
// bytes, and anything else is an error.
func TestTextTime(t *testing.T) {
	want := time.Date(2026, 12, 2, 6, 40, 1, 123456789, time.UTC)
	for _, tt := range []struct {
		name string
		src  any
		ok   bool
	}{
		{"text", want.Format(timeFormat), true},
		{"bytes", []byte(want.Format(timeFormat)), true},
		{"other format", want.Format(time.RFC1123), false},
		{"number", int64(5), false},
		{"null", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got time.Time
			err := timeColumn(&got).(interface{ Scan(any) error }).Scan(tt.src)
			if (err == nil) != tt.ok {
				t.Fatalf("Scan(%v): error %v, want ok %v", tt.src, err, tt.ok)
			}
			if tt.ok && !got.Equal(want) {
				t.Fatalf("Scan(%v) = %v, want %v", tt.src, got, want)
			}
		})
	}
}
