package inputs

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// normalized keeps the letters and digits of s, in lower case.
func normalized(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(unicode.ToLower(r))
		}
	}
	return sb.String()
}

// mismatchedPairs counts the mirrored positions of s that differ.
func mismatchedPairs(s string) int {
	r, n := []rune(s), 0
	for i := 0; i < len(r)/2; i++ {
		if r[i] != r[len(r)-1-i] {
			n++
		}
	}
	return n
}

// String proposals must tell apart the usual readings of "palindrome":
// exact ones, ones that hold only once case and punctuation are ignored,
// and near misses whose letters and digits differ at a single mirrored pair
// (which a program
// comparing a coarser image of the string, such as its vowel pattern,
// still calls palindromes).
func TestStringProposalShapes(t *testing.T) {
	g := &Generator{Rand: rand.New(rand.NewSource(7)), Shape: "string", Limits: Limits{MaxLen: 14}}
	kinds := map[string]func(s string) bool{
		"exact palindrome": func(s string) bool { return len(s) >= 4 && s == dsl.ReverseString(s) },
		"palindrome up to case and punctuation": func(s string) bool {
			n := normalized(s)
			return len(n) >= 3 && n == dsl.ReverseString(n) && s != dsl.ReverseString(s)
		},
		"near miss": func(s string) bool { n := normalized(s); return len(n) >= 6 && mismatchedPairs(n) == 1 },
	}
	counts := map[string]int{}
	for range 400 {
		s := g.str(4 + g.Rand.Intn(11))
		for name, is := range kinds {
			if is(s) {
				counts[name]++
			}
		}
	}
	for name := range kinds {
		if counts[name] < 10 {
			t.Errorf("%d of 400 strings are a %s, want at least 10", counts[name], name)
		}
	}
}

// Near misses stay within a restricted alphabet.
func TestNearMissKeepsAlphabet(t *testing.T) {
	g := &Generator{Rand: rand.New(rand.NewSource(3)), Shape: "string", Limits: Limits{MaxLen: 12, Alphabet: []rune("01")}}
	for range 300 {
		s := g.str(8)
		if strings.Trim(s, "01") != "" {
			t.Fatalf("string %q leaves the alphabet 01", s)
		}
	}
}

// Strings over an alphabet with marks of its own (operators, brackets)
// hold each of those marks, not only the usual punctuation it shares.
func TestStringsUseTheAlphabetsMarks(t *testing.T) {
	alphabet := alphabetFrom("letters, digits, space and + - * / ( ) = < > !")
	g := &Generator{Rand: rand.New(rand.NewSource(5)), Shape: "string", Limits: Limits{MaxLen: 20, Alphabet: alphabet}}
	counts := map[rune]int{}
	for range 200 {
		for _, r := range g.str(20) {
			counts[r]++
		}
	}
	for _, r := range "+-*/()=<>!" {
		if counts[r] < 10 {
			t.Errorf("%q appears %d times in 200 strings of 20 characters, want at least 10", r, counts[r])
		}
	}
}

// An alphabet of every mark ("printable ASCII") is no alphabet of the
// task's own: its strings keep to the usual punctuation and nest no
// brackets (a hidden program taking printable characters may refuse a
// backslash or a brace, and one that did rejected every first batch).
func TestStringsOverEveryMarkUseTheUsualOnes(t *testing.T) {
	alphabet := alphabetFrom("at most 40 printable ASCII characters")
	if !slices.Contains(alphabet, '{') || !slices.Contains(alphabet, '\\') {
		t.Fatalf("alphabet %q: want every printable character", string(alphabet))
	}
	g := &Generator{Rand: rand.New(rand.NewSource(5)), Shape: "string", Limits: Limits{MaxLen: 40, Alphabet: alphabet}}
	usual, other := 0, 0
	for range 300 {
		for _, r := range g.str(30) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r):
			case strings.ContainsRune(".,!?-_'", r):
				usual++
			default:
				other++ // a near-miss palindrome changes one character for any of the alphabet
			}
		}
	}
	if usual == 0 || other*20 > usual {
		t.Errorf("%d usual marks and %d others in 300 strings of 30 characters, want others under a twentieth", usual, other)
	}
}

