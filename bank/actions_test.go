package bank_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/bank/sqlite"
)

func openBank(t testing.TB, opts bank.Options) (*bank.Bank, *sqlite.Store) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "bank.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return bank.New(st, opts), st
}

// act runs one action and returns the response re-decoded as generic JSON.
func act(t testing.TB, b *bank.Bank, action string) (map[string]any, []byte) {
	t.Helper()
	raw := encodeResponse(t, b.Act(context.Background(), []byte(action)))
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m, raw
}

// encodeResponse encodes resp with AppendJSON, and fails unless that is
// what encoding/json writes, as the command line wrote responses before.
func encodeResponse(t testing.TB, resp bank.Response) []byte {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		t.Fatalf("encoding/json: encode response: %v", err)
	}
	got, err := resp.AppendJSON(nil)
	if err != nil {
		t.Fatalf("encode response: %v", err)
	}
	if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
		t.Fatalf("AppendJSON differs from encoding/json:\n got %s\nwant %s", got, w)
	}
	return got
}

func mustOK(t testing.TB, b *bank.Bank, action string) (map[string]any, []byte) {
	t.Helper()
	m, raw := act(t, b, action)
	if m["ok"] != true {
		t.Fatalf("action %s failed: %s", action, raw)
	}
	return m["result"].(map[string]any), raw
}

func wantCode(t testing.TB, b *bank.Bank, action, code string) map[string]any {
	t.Helper()
	m, raw := act(t, b, action)
	if m["ok"] != false {
		t.Fatalf("action %s succeeded, want %s: %s", action, code, raw)
	}
	e := m["error"].(map[string]any)
	if e["code"] != code {
		t.Fatalf("action %s: code %v, want %s: %s", action, e["code"], code, raw)
	}
	return e
}

func testdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setupObjects creates the objects workspace and registers keep_large.
func setupObjects(t testing.TB, b *bank.Bank) {
	t.Helper()
	mustOK(t, b, `{"action":"register","name":"keep_large","function":`+testdata(t, "keep_large.json")+`}`)
	mustOK(t, b, `{"action":"create","workspace":"objects","spec":`+testdata(t, "objects.json")+`}`)
}

const proposeOffset = `{"action":"propose","workspace":"objects","expected_revision":"r000001",
  "updates":{"offset":{"kind":"point","data":[0,1]}},"locked_outputs":["original"],"require_target_match":false}`

