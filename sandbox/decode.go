package sandbox

import (
	"encoding/json"
	"strconv"
)

// decodeEnvelope decodes one response line. A call's response as the
// harness writes it ({"id":N,"ok":true,"s":"...","ns":[...],"v":[...]},
// in that order, with no space) is decoded by decodeCall, in one pass that
// also splits and validates the values; any other line, or one that
// decodeCall does not take, is decoded by encoding/json as before (which
// scans a line twice, then splitArray a third time: 0.3 us an input of a
// call's response, most of the Go side of a batch).
func decodeEnvelope(line []byte, env *envelope) error {
	if decodeCall(line, env) {
		return nil
	}
	*env = envelope{}
	return json.Unmarshal(line, env)
}

// decodeCall decodes line into env when it is a successful call response
// in the harness's layout and every value in it is valid JSON; otherwise
// it returns false and env is to be decoded again. What it accepts
// decodes to the same envelope with encoding/json.
func decodeCall(line []byte, env *envelope) bool {
	d := callDecoder{b: line}
	if !d.lit(`{"id":`) {
		return false
	}
	id, ok := d.int()
	if !ok || !d.lit(`,"ok":true,"s":"`) {
		return false
	}
	start := d.i
	for d.i < len(d.b) && (d.b[d.i] >= 'a' && d.b[d.i] <= 'z' || d.b[d.i] >= 'A' && d.b[d.i] <= 'Z') {
		d.i++
	}
	codes := string(d.b[start:d.i])
	if !d.lit(`","ns":[`) {
		return false
	}
	nanos := make([]int64, 0, len(codes))
	if !d.lit("]") {
		for {
			n, ok := d.int()
			if !ok {
				return false
			}
			nanos = append(nanos, n)
			if d.lit("]") {
				break
			}
			if !d.lit(",") {
				return false
			}
		}
	}
	if !d.lit(`,"v":`) {
		return false
	}
	vstart := d.i
	if !d.lit("[") {
		return false
	}
	values := make([]json.RawMessage, 0, len(codes))
	d.space()
	if !d.lit("]") {
		for {
			d.space()
			s := d.i
			if !d.value(0) {
				return false
			}
			values = append(values, json.RawMessage(d.b[s:d.i:d.i]))
			d.space()
			if d.lit("]") {
				break
			}
			if !d.lit(",") {
				return false
			}
		}
	}
	vend := d.i
	if !d.lit("}") {
		return false
	}
	d.space()
	if d.i != len(d.b) {
		return false
	}
	*env = envelope{ID: &id, OK: true, Codes: &codes, Nanos: nanos, Values: json.RawMessage(line[vstart:vend:vend]), split: values}
	return true
}

// maxDepth is encoding/json's nesting limit: a deeper value is left to it
// (it rejects it).
const maxDepth = 10000

// callDecoder reads b from i.
type callDecoder struct {
	b []byte
	i int
}

// lit consumes s if b continues with it.
func (d *callDecoder) lit(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

func (d *callDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// int consumes a JSON integer that fits an int64.
func (d *callDecoder) int() (int64, bool) {
	s := d.i
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	if !d.digits() {
		return 0, false
	}
	n, err := strconv.ParseInt(string(d.b[s:d.i]), 10, 64)
	return n, err == nil
}

// digits consumes 0 or a run of digits not starting with 0.
func (d *callDecoder) digits() bool {
	if d.i >= len(d.b) || d.b[d.i] < '0' || d.b[d.i] > '9' {
		return false
	}
	if d.b[d.i] == '0' {
		d.i++
		return true
	}
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	return true
}

// value consumes one JSON value (after its leading space), checking its
// grammar as encoding/json does.
func (d *callDecoder) value(depth int) bool {
	if d.i >= len(d.b) {
		return false
	}
	switch c := d.b[d.i]; {
	case c == '"':
		return d.str()
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == 't':
		return d.lit("true")
	case c == 'f':
		return d.lit("false")
	case c == 'n':
		return d.lit("null")
	case c == '[':
		if depth >= maxDepth {
			return false
		}
		d.i++
		d.space()
		if d.lit("]") {
			return true
		}
		for {
			d.space()
			if !d.value(depth + 1) {
				return false
			}
			d.space()
			if d.lit("]") {
				return true
			}
			if !d.lit(",") {
				return false
			}
		}
	case c == '{':
		if depth >= maxDepth {
			return false
		}
		d.i++
		d.space()
		if d.lit("}") {
			return true
		}
		for {
			d.space()
			if d.i >= len(d.b) || d.b[d.i] != '"' || !d.str() {
				return false
			}
			d.space()
			if !d.lit(":") {
				return false
			}
			d.space()
			if !d.value(depth + 1) {
				return false
			}
			d.space()
			if d.lit("}") {
				return true
			}
			if !d.lit(",") {
				return false
			}
		}
	}
	return false
}

// str consumes a JSON string: no control character, valid escapes. (Like
// encoding/json, it does not check the UTF-8 of the other bytes.)
func (d *callDecoder) str() bool {
	d.i++ // the opening quote
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			d.i++
			if d.i >= len(d.b) {
				return false
			}
			switch d.b[d.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i++
			case 'u':
				if len(d.b)-d.i < 5 {
					return false
				}
				for _, h := range d.b[d.i+1 : d.i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				d.i += 5
			default:
				return false
			}
		default:
			d.i++
		}
	}
	return false
}

// number consumes a JSON number.
func (d *callDecoder) number() bool {
	if d.b[d.i] == '-' {
		d.i++
	}
	if !d.digits() {
		return false
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if d.i >= len(d.b) || d.b[d.i] < '0' || d.b[d.i] > '9' {
			return false
		}
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if d.i >= len(d.b) || d.b[d.i] < '0' || d.b[d.i] > '9' {
			return false
		}
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
		}
	}
	return true
}
