// Package storetest is the behaviour every bank.Store must have, as one
// suite that each backend's tests run (bank/sqlite, bank/postgres):
// revisions guarded by the expected head, content-addressed blobs, content
// stored as trees of blobs (RevisionRecord.Trees), forks,
// functions, event journals, the receipt key, append-only tables enforced
// by the database itself, atomic failed writes, and concurrent writers of
// which exactly one wins per revision without losing an event.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/bank"
)

// Harness opens stores of one backend.
type Harness struct {
	// New returns a store over a new, empty bank and a function that opens
	// the same bank again (as another process would). Both close with the
	// test.
	New func(t *testing.T) (bank.Store, func(t *testing.T) bank.Store)
	// Exec runs one raw SQL statement on the store's database, bypassing
	// the Go code (the append-only checks).
	Exec func(ctx context.Context, s bank.Store, query string) error
}

// Run runs the suite.
func Run(t *testing.T, h Harness) {
	tests := []struct {
		name string
		run  func(t *testing.T, h Harness)
	}{
		{"Revisions", testRevisions},
		{"Fork", testFork},
		{"Trees", testTrees},
		{"Blobs", testBlobs},
		{"Functions", testFunctions},
		{"Events", testEvents},
		{"Key", testKey},
		{"AppendOnly", testAppendOnly},
		{"FailedWriteLeavesNothing", testFailedWrite},
		{"ConcurrentCommits", testConcurrentCommits},
		{"ConcurrentEvents", testConcurrentEvents},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, h) })
	}
}

// Blob returns a blob's hash and content.
func Blob(s string) (string, []byte) { return bank.HashBytes([]byte(s)), []byte(s) }

// at is a time with nanoseconds, which a store may round to microseconds.
var at = time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.UTC)

func rev(ws, graph string, inputs map[string]string, action string) bank.RevisionRecord {
	return bank.RevisionRecord{Workspace: ws, Inputs: inputs, Graph: graph, Registry: "sha256:r", Time: at, Action: action}
}

// equalRevisions compares records, times by instant.
var equalRevisions = cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })

// near compares times that a store may have rounded to the microsecond.
var near = cmp.Comparer(func(a, b time.Time) bool { return a.Sub(b).Abs() < time.Microsecond })

func testRevisions(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := h.New(t)
	gh, gd := Blob(`{"nodes":[],"outputs":{}}`)
	vh, vd := Blob(`{"data":1,"kind":"index"}`)
	wh, wd := Blob(`{"data":2,"kind":"index"}`)
	r1, err := s.Append(ctx, "", nil, rev("w", gh, map[string]string{"a": vh}, "create"), map[string][]byte{gh: gd, vh: vd})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Name != "r000001" || r1.Workspace != "w" {
		t.Fatalf("first revision = %+v", r1)
	}
	r2, err := s.Append(ctx, "r000001", nil, bank.RevisionRecord{Workspace: "w", Parent: "r000001", Inputs: map[string]string{"a": vh, "b": wh},
		Graph: gh, Registry: "sha256:r", Time: at.Add(time.Second), Action: "commit", Message: "add b"}, map[string][]byte{wh: wd})
	if err != nil || r2.Name != "r000002" {
		t.Fatalf("append = %+v, %v", r2, err)
	}
	missing := bank.HashBytes([]byte("missing"))
	errs := []struct {
		name     string
		expected string
		rec      bank.RevisionRecord
		want     error
	}{
		{"create twice", "", rev("w", gh, nil, "create"), bank.ErrExists},
		{"stale head", "r000001", rev("w", gh, nil, "commit"), bank.ErrStale},
		{"head ahead", "r000009", rev("w", gh, nil, "commit"), bank.ErrStale},
		{"missing workspace", "r000001", rev("nope", gh, nil, "commit"), bank.ErrNotFound},
		{"missing input blob", "r000002", rev("w", gh, map[string]string{"a": missing}, "commit"), bank.ErrNotFound},
		{"missing graph blob", "r000002", rev("w", missing, nil, "commit"), bank.ErrNotFound},
	}
	for _, e := range errs {
		if _, err := s.Append(ctx, e.expected, nil, e.rec, nil); !errors.Is(err, e.want) {
			t.Errorf("%s: err = %v, want %v", e.name, err, e.want)
		}
	}
	head, err := s.Revision(ctx, "w", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r2, head, equalRevisions); diff != "" {
		t.Errorf("head differs from what Append returned (-append +head):\n%s", diff)
	}
	first, err := s.Revision(ctx, "w", "r000001")
	if err != nil {
		t.Fatal(err)
	}
	log, err := s.Log(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bank.RevisionRecord{r1, r2}, log, equalRevisions); diff != "" {
		t.Errorf("log (-appended +log):\n%s", diff)
	}
	if diff := cmp.Diff(r1, first, equalRevisions); diff != "" {
		t.Errorf("r000001 (-appended +read):\n%s", diff)
	}
	for _, q := range []struct{ ws, name string }{{"w", "r000003"}, {"w", "bogus"}, {"w", "r0000001"}, {"nope", ""}, {"nope", "r000001"}} {
		if _, err := s.Revision(ctx, q.ws, q.name); !errors.Is(err, bank.ErrNotFound) {
			t.Errorf("revision %s@%q: err = %v, want not found", q.ws, q.name, err)
		}
	}
	if _, err := s.Log(ctx, "nope"); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("log of a missing workspace: %v", err)
	}
	wss, err := s.Workspaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(wss) != 1 || wss[0].Name != "w" || wss[0].Head != "r000002" || wss[0].Revisions != 2 || !wss[0].Updated.Equal(r2.Time) {
		t.Errorf("workspaces = %+v", wss)
	}
}