func TestProtocolFlow(t *testing.T) {
	b, _ := openBank(t, bank.Options{})
	setupObjects(t, b)
	obs, _ := mustOK(t, b, `{"action":"observe","workspace":"objects"}`)
	if obs["revision"] != "r000001" || obs["registry"] == "" || len(obs["trace"].([]any)) == 0 {
		t.Fatalf("observe = %v", obs)
	}
	deps := obs["potential_dependencies"].(map[string]any)["result"].([]any)
	if len(deps) != 10 {
		t.Errorf("dependencies of result = %v", deps)
	}
	fb, raw := mustOK(t, b, proposeOffset)
	if fb["accepted"] != true {
		t.Fatalf("proposal not accepted: %s", raw)
	}
	prot := fb["protected_outputs"].([]any)[0].(map[string]any)
	if prot["output"] != "original" || prot["ok"] != true {
		t.Errorf("protected check = %v", prot)
	}
	diffs := fb["differences"].(map[string]any)["outputs"].([]any)
	if len(diffs) != 1 || diffs[0].(map[string]any)["name"] != "result" {
		t.Errorf("output differences = %v, want only result", diffs)
	}
	// Proposing changed nothing.
	obs2, _ := mustOK(t, b, `{"action":"observe","workspace":"objects"}`)
	if obs2["revision"] != "r000001" {
		t.Fatalf("propose moved the workspace to %v", obs2["revision"])
	}
	receipt, _ := json.Marshal(fb["receipt"])
	res, _ := mustOK(t, b, `{"action":"commit","receipt":`+string(receipt)+`}`)
	if got := res["revision"].(map[string]any)["revision"]; got != "r000002" {
		t.Fatalf("commit made %v, want r000002", got)
	}
	obs3, _ := mustOK(t, b, `{"action":"observe","workspace":"objects"}`)
	if got, want := obs3["inputs"].(map[string]any)["offset"], map[string]any{"kind": "point", "data": []any{0.0, 1.0}}; !jsonEqual(got, want) {
		t.Errorf("offset after commit = %v, want %v", got, want)
	}
	// The same receipt again is stale now.
	wantCode(t, b, `{"action":"commit","receipt":`+string(receipt)+`}`, bank.CodeStale)

	fork, _ := mustOK(t, b, `{"action":"fork","workspace":"objects","name":"trial","expected_revision":"r000002"}`)
	if fork["revision"] != "r000002" || fork["forked_from"] != "objects@r000002" {
		t.Errorf("fork = %v", fork)
	}
	undo, _ := mustOK(t, b, `{"action":"undo","workspace":"trial","expected_revision":"r000002"}`)
	if undo["revision"] != "r000003" {
		t.Errorf("undo = %v", undo)
	}
	cmp, _ := mustOK(t, b, `{"action":"compare","a":"objects","b":"trial"}`)
	inputs := cmp["inputs"].([]any)
	if len(inputs) != 1 || inputs[0].(map[string]any)["name"] != "offset" || cmp["identical"] != false {
		t.Errorf("compare inputs = %v", inputs)
	}
	same, _ := mustOK(t, b, `{"action":"compare","a":"objects@r000001","b":"trial"}`)
	if same["identical"] != true {
		t.Errorf("objects@r000001 and undone trial differ: %v", same)
	}
	// Undo again walks back: trial's head has no parent left.
	wantCode(t, b, `{"action":"undo","workspace":"trial","expected_revision":"r000003"}`, bank.CodeNothingToUndo)
	wantCode(t, b, `{"action":"undo","workspace":"trial","expected_revision":"r000002"}`, bank.CodeStale)

	co, _ := mustOK(t, b, `{"action":"checkout","workspace":"objects","revision":"r000001"}`)
	if co["revision"] != "r000003" || co["action"] != "checkout" {
		t.Errorf("checkout = %v", co)
	}
	log, _ := mustOK(t, b, `{"action":"log","workspace":"objects"}`)
	var actions []string
	for _, r := range log["revisions"].([]any) {
		actions = append(actions, r.(map[string]any)["action"].(string))
	}
	if got, want := strings.Join(actions, ","), "create,commit,checkout"; got != want {
		t.Errorf("log actions = %s, want %s", got, want)
	}
	list, _ := mustOK(t, b, `{"action":"list"}`)
	if n := len(list["workspaces"].([]any)); n != 2 {
		t.Errorf("list = %v", list)
	}
}

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// flakyRunner returns a different output on every call.
type flakyRunner struct{ n int }

func (f *flakyRunner) Apply(ctx context.Context, prog *bank.Program, inputs []json.RawMessage) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(inputs))
	for i := range inputs {
		f.n++
		out[i] = json.RawMessage(strings.Repeat("[", 1) + string(rune('0'+f.n%10)) + "]")
	}
	return out, nil
}

