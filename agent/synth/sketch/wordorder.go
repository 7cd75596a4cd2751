package sketch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Word order: a string whose output holds its words in another order,
// the word at output position j being the input's word at g(j, n) (n
// the number of words, an index below 0 counting from the end as in
// Python): the last word first (g = j - 1), the words reversed (g = -1 -
// j), rotated by an amount given beside the text. g is a hole the
// enumerator fills over j, n and the task's other integers; a word that
// occurs twice in the input may come from either place.

// wordOrderMax bounds the index function's size.
const wordOrderMax = 5

// wordOrder is one filling: the text variable, the separator (as in
// words.go), the join and the index function over [j, n, others...].
type wordOrder struct {
	text      int
	sep, join string
	g         *dsl.Node
}

// orderEnv is the environment of the index function.
func orderEnv(j, n int, env []any, text int) []any {
	out := []any{int64(j), int64(n)}
	for k, v := range env {
		if k != text {
			out = append(out, v)
		}
	}
	return out
}

func (wo wordOrder) run(env []any) any {
	words := wordProgram{sep: wo.sep}.split(env[wo.text].(string))
	out := make([]string, len(words))
	for j := range words {
		v, isInt := dsl.EvalSafe(wo.g, orderEnv(j, len(words), env, wo.text)).(int64)
		if !isInt || v < -int64(len(words)) || v >= int64(len(words)) {
			return dsl.ErrV
		}
		if v < 0 {
			v += int64(len(words))
		}
		out[j] = words[v]
	}
	return strings.Join(out, wo.join)
}

// WordOrder tries every separator; it reports whether consider accepted a
// program.
func WordOrder(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	text := textVar(p)
	if text < 0 || p.Out != dsl.Str || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	for k, name := range p.B.Names {
		if k != text && (name == "j" || name == "words") {
			return false // the emitted loop's own names would hide it
		}
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * wordsShare))
	for _, sep := range wordSeps {
		join := sep
		if sep == "" {
			join = " "
		}
		if time.Now().After(until) {
			return false
		}
		wo := wordOrder{text: text, sep: sep, join: join}
		if wo.g = searchWordOrder(en, p, wo, until); wo.g == nil {
			continue
		}
		vals := make([]any, len(en.Envs))
		for i, env := range en.Envs {
			vals[i] = wo.run(env)
		}
		if consider(wordOrderNode(p, wo), vals) {
			return true
		}
	}
	return false
}

// searchWordOrder reads every output as the input's words reordered and
// searches the index function that gives each output word.
func searchWordOrder(en *Search, p *dsl.Problem, wo wordOrder, until time.Time) *dsl.Node {
	b := &dsl.Binding{Names: []string{"j", "len(words)"}, Types: []dsl.Type{dsl.Int, dsl.Int}}
	for k, name := range p.B.Names {
		if k != wo.text {
			b.Names, b.Types = append(b.Names, name), append(b.Types, p.B.Types[k])
		}
	}
	sub := &dsl.Problem{B: b, Round: -1, Mined: p.Mined, Out: dsl.Int, Ok: []dsl.Type{dsl.Int}}
	type point struct {
		words []string
		want  string
	}
	var points []point
	moved, several := false, false
	for i, o := range p.Outs {
		words := wordProgram{sep: wo.sep}.split(p.Envs[i][wo.text].(string))
		outs, good := splitWords(o.(string), wo.join, words)
		if !good || wo.join == "" {
			return nil
		}
		sorted, sortedOut := slices.Clone(words), slices.Clone(outs)
		slices.Sort(sorted)
		slices.Sort(sortedOut)
		if !slices.Equal(sorted, sortedOut) {
			return nil
		}
		several = several || len(words) > 1
		moved = moved || !slices.Equal(words, outs)
		for j := range words {
			if len(points) < maxPointsSearched {
				sub.Envs = append(sub.Envs, orderEnv(j, len(words), p.Envs[i], wo.text))
				sub.Outs = append(sub.Outs, int64(0))
				points = append(points, point{words, outs[j]})
			}
		}
	}
	if !several || !moved {
		return nil
	}
	accept := func(e *dsl.Entry) bool {
		if e.Type() != dsl.Int {
			return false
		}
		for k, pt := range points {
			v, isInt := e.At(k).(int64)
			n := int64(len(pt.words))
			if !isInt || v < -n || v >= n {
				return false
			}
			if v < 0 {
				v += n
			}
			if pt.words[v] != pt.want {
				return false
			}
		}
		return true
	}
	return en.holeSearchBy(sub, until, 0, en.Done, wordOrderMax, en.MemLimit/4, false, false, accept)
}

func wordOrderNode(p *dsl.Problem, wo wordOrder) *dsl.Node {
	sep := strconv.Quote(wo.sep)
	if wo.sep == "" {
		sep = "None"
	}
	op := &dsl.Operator{Name: fmt.Sprintf("word_order[%s to %q: %s]", sep, wo.join, wo.g), Args: p.B.Types, Ret: dsl.Str, Fam: dsl.FamList, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return wo.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			vars := []dsl.Code{dsl.Atom("j"), dsl.Atom("len(words)")}
			for k, name := range p.B.Names {
				if k != wo.text {
					vars = append(vars, dsl.Atom(name))
				}
			}
			split := fmt.Sprintf("%s.split(%s)", p.B.Names[wo.text], strconv.Quote(wo.sep))
			if wo.sep == "" {
				split = p.B.Names[wo.text] + ".split()"
			}
			body := fmt.Sprintf("    words = %s\n    return %s.join([words[%s] for j in range(len(words))])\n",
				split, strconv.Quote(wo.join), e.Node(wo.g, vars).S)
			return dsl.Call(e.LoopHelper("word_order", p.B.Names, body), a...)
		}}
	return overVars(p, op, 4+wo.g.Size)
}
