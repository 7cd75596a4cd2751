package sketch

import (
	"fmt"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// seqPair reads a problem's input as two sequences of one kind: two
// integer lists, two strings, or one list of strings that holds exactly
// two in every example ("[s, t]: two phrases" binds as a list of
// strings).
type seqPair struct {
	typ dsl.Type
	// list is the variable of a list of two strings, or -1 for two
	// variables.
	list int
	// names are the two sequences' Python expressions; check is the
	// helper's first lines (a list of two strings must hold two).
	names [2]string
	check string
}

// newSeqPair reads a problem as two sequences, or returns false.
func newSeqPair(p *dsl.Problem) (seqPair, bool) {
	t := p.B.Types
	switch {
	case len(t) == 2 && t[0] == t[1] && (t[0] == dsl.ListInt || t[0] == dsl.Str):
		return seqPair{typ: t[0], list: -1, names: [2]string{p.B.Names[0], p.B.Names[1]}}, true
	case len(t) == 1 && t[0] == dsl.ListStr:
		for _, env := range p.Envs {
			if len(env[0].([]string)) != 2 {
				return seqPair{}, false
			}
		}
		w := p.B.Names[0]
		return seqPair{typ: dsl.Str, list: 0, names: [2]string{w + "[0]", w + "[1]"},
			check: fmt.Sprintf("    if len(%s) != 2:\n        raise ValueError(\"expected two strings\")\n", w)}, true
	}
	return seqPair{}, false
}

// holds reports whether an environment has the two sequences.
func (sq seqPair) holds(env []any) bool {
	return sq.list < 0 || len(env[sq.list].([]string)) == 2
}

// get returns an environment's two sequences (holds first).
func (sq seqPair) get(env []any) (any, any) {
	if sq.list < 0 {
		return env[0], env[1]
	}
	ws := env[sq.list].([]string)
	return ws[0], ws[1]
}