// createEmpty creates workspace ws with an empty graph and returns the
// graph's hash.
func createEmpty(t *testing.T, s bank.Store, ws string) string {
	t.Helper()
	gh, gd := Blob(`{"nodes":[],"outputs":{}}`)
	if _, err := s.Append(context.Background(), "", nil, rev(ws, gh, nil, "create"), map[string][]byte{gh: gd}); err != nil {
		t.Fatal(err)
	}
	return gh
}

func testFork(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := h.New(t)
	gh := createEmpty(t, s, "src")
	history := []bank.RevisionRecord{rev("", gh, nil, "create"), rev("", gh, nil, "commit")}
	last := rev("copy", gh, nil, "fork")
	last.ForkedFrom, last.Parent = "src@r000001", "r000002"
	got, err := s.Append(ctx, "", history, last, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "r000003" || got.ForkedFrom != "src@r000001" {
		t.Errorf("fork head = %+v", got)
	}
	log, err := s.Log(ctx, "copy")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range log {
		names = append(names, r.Name+":"+r.Action+":"+r.Workspace)
	}
	if want := "r000001:create:copy r000002:commit:copy r000003:fork:copy"; strings.Join(names, " ") != want {
		t.Errorf("fork log = %v, want %s", names, want)
	}
	wss, err := s.Workspaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, w := range wss {
		list = append(list, fmt.Sprintf("%s@%s/%d<%s", w.Name, w.Head, w.Revisions, w.ForkedFrom))
	}
	if want := "copy@r000003/3<src@r000001 src@r000001/1<"; strings.Join(list, " ") != want {
		t.Errorf("workspaces = %v, want %s", list, want)
	}
}

// testTrees: a revision whose content is a tree refers to the tree's root,
// which must exist; the record's Trees come back as written, in forks too.
func testTrees(t *testing.T, h Harness) {
	ctx := context.Background()
	s, reopen := h.New(t)
	gh, gd := Blob(`{"nodes":[],"outputs":{}}`)
	rh, rd := Blob("root of a tree")
	big := bank.HashBytes([]byte("content stored as a tree"))
	big2 := bank.HashBytes([]byte("more content stored as a tree"))
	missing := bank.HashBytes([]byte("missing root"))
	first := rev("w", gh, map[string]string{"list": big}, "create")
	first.Trees = map[string]string{big: rh}
	// The content's own hash is not a blob: only the root must exist.
	r1, err := s.Append(ctx, "", nil, first, map[string][]byte{gh: gd, rh: rd})
	if err != nil {
		t.Fatal(err)
	}
	bad := rev("w", gh, map[string]string{"list": big2}, "commit")
	bad.Trees = map[string]string{big2: missing}
	if _, err := s.Append(ctx, "r000001", nil, bad, nil); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("a tree whose root is missing: err = %v, want not found", err)
	}
	noTree := rev("w", gh, map[string]string{"list": big}, "commit")
	if _, err := s.Append(ctx, "r000001", nil, noTree, nil); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("content that is neither a blob nor a tree: err = %v, want not found", err)
	}
	plain := rev("w", gh, nil, "commit")
	r2, err := s.Append(ctx, "r000001", nil, plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Trees != nil {
		t.Errorf("a revision without trees came back with %v", r2.Trees)
	}
	fork := first
	fork.Workspace, fork.Action, fork.ForkedFrom = "f", "fork", "w@r000001"
	if _, err := s.Append(ctx, "", nil, fork, nil); err != nil {
		t.Fatal(err)
	}
	again := reopen(t)
	for _, q := range []struct {
		ws, name string
		want     bank.RevisionRecord
	}{{"w", "r000001", r1}, {"w", "r000002", r2}, {"f", "", fork}} {
		got, err := again.Revision(ctx, q.ws, q.name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(q.want.Trees, got.Trees); diff != "" {
			t.Errorf("%s@%s trees (-written +read):\n%s", q.ws, q.name, diff)
		}
	}
	log, err := again.Log(ctx, "w")
	if err != nil || len(log) != 2 || log[0].Trees[big] != rh || log[1].Trees != nil {
		t.Errorf("log = %+v, %v", log, err)
	}
}

func testBlobs(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := h.New(t)
	ah, ad := Blob("alpha")
	bh, bd := Blob(strings.Repeat("b", 1<<20))
	if err := s.PutBlobs(ctx, map[string][]byte{ah: ad, bh: bd}); err != nil {
		t.Fatal(err)
	}
	// Storing again is a no-op, not an error.
	if err := s.PutBlobs(ctx, map[string][]byte{ah: ad}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Blobs(ctx, []string{ah, bh, ah})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got[ah]) != "alpha" || len(got[bh]) != 1<<20 {
		t.Errorf("blobs = %d entries", len(got))
	}
	if _, err := s.Blobs(ctx, []string{ah, bank.HashBytes([]byte("nope"))}); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("a missing blob: %v", err)
	}
}

