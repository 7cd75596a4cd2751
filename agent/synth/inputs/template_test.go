package inputs

import (
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

func TestInputTemplate(t *testing.T) {
	tests := []struct {
		name        string
		kind        task.Kind
		typ, constr string
		dom         *task.Domain
		want        string
	}{
		{name: "object with keyed ranges", kind: task.KindOther,
			typ:    `object {"origin": [x, y], "size": s, "marks": [[x, y], ...]}`,
			constr: "integer coordinates between -5 and 5; size between 0 and 3; 0 to 4 marks", dom: &task.Domain{Lo: -5, Hi: 5},
			want: "{origin: (int[-5,5], int[-5,5]), size: int[0,3], marks: list[0,4]((int[-5,5], int[-5,5]))}"},
		{name: "nested fixed tuples", kind: task.KindOther,
			typ: "two boxes [[[x1, y1], [x2, y2]], [[x3, y3], [x4, y4]]] given by corners", constr: "coordinates between 0 and 9",
			want: "(((int[0,9], int[0,9]), (int[0,9], int[0,9])), ((int[0,9], int[0,9]), (int[0,9], int[0,9])))"},
		{name: "list of tagged alternatives", kind: task.KindOther,
			typ: `moves: list of ["left", steps] or ["right", steps]`, constr: "0 to 7 moves; steps between 1 and 4",
			want: `list[0,7](("left", int[1,4])|("right", int[1,4]))`},
		{name: "comma alternatives and bar literals", kind: task.KindOther,
			typ:    `events: list of ["put", value], ["pick", "X"|"Y"] or ["reset"]`,
			constr: "0 to 5 events; put values between 2 and 8",
			want:   `list[0,5](("put", int[2,8])|("pick", "X"|"Y")|("reset"))`},
		{name: "or inside a tuple and enumerated words", kind: task.KindOther,
			typ:    `orders: list of ["buy" or "sell", fruit, amount]`,
			constr: "1 to 3 orders; fruits plum, lime or date; amounts between 1 and 5",
			want:   `list[1,3](("buy"|"sell", str{plum,lime,date}, int[1,5]))`},
		{name: "ordered by a named field", kind: task.KindOther,
			typ:    "jobs: list of [start time, length], starts in non-decreasing order",
			constr: "0 to 6 jobs; start times between 0 and 30, lengths between 1 and 3",
			want:   "list[0,6]((int[0,30], int[1,3])) sorted@0"},
		{name: "postfix tokens", kind: task.KindOther,
			typ:    `formula in postfix notation: list of tokens, digits "1".."3" and operators "+", "*"`,
			constr: "a well-formed formula of 1 to 7 tokens",
			want:   `postfix[1,7]("1"|"2"|"3"; "+"|"*")`},
		{name: "text placeholder with a length", kind: task.KindOther,
			typ:    `edits: list of ["write", text] or ["erase", count]`,
			constr: "0 to 4 edits; written text of 2 to 3 lowercase letters; counts between 1 and 2",
			want:   `list[0,4](("write", str[2,3]{a-z})|("erase", int[1,2]))`},
		{name: "list of numbers with a generic range", kind: task.KindOther,
			typ: "list of integers", constr: "0 to 12 integers, each between -50 and 50",
			want: "list[0,12](int[-50,50])"},
		{name: "domain bounds unnamed numbers", kind: task.KindOther,
			typ: `object {"start": floor, "stops": [floor, ...]}`, constr: "0 to 3 stops", dom: &task.Domain{Lo: 0, Hi: 7},
			want: "{start: int[0,7], stops: list[0,3](int[0,7])}"},
		{name: "string of units", kind: task.KindString,
			typ: "string", constr: "at most 6 characters: pairs of a lowercase letter and a digit 2 to 4",
			want: "units[0,6](abcdefghijklmnopqrstuvwxyz 234)"},
		{name: "excluded value", kind: task.KindPair,
			typ: "pair of integers [a, b]", constr: "two integers between -100 and 100; b is not 0",
			want: "(int[-100,100], int[-100,100]!0)"},
		{name: "plain string", kind: task.KindString, typ: "string", constr: "0 to 9 lowercase letters", want: "<nil>"},
		{name: "no structure", kind: task.KindOther, typ: "object", want: "<nil>"},
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

// TestWellFormedPostfix checks the filter that keeps proposals of a
// postfix template well-formed: one value left, every operator after its
// operands, unary operators after one.
func TestWellFormedPostfix(t *testing.T) {
	codes := TemplateOf(task.Task{Kind: task.KindList, InputType: "a postfix expression coded as integers: 0-9 are operands and 10 means addition",
		InputConstraints: "a well-formed expression of 1 to 15 tokens", Domain: &task.Domain{Lo: 0, Hi: 10}})
	words := TemplateOf(task.Task{Kind: task.KindOther, InputType: `list of tokens in postfix order: integers from -9 to 9 (as JSON numbers) and the words "max", "min" (two operands) and "neg" (one operand)`,
		InputConstraints: "a well-formed expression of 1 to 13 tokens"})
	tests := []struct {
		name string
		tp   *Template
		in   string
		want bool
	}{
		{"one operand", codes, `[7]`, true},
		{"an addition", codes, `[1,5,10]`, true},
		{"nested", codes, `[1,5,10,7,10]`, true},
		{"two values left", codes, `[5,5]`, false},
		{"three values left", codes, `[1,5,7]`, false},
		{"operator first", codes, `[10,1,5]`, false},
		{"empty", codes, `[]`, false},
		{"unary after one", words, `[3,"neg"]`, true},
		{"binary after one", words, `[3,"max"]`, false},
		{"words nested", words, `[3,"neg",4,"min",2,"max"]`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tp == nil {
				t.Fatal("no template")
			}
			v, err := task.Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.tp.WellFormed(v); got != tt.want {
				t.Errorf("wellFormed(%s) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