func TestRejections(t *testing.T) {
	b, _ := openBank(t, bank.Options{})
	setupObjects(t, b)
	fbResp, _ := mustOK(t, b, proposeOffset)
	receipt, _ := json.Marshal(fbResp["receipt"])

	t.Run("receipt_tampered", func(t *testing.T) {
		tampered := strings.Replace(string(receipt), `"data":[0,1],"kind":"point"`, `"data":[0,2],"kind":"point"`, 1)
		if tampered == string(receipt) {
			t.Fatal("tamper did not change the receipt")
		}
		wantCode(t, b, `{"action":"commit","receipt":`+tampered+`}`, bank.CodeReceiptTampered)
		var r map[string]any
		json.Unmarshal(receipt, &r)
		r["signature"] = "hmac-sha256:00"
		forged, _ := json.Marshal(r)
		wantCode(t, b, `{"action":"commit","receipt":`+string(forged)+`}`, bank.CodeReceiptTampered)
	})
	t.Run("constraint_failed locked output changed", func(t *testing.T) {
		e := wantCode(t, b, `{"action":"propose","workspace":"objects","updates":{"minimum":{"kind":"index","data":1}},"locked_outputs":["count"]}`, bank.CodeConstraintFailed)
		fb := e["details"].(map[string]any)
		rec, _ := json.Marshal(fb["receipt"])
		// Its receipt cannot be committed either.
		wantCode(t, b, `{"action":"commit","receipt":`+string(rec)+`}`, bank.CodeConstraintFailed)
	})
	t.Run("constraint_failed locked output missing", func(t *testing.T) {
		wantCode(t, b, `{"action":"propose","workspace":"objects","locked_outputs":["nonexistent"]}`, bank.CodeConstraintFailed)
		wantCode(t, b, `{"action":"propose","workspace":"objects","graph_edits":[{"kind":"set_output","output":"x","ref":"count"}],"locked_outputs":["x"]}`, bank.CodeConstraintFailed)
	})
	t.Run("require_target_match without targets", func(t *testing.T) {
		e := wantCode(t, b, `{"action":"propose","workspace":"objects","require_target_match":true}`, bank.CodeConstraintFailed)
		if !strings.Contains(e["message"].(string), "no targets") {
			t.Errorf("message = %v", e["message"])
		}
	})
	t.Run("targets", func(t *testing.T) {
		fb, _ := mustOK(t, b, `{"action":"propose","workspace":"objects","targets":{"count":{"kind":"index","data":2}},"require_target_match":true}`)
		if fb["targets"].(map[string]any)["count"].(map[string]any)["after"].(map[string]any)["status"] != "match" {
			t.Errorf("targets = %v", fb["targets"])
		}
		wantCode(t, b, `{"action":"propose","workspace":"objects","targets":{"count":{"kind":"index","data":3}},"require_target_match":true}`, bank.CodeConstraintFailed)
	})
	t.Run("too_many_edits", func(t *testing.T) {
		edits := strings.TrimSuffix(strings.Repeat(`{"kind":"set_output","output":"c","ref":"count"},`, 65), ",")
		wantCode(t, b, `{"action":"propose","workspace":"objects","graph_edits":[`+edits+`]}`, bank.CodeTooManyEdits)
	})
	t.Run("unknown_input", func(t *testing.T) {
		wantCode(t, b, `{"action":"propose","workspace":"objects","updates":{"shift":{"kind":"point","data":[0,1]}}}`, bank.CodeUnknownInput)
	})
	t.Run("invalid_graph", func(t *testing.T) {
		wantCode(t, b, `{"action":"propose","workspace":"objects","updates":{"minimum":{"kind":"scalar","data":2}}}`, bank.CodeInvalidGraph)
		wantCode(t, b, `{"action":"propose","workspace":"objects","graph_edits":[{"kind":"rebind","node":"selected","argument":"items","ref":"grid"}]}`, bank.CodeInvalidEdit)
	})
	t.Run("evaluation_failed leaves no revision", func(t *testing.T) {
		// Painting onto the uncleared grid fails on the first object.
		wantCode(t, b, `{"action":"propose","workspace":"objects","graph_edits":[{"kind":"replace_node","node":"placed","value":{"id":"placed","fold":{"op":"object.paint","items":"shifted","state":"grid","bindings":{"background":"background","overwrite":"overwrite"}}}}]}`, bank.CodeEvaluationFailed)
	})
	t.Run("malformed", func(t *testing.T) {
		for _, a := range []string{`{`, `[]`, `{"action":"fly"}`, `{"action":"observe"}`, `{"action":"observe","workspace":"objects","extra":1}`,
			`{"action":"propose","workspace":"objects","updates":{"offset":{"kind":"point","data":[0]}}}`, `{"action":"commit","receipt":{}}`} {
			wantCode(t, b, a, bank.CodeMalformed)
		}
	})
	t.Run("registry_changed", func(t *testing.T) {
		mustOK(t, b, `{"action":"register","name":"tiny","function":{"params":{"item":"object"},"nodes":[{"id":"s","op":"object.size","args":{"item":"item"}},{"id":"one","op":"number.sub","args":{"a":"s","b":"s"}},{"id":"t","op":"number.le","args":{"a":"s","b":"s"}}],"output":"t"}}`)
		wantCode(t, b, `{"action":"commit","receipt":`+string(receipt)+`}`, bank.CodeRegistryChanged)
	})
	t.Run("stale_revision", func(t *testing.T) {
		fb, _ := mustOK(t, b, proposeOffset)
		rec, _ := json.Marshal(fb["receipt"])
		fb2, _ := mustOK(t, b, `{"action":"propose","workspace":"objects","updates":{"minimum":{"kind":"index","data":3}}}`)
		rec2, _ := json.Marshal(fb2["receipt"])
		mustOK(t, b, `{"action":"commit","receipt":`+string(rec2)+`}`)
		wantCode(t, b, `{"action":"commit","receipt":`+string(rec)+`}`, bank.CodeStale)
		wantCode(t, b, proposeOffset, bank.CodeStale)
	})
}