func testFunctions(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := h.New(t)
	want := []bank.FunctionRecord{
		{Name: "zeta", Kind: "function", Definition: []byte(`{"params":{}}`), Time: at},
		{Name: "alpha", Kind: "program", Definition: []byte(`{"kind":"program"}`), Time: at.Add(time.Minute)},
	}
	for _, f := range want {
		if err := s.AddFunction(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddFunction(ctx, bank.FunctionRecord{Name: "zeta", Kind: "function", Definition: []byte("{}"), Time: at}); !errors.Is(err, bank.ErrExists) {
		t.Errorf("duplicate function: %v", err)
	}
	got, err := s.Functions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, near); diff != "" {
		t.Errorf("functions in registration order (-want +got):\n%s", diff)
	}
}

func testEvents(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := h.New(t)
	createEmpty(t, s, "w")
	if got, err := s.Events(ctx, "w"); err != nil || len(got) != 0 {
		t.Errorf("events of a new workspace = %v, %v", got, err)
	}
	want := []bank.Event{
		{Time: at, RunID: "run1", Type: "start", Data: []byte(`{"a":1}`)},
		{Time: at.Add(time.Millisecond), RunID: "run1", Type: "iteration", Data: []byte(`[1,2,3]`)},
	}
	if err := s.AppendEvents(ctx, "w", want[:1]); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEvents(ctx, "w", want[1:]); err != nil {
		t.Fatal(err)
	}
	got, err := s.Events(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, near); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	for _, events := range [][]bank.Event{nil, want[:1]} {
		if err := s.AppendEvents(ctx, "nope", events); !errors.Is(err, bank.ErrNotFound) {
			t.Errorf("append %d events to a missing workspace: %v", len(events), err)
		}
	}
	if _, err := s.Events(ctx, "nope"); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("events of a missing workspace: %v", err)
	}
}

