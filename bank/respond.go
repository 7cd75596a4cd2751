package bank

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// AppendJSON appends the response's JSON to b: exactly what a
// json.Encoder with SetEscapeHTML(false) writes for it, without the
// newline. Observations and proposal feedback, whose traces and
// differences have an entry per node and whose values, graph and receipt
// payload are canonical JSON already, are written directly: encoding/json
// would reflect over every entry and compact every value and the payload
// once more. Anything else is left to encoding/json.
func (r Response) AppendJSON(b []byte) ([]byte, error) {
	w := &jsonWriter{b: b}
	w.bool(`{"ok":`, r.OK)
	w.optString(`,"action":`, r.Action)
	if r.Result != nil {
		w.result(`,"result":`, r.Result)
	}
	if e := r.Error; e != nil {
		w.string(`,"error":{"code":`, e.Code)
		w.string(`,"message":`, e.Message)
		if e.Details != nil {
			w.result(`,"details":`, e.Details)
		}
		w.raw(`}`, nil)
	}
	w.raw(`}`, nil)
	return w.b, w.err
}

// jsonWriter appends JSON to b; each method appends a key with its
// punctuation (a literal) and a value. The first error sticks: the
// methods do nothing after it.
type jsonWriter struct {
	b       []byte
	err     error
	scratch bytes.Buffer // a value's canonical encoding
}

func (w *jsonWriter) raw(key string, raw []byte) {
	if w.err == nil {
		w.b = append(append(w.b, key...), raw...)
	}
}

func (w *jsonWriter) string(key, s string) {
	if w.err == nil {
		w.b = appendString(append(w.b, key...), s)
	}
}

// optString writes nothing for an empty s (omitempty).
func (w *jsonWriter) optString(key, s string) {
	if s != "" {
		w.string(key, s)
	}
}

func (w *jsonWriter) bool(key string, x bool) {
	if w.err == nil {
		w.b = strconv.AppendBool(append(w.b, key...), x)
	}
}

func (w *jsonWriter) int(key string, n int) {
	if w.err == nil {
		w.b = strconv.AppendInt(append(w.b, key...), int64(n), 10)
	}
}