func TestPredictionMismatch(t *testing.T) {
	b, _ := openBank(t, bank.Options{Runner: &flakyRunner{}})
	prog, err := bank.NewProgram("f", "def f(x):\n    return x\n")
	if err != nil {
		t.Fatal(err)
	}
	spec := `{"inputs":{"p":` + string(prog.Canonical()) + `,"x":{"kind":"json","data":1}},"nodes":[{"id":"y","op":"program.apply","args":{"program":"p","input":"x"}}],"outputs":{"y":"y"}}`
	mustOK(t, b, `{"action":"create","workspace":"w","spec":`+spec+`}`)
	fb, _ := mustOK(t, b, `{"action":"propose","workspace":"w","updates":{"x":{"kind":"json","data":2}}}`)
	rec, _ := json.Marshal(fb["receipt"])
	wantCode(t, b, `{"action":"commit","receipt":`+string(rec)+`}`, bank.CodePredictionMismatch)
}

func TestNoRunner(t *testing.T) {
	b, _ := openBank(t, bank.Options{})
	prog, _ := bank.NewProgram("f", "def f(x):\n    return x\n")
	spec := `{"inputs":{"p":` + string(prog.Canonical()) + `,"x":{"kind":"json","data":1}},"nodes":[{"id":"y","op":"program.apply","args":{"program":"p","input":"x"}}],"outputs":{"y":"y"}}`
	mustOK(t, b, `{"action":"create","workspace":"w","spec":`+spec+`}`)
	obs, _ := mustOK(t, b, `{"action":"observe","workspace":"w"}`)
	if !strings.Contains(obs["error"].(string), "no program runner") {
		t.Errorf("observe error = %v", obs["error"])
	}
}

func TestWorkflowAPI(t *testing.T) {
	b, _ := openBank(t, bank.Options{})
	ctx := context.Background()
	ex, err := bank.NewExample([]byte(`[1,2]`), []byte(`3`), "initial")
	if err != nil {
		t.Fatal(err)
	}
	g := &bank.Graph{Inputs: map[string]bank.Value{"examples": bank.List(bank.KindExample, []bank.Value{ex})}, Outputs: map[string]string{"examples": "examples"}}
	rec, err := b.Create(ctx, "run1", g, "start")
	if err != nil {
		t.Fatal(err)
	}
	prog, _ := bank.NewProgram("solve", "def solve(a):\n    return sum(a)\n")
	rec2, err := b.Update(ctx, "run1", rec.Name, map[string]bank.Value{"program": prog}, nil, "candidate")
	if err != nil {
		t.Fatal(err)
	}
	if rec2.Name != "r000002" || rec2.Parent != "r000001" {
		t.Errorf("update = %+v", rec2)
	}
	if _, err := b.Update(ctx, "run1", rec.Name, map[string]bank.Value{"program": prog}, nil, "again"); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Errorf("stale update: err = %v", err)
	}
	evs := []bank.Event{{RunID: "run-1", Type: "iteration", Data: json.RawMessage(`{"iter": 1}`)}, {RunID: "run-1", Type: "stop"}}
	if err := b.AppendEvents(ctx, "run1", evs); err != nil {
		t.Fatal(err)
	}
	got, err := b.Events(ctx, "run1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Type != "iteration" || string(got[0].Data) != `{"iter":1}` || string(got[1].Data) != "null" || got[0].Time.IsZero() {
		t.Errorf("events = %+v", got)
	}
	if err := b.AppendEvents(ctx, "nope", evs); err == nil {
		t.Error("events appended to a missing workspace")
	}
	rev, err := b.Load(ctx, "run1", "")
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := rev.Graph.Inputs["program"].Program(); !ok || p.Function != "solve" {
		t.Errorf("program input = %v", rev.Graph.Inputs["program"])
	}
}

