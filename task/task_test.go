package task

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		atol float64
		want bool
	}{
		{"1", "1", 0, true},
		{"1", "2", 0, false},
		{"1", "1.0", 1e-9, true},
		{"0.1", "0.10000000001", 1e-9, true},
		{"0.1", "0.1001", 1e-9, false},
		{"123456789012345678901234567890", "123456789012345678901234567891", 1e-9, false},
		{`"a"`, `"a"`, 0, true},
		{`"1"`, `1`, 0, false},
		{"true", "1", 0, false},
		{"null", "null", 0, true},
		{"null", "0", 0, false},
		{"[1,2]", "[1,2]", 0, true},
		{"[1,2]", "[1,2,3]", 0, false},
		{"[1,[2.0000000001]]", "[1,[2.0]]", 1e-9, true},
		{"[1,[2.0000000001]]", "[1,[2]]", 1e-9, false},
		{`{"a":1,"b":[1]}`, `{"b":[1],"a":1}`, 0, true},
		{`{"a":1}`, `{"a":1,"b":2}`, 0, false},
		{"[1,2]", `{"0":1}`, 0, false},
		{"not json", "not json", 0, false},
	}
	for _, tt := range tests {
		if got := Equal(json.RawMessage(tt.a), json.RawMessage(tt.b), tt.atol); got != tt.want {
			t.Errorf("Equal(%s, %s, %g) = %v, want %v", tt.a, tt.b, tt.atol, got, tt.want)
		}
	}
}

