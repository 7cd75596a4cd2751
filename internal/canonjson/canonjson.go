// Package canonjson writes a decoded JSON tree in a canonical form: object
// keys sorted, no white space. The bank (whose form is stored and hashed)
// and the task package (whose form decides when two inputs are the same)
// both need one, but they spell numbers and strings differently and must go
// on doing so, since their texts are already recorded. So the walk over
// arrays and objects lives here once, and each caller supplies how a string
// and every other leaf is written.
package canonjson

import (
	"bytes"
	"fmt"
	"sort"
)

// Encoder writes trees of nil, bool, string, []any and map[string]any, with
// any other value handed to Scalar.
type Encoder struct {
	// String writes a string value or an object key as a JSON string.
	String func(buf *bytes.Buffer, s string)
	// Scalar writes every value that is not null, a boolean, a string, an
	// array or an object (numbers, and whatever else the caller's trees
	// hold); its error ends the walk.
	Scalar func(buf *bytes.Buffer, v any) error
	// MaxDepth bounds the nesting: a value inside more than MaxDepth arrays
	// and objects is an error. 0 means no bound.
	MaxDepth int
}

// Write appends the canonical text of v to buf. On an error buf holds a
// partial text.
func (e *Encoder) Write(buf *bytes.Buffer, v any) error { return e.write(buf, v, 0) }

func (e *Encoder) write(buf *bytes.Buffer, v any, depth int) error {
	if e.MaxDepth > 0 && depth > e.MaxDepth {
		return fmt.Errorf("JSON nested deeper than %d levels", e.MaxDepth)
	}
	switch t := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if t {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case string:
		e.String(buf, t)
	case []any:
		buf.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := e.write(buf, x, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			e.String(buf, k)
			buf.WriteByte(':')
			if err := e.write(buf, t[k], depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return e.Scalar(buf, v)
	}
	return nil
}