// Over an alphabet with brackets, a share of the strings nest them and
// balance (random characters seldom do), within the alphabet and the
// length asked.
func TestStringsNestBrackets(t *testing.T) {
	alphabet := alphabetFrom("brackets ()[]{}, lowercase letters and space")
	g := &Generator{Rand: rand.New(rand.NewSource(9)), Shape: "string", Limits: Limits{MaxLen: 30, Alphabet: alphabet}}
	deep := 0
	for range 300 {
		s := g.str(16)
		if n := len([]rune(s)); n > 16 {
			t.Fatalf("%q has %d characters, want at most 16", s, n)
		}
		for _, r := range s {
			if !slices.Contains(alphabet, r) {
				t.Fatalf("%q leaves the alphabet at %q", s, r)
			}
		}
		if d, ok := refScan(s, "()[]{}", true); ok && d >= 2 {
			deep++
		}
	}
	if deep < 50 {
		t.Errorf("%d of 300 strings balance brackets nested at least twice, want at least 50", deep)
	}
}

// drawCases describe inputs by their own validity rules, written
// independently of the template code.
var drawCases = []struct {
	name        string
	kind        task.Kind
	typ, constr string
	dom         *task.Domain
	valid       func(v any) error
}{
	{name: "object", kind: task.KindOther,
		typ: `object {"origin": [x, y], "size": s, "marks": [[x, y], ...]}`, constr: "size between 0 and 3; 0 to 4 marks",
		dom: &task.Domain{Lo: -5, Hi: 5},
		valid: func(v any) error {
			m, ok := v.(map[string]any)
			if !ok || len(m) != 3 {
				return fmt.Errorf("not an object with three keys")
			}
			o, err := listIn(m["origin"], 2, 2)
			if err != nil {
				return err
			}
			for _, c := range o {
				if err := intWithin(c, -5, 5); err != nil {
					return err
				}
			}
			if err := intWithin(m["size"], 0, 3); err != nil {
				return err
			}
			marks, err := listIn(m["marks"], 0, 4)
			if err != nil {
				return err
			}
			for _, p := range marks {
				xy, err := listIn(p, 2, 2)
				if err != nil {
					return err
				}
				for _, c := range xy {
					if err := intWithin(c, -5, 5); err != nil {
						return err
					}
				}
			}
			return nil
		}},
	{name: "tagged alternatives", kind: task.KindOther,
		typ: `events: list of ["put", value], ["pick", "X"|"Y"] or ["reset"]`, constr: "0 to 5 events; put values between 2 and 8",
		valid: func(v any) error {
			xs, err := listIn(v, 0, 5)
			if err != nil {
				return err
			}
			for _, e := range xs {
				ev, err := listIn(e, 1, 2)
				if err != nil {
					return err
				}
				switch {
				case ev[0] == "put" && len(ev) == 2:
					if err := intWithin(ev[1], 2, 8); err != nil {
						return err
					}
				case ev[0] == "pick" && len(ev) == 2 && (ev[1] == "X" || ev[1] == "Y"):
				case ev[0] == "reset" && len(ev) == 1:
				default:
					return fmt.Errorf("bad event %v", ev)
				}
			}
			return nil
		}},
	{name: "enumerated words", kind: task.KindOther,
		typ: `orders: list of ["buy" or "sell", fruit, amount]`, constr: "1 to 3 orders; fruits plum, lime or date; amounts between 1 and 5",
		valid: func(v any) error {
			xs, err := listIn(v, 1, 3)
			if err != nil {
				return err
			}
			for _, e := range xs {
				o, err := listIn(e, 3, 3)
				if err != nil {
					return err
				}
				if (o[0] != "buy" && o[0] != "sell") || !slices.Contains([]any{"plum", "lime", "date"}, o[1]) {
					return fmt.Errorf("bad order %v", o)
				}
				if err := intWithin(o[2], 1, 5); err != nil {
					return err
				}
			}
			return nil
		}},
	{name: "ordered field", kind: task.KindOther,
		typ:    "jobs: list of [start time, length], starts in non-decreasing order",
		constr: "0 to 6 jobs; start times between 0 and 30, lengths between 1 and 3", dom: &task.Domain{Lo: 0, Hi: 30},
		valid: func(v any) error {
			xs, err := listIn(v, 0, 6)
			if err != nil {
				return err
			}
			prev := int64(-1)
			for _, e := range xs {
				j, err := listIn(e, 2, 2)
				if err != nil {
					return err
				}
				if err := intWithin(j[0], 0, 30); err != nil {
					return err
				}
				if err := intWithin(j[1], 1, 3); err != nil {
					return err
				}
				s, _ := intValue(j[0])
				if s < prev {
					return fmt.Errorf("starts out of order in %v", xs)
				}
				prev = s
			}
			return nil
		}},
	{name: "postfix", kind: task.KindOther,
		typ:    `formula in reverse Polish notation: list of tokens, digits "1".."3" and operators "+", "*"`,
		constr: "a well-formed formula of 1 to 7 tokens",
		valid: func(v any) error {
			xs, err := listIn(v, 1, 7)
			if err != nil {
				return err
			}
			depth := 0
			for _, tok := range xs {
				switch tok {
				case "1", "2", "3":
					depth++
				case "+", "*":
					if depth < 2 {
						return fmt.Errorf("operator without operands in %v", xs)
					}
					depth--
				default:
					return fmt.Errorf("unknown token %v", tok)
				}
			}
			if depth != 1 {
				return fmt.Errorf("%v leaves %d values", xs, depth)
			}
			return nil
		}},
	{name: "units", kind: task.KindString, typ: "string", constr: "at most 6 characters: pairs of a lowercase letter and a digit 2 to 4",
		valid: func(v any) error {
			s, ok := v.(string)
			if !ok || len(s) > 6 || len(s)%2 != 0 {
				return fmt.Errorf("%v is not an even string of at most 6 characters", v)
			}
			for i := 0; i < len(s); i += 2 {
				if s[i] < 'a' || s[i] > 'z' || s[i+1] < '2' || s[i+1] > '4' {
					return fmt.Errorf("bad unit %q", s[i:i+2])
				}
			}
			return nil
		}},
	{name: "text placeholder", kind: task.KindOther,
		typ:    `edits: list of ["write", text] or ["erase", count]`,
		constr: "0 to 4 edits; written text of 2 to 3 lowercase letters; counts between 1 and 2",
		valid: func(v any) error {
			xs, err := listIn(v, 0, 4)
			if err != nil {
				return err
			}
			for _, e := range xs {
				ed, err := listIn(e, 2, 2)
				if err != nil {
					return err
				}
				switch ed[0] {
				case "write":
					s, ok := ed[1].(string)
					if !ok || len(s) < 2 || len(s) > 3 || strings.ToLower(s) != s {
						return fmt.Errorf("bad text %v", ed[1])
					}
				case "erase":
					if err := intWithin(ed[1], 1, 2); err != nil {
						return err
					}
				default:
					return fmt.Errorf("bad edit %v", ed)
				}
			}
			return nil
		}},
}