// TestEqualIsExact is finding 7 of the security issue: lossy comparisons
// forged passes. A hidden program returning a string with a lone
// surrogate was matched by a candidate returning U+FFFD, and one returning
// 10^18 + k by the float 1e18 (both read as float64, within atol).
func TestEqualIsExact(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       bool
	}{
		{"a lone surrogate is not U+FFFD (escaped)", `"\ud800"`, `"\ufffd"`, false},
		{"a lone surrogate is not U+FFFD (raw)", `"\ud800"`, "\"\uFFFD\"", false},
		{"two lone surrogates differ", `"\ud800"`, `"\udc00"`, false},
		{"a lone surrogate is itself", `"a\ud800b"`, `"a\uD800b"`, true},
		{"a lone low surrogate", `["\udfff"]`, `["\udfff"]`, true},
		{"a high and a low surrogate the wrong way round", `"\udc00\ud800"`, `"\ufffd\ufffd"`, false},
		{"a pair is the code point it encodes", `"\ud83d\ude00"`, "\"\U0001F600\"", true},
		{"a pair is not its halves apart", `"\ud83d\ude00"`, `"\ud83d\ufffd"`, false},
		{"invalid UTF-8 is no JSON", "\"\xff\"", "\"\xff\"", false},
		{"10^18 + 1 is not the float 1e18", `1000000000000000001`, `1e18`, false},
		{"10^18 + 1 is not the float 1e18 (either side)", `1e18`, `1000000000000000001`, false},
		{"10^18 is the float 1e18", `1000000000000000000`, `1e18`, true},
		{"an integer is a float that is exactly it", `2`, `2.0`, true},
		{"an integer is not a float within atol of it", `2`, `2.0000000001`, false},
		{"a large integer in a list", `[9007199254740993]`, `[9007199254740992.0]`, false},
		{"an integer is never an infinite float", `1`, `1e999`, false},
		{"two floats within atol", `0.1`, `0.10000000001`, true},
		{"two floats apart", `0.1`, `0.1001`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Equal(json.RawMessage(tt.a), json.RawMessage(tt.b), 1e-9); got != tt.want {
				t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// A lone surrogate survives the canonical form: two inputs differing only
// there are two inputs, and the text shows it.
func TestCanonicalKeepsSurrogates(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"\ud800"`, `"\ud800"`},
		{`["x\udc00y", "\ufffd"]`, "[\"x\\udc00y\",\"\uFFFD\"]"},
		{`{"\ud800": "<&>"}`, `{"\ud800":"\u003c\u0026\u003e"}`},
		{`"\ud83d\ude00"`, "\"\U0001F600\""},
		{"\"\uD7FF\u00ed\"", "\"\uD7FF\u00ed\""},
	}
	for _, tt := range tests {
		got, err := Canonical(json.RawMessage(tt.in))
		if err != nil || got != tt.want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b": 1, "a": [1, 2.5, "x"]}`, `{"a":[1,2.5,"x"],"b":1}`},
		{`1.0`, `1.0`},
		{`1`, `1`},
		{`1e3`, `1000.0`},
		{` [ ] `, `[]`},
		{`"é"`, `"é"`},
	}
	for _, tt := range tests {
		got, err := Canonical(json.RawMessage(tt.in))
		if err != nil || got != tt.want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	if _, err := Canonical(json.RawMessage(`[1,`)); err == nil {
		t.Error("Canonical of invalid JSON: no error")
	}
}

func TestCategoriesOf(t *testing.T) {
	dom := &Domain{Lo: -50, Hi: 50}
	tests := []struct {
		kind  Kind
		input string
		want  []string
	}{
		{KindList, `[]`, []string{"empty"}},
		{KindList, `[0]`, []string{"single", "has_zero"}},
		{KindList, `[5,5,5]`, []string{"repeated_value", "all_equal"}},
		{KindList, `[-3,1,2,8,9,10,11,12]`, []string{"long", "has_negative", "ascending"}},
		{KindList, `[3,2,1]`, []string{"descending"}},
		{KindTwoLists, `[[],[]]`, []string{"both_empty"}},
		{KindTwoLists, `[[1,2],[2,-1]]`, []string{"equal_lengths", "shared_value", "has_negative"}},
		{KindTwoLists, `[[1],[]]`, []string{"one_empty", "unequal_lengths"}},
		{KindInt, `0`, []string{"zero", "even"}},
		{KindInt, `1`, []string{"one", "positive", "odd"}},
		{KindInt, `-26`, []string{"negative", "large", "even"}},
		{KindPair, `[3,3]`, []string{"equal"}},
		{KindPair, `[0,-2]`, []string{"first_greater", "has_zero", "has_negative"}},
		{KindString, `""`, []string{"empty"}},
		{KindString, `"Abba 12 racecar"`, []string{"repeated_char", "has_space", "mixed_case", "has_digit", "long"}},
		{KindString, `"abba"`, []string{"repeated_char", "palindrome"}},
		{KindPoints, `[[1,1]]`, []string{"single_point"}},
		{KindPoints, `[[0,0],[1,1],[2,2]]`, []string{"collinear"}},
		{KindPoints, `[[0,0],[0,0]]`, []string{"two_points", "duplicate_point"}},
		{KindPoints, `[[-1,0],[-1,5]]`, []string{"two_points", "negative_coordinate", "axis_aligned"}},
		{KindList, `"not a list"`, nil},
		{KindOther, `{"a":1}`, nil},
	}
	for _, tt := range tests {
		got := CategoriesOf(tt.kind, dom, json.RawMessage(tt.input))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("CategoriesOf(%s, %s) (-want +got):\n%s", tt.kind, tt.input, diff)
		}
	}
}

func TestCategoriesDropImpossible(t *testing.T) {
	tests := []struct {
		kind Kind
		dom  *Domain
		want []string
	}{
		{KindList, &Domain{Lo: 1, Hi: 9}, []string{"empty", "single", "long", "repeated_value", "all_equal", "ascending", "descending"}},
		{KindInt, &Domain{Lo: 2, Hi: 1000}, []string{"positive", "large", "even", "odd"}},
		{KindPoints, &Domain{Lo: 0, Hi: 10}, []string{"single_point", "two_points", "collinear", "duplicate_point", "axis_aligned"}},
		{KindOther, nil, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Categories(tt.kind, tt.dom)); diff != "" {
			t.Errorf("Categories(%s, %v) (-want +got):\n%s", tt.kind, tt.dom, diff)
		}
	}
}

func TestUncovered(t *testing.T) {
	inputs := []json.RawMessage{json.RawMessage("0"), json.RawMessage("-7"), json.RawMessage("1")}
	got := Uncovered(KindInt, &Domain{Lo: -1000, Hi: 1000}, inputs)
	if diff := cmp.Diff([]string{"large"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestStageScore(t *testing.T) {
	if got := StageScore(0.9, 0.5, 0.5); got < 0.7999999 || got > 0.8000001 {
		t.Errorf("StageScore = %v, want 0.8", got)
	}
	if got := StageScore(0.05, 1, 1); got != 0 {
		t.Errorf("StageScore clamps at 0: %v", got)
	}
}

// Kind int with a domain lists its integers; a domain with fractional
// bounds keeps the integers inside; anything else is not known finite.
func TestFiniteInputs(t *testing.T) {
	tests := []struct {
		name   string
		kind   Kind
		domain *Domain
		max    int
		want   []string
		ok     bool
	}{
		{"integers 0 to 3", KindInt, &Domain{Lo: 0, Hi: 3}, 10, []string{"0", "1", "2", "3"}, true},
		{"fractional bounds", KindInt, &Domain{Lo: -1.5, Hi: 0.5}, 10, []string{"-1", "0"}, true},
		{"one integer", KindInt, &Domain{Lo: 7, Hi: 7}, 1, []string{"7"}, true},
		{"more than max", KindInt, &Domain{Lo: 0, Hi: 10}, 10, nil, false},
		{"no integer inside", KindInt, &Domain{Lo: 0.2, Hi: 0.8}, 10, nil, false},
		{"no domain", KindInt, nil, 10, nil, false},
		{"a list is not bounded in length", KindList, &Domain{Lo: 0, Hi: 1}, 10, nil, false},
		{"a pair may hold floats", KindPair, &Domain{Lo: 0, Hi: 1}, 10, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FiniteInputs(tt.kind, tt.domain, tt.max)
			var texts []string
			for _, in := range got {
				texts = append(texts, string(in))
			}
			if ok != tt.ok || !cmp.Equal(texts, tt.want) {
				t.Errorf("FiniteInputs = %v, %v; want %v, %v", texts, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`"[[["`, 0},
		{`[]`, 1},
		{`[1, {"a": [2]}]`, 3},
		{`["\"[", [[]]]`, 3},
		{`{"a\\": "]"}`, 1},
	}
	for _, tt := range tests {
		if got := Depth([]byte(tt.in)); got != tt.want {
			t.Errorf("Depth(%s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
