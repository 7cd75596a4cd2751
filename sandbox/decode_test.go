package sandbox

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestDecodeEnvelope checks that decodeEnvelope, whichever way it decodes a
// line (decodeCall or encoding/json), gives what encoding/json alone gives:
// the same envelope and the same outcomes, or an error for both.
func TestDecodeEnvelope(t *testing.T) {
	tests := []struct {
		name string
		line string
		// fast: decodeCall takes the line (else encoding/json does).
		fast bool
	}{
		{name: "one output", line: `{"id":1,"ok":true,"s":"o","ns":[1500],"v":[2]}`, fast: true},
		{name: "empty batch", line: `{"id":2,"ok":true,"s":"","ns":[],"v":[]}`, fast: true},
		{name: "trailing newline", line: "{\"id\":3,\"ok\":true,\"s\":\"o\",\"ns\":[0],\"v\":[null]}\n", fast: true},
		{name: "every kind of value", line: `{"id":4,"ok":true,"s":"ooooooooe","ns":[1,2,3,4,5,6,7,8,9],"v":[-0.5e+10,"a\"b\\c\/\u00e9\n",[1,[2,{}]],{"k":[true,false,null],"":{}},[],{},0,-12,"ValueError: x"]}`, fast: true},
		{name: "spaces inside values", line: `{"id":5,"ok":true,"s":"oo","ns":[1,2],"v":[ [ 1 , 2 ] , { "a" : 1 } ]}`, fast: true},
		{name: "non-ASCII bytes in a string", line: "{\"id\":6,\"ok\":true,\"s\":\"o\",\"ns\":[1],\"v\":[\"é\xff\"]}", fast: true},
		{name: "negative id and time", line: `{"id":-7,"ok":true,"s":"o","ns":[-1],"v":[1]}`, fast: true},
		{name: "every status code", line: `{"id":8,"ok":true,"s":"oetmlbcL","ns":[0,0,0,0,0,0,0,0],"v":[1,"e","t","m","l","b","c","L"]}`, fast: true},
		// Lines decodeCall leaves to encoding/json.
		{name: "a ping", line: `{"id":9,"ok":true,"version":"2","uid":null,"readonly":false,"private_root":false,"pid_namespace":false}`},
		{name: "a failure", line: `{"id":10,"ok":false,"error":"harness call: boom"}`},
		{name: "keys in another order", line: `{"ok":true,"id":11,"s":"o","ns":[1],"v":[1]}`},
		{name: "space between keys", line: `{"id": 12, "ok": true, "s": "o", "ns": [1], "v": [1]}`},
		{name: "escaped status codes", line: `{"id":13,"ok":true,"s":"\u006f","ns":[1],"v":[1]}`},
		{name: "a float time", line: `{"id":14,"ok":true,"s":"o","ns":[1.0],"v":[1]}`},
		{name: "a time over int64", line: `{"id":15,"ok":true,"s":"o","ns":[99999999999999999999],"v":[1]}`},
		{name: "an extra key", line: `{"id":16,"ok":true,"s":"o","ns":[1],"v":[1],"x":1}`},
		{name: "leading zero", line: `{"id":17,"ok":true,"s":"o","ns":[1],"v":[01]}`},
		{name: "NaN", line: `{"id":18,"ok":true,"s":"o","ns":[1],"v":[NaN]}`},
		{name: "bad escape", line: `{"id":19,"ok":true,"s":"o","ns":[1],"v":["\x"]}`},
		{name: "short unicode escape", line: `{"id":20,"ok":true,"s":"o","ns":[1],"v":["\u12"]}`},
		{name: "control character in a string", line: "{\"id\":21,\"ok\":true,\"s\":\"o\",\"ns\":[1],\"v\":[\"a\tb\"]}"},
		{name: "unclosed array", line: `{"id":22,"ok":true,"s":"o","ns":[1],"v":[[1]}`},
		{name: "trailing comma", line: `{"id":23,"ok":true,"s":"o","ns":[1],"v":[1,]}`},
		{name: "number without digits", line: `{"id":24,"ok":true,"s":"o","ns":[1],"v":[-]}`},
		{name: "exponent without digits", line: `{"id":25,"ok":true,"s":"o","ns":[1],"v":[1e]}`},
		{name: "fraction without digits", line: `{"id":26,"ok":true,"s":"o","ns":[1],"v":[1.]}`},
		{name: "object key not a string", line: `{"id":27,"ok":true,"s":"o","ns":[1],"v":[{1:2}]}`},
		{name: "garbage after the line", line: `{"id":28,"ok":true,"s":"o","ns":[1],"v":[1]}x`},
		{name: "truncated", line: `{"id":29,"ok":true,"s":"o","ns":[1],"v":[1`},
		{name: "nested too deep", line: `{"id":30,"ok":true,"s":"o","ns":[1],"v":[` + strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1) + `]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fast envelope
			if got := decodeCall([]byte(tc.line), &fast); got != tc.fast {
				t.Errorf("decodeCall took the line: %v, want %v", got, tc.fast)
			}
			var got, want envelope
			gotErr := decodeEnvelope([]byte(tc.line), &got)
			wantErr := json.Unmarshal([]byte(tc.line), &want)
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("decodeEnvelope: %v; encoding/json: %v", gotErr, wantErr)
			}
			if wantErr != nil {
				return
			}
			opts := cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })
			if diff := cmp.Diff(want, got, opts, cmpopts.IgnoreUnexported(envelope{})); diff != "" {
				t.Errorf("envelope (-encoding/json +decodeEnvelope):\n%s", diff)
			}
			if want.Codes == nil {
				return
			}
			n := len(*want.Codes)
			wantOut, wantErr := outcomes(want, n)
			gotOut, gotErr := outcomes(got, n)
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("outcomes: %v; from encoding/json: %v", gotErr, wantErr)
			}
			if diff := cmp.Diff(wantOut, gotOut, opts); diff != "" {
				t.Errorf("outcomes (-encoding/json +decodeEnvelope):\n%s", diff)
			}
		})
	}
}
