package task

import (
	"encoding/json"

	"github.com/reconstruct/reconstruct/internal/jsonparse"
)

// maxDecodeDepth bounds the nesting Decode accepts (encoding/json's own
// bound): deeper text is refused rather than recursed into.
const maxDecodeDepth = 10000

// Decode parses one JSON value keeping what comparison needs exactly:
// numbers as written (json.Number), and strings code point by code point.
// A lone UTF-16 surrogate escape ("\ud800", which Python's json writes for
// a string holding one) stays that code point, kept in the string as its
// three-byte generalised UTF-8 form (WTF-8), where encoding/json would
// make it U+FFFD — so that a program returning U+FFFD is never taken for
// one returning a lone surrogate. Text that is not UTF-8 is not JSON and
// is refused, as is anything after the value. A repeated object key keeps
// its last value, as Python's json does.
func Decode(raw json.RawMessage) (any, error) {
	return jsonparse.Parse(raw, jsonparse.Options{MaxDepth: maxDecodeDepth, LastKeyWins: true, KeepSurrogates: true, StrictUTF8: true})
}

// MaxDepth is the deepest nesting of a value a run records: an example's
// input or output, or a candidate's output quoted in feedback. The bank
// holds JSON nested up to 200 levels, records around the value included;
// a hidden program's outputs have a lower, configurable bound
// (task.oracle.max_output_depth), at most this.
const MaxDepth = 150

// Depth is the nesting depth of a JSON text: 0 for a scalar, 1 for a flat
// array or object, and so on. It only counts brackets outside strings and
// does not check the text otherwise.
func Depth(raw []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}