// TestTemplateDraws checks that drawn inputs obey the description, vary,
// and repeat for a seed.
func TestTemplateDraws(t *testing.T) {
	for _, tt := range drawCases {
		t.Run(tt.name, func(t *testing.T) {
			tp := TemplateOf(task.Task{Kind: tt.kind, InputType: tt.typ, InputConstraints: tt.constr, Domain: tt.dom})
			if tp == nil {
				t.Fatal("no template")
			}
			draw := func(seed int64) []string {
				g := &TemplateGenerator{Rand: rand.New(rand.NewSource(seed))}
				var out []string
				for range 300 {
					out = append(out, string(Encode(g.Draw(tp))))
				}
				return out
			}
			got := draw(7)
			distinct := map[string]bool{}
			for _, raw := range got {
				distinct[raw] = true
				v, _ := dsl.DecodeRaw(json.RawMessage(raw))
				if err := tt.valid(v); err != nil {
					t.Fatalf("invalid draw %s: %v", raw, err)
				}
			}
			if len(distinct) < 40 {
				t.Errorf("only %d distinct inputs in 300 draws", len(distinct))
			}
			if diff := cmp.Diff(got, draw(7)); diff != "" {
				t.Errorf("draws differ for the same seed (-first +second):\n%s", diff)
			}
		})
	}
}

