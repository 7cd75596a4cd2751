package synth

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// postfixWords draws a well-formed postfix expression of operands drawn by
// operand and the binary and unary words given, with up to ops operators.
func postfixWords(r *rand.Rand, operand func() any, bins, uns []string, ops int) []any {
	var out []any
	depth, used := 0, 0
	n := 1 + r.Intn(ops+1)
	for operands := 0; operands < n || depth > 1; {
		switch {
		case len(uns) > 0 && depth >= 1 && used < ops && r.Intn(4) == 0:
			out = append(out, uns[r.Intn(len(uns))])
			used++
		case depth >= 2 && (operands >= n || r.Intn(2) == 0):
			out = append(out, bins[r.Intn(len(bins))])
			depth--
			used++
		default:
			out = append(out, operand())
			operands++
			depth++
		}
	}
	return out
}

// runWords evaluates tokens on a stack with the meanings given: a word
// maps to a function of the stack returning the new stack (nil: the
// token is an operand, pushed by push).
func runWords(toks []any, push func(any) any, words map[string]func([]any, any) []any) []any {
	var st []any
	for _, t := range toks {
		key := ""
		switch x := t.(type) {
		case string:
			key = x
		case []any:
			key = x[0].(string)
		}
		if f := words[key]; f != nil {
			st = f(st, t)
			continue
		}
		st = append(st, push(t))
	}
	return st
}

func bin(f func(a, b int) int) func([]any, any) []any {
	return func(st []any, _ any) []any {
		a, b := st[len(st)-2].(int), st[len(st)-1].(int)
		return append(st[:len(st)-2], f(a, b))
	}
}

