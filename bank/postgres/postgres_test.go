package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/postgres/pgtest"
	"github.com/reconstruct/reconstruct/bank/storetest"
)

// withMigrations replaces the embedded migrations for the test: the real
// ones up to version n, then the extra ones.
func withMigrations(t *testing.T, n int, extra ...string) {
	t.Helper()
	fsys := fstest.MapFS{}
	for i, m := range migrations()[:n] {
		fsys[fmt.Sprintf("migrations/%04d.sql", i+1)] = &fstest.MapFile{Data: []byte(m)}
	}
	for i, m := range extra {
		fsys[fmt.Sprintf("migrations/%04d.sql", n+i+1)] = &fstest.MapFile{Data: []byte(m)}
	}
	old := migrationFiles
	migrationFiles = fsys
	t.Cleanup(func() { migrationFiles = old })
}

func TestSchemaVersions(t *testing.T) {
	ctx := context.Background()
	loc := pgtest.Database(t)
	current := SchemaVersion()
	steps := []struct {
		name string
		// extra migrations beyond the real ones; -1 drops the last real one
		extra   []string
		drop    bool
		migrate bool
		want    string // "" for success, else part of the error
		from    int
	}{
		{name: "open an empty database", want: "holds no bank"},
		{name: "migrate creates the bank", migrate: true, from: 0},
		{name: "open the new bank"},
		{name: "migrate again changes nothing", migrate: true, from: current},
		{name: "open an older schema", extra: []string{`CREATE TABLE extra (x integer)`}, want: "older than this build's"},
		{name: "migrate upgrades it", extra: []string{`CREATE TABLE extra (x integer)`}, migrate: true, from: current},
		{name: "open the upgraded bank", extra: []string{`CREATE TABLE extra (x integer)`}},
		{name: "open a newer schema", want: "newer than this build's"},
		{name: "migrate refuses a newer schema", migrate: true, want: "newer than this build's"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			withMigrations(t, current, st.extra...)
			var s *Store
			var from int
			var err error
			if st.migrate {
				s, from, err = Migrate(ctx, loc, Options{})
			} else {
				s, err = Open(ctx, loc, Options{})
			}
			if st.want != "" {
				if err == nil || !errors.Is(err, bank.ErrSchema) || !strings.Contains(err.Error(), st.want) {
					t.Fatalf("err = %v, want bank.ErrSchema saying %q", err, st.want)
				}
				if !strings.Contains(err.Error(), "bank migrate") && !strings.Contains(err.Error(), "newer reconstruct") {
					t.Errorf("the error does not say what to do: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if st.migrate && from != st.from {
				t.Errorf("migrate found version %d, want %d", from, st.from)
			}
		})
	}
	// The refused newer schema was left as it was.
	conn, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if v, err := schemaVersion(ctx, conn); err != nil || v != current+1 {
		t.Errorf("schema version = %d, %v; want %d", v, err, current+1)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://u:secret@h:5432/db?sslmode=require", "postgres://u:xxxxx@h:5432/db?sslmode=require"},
		{"postgres://u@h/db", "postgres://u@h/db"},
		{"postgresql://h/db", "postgresql://h/db"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestTransient(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{bank.ErrStale, false},
		{fmt.Errorf("x: %w", bank.ErrNotFound), false},
		{context.Canceled, false},
		{io.ErrUnexpectedEOF, true},
		{fmt.Errorf("commit: %w", io.EOF), true},
		{errors.New("syntax error"), false},
	}
	for _, tt := range tests {
		if got := transient(tt.err); got != tt.want {
			t.Errorf("transient(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// terminate kills the backend of tx's connection from another connection:
// the commit that follows fails.
func terminate(ctx context.Context, admin string, tx pgx.Tx) error {
	var pid int
	if err := tx.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `SELECT pg_terminate_backend($1, 10000)`, pid)
	return err
}

func graphBank(t *testing.T, opts Options) (*Store, string, string) {
	t.Helper()
	loc := newBank(t)
	s := open(t, loc, opts)
	gh, gd := storetest.Blob(`{"nodes":[],"outputs":{}}`)
	if _, err := s.Append(context.Background(), "", nil, bank.RevisionRecord{Workspace: "w", Graph: gh, Time: time.Now(), Action: "create"}, map[string][]byte{gh: gd}); err != nil {
		t.Fatal(err)
	}
	return s, loc, gh
}

func TestConnectionKilledInsideCommit(t *testing.T) {
	ctx := context.Background()
	for _, retry := range []bool{false, true} {
		t.Run(fmt.Sprintf("retry=%v", retry), func(t *testing.T) {
			opts := Options{RetryFor: -1}
			if retry {
				opts.RetryFor = 30 * time.Second
			}
			s, loc, gh := graphBank(t, opts)
			var kills atomic.Int32
			s.beforeCommit = func(ctx context.Context, tx pgx.Tx) error {
				if kills.Add(1) > 1 {
					return nil
				}
				return terminate(ctx, loc, tx)
			}
			vh, vd := storetest.Blob(`{"data":5,"kind":"index"}`)
			rec := bank.RevisionRecord{Workspace: "w", Parent: "r000001", Graph: gh, Inputs: map[string]string{"v": vh}, Time: time.Now(), Action: "commit"}
			got, err := s.Append(ctx, "r000001", nil, rec, map[string][]byte{vh: vd})
			log, lerr := s.Log(ctx, "w")
			if lerr != nil {
				t.Fatal(lerr)
			}
			_, berr := s.Blobs(ctx, []string{vh})
			if !retry {
				// Nothing of the killed transaction is there.
				if err == nil || !strings.Contains(err.Error(), loc[:strings.Index(loc, "@")]) {
					t.Fatalf("append on a killed connection: %v; want an error naming the bank", err)
				}
				if len(log) != 1 || !errors.Is(berr, bank.ErrNotFound) {
					t.Fatalf("after the killed commit: %d revisions, blob %v; want 1 and none", len(log), berr)
				}
				s.beforeCommit = nil
				if got, err = s.Append(ctx, "r000001", nil, rec, map[string][]byte{vh: vd}); err != nil || got.Name != "r000002" {
					t.Fatalf("append after the kill: %+v, %v", got, err)
				}
				return
			}
			// Retried on a new connection: applied exactly once.
			if err != nil || got.Name != "r000002" || kills.Load() != 2 {
				t.Fatalf("append = %+v, %v after %d attempts", got, err, kills.Load())
			}
			if len(log) != 2 || berr != nil {
				t.Fatalf("%d revisions, blob %v; want 2 and the blob", len(log), berr)
			}
		})
	}
}

// TestLostCommitAnswer: the commit went through but its answer was lost;
// the retry finds the write there instead of applying it again or calling
// it stale.
func TestLostCommitAnswer(t *testing.T) {
	ctx := context.Background()
	s, _, gh := graphBank(t, Options{RetryFor: 30 * time.Second})
	var lost atomic.Int32
	s.afterCommit = func() error {
		if lost.Add(1) == 1 {
			return fmt.Errorf("commit: %w", io.ErrUnexpectedEOF)
		}
		return nil
	}
	rec := bank.RevisionRecord{Workspace: "w", Parent: "r000001", Graph: gh, Time: time.Now(), Action: "commit", Message: "once"}
	got, err := s.Append(ctx, "r000001", nil, rec, nil)
	if err != nil || got.Name != "r000002" || got.Message != "once" {
		t.Fatalf("append = %+v, %v", got, err)
	}
	lost.Store(0)
	if err := s.AppendEvents(ctx, "w", []bank.Event{{Time: time.Now(), Type: "x", Data: []byte("1")}}); err != nil {
		t.Fatal(err)
	}
	lost.Store(0)
	if err := s.AddFunction(ctx, bank.FunctionRecord{Name: "f", Kind: "function", Definition: []byte("{}"), Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	log, _ := s.Log(ctx, "w")
	evs, _ := s.Events(ctx, "w")
	fns, _ := s.Functions(ctx)
	if len(log) != 2 || len(evs) != 1 || len(fns) != 1 {
		t.Errorf("%d revisions, %d events, %d functions; want 2, 1, 1", len(log), len(evs), len(fns))
	}
}

// TestConnectionsKilledDuringCommits kills the writer's connections again
// and again while it commits: every commit lands exactly once, in order.
func TestConnectionsKilledDuringCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("kills connections for a few seconds")
	}
	ctx := context.Background()
	loc := newBank(t)
	victim := loc + "&application_name=victim"
	if !strings.Contains(loc, "?") {
		victim = loc + "?application_name=victim"
	}
	s := open(t, victim, Options{RetryFor: time.Minute})
	gh, gd := storetest.Blob(`{"nodes":[],"outputs":{}}`)
	if _, err := s.Append(ctx, "", nil, bank.RevisionRecord{Workspace: "w", Graph: gh, Time: time.Now(), Action: "create"}, map[string][]byte{gh: gd}); err != nil {
		t.Fatal(err)
	}
	// The killer terminates the victim's connections once each time the
	// writer arms it, after a short delay, so the kill lands in the middle
	// of a commit or of the event append after it. One kill at most is
	// pending at a time: however slow the machine, a retried write meets no
	// second kill, and the test measures recovery, not the scheduler.
	done := make(chan struct{})
	arm := make(chan time.Duration)
	var killed atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		conn, err := pgx.Connect(ctx, loc)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close(ctx)
		for {
			var delay time.Duration
			select {
			case <-done:
				return
			case delay = <-arm:
			}
			time.Sleep(delay)
			var n int64
			if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'victim' AND pid <> pg_backend_pid()`).Scan(&n); err != nil {
				t.Error(err)
				return
			}
			killed.Add(n)
		}
	}()
	const commits = 100
	head := "r000001"
	for i := range commits {
		vh, vd := storetest.Blob(fmt.Sprintf(`{"data":%d,"kind":"index"}`, i))
		rec := bank.RevisionRecord{Workspace: "w", Parent: head, Graph: gh, Inputs: map[string]string{"v": vh}, Time: time.Now(), Action: "commit"}
		select {
		case arm <- time.Duration(i%7) * time.Millisecond:
		default: // the previous kill is still pending
		}
		got, err := s.Append(ctx, head, nil, rec, map[string][]byte{vh: vd})
		if err != nil {
			close(done)
			wg.Wait()
			t.Fatalf("commit %d: %v", i, err)
		}
		if err := s.AppendEvents(ctx, "w", []bank.Event{{Time: time.Now(), Type: "commit", Data: []byte(fmt.Sprint(i))}}); err != nil {
			close(done)
			wg.Wait()
			t.Fatalf("event %d: %v", i, err)
		}
		head = got.Name
	}
	close(done)
	wg.Wait()
	t.Logf("%d commits and events while %d connections were killed", commits, killed.Load())
	if killed.Load() == 0 {
		t.Fatal("no connection was killed: the test proves nothing")
	}
	log, err := s.Log(ctx, "w")
	if err != nil || len(log) != commits+1 || log[len(log)-1].Name != head {
		t.Fatalf("%d revisions (head %s), %v; want %d", len(log), head, err, commits+1)
	}
	evs, err := s.Events(ctx, "w")
	if err != nil || len(evs) != commits {
		t.Fatalf("%d events, %v; want %d", len(evs), err, commits)
	}
	for i, e := range evs {
		if string(e.Data) != fmt.Sprint(i) {
			t.Fatalf("event %d is %s: lost or doubled", i, e.Data)
		}
	}
}

// TestServerRestart restarts a private server while a writer commits: the
// writer waits it out; with the server gone for good, calls fail after the
// retry bound with an error naming the bank.
func TestServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a PostgreSQL server")
	}
	ctx := context.Background()
	c := pgtest.StartCluster(t)
	loc := pgtest.DatabaseOn(t, c.URL)
	ms, _, err := Migrate(ctx, loc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ms.Close()
	s := open(t, loc, Options{RetryFor: time.Minute})
	gh, gd := storetest.Blob(`{"nodes":[],"outputs":{}}`)
	if _, err := s.Append(ctx, "", nil, bank.RevisionRecord{Workspace: "w", Graph: gh, Time: time.Now(), Action: "create"}, map[string][]byte{gh: gd}); err != nil {
		t.Fatal(err)
	}
	var commits atomic.Int64
	errc := make(chan error, 1)
	stop := make(chan struct{})
	go func() {
		head := "r000001"
		for i := 0; ; i++ {
			select {
			case <-stop:
				errc <- nil
				return
			default:
			}
			vh, vd := storetest.Blob(fmt.Sprintf(`{"data":%d,"kind":"index"}`, i))
			got, err := s.Append(ctx, head, nil, bank.RevisionRecord{Workspace: "w", Parent: head, Graph: gh, Inputs: map[string]string{"v": vh}, Time: time.Now(), Action: "commit"}, map[string][]byte{vh: vd})
			if err == nil {
				err = s.AppendEvents(ctx, "w", []bank.Event{{Time: time.Now(), Type: "commit", Data: []byte(fmt.Sprint(i))}})
			}
			if err != nil {
				errc <- fmt.Errorf("commit %d: %w", i, err)
				return
			}
			head = got.Name
			commits.Add(1)
		}
	}()
	waitFor := func(n int64) {
		for deadline := time.Now().Add(time.Minute); commits.Load() < n; {
			if time.Now().After(deadline) {
				t.Fatalf("only %d commits", commits.Load())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor(20)
	c.Stop(t)
	down := commits.Load()
	time.Sleep(2 * time.Second)
	if commits.Load() != down {
		t.Fatal("commits went on while the server was down")
	}
	c.Start(t)
	waitFor(down + 20)
	close(stop)
	if err := <-errc; err != nil {
		t.Fatalf("the writer failed across the restart: %v", err)
	}
	n := int(commits.Load())
	log, err := s.Log(ctx, "w")
	if err != nil || len(log) != n+1 {
		t.Fatalf("%d revisions, %v; want %d", len(log), err, n+1)
	}
	evs, err := s.Events(ctx, "w")
	if err != nil || len(evs) != n {
		t.Fatalf("%d events, %v; want %d", len(evs), err, n)
	}
	t.Logf("%d commits across a server restart (%d before it)", n, down)

	// The server goes away for good: a bounded wait, then an error that
	// names the bank.
	short := open(t, loc, Options{RetryFor: 2 * time.Second})
	c.Stop(t)
	start := time.Now()
	_, err = short.Log(ctx, "w")
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "unreachable") || !strings.Contains(err.Error(), Redact(loc)) {
		t.Errorf("with the server down: %v; want unreachable, naming %s", err, Redact(loc))
	}
	if took < time.Second || took > 30*time.Second {
		t.Errorf("gave up after %v; want about the 2s bound", took)
	}
	c.Start(t) // for the database's cleanup
}

// TestWriterRole: machines can record into the bank as a role that may
// only read and insert (what docs/bank.md tells a team to set up), so that
// neither UPDATE nor DELETE nor dropping the triggers is possible for them.
func TestWriterRole(t *testing.T) {
	ctx := context.Background()
	loc := newBank(t)
	admin, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	role := fmt.Sprintf("writer_%d", time.Now().UnixNano())
	for _, q := range []string{
		`CREATE ROLE ` + role + ` LOGIN`,
		`GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO ` + role,
		`GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ` + role,
	} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		admin, err := pgx.Connect(context.Background(), loc)
		if err != nil {
			return
		}
		defer admin.Close(context.Background())
		admin.Exec(context.Background(), `DROP OWNED BY `+role)
		admin.Exec(context.Background(), `DROP ROLE `+role)
	})
	u, _ := url.Parse(loc)
	u.User = url.User(role)
	s := open(t, u.String(), Options{})
	b := bank.New(s, bank.Options{})
	g := &bank.Graph{Inputs: map[string]bank.Value{"n": bank.Index(1)}, Outputs: map[string]string{"n": "n"}}
	rec, err := b.Create(ctx, "w", g, "")
	if err == nil {
		_, err = b.Update(ctx, "w", rec.Name, map[string]bank.Value{"n": bank.Index(2)}, nil, "")
	}
	if err == nil {
		err = b.AppendEvents(ctx, "w", []bank.Event{{Type: "x", Data: []byte("1")}})
	}
	if err == nil {
		_, err = b.Register(ctx, "f", &bank.Function{Params: map[string]bank.Kind{"a": bank.KindIndex}, Output: "a"})
	}
	if err == nil {
		_, err = b.PutBlob(ctx, []byte("archive"))
	}
	if err != nil {
		t.Fatalf("recording as %s: %v", role, err)
	}
	for _, q := range []string{`UPDATE revisions SET message = 'x'`, `DELETE FROM events`, `DROP TRIGGER revisions_append_only ON revisions`, `TRUNCATE blobs`} {
		if _, err := s.pool.Exec(ctx, q); err == nil {
			t.Errorf("%s succeeded as %s", q, role)
		}
	}
}