// Near misses of an observed string are one edit away from it: an
// insertion, a replacement (or a mirrored pair of them) by a character of
// another class, or a change of case, within the task's alphabet.
func TestNearMisses(t *testing.T) {
	g := &Generator{Rand: rand.New(rand.NewSource(3)), Shape: "string", Limits: Limits{MaxLen: 12, Alphabet: []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .")}}
	observed := []any{"Abcba", "noon"}
	got := g.NearMisses(observed)
	if len(got) == 0 {
		t.Fatal("no near misses")
	}
	inserted := false
	for _, v := range got {
		s := v.(string)
		if len([]rune(s)) > 12 {
			t.Errorf("%q is longer than the limit", s)
		}
		for _, r := range s {
			if !slices.Contains(g.Limits.Alphabet, r) {
				t.Errorf("%q has %q, outside the alphabet", s, r)
			}
		}
		near := false
		for _, o := range observed {
			d := editsFrom(o.(string), s)
			near = near || (d >= 1 && d <= 2)
			inserted = inserted || len(s) == len(o.(string))+1
		}
		if !near {
			t.Errorf("%q is not one edit (or a mirrored pair) from an observed string", s)
		}
	}
	if !inserted {
		t.Errorf("no insertion among %q", got)
	}
	if g := (&Generator{Rand: rand.New(rand.NewSource(1)), Shape: "list"}); g.NearMisses([]any{"abc"}) != nil {
		t.Error("near misses for a list shape")
	}
}

// editsFrom counts the positions where a and b differ (b one longer: an
// insertion counts one).
func editsFrom(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(rb) == len(ra)+1 {
		for i := range rb {
			if string(append(append([]rune{}, rb[:i]...), rb[i+1:]...)) == a {
				return 1
			}
		}
		return 99
	}
	if len(ra) != len(rb) {
		return 99
	}
	d := 0
	for i := range ra {
		if ra[i] != rb[i] {
			d++
		}
	}
	return d
}

// TestPairRangesFromDescription draws pairs whose two numbers have ranges
// of their own ("n between 0 and 1000000, k between 1 and 6"): every
// draw and edge keeps each number in its range, both ends of the small
// range are reached, and a pair whose ranges are one keeps the kind's
// draws (equal pairs among them).
func TestPairRangesFromDescription(t *testing.T) {
	tests := []struct {
		name, typ, constr string
		want              [][2]float64
	}{
		{name: "ranges apart", typ: "pair [n, k]", constr: "n between 0 and 1000000, k between 1 and 6", want: [][2]float64{{0, 1000000}, {1, 6}}},
		{name: "ranges by clause", typ: "[n, total]: a number of dice and a total", constr: "n from 1 to 4; total from 0 to 26", want: [][2]float64{{1, 4}, {0, 26}}},
		{name: "one range", typ: "pair [a, b]", constr: "a and b between -100 and 100", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk := task.Task{Kind: task.KindPair, InputType: tt.typ, InputConstraints: tt.constr}
			l := LimitsFor(tk, nil, nil, nil, false)
			if diff := cmp.Diff(tt.want, l.pairRanges); diff != "" {
				t.Fatalf("pair ranges (-want +got):\n%s", diff)
			}
			g := &Generator{Rand: rand.New(rand.NewSource(2)), Shape: "pair", Limits: l}
			draws := append(g.Edges(), make([]any, 0, 300)...)
			for range 300 {
				draws = append(draws, g.Draw())
			}
			kept, equal := 0, 0
			ends := map[float64]bool{}
			for _, d := range draws {
				p := d.([]any)
				a, b := toF(p[0]), toF(p[1])
				if a == b {
					equal++
				}
				if !Within(d, l, "pair") {
					continue
				}
				kept++
				if tt.want != nil {
					ends[b] = true
				}
			}
			if tt.want == nil {
				if equal == 0 {
					t.Error("no equal pair among the kind's draws")
				}
				return
			}
			if kept != len(draws) {
				t.Errorf("%d of %d draws outside their ranges %v", len(draws)-kept, len(draws), tt.want)
			}
			if !ends[tt.want[1][0]] || !ends[tt.want[1][1]] {
				t.Errorf("the second number never reached both ends of %v: %v", tt.want[1], ends)
			}
			if Within([]any{int64(tt.want[0][0]), int64(tt.want[1][1] + 1)}, l, "pair") {
				t.Error("a pair past the second range is within the limits")
			}
		})
	}
}