// std writes x as encoding/json does (HTML characters not escaped).
func (w *jsonWriter) std(key string, x any) {
	if w.err != nil {
		return
	}
	buf := bytes.NewBuffer(append(w.b, key...))
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if w.err = enc.Encode(x); w.err == nil {
		w.b = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
}

// result writes a result or error details.
func (w *jsonWriter) result(key string, x any) {
	// The room a trace entry or a difference takes, about: a path and a
	// hash or two, and a small value. Growing b once up front saves
	// copying it again and again as it grows.
	const entryBytes = 192
	switch x := x.(type) {
	case *Feedback:
		if x != nil {
			n := len(x.Trace) + len(x.Differences.Outputs) + len(x.Differences.Intermediates)
			w.b = slices.Grow(w.b, 1024+len(x.Receipt.Payload)+n*entryBytes)
			w.feedback(key, x)
			return
		}
	case *Observation:
		if x != nil {
			w.b = slices.Grow(w.b, 1024+len(x.Graph)+len(x.Trace)*entryBytes)
			w.observation(key, x)
			return
		}
	}
	w.std(key, x)
}

func (w *jsonWriter) feedback(key string, fb *Feedback) {
	w.string(key+`{"workspace":`, fb.Workspace)
	w.string(`,"base_revision":`, fb.BaseRevision)
	w.string(`,"registry":`, fb.Registry)
	w.bool(`,"accepted":`, fb.Accepted)
	w.values(`,"outputs":`, fb.Outputs)
	if len(fb.Targets) > 0 {
		w.std(`,"targets":`, fb.Targets)
	}
	w.diffs(`,"differences":{"outputs":`, fb.Differences.Outputs)
	w.diffs(`,"intermediates":`, fb.Differences.Intermediates)
	w.trace(`},"trace":`, fb.Trace)
	w.int(`,"calls":`, fb.Calls)
	w.std(`,"protected_outputs":`, fb.Protected)
	w.std(`,"constraints":`, fb.Constraints)
	if r := fb.Receipt; len(r.Payload) > 0 {
		// The payload is canonical JSON (see Receipt), which
		// encoding/json would copy as it is.
		w.string(`,"receipt":{"proposal_id":`, r.ProposalID)
		w.raw(`,"payload":`, r.Payload)
		w.string(`,"signature":`, r.Signature)
		w.raw(`}`, nil)
	} else {
		// null, or an empty payload encoding/json refuses.
		w.std(`,"receipt":`, r)
	}
	w.raw(`}`, nil)
}

func (w *jsonWriter) observation(key string, o *Observation) {
	w.string(key+`{"workspace":`, o.Workspace)
	w.string(`,"revision":`, o.Revision)
	w.string(`,"registry":`, o.Registry)
	w.values(`,"inputs":`, o.Inputs)
	if o.Graph != nil {
		// The graph's canonical structure, which encoding/json would
		// copy as it is.
		w.raw(`,"graph":`, o.Graph)
	} else {
		w.raw(`,"graph":null`, nil)
	}
	w.values(`,"outputs":`, o.Outputs)
	w.std(`,"potential_dependencies":`, o.Dependencies)
	w.trace(`,"trace":`, o.Trace)
	w.int(`,"calls":`, o.Calls)
	w.optString(`,"error":`, o.Error)
	w.raw(`}`, nil)
}

// value writes v's canonical encoding (its MarshalJSON).
func (w *jsonWriter) value(key string, v Value) {
	if w.err != nil {
		return
	}
	if v.IsZero() {
		w.err = fmt.Errorf("encode value: zero Value")
		return
	}
	w.scratch.Reset()
	if w.err = v.encode(&w.scratch); w.err == nil {
		w.raw(key, w.scratch.Bytes())
	}
}

// values writes a map of values with its keys sorted.
func (w *jsonWriter) values(key string, m map[string]Value) {
	if m == nil {
		w.raw(key+"null", nil)
		return
	}
	w.raw(key+"{", nil)
	for i, k := range sortedKeys(m) {
		if i > 0 {
			w.raw(",", nil)
		}
		w.string("", k)
		w.value(":", m[k])
	}
	w.raw("}", nil)
}

// array writes xs as a JSON array (null if nil), each element by elem.
func array[T any](w *jsonWriter, key string, xs []T, elem func(*T)) {
	if xs == nil {
		w.raw(key+"null", nil)
		return
	}
	w.raw(key+"[", nil)
	for i := range xs {
		if i > 0 {
			w.raw(",", nil)
		}
		elem(&xs[i])
	}
	w.raw("]", nil)
}

func (w *jsonWriter) diffs(key string, ds []ValueDiff) {
	array(w, key, ds, func(d *ValueDiff) {
		w.string(`{"name":`, d.Name)
		w.optString(`,"before":`, d.Before)
		w.optString(`,"after":`, d.After)
		w.optString(`,"kind":`, string(d.Kind))
		w.raw("}", nil)
	})
}

func (w *jsonWriter) trace(key string, trace []TraceEntry) {
	array(w, key, trace, func(e *TraceEntry) {
		w.string(`{"path":`, e.Path)
		w.optString(`,"op":`, e.Op)
		w.optString(`,"kind":`, string(e.Kind))
		w.optString(`,"result":`, e.Result)
		if e.Value != nil {
			w.value(`,"value":`, *e.Value)
		}
		if e.Keep != nil {
			w.bool(`,"keep":`, *e.Keep)
		}
		if e.Step != nil {
			w.int(`,"step":`, *e.Step)
		}
		w.optString(`,"branch":`, e.Branch)
		w.optString(`,"error":`, e.Error)
		w.raw("}", nil)
	})
}

// appendString appends s as a JSON string, escaped as encoding/json
// escapes it with SetEscapeHTML(false) (canonical JSON's strings too).
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			// Rare: what encoding/json does is the definition.
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // encoding a string cannot fail
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
