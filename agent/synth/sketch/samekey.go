package sketch

import (
	"fmt"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Two sequences compared by a key: whether two phrases are anagrams of
// each other ignoring spaces and case (the same sorted letters), whether
// two numbers' lists hold the same elements, whether two words have the
// same letters in the same order once lower-cased. The answer is
//
//	return key(a) == key(b)
//
// with key a program of one sequence of size keyMaxSize or less, a hole
// the enumerator fills over both sequences of every example (one
// environment each): a key is accepted when its two values are equal
// exactly where the output is true. The comparison of the whole pair
// (key(a) == key(b): twice the key's size and one) is beyond the levels
// when the key has three operators.

// Bounds of the sketch: the key's size, the share of the time left, and
// the examples of each answer it needs.
const (
	keyMaxSize  = 6
	keyShare    = 0.2
	keyExamples = 2
)

// sameKey is a filling: the key over one sequence.
type sameKey struct {
	sq  seqPair
	key *dsl.Node
}

func (k sameKey) run(env []any) any {
	if !k.sq.holds(env) {
		return dsl.ErrV
	}
	a, b := k.sq.get(env)
	ka, kb := dsl.EvalSafe(k.key, []any{a}), dsl.EvalSafe(k.key, []any{b})
	if dsl.IsErr(ka) || dsl.IsErr(kb) {
		return dsl.ErrV
	}
	return dsl.EqualTo(ka, kb, 0)
}

func (k sameKey) python(e *dsl.Emitter) string {
	a := e.Node(k.key, []dsl.Code{dsl.Atom(k.sq.names[0])}).S
	b := e.Node(k.key, []dsl.Code{dsl.Atom(k.sq.names[1])}).S
	return k.sq.check + "    return " + a + " == " + b + "\n"
}

func (k sameKey) node(p *dsl.Problem) *dsl.Node {
	op := &dsl.Operator{Name: fmt.Sprintf("same_key[%s]", k.key), Args: p.B.Types, Ret: dsl.Bool, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return k.run(a) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("same_key", p.B.Names, k.python(e)), a...)
		}}
	return overVars(p, op, 2+2*k.key.Size)
}

// SameKey searches the key within its share of the time left, when the
// output is a truth value of two sequences, true and false each on
// keyExamples examples or more; it reports whether consider accepted a
// program.
func SameKey(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	sq, good := newSeqPair(p)
	if !good || p.Out != dsl.Bool || p.Nullable || en.Stopped {
		return false
	}
	want := make([]bool, len(p.Outs))
	trues := 0
	for e, o := range p.Outs {
		b, isBool := o.(bool)
		if !isBool || !sq.holds(p.Envs[e]) {
			return false
		}
		want[e] = b
		if b {
			trues++
		}
	}
	if trues < keyExamples || len(p.Outs)-trues < keyExamples {
		return false
	}
	sub := &dsl.Problem{B: &dsl.Binding{Names: []string{"s"}, Types: []dsl.Type{sq.typ}}, Round: -1, Mined: p.Mined,
		Out: sq.typ, Ok: []dsl.Type{dsl.Str, dsl.ListInt, dsl.ListStr, dsl.Int}}
	for _, env := range p.Envs {
		a, b := sq.get(env)
		sub.Envs = append(sub.Envs, []any{a}, []any{b})
	}
	sub.Outs = make([]any, len(sub.Envs))
	for k := range sub.Outs {
		sub.Outs[k] = dsl.ErrV
	}
	// Every key accepted is offered, smallest first: those that part on
	// inputs the examples lack are rivals a proposal tells apart.
	var keys []*dsl.Node
	accept := func(cand *dsl.Entry) bool {
		if !readsAny(cand.N) {
			return false
		}
		vals := cand.Values()
		for e, w := range want {
			ka, kb := vals[2*e], vals[2*e+1]
			if dsl.IsErr(ka) || dsl.IsErr(kb) || dsl.EqualTo(ka, kb, 0) != w {
				return false
			}
		}
		keys = append(keys, cand.N)
		return !en.Collect || len(keys) >= maxKeyRivals
	}
	until := time.Now().Add(time.Duration(float64(time.Until(en.Deadline)) * keyShare))
	en.holeSearchBy(sub, until, 0, en.Done, keyMaxSize, en.MemLimit/4, false, false, accept)
	for _, key := range keys {
		if offer(en, sameKey{sq: sq, key: key}.node(p), consider) {
			return true
		}
	}
	return false
}

// maxKeyRivals bounds the keys a proposal's search collects.
const maxKeyRivals = 8