func TestFoldFailureAtItem7LeavesNoRevision(t *testing.T) {
	b, _ := openBank(t, bank.Options{})
	row := `[1,2,1,2,1,2,1,2,1,2]`
	bad := `[1,2,1,2,1,2,1,3,1,2]`
	spec := `{"inputs":{"grid":{"kind":"grid","data":[` + row + `]},"state":{"kind":"grid","data":[` + row + `]},"bg":{"kind":"color","data":0}},
	  "nodes":[{"id":"objs","op":"grid.components","args":{"grid":"grid","background":"bg"}},
	           {"id":"out","fold":{"op":"object.erase","items":"objs","state":"state","bindings":{"background":"bg"}}}],
	  "outputs":{"out":"out"}}`
	mustOK(t, b, `{"action":"create","workspace":"w","spec":`+spec+`}`)
	e := wantCode(t, b, `{"action":"propose","workspace":"w","updates":{"state":{"kind":"grid","data":[`+bad+`]}}}`, bank.CodeEvaluationFailed)
	d := e["details"].(map[string]any)
	if d["path"] != "root/out/item_7" {
		t.Errorf("failing path = %v, want root/out/item_7", d["path"])
	}
	trace := d["trace"].([]any)
	last := trace[len(trace)-1].(map[string]any)
	if last["path"] != "root/out/item_7" || last["error"] == nil {
		t.Errorf("last trace entry = %v", last)
	}
	if steps := len(trace) - 2; steps != 7 {
		t.Errorf("%d successful fold steps before the failure, want 7", steps)
	}
	log, _ := mustOK(t, b, `{"action":"log","workspace":"w"}`)
	if n := len(log["revisions"].([]any)); n != 1 {
		t.Errorf("%d revisions after a failed proposal, want 1", n)
	}
}

// TestCommitReformattedReceipt: a receipt whose payload was re-indented in
// transit (the same JSON) commits; one whose payload says something else
// does not.
func TestCommitReformattedReceipt(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		change func(payload []byte) []byte
		code   string
	}{
		{"as signed", func(p []byte) []byte { return p }, ""},
		{"indented", func(p []byte) []byte {
			var buf bytes.Buffer
			if err := json.Indent(&buf, p, "", "  "); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}, ""},
		{"changed", func(p []byte) []byte {
			return bytes.Replace(p, []byte(`"data":[0,1],"kind":"point"`), []byte(`"data":[0,2],"kind":"point"`), 1)
		}, bank.CodeReceiptTampered},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := openBank(t, bank.Options{})
			setupObjects(t, b)
			fb, err := b.Propose(ctx, &bank.Proposal{Workspace: "objects", Updates: map[string]bank.Value{"offset": bank.PointValue(0, 1)}})
			if err != nil {
				t.Fatal(err)
			}
			r := fb.Receipt
			r.Payload = tt.change(r.Payload)
			_, err = b.Commit(ctx, r, "")
			var ae *bank.ActionError
			switch {
			case tt.code == "" && err != nil:
				t.Fatalf("commit: %v", err)
			case tt.code != "" && (!errors.As(err, &ae) || ae.Code != tt.code):
				t.Fatalf("commit: %v, want %s", err, tt.code)
			}
		})
	}
}

