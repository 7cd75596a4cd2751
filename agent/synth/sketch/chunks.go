package sketch

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Chunk-wise decomposition. A string made of fixed-width units — a letter
// and its count ("a3b2"), hexadecimal pairs, triples of digits — maps to
// the units' images joined ("aaabb"), or to the list of them. Every unit
// of every example is one environment of a string function of the unit,
// its characters and its index, which the enumerator searches as a hole;
// a joined output does not say where each unit's image ends, so a
// function is checked by joining its values over each example's units and
// comparing the whole output.

// chunkWidths are the unit widths tried (one character is a per-character
// map, which the levels have).
var chunkWidths = []int{2, 3, 4}

// chunkJoins are the separators of a joined output.
var chunkJoins = []string{"", " "}

// Bounds of the decomposition: the size of the unit function, and the
// share of the time left it may take.
const (
	chunkFuncMax = 5
	chunkShare   = 0.3
)

// chunkProgram is a filling: the width, the function of a unit, and the
// separator of the joined images (list: the list of them).
type chunkProgram struct {
	width int
	fn    *dsl.Node
	join  string
	list  bool
}

// chunkEnv is the hole's environment of unit j of s: the unit, its
// characters, the index.
func chunkEnv(s []rune, width, j int) []any {
	unit := s[j*width : (j+1)*width]
	env := []any{string(unit)}
	for _, r := range unit {
		env = append(env, string(r))
	}
	return append(env, int64(j))
}

// chunkNames are the Python expressions of the hole's variables.
func chunkNames(width int) []string {
	names := []string{"c"}
	for i := range width {
		names = append(names, fmt.Sprintf("c[%d]", i))
	}
	return append(names, "j")
}

func (cp chunkProgram) run(s string) any {
	rs := []rune(s)
	if len(rs)%cp.width != 0 {
		return dsl.ErrV
	}
	out := make([]string, len(rs)/cp.width)
	for j := range out {
		v, isStr := dsl.EvalSafe(cp.fn, chunkEnv(rs, cp.width, j)).(string)
		if !isStr {
			return dsl.ErrV
		}
		out[j] = v
	}
	if cp.list {
		return out
	}
	joined := strings.Join(out, cp.join)
	if len(joined) > dsl.MaxLen {
		return dsl.ErrV
	}
	return joined
}

// Chunkwise tries every width within its share of the time left; it
// reports whether consider accepted a program.
func Chunkwise(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || (p.Out != dsl.Str && p.Out != dsl.ListStr) || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * chunkShare))
	for _, width := range chunkWidths {
		left := time.Until(until)
		if left <= 0 || en.interrupted() {
			return false
		}
		cp, good := searchChunkProgram(p, width, time.Now().Add(left/2), en)
		if good && offer(en, chunkNode(p, cp), consider) {
			return true
		}
	}
	return false
}

// searchChunkProgram cuts every example's input into units of width
// characters and searches the function whose images, joined (or listed),
// give every output.
func searchChunkProgram(p *dsl.Problem, width int, deadline time.Time, en *Search) (chunkProgram, bool) {
	names := chunkNames(width)
	types := []dsl.Type{dsl.Str}
	for range width {
		types = append(types, dsl.Str)
	}
	types = append(types, dsl.Int)
	sub := &dsl.Problem{B: &dsl.Binding{Names: names, Types: types}, Round: -1, Mined: p.Mined, Out: dsl.Str, Ok: []dsl.Type{dsl.Str}}
	// starts[e] is where example e's units begin among the environments.
	starts := make([]int, len(p.Outs)+1)
	several := false
	for e := range p.Outs {
		rs := []rune(p.Envs[e][0].(string))
		if len(rs)%width != 0 {
			return chunkProgram{}, false
		}
		several = several || len(rs) >= 2*width
		for j := range len(rs) / width {
			sub.Envs = append(sub.Envs, chunkEnv(rs, width, j))
		}
		starts[e+1] = len(sub.Envs)
	}
	if !several {
		return chunkProgram{}, false
	}
	if p.Out == dsl.ListStr {
		// The images are the output's elements: data points.
		for e, o := range p.Outs {
			words := o.([]string)
			if len(words) != starts[e+1]-starts[e] {
				return chunkProgram{}, false
			}
			for _, w := range words {
				sub.Outs = append(sub.Outs, w)
			}
		}
		fn := en.holeSearch(sub, deadline, en.Done, chunkFuncMax, en.MemLimit/4, false, false)
		return chunkProgram{width: width, fn: fn, list: true}, fn != nil
	}
	var join string
	accept := func(cand *dsl.Entry) bool {
		if cand.Type() != dsl.Str {
			return false
		}
		vals := cand.Values()
		for _, sep := range chunkJoins {
			fits := true
			for e, o := range p.Outs {
				parts := make([]string, 0, starts[e+1]-starts[e])
				for _, v := range vals[starts[e]:starts[e+1]] {
					s, isStr := v.(string)
					if !isStr {
						fits = false
						break
					}
					parts = append(parts, s)
				}
				if !fits || strings.Join(parts, sep) != o.(string) {
					fits = false
					break
				}
			}
			if fits {
				join = sep
				return true
			}
		}
		return false
	}
	fn := en.holeSearchBy(sub, deadline, 0, en.Done, chunkFuncMax, en.MemLimit/4, false, false, accept)
	return chunkProgram{width: width, fn: fn, join: join}, fn != nil
}

func chunkNode(p *dsl.Problem, cp chunkProgram) *dsl.Node {
	ret := dsl.Str
	if cp.list {
		ret = dsl.ListStr
	}
	op := &dsl.Operator{Name: fmt.Sprintf("chunkwise[%d, %q: %s]", cp.width, cp.join, cp.fn), Args: p.B.Types, Ret: ret, Fam: dsl.FamList, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return cp.run(a[0].(string)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			names := chunkNames(cp.width)
			vars := make([]dsl.Code, len(names))
			for i, n := range names {
				vars[i] = dsl.Atom(n)
			}
			s := p.B.Names[0]
			used := make([]bool, len(names))
			markVars(cp.fn, used)
			units := fmt.Sprintf("(%s[i:i + %d] for i in range(0, len(%s), %d))", s, cp.width, s, cp.width)
			images := fmt.Sprintf("[%s for c in %s]", e.Node(cp.fn, vars).S, units)
			if used[len(names)-1] {
				images = fmt.Sprintf("[%s for j, c in enumerate%s]", e.Node(cp.fn, vars).S, units)
			}
			// A last unit cut short raises, as the Go evaluation fails.
			body := fmt.Sprintf("    if len(%s) %% %d:\n        raise ValueError(\"expected units of %d characters\")\n", s, cp.width, cp.width)
			if cp.list {
				body += "    return " + images + "\n"
			} else {
				body += fmt.Sprintf("    return %s.join(%s)\n", strconv.Quote(cp.join), images)
			}
			return dsl.Call(e.LoopHelper("chunkwise", p.B.Names, body), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 3 + cp.fn.Size}
}
