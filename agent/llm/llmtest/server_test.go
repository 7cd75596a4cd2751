package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// recorder stands in for the test, collecting errors and cleanups.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper()          {}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(f string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(f, args...))
}

func (r *recorder) finish() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func post(t *testing.T, url, body string) (*http.Response, map[string]any) {
	t.Helper()
	resp, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("body %s: %v", b, err)
	}
	return resp, v
}

func TestServerScriptAndWireFormat(t *testing.T) {
	rec := &recorder{TB: t}
	s := NewServer(rec,
		Call("file_write", map[string]string{"path": "candidate.py"}, 7, 3),
		RateLimited("2"),
		Text("unused", 1, 1),
	)
	resp, v := post(t, s.URL, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	b, _ := json.Marshal(v)
	for _, want := range []string{`"finish_reason":"tool_calls"`, `"arguments":"{\"path\":\"candidate.py\"}"`, `"usage":{"completion_tokens":3,"prompt_tokens":7,"total_tokens":10}`, `"model":"m"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("response lacks %s: %s", want, b)
		}
	}
	resp, v = post(t, s.URL, `{"model":"m","messages":[]}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("status %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if e, _ := v["error"].(map[string]any); e["code"] != "rate_limit_exceeded" {
		t.Errorf("error envelope = %v", v)
	}
	if got := len(s.ChatRequests()); got != 2 {
		t.Errorf("recorded %d chat requests, want 2", got)
	}
	rec.finish()
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "1 scripted replies were never requested") {
		t.Errorf("errors = %q, want the unused reply reported", rec.errs)
	}
}

func TestServerExhaustedScriptFailsTheTest(t *testing.T) {
	rec := &recorder{TB: t}
	s := NewServer(rec)
	resp, _ := post(t, s.URL, `{"model":"m","messages":[]}`)
	rec.finish()
	if resp.StatusCode != 500 || len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "script is exhausted") {
		t.Errorf("status %d, errors %q", resp.StatusCode, rec.errs)
	}
}