// TestCommitCachedOrNot: a receipt commits the same revision, its
// candidate exactly, whether the committing Bank has the candidate's
// structure cached (the Bank that proposed an update of inputs: its nodes
// are not decoded again) or not (a proposal that edits the graph, or
// another Bank over the same store), through the protocol or the API.
func TestCommitCachedOrNot(t *testing.T) {
	ctx := context.Background()
	edit := `{"action":"propose","workspace":"objects","graph_edits":[{"kind":"add_node","value":{"id":"t","op":"number.add","args":{"a":"minimum","b":"minimum"}}},{"kind":"set_output","output":"t","ref":"t"}]}`
	for _, tt := range []struct {
		name     string
		propose  string
		sameBank bool
		viaAct   bool
		cached   bool
	}{
		{"updates, same bank, act", proposeOffset, true, true, true},
		{"updates, same bank, api", proposeOffset, true, false, true},
		{"updates, other bank, act", proposeOffset, false, true, false},
		{"updates, other bank, api", proposeOffset, false, false, false},
		{"edits, same bank, act", edit, true, true, false},
		{"edits, other bank, api", edit, false, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, st := openBank(t, bank.Options{})
			setupObjects(t, b)
			res, _ := mustOK(t, b, tt.propose)
			rawReceipt, err := json.Marshal(res["receipt"])
			if err != nil {
				t.Fatal(err)
			}
			r, err := bank.DecodeReceipt(rawReceipt)
			if err != nil {
				t.Fatal(err)
			}
			committer := b
			if !tt.sameBank {
				committer = bank.New(st, bank.Options{})
			}
			if got := bank.CachedCandidate(committer, r); got != tt.cached {
				t.Errorf("candidate structure cached: %v, want %v", got, tt.cached)
			}
			if tt.viaAct {
				mustOK(t, committer, `{"action":"commit","receipt":`+string(rawReceipt)+`}`)
			} else if _, err := committer.Commit(ctx, r, ""); err != nil {
				t.Fatalf("commit: %v", err)
			}
			var payload struct{ Candidate json.RawMessage }
			if err := json.Unmarshal(r.Payload, &payload); err != nil {
				t.Fatal(err)
			}
			want, err := bank.DecodeGraph("candidate", payload.Candidate)
			if err != nil {
				t.Fatal(err)
			}
			if w, _ := want.MarshalJSON(); !bytes.Equal(payload.Candidate, w) {
				t.Fatalf("the payload's candidate\n%s\nis not the canonical encoding of the graph\n%s", payload.Candidate, w)
			}
			// A fresh Bank reads the revision back from the store.
			head, err := bank.New(st, bank.Options{}).Load(ctx, "objects", "")
			if err != nil {
				t.Fatal(err)
			}
			if head.Name != "r000002" {
				t.Fatalf("head %s, want r000002", head.Name)
			}
			got, _ := head.Graph.MarshalJSON()
			if w, _ := want.MarshalJSON(); !bytes.Equal(got, w) {
				t.Fatalf("committed graph\n%s\nwant the candidate\n%s", got, w)
			}
		})
	}
}

// TestDifferences: a proposal's differences list, by name in order, the
// intermediate values that changed, that only the base had (a removed
// node) and that only the candidate has (an added node), and not those
// that stayed the same (output g now names another node with the same
// value).
func TestDifferences(t *testing.T) {
	b, _ := openBank(t, bank.Options{})
	mustOK(t, b, `{"action":"create","workspace":"w","spec":{"inputs":{"a":{"kind":"index","data":1},"b":{"kind":"index","data":2}},
	  "nodes":[{"id":"s","op":"number.add","args":{"a":"a","b":"b"}},{"id":"t","op":"number.add","args":{"a":"s","b":"a"}},
	           {"id":"u","op":"number.add","args":{"a":"b","b":"b"}},{"id":"gone","op":"number.add","args":{"a":"b","b":"b"}}],
	  "outputs":{"t":"t","u":"u","g":"gone"}}}`)
	res, _ := mustOK(t, b, `{"action":"propose","workspace":"w","updates":{"a":{"kind":"index","data":5}},"graph_edits":[
	  {"kind":"set_output","output":"g","ref":"u"},{"kind":"remove_node","node":"gone"},
	  {"kind":"add_node","value":{"id":"new","op":"number.add","args":{"a":"a","b":"a"}}},{"kind":"set_output","output":"n","ref":"new"}]}`)
	h := func(n int64) string { return bank.Index(n).Hash() }
	want := []any{
		map[string]any{"name": "gone", "before": h(4)},
		map[string]any{"name": "new", "after": h(10), "kind": "index"},
		map[string]any{"name": "s", "before": h(3), "after": h(7), "kind": "index"},
		map[string]any{"name": "t", "before": h(4), "after": h(12), "kind": "index"},
	}
	got := res["differences"].(map[string]any)["intermediates"]
	if !jsonEqual(got, want) {
		t.Errorf("intermediates = %v, want %v", got, want)
	}
	wantOut := []any{
		map[string]any{"name": "n", "after": h(10), "kind": "index"},
		map[string]any{"name": "t", "before": h(4), "after": h(12), "kind": "index"},
	}
	if got := res["differences"].(map[string]any)["outputs"]; !jsonEqual(got, wantOut) {
		t.Errorf("outputs = %v, want %v", got, wantOut)
	}
}