func testKey(t *testing.T, h Harness) {
	ctx := context.Background()
	s, reopen := h.New(t)
	k1, err := s.Key(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(k1) < 32 {
		t.Fatalf("receipt key of %d bytes", len(k1))
	}
	k2, err := reopen(t).Key(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if string(k1) != string(k2) {
		t.Error("the receipt key changed on reopen")
	}
	other, _ := h.New(t)
	if k3, err := other.Key(ctx); err != nil || string(k3) == string(k1) {
		t.Errorf("two banks share a receipt key (%v)", err)
	}
}

func testAppendOnly(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := h.New(t)
	createEmpty(t, s, "w")
	if err := s.AppendEvents(ctx, "w", []bank.Event{{Time: at, Type: "start", Data: []byte("{}")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddFunction(ctx, bank.FunctionRecord{Name: "f", Kind: "function", Definition: []byte("{}"), Time: at}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE revisions SET message = 'x'`, `DELETE FROM revisions`,
		`UPDATE events SET type = 'x'`, `DELETE FROM events`,
		`UPDATE blobs SET data = data`, `DELETE FROM blobs`,
		`UPDATE functions SET kind = 'x'`, `DELETE FROM functions`,
		`UPDATE workspaces SET forked_from = 'x'`, `DELETE FROM workspaces`,
	} {
		if err := h.Exec(ctx, s, q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: err = %v, want append-only", q, err)
		}
	}
	log, err := s.Log(ctx, "w")
	if err != nil || len(log) != 1 || log[0].Message != "" {
		t.Errorf("after the refused statements: log = %+v, %v", log, err)
	}
}

func testFailedWrite(t *testing.T, h Harness) {
	ctx := context.Background()
	s, _ := h.New(t)
	gh, gd := Blob(`{"nodes":[],"outputs":{}}`)
	vh, vd := Blob(`{"data":7,"kind":"index"}`)
	missing := bank.HashBytes([]byte("missing"))
	// A new workspace whose revision refers to a missing blob: neither the
	// workspace nor the blobs sent with it are stored.
	if _, err := s.Append(ctx, "", nil, rev("w", gh, map[string]string{"a": vh, "b": missing}, "create"), map[string][]byte{gh: gd, vh: vd}); !errors.Is(err, bank.ErrNotFound) {
		t.Fatalf("append with a missing blob: %v", err)
	}
	if _, err := s.Revision(ctx, "w", ""); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("the failed create left a workspace: %v", err)
	}
	if _, err := s.Blobs(ctx, []string{vh}); !errors.Is(err, bank.ErrNotFound) {
		t.Errorf("the failed create left its blobs: %v", err)
	}
	if wss, err := s.Workspaces(ctx); err != nil || len(wss) != 0 {
		t.Errorf("workspaces = %v, %v", wss, err)
	}
}

// writers is how many goroutines race in the concurrency tests.
const writers = 8

func testConcurrentCommits(t *testing.T, h Harness) {
	ctx := context.Background()
	s, reopen := h.New(t)
	gh := createEmpty(t, s, "w")
	stores := []bank.Store{s}
	for len(stores) < writers {
		stores = append(stores, reopen(t))
	}
	const rounds = 5
	for round := 1; round <= rounds; round++ {
		expected := bank.RevisionName(round)
		var wg sync.WaitGroup
		results := make([]error, writers)
		names := make([]string, writers)
		start := make(chan struct{})
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				vh, vd := Blob(fmt.Sprintf(`{"data":%d,"kind":"index"}`, 100*round+i))
				r := rev("w", gh, map[string]string{"v": vh}, "commit")
				r.Message = fmt.Sprintf("writer %d", i)
				<-start
				got, err := stores[i].Append(ctx, expected, nil, r, map[string][]byte{vh: vd})
				results[i], names[i] = err, got.Name
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range results {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("round %d: writers %d and %d both won", round, winner, i)
			case err == nil:
				winner = i
				if names[i] != bank.RevisionName(round+1) {
					t.Errorf("round %d: the winner got %s", round, names[i])
				}
			case !errors.Is(err, bank.ErrStale):
				t.Errorf("round %d writer %d: %v, want stale", round, i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won", round)
		}
		head, err := s.Revision(ctx, "w", "")
		if err != nil || head.Name != bank.RevisionName(round+1) || head.Message != fmt.Sprintf("writer %d", winner) {
			t.Fatalf("round %d: head = %+v, %v; want the winner's (%d)", round, head, err, winner)
		}
	}
}

func testConcurrentEvents(t *testing.T, h Harness) {
	ctx := context.Background()
	s, reopen := h.New(t)
	createEmpty(t, s, "w")
	const each = 25
	var wg sync.WaitGroup
	for i := range writers {
		st := s
		if i > 0 {
			st = reopen(t)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				e := bank.Event{Time: at, RunID: fmt.Sprint(i), Type: "n", Data: []byte(fmt.Sprint(j))}
				if err := st.AppendEvents(ctx, "w", []bank.Event{e}); err != nil {
					t.Errorf("writer %d event %d: %v", i, j, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, err := s.Events(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != writers*each {
		t.Fatalf("%d events, want %d", len(got), writers*each)
	}
	next := map[string]int{}
	for _, e := range got {
		if string(e.Data) != fmt.Sprint(next[e.RunID]) {
			t.Fatalf("writer %s: event %s after %d: lost or reordered", e.RunID, e.Data, next[e.RunID])
		}
		next[e.RunID]++
	}
}