// The interpreter sketch learns what each word of a token list does on a
// stack: operators of integers given as numbers or as digit strings,
// words that keep their operands, records that push their argument, words
// skipped when the stack is too short, and symbols combined as text.
func TestInterpSketch(t *testing.T) {
	other := func(name, typ string) task.Task {
		return task.Task{Name: name, Kind: task.KindOther, InputType: typ, FunctionName: "solve"}
	}
	num := func(r *rand.Rand) func() any { return func() any { return r.Intn(19) - 9 } }
	intOf := func(v any) any { n, _ := intValue(v); return int(n) }
	cases := []sketchCase{
		{name: "postfix_max_min_neg", task: other("postfix_max_min_neg", "postfix tokens: integers and the words max, min, neg"), n: 12,
			gen: func(r *rand.Rand) any { return postfixWords(r, num(r), []string{"max", "min"}, []string{"neg"}, 5) },
			f: func(in any) any {
				st := runWords(in.([]any), intOf, map[string]func([]any, any) []any{
					"max": bin(func(a, b int) int { return max(a, b) }), "min": bin(func(a, b int) int { return min(a, b) }),
					"neg": func(st []any, _ any) []any { st[len(st)-1] = -st[len(st)-1].(int); return st }})
				return st[len(st)-1]
			}},
		{name: "rpn_digit_strings", task: other("rpn", "list of tokens: digits and + - *"), n: 12,
			gen: func(r *rand.Rand) any {
				return postfixWords(r, func() any { return strconv.Itoa(r.Intn(10)) }, []string{"+", "-", "*"}, nil, 5)
			},
			f: func(in any) any {
				st := runWords(in.([]any), func(t any) any { n, _ := strconv.Atoi(t.(string)); return n }, map[string]func([]any, any) []any{
					"+": bin(func(a, b int) int { return a + b }), "-": bin(func(a, b int) int { return a - b }),
					"*": bin(func(a, b int) int { return a * b })})
				return st[len(st)-1]
			}},
		{name: "score_keeper", task: other("score_keeper", "records: numbers as strings, or T (twice the last), S (sum of the last two), X (remove the last)"), n: 14,
			gen: func(r *rand.Rand) any {
				var out []any
				depth := 0
				for range 1 + r.Intn(9) {
					switch k := r.Intn(5); {
					case k == 0 && depth >= 1:
						out = append(out, "T")
						depth++
					case k == 1 && depth >= 2:
						out = append(out, "S")
						depth++
					case k == 2 && depth >= 1:
						out = append(out, "X")
						depth--
					default:
						out = append(out, strconv.Itoa(r.Intn(41)-20))
						depth++
					}
				}
				return out
			},
			f: func(in any) any {
				st := runWords(in.([]any), func(t any) any { n, _ := strconv.Atoi(t.(string)); return n }, map[string]func([]any, any) []any{
					"T": func(st []any, _ any) []any { return append(st, 2*st[len(st)-1].(int)) },
					"S": func(st []any, _ any) []any { return append(st, st[len(st)-1].(int)+st[len(st)-2].(int)) },
					"X": func(st []any, _ any) []any { return st[:len(st)-1] }})
				s := 0
				for _, v := range st {
					s += v.(int)
				}
				return s
			}},
		{name: "records_machine", task: other("records_machine", `program: list of instructions ["put", n], ["drop"], ["plus"], ["twice"], ["exch"]`), n: 16,
			gen: func(r *rand.Rand) any {
				words := []string{"drop", "plus", "twice", "exch"}
				out := []any{}
				for range r.Intn(10) {
					if r.Intn(2) == 0 {
						out = append(out, []any{"put", r.Intn(19) - 9})
					} else {
						out = append(out, []any{words[r.Intn(len(words))]})
					}
				}
				return out
			},
			f: func(in any) any {
				st := []any{}
				for _, t := range in.([]any) {
					rec := t.([]any)
					n := len(st)
					switch rec[0] {
					case "put":
						st = append(st, intOf(rec[1]))
					case "drop":
						if n >= 1 {
							st = st[:n-1]
						}
					case "plus":
						if n >= 2 {
							st = append(st[:n-2], st[n-2].(int)+st[n-1].(int))
						}
					case "twice":
						if n >= 1 {
							st = append(st, st[n-1])
						}
					case "exch":
						if n >= 2 {
							st[n-1], st[n-2] = st[n-2], st[n-1]
						}
					}
				}
				return st
			}},
		{name: "postfix_to_infix_text", task: other("infix", "postfix tokens: letters and operators"), n: 10,
			gen: func(r *rand.Rand) any {
				return postfixWords(r, func() any { return string(rune('a' + r.Intn(26))) }, []string{"+", "-", "*", "/"}, nil, 4)
			},
			f: func(in any) any {
				var st []string
				for _, t := range in.([]any) {
					s := t.(string)
					if len(st) >= 2 && (s == "+" || s == "-" || s == "*" || s == "/") {
						a, b := st[len(st)-2], st[len(st)-1]
						st = append(st[:len(st)-2], "("+a+s+b+")")
						continue
					}
					st = append(st, s)
				}
				return st[len(st)-1]
			}},
	}
	runSketchCases(t, cases, sketch.Interp)
}

// Tokens the interpreter cannot read leave it out: records of several
// arguments, words that are all there is (no operand), too many words.
func TestInterpSketchDeclines(t *testing.T) {
	cases := []struct {
		name   string
		inputs []string
		out    func(i int) string
	}{
		{"records_of_two_arguments", []string{`[["move", 1, 2], ["move", 3, 4]]`, `[["move", 0, 0]]`, `[]`}, func(i int) string { return fmt.Sprint(i) }},
		{"words_only", []string{`["coin", "push"]`, `["push"]`, `["coin", "coin"]`}, func(i int) string { return fmt.Sprint(i) }},
		{"too_many_words", []string{`[1, "a1", "a2", "a3", "a4", "a5"]`, `[2, "a6", "a7", "a8", "a9"]`, `[3]`}, func(i int) string { return fmt.Sprint(i) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var exs []task.Example
			for i, in := range c.inputs {
				exs = append(exs, task.Example{Input: json.RawMessage(in), Output: json.RawMessage(c.out(i))})
			}
			p, err := newProblem(task.Task{Name: c.name, Kind: task.KindOther, InputType: "tokens", FunctionName: "solve"}, exs)
			if err != nil {
				t.Fatalf("problem: %v", err)
			}
			if res := strategyOnly(p, sketch.Interp); res.solved {
				t.Errorf("found %v, want none", res.best)
			}
		})
	}
}
