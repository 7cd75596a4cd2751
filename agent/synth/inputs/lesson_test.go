package inputs

import (
	"fmt"
	"testing"
)

// TestLessonLearn checks what a rejection teaches: a stated range for the
// numbers that broke it, a length, an order, or else the blame on the
// operation that made the input.
func TestLessonLearn(t *testing.T) {
	obs := decodeAll(t, `{"n": 3, "xs": [[1, 2], [3, 4]]}`)
	tests := []struct {
		name, rejected, msg string
		origin              string
		want                string
		// exc is the exception's type (ValueError when empty).
		exc string
	}{
		{name: "too many values to unpack", rejected: `[[1,2],3,4]`, msg: "too many values to unpack (expected 2)", origin: OriginTemplate, exc: "ValueError",
			want: "ranges=map[] exclude=map[] lens=map[$:[2 2]] sorted=map[] banned=map[] strikes=0"},
		{name: "index error asks for longer", rejected: `{"n":3,"xs":[[1,2]]}`, msg: "list index out of range", origin: opNum, exc: "IndexError",
			want: "ranges=map[] exclude=map[] lens=map[$.xs:[2 1000]] sorted=map[] banned=map[] strikes=0"},
		{name: "expected list shape", rejected: `{"n":3,"xs":[[1,2],[1,2],[3,4],[5,6],[7,8],[9,9],[1,1],[2,2],[3,3],[4,4],[5,5]]}`, msg: "expected a list of 0 to 10 integers", origin: opDup,
			want: "ranges=map[] exclude=map[] lens=map[$.xs:[0 10]] sorted=map[] banned=map[] strikes=0"},
		{name: "shorter string", rejected: `{"n":3,"xs":[],"s":"abcdefghij"}`, msg: "expected a string of at most 6 characters", origin: opStr,
			want: "ranges=map[] exclude=map[] lens=map[$.s:[0 6]] sorted=map[] banned=map[] strikes=0"},
		{name: "character not allowed", rejected: `{"n":1,"xs":[],"s":"xyz"}`, msg: "character 'z' is not allowed", origin: opStr,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0 bad=\"z\""},
		{name: "token that needs a precondition", rejected: `{"n":1,"xs":[],"r":["+","5"]}`, msg: "'+' needs two kept scores", origin: OriginTemplate,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0 tokens=[+]"},
		{name: "token refused where it stands", rejected: `["5","+","5"]`, msg: "'+' needs two kept scores", origin: OriginTemplate,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0 from=map[+:2]"},
		{name: "record refused where it stands", rejected: `[["pop"],["push",1]]`, msg: "'pop' needs a value on the stack", origin: OriginTemplate,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0 from=map[pop:1]"},
		{name: "unknown token", rejected: `{"n":1,"xs":[],"r":["pop","x"]}`, msg: "unknown token 'x'", origin: OriginTemplate,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0 tokens=[x]"},
		{name: "range", rejected: `{"n":9,"xs":[[1,2]]}`, msg: "n must be between 1 and 5", origin: opNum,
			want: "ranges=map[$.n:[1 5]] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0"},
		{name: "character", rejected: `{"n":1,"xs":[],"s":"a_b"}`, msg: "character '_' is not allowed", origin: opStr,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0 bad=\"_\""},
		{name: "excluded value", rejected: `{"n":0,"xs":[[1,2]]}`, msg: "n must not be 0", origin: opNum,
			want: "ranges=map[] exclude=map[$.n:[0]] lens=map[] sorted=map[] banned=map[] strikes=0"},
		{name: "bracket range ignores the repr after got", rejected: `{"n":3,"xs":[[1,-7]]}`,
			msg: "coordinates must be integers in [0, 9], got [1, -7]", origin: opNum,
			want: "ranges=map[$.xs**:[0 9]] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0"},
		{name: "length", rejected: `{"n":3,"xs":[[1,2],[1,2],[3,4],[5,6]]}`, msg: "expected a list of 0 to 3 pairs", origin: opDup,
			want: "ranges=map[] exclude=map[] lens=map[$.xs:[0 3]] sorted=map[] banned=map[] strikes=0"},
		{name: "order", rejected: `{"n":3,"xs":[[3,4],[1,2]]}`, msg: "pairs must be in non-decreasing order", origin: opSwap,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[$.xs:true] banned=map[] strikes=0"},
		{name: "a count of what the input leaves is not its length", rejected: `{"n":3,"xs":[[1,2],[3,4],[5,6]]}`, msg: "the expression must leave exactly one value", origin: opDup,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[dup:true] strikes=1"},
		{name: "unexplained", rejected: `{"n":3,"xs":[[1,2],[3,3]]}`, msg: "pairs must differ", origin: opNum + "+" + opGraft,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[graft:true num:true] strikes=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLesson()
			l.Last[tt.rejected] = tt.origin
			l.Last[`{"n":1,"xs":[]}`] = OriginTemplate
			exc := tt.exc
			if exc == "" {
				exc = "ValueError"
			}
			reason := "oracle-rejected: the hidden program rejected input 2 (" + tt.rejected + "): error: " + exc + ": " + tt.msg
			l.Learn(reason, nil, obs)
			got := fmt.Sprintf("ranges=%v exclude=%v lens=%v sorted=%v banned=%v strikes=%d", l.ranges, l.exclude, l.lens, l.sorted, l.Banned, l.Strikes)
			if len(l.badChars) > 0 {
				got += fmt.Sprintf(" bad=%q", string(l.badChars))
			}
			if len(l.badTokens) > 0 {
				got += fmt.Sprintf(" tokens=%v", l.badTokens)
			}
			if len(l.tokenFrom) > 0 {
				got += fmt.Sprintf(" from=%v", l.tokenFrom)
			}
			if got != tt.want {
				t.Errorf("lesson\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// A token refused where it stood keeps out of the positions up to there,
// and stays allowed after them.
func TestLessonTokensPlaced(t *testing.T) {
	l := NewLesson()
	l.tokenFrom["+"] = 2
	for _, c := range []struct {
		in   string
		want bool
	}{
		{`["5", "3", "+"]`, true},
		{`["5", "+"]`, false},
		{`["+"]`, false},
		{`[["+"], ["5"]]`, false},
		{`["5", "3", "D"]`, true},
		{`"+"`, true},
	} {
		v := decodeAll(t, c.in)[0]
		if got := l.TokensPlaced(v); got != c.want {
			t.Errorf("tokensPlaced(%s) = %v, want %v", c.in, got, c.want)
		}
	}
}
