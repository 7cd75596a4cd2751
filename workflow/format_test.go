package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/internal/stamp"
	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/task"
)

// testdata/format1 holds a journal and a result.json written by the
// reconstruct of before format stamps (format 1): a finished quickstart
// run, and (events-more.jsonl) the gate, rejection and fallback events of
// a run with every discipline on.
const format1 = "testdata/format1"

// payloadOf is the typed data of each event type.
func payloadOf(typ string) any {
	switch typ {
	case EventRunStarted:
		return &RunStarted{}
	case EventRunResumed:
		return &RunResumed{}
	case EventIterationStarted:
		return &IterationStarted{}
	case EventIterationFinished:
		return &IterationFinished{}
	case EventTokens:
		return &Tokens{}
	case EventCandidateArchived:
		return &CandidateArchived{}
	case EventGate:
		return &Gate{}
	case EventPromotion:
		return &Promotion{}
	case EventProposalAccepted:
		return &ProposalAccepted{}
	case EventProposalRejected:
		return &ProposalRejected{}
	case EventProposalFallback:
		return &ProposalFallback{}
	case EventBatchGranted:
		return &BatchGranted{}
	case EventStop:
		return &Stop{}
	case EventFinal:
		return &Final{}
	}
	return nil
}

// Every event of a format-1 journal decodes into its type's struct with no
// field left over, and encodes back to the same JSON.
func TestFormat1EventsDecodeIntoTheirTypes(t *testing.T) {
	var events []Event
	for _, f := range []string{"events.jsonl", "events-more.jsonl"} {
		evs, err := readJSONLines[Event](filepath.Join(format1, f))
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, evs...)
	}
	seen := map[string]bool{}
	for _, ev := range events {
		p := payloadOf(ev.Type)
		if p == nil {
			t.Errorf("event %d: no payload type for %s", ev.Seq, ev.Type)
			continue
		}
		seen[ev.Type] = true
		dec := json.NewDecoder(bytes.NewReader(ev.Data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(p); err != nil {
			t.Errorf("event %d (%s): %v", ev.Seq, ev.Type, err)
			continue
		}
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var want, got any
		if err := json.Unmarshal(ev.Data, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(again, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("event %d (%s) does not encode back as written (-written +typed):\n%s", ev.Seq, ev.Type, diff)
		}
	}
	for _, typ := range []string{EventRunStarted, EventBatchGranted, EventGate, EventProposalRejected, EventProposalFallback, EventStop, EventFinal} {
		if !seen[typ] {
			t.Errorf("the fixtures hold no %s event", typ)
		}
	}
}

// A format-1 journal and result.json read back: the run's start, its
// state, its examples.
func TestReadsFormat1Records(t *testing.T) {
	events, err := ReadEvents(format1)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := DecodeRunStarted(events[0])
	if err != nil {
		t.Fatal(err)
	}
	if rs.Task.Name != "running_max" || rs.Settings.EarlyStop != 5 || len(rs.Config) == 0 || rs.BankWorkspace == "" {
		t.Errorf("run_started = %+v", rs)
	}
	if _, err := StateFromEvents(events); !errors.Is(err, ErrFinished) {
		t.Errorf("StateFromEvents of a finished run: %v, want ErrFinished", err)
	}
	st, err := ForkState(events)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := ReadExamples(format1)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Examples) != len(examples) || st.Iteration != 6 {
		t.Errorf("fork state: %d examples at iteration %d, want %d at 6", len(st.Examples), st.Iteration, len(examples))
	}
	if _, err := DecodeRunStarted(events[1]); err == nil {
		t.Errorf("DecodeRunStarted of a %s event succeeded", events[1].Type)
	}

	data, err := os.ReadFile(filepath.Join(format1, ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatal(err)
	}
	if res.Stamp.Major() != 1 || res.StopReason != StopEarly || res.FinalScore == 0 {
		t.Errorf("result: format %d, stop %s, score %g", res.Stamp.Major(), res.StopReason, res.FinalScore)
	}
	if err := res.Stamp.Check(ResultFile, Format); err != nil {
		t.Error(err)
	}
}

// A journal holding an event of a newer major format is refused, naming
// the file, the event and the versions.
func TestNewerJournalIsRefused(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(format1, EventsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[2] = strings.Replace(lines[2], `{"seq":3,`, `{"format":2,"producer":"v9.0.0","seq":3,`, 1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, EventsFile), []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = ReadEvents(dir)
	if !errors.Is(err, stamp.ErrNewerFormat) {
		t.Fatalf("ReadEvents: %v, want ErrNewerFormat", err)
	}
	for _, want := range []string{filepath.Join(dir, EventsFile), "event 3", "format 2", "v9.0.0", "reads format 1 at most"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// Every event a run records, and its result.json, carry the format stamp:
// the format, the producing reconstruct and the harness digest.
func TestRecordsAreStamped(t *testing.T) {
	h := newHarness(t, "double")
	res, err := h.run(t.Context(), settings(nil), task.KindInt)
	if err != nil {
		t.Fatal(err)
	}
	want := stamp.New(Format, sandbox.HarnessSHA256())
	if len(h.rec.events) == 0 {
		t.Fatal("nothing recorded")
	}
	for _, ev := range h.rec.events {
		if ev.Stamp != want {
			t.Fatalf("event %d (%s) stamp %+v, want %+v", ev.Seq, ev.Type, ev.Stamp, want)
		}
	}
	data, err := os.ReadFile(filepath.Join(h.dir, ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	var written Result
	if err := json.Unmarshal(data, &written); err != nil {
		t.Fatal(err)
	}
	if written.Stamp != want || res.Stamp != want {
		t.Errorf("result.json stamp %+v, want %+v", written.Stamp, want)
	}
}

// Each line of examples.jsonl carries the journal's stamp; a line of a
// newer format is refused with the message of every record, and the
// format-1 lines of the fixture (no stamp) read on.
func TestExampleLinesAreStamped(t *testing.T) {
	dir := t.TempDir()
	f, err := NewFileRecorder(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	exs := []task.Example{{Input: json.RawMessage(`[1]`), Output: json.RawMessage(`2`), Source: task.SourceAgent}}
	if err := f.RecordExamples(t.Context(), "", exs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var line exampleLine
	if err := json.Unmarshal([]byte(mustReadFile(t, filepath.Join(dir, ExamplesFile))), &line); err != nil {
		t.Fatal(err)
	}
	if line.Stamp != stamp.New(Format, sandbox.HarnessSHA256()) {
		t.Errorf("example line stamp %+v", line.Stamp)
	}
	back, err := ReadExamples(dir)
	if err != nil || len(back) != 1 || string(back[0].Input) != "[1]" || back[0].Source != task.SourceAgent {
		t.Errorf("ReadExamples = %+v, %v", back, err)
	}
	if old, err := ReadExamples(format1); err != nil || len(old) == 0 {
		t.Errorf("format-1 examples: %d, %v", len(old), err)
	}
	newer := `{"input":[1],"output":2,"source":"agent","format":2,"producer":"v9.0.0"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, ExamplesFile), []byte(newer), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = ReadExamples(dir)
	if !errors.Is(err, stamp.ErrNewerFormat) || !strings.Contains(err.Error(), ExamplesFile+": line 1: written in a newer format: format 2, written by reconstruct v9.0.0") {
		t.Errorf("ReadExamples of a newer line: %v", err)
	}
}

func mustReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
