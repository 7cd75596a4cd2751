package synth

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Python operator precedence, low to high.
const (
	pLambda = iota
	pTern
	pOr
	pAnd
	pNot
	pCmp
	pBor
	pXor
	pBand
	pShift
	pAdd
	pMul
	pUnary
	pPow
	pAtom
)

// code is a rendered Python expression and its precedence.
type code struct {
	s string
	p int
}

func atom(s string) code { return code{s, pAtom} }

// at renders c where an operand of precedence at least min is needed.
func (c code) at(min int) string {
	if c.p < min {
		return "(" + c.s + ")"
	}
	return c.s
}

func binop(a code, op string, b code, p int) code {
	return code{a.at(p) + " " + op + " " + b.at(p+1), p}
}

func cmpop(a code, op string, b code) code {
	return code{a.at(pCmp+1) + " " + op + " " + b.at(pCmp+1), pCmp}
}

func call(name string, args ...code) code {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.at(pLambda + 1)
	}
	return atom(name + "(" + strings.Join(parts, ", ") + ")")
}

func method(recv code, name string, args ...code) code {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.s
	}
	return atom(recv.at(pAtom) + "." + name + "(" + strings.Join(parts, ", ") + ")")
}

// emitter renders programs as Python, collecting imports and helpers.
type emitter struct {
	vars    []code
	imports map[string]bool
	helpers map[string]string
}

func newEmitter(vars []string) *emitter {
	e := &emitter{imports: map[string]bool{}, helpers: map[string]string{}}
	for _, v := range vars {
		e.vars = append(e.vars, atom(v))
	}
	return e
}

func (e *emitter) node(n *node, vars []code) code {
	if n.Op == nil {
		if n.Var >= 0 {
			return vars[n.Var]
		}
		return constCode(n.Const)
	}
	args := make([]code, len(n.Kids))
	for i, k := range n.Kids {
		args[i] = e.node(k, vars)
	}
	return n.Op.Py(e, n.Lam, args)
}

// lam renders a lambda's body with its variables bound to the given code.
func (e *emitter) lam(l *lambda, vars ...code) code {
	if l.Geo != nil {
		return l.Geo.py(e, vars[0], vars[1])
	}
	return e.node(l.Body, vars)
}

// fn renders a lambda as a Python function value: a builtin name when the
// body is exactly one (max, min), else a lambda expression.
func (e *emitter) fn(l *lambda, names ...string) string {
	if l.Body != nil && l.Body.Op != nil && len(names) == 2 && len(l.Body.Kids) == 2 &&
		l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
		if b := l.Body.Op.PyBuiltin; b != "" {
			return b
		}
	}
	vars := make([]code, len(names))
	for i, n := range names {
		vars[i] = atom(n)
	}
	return "lambda " + strings.Join(names, ", ") + ": " + e.lam(l, vars...).s
}

func (e *emitter) use(module string) { e.imports[module] = true }

func (e *emitter) helper(name, src string) { e.helpers[name] = src }

func constCode(v any) code {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return code{strconv.FormatInt(x, 10), pUnary}
		}
		return atom(strconv.FormatInt(x, 10))
	case float64:
		s := pyFloat(x)
		if x < 0 {
			return code{s, pUnary}
		}
		return atom(s)
	case bool:
		if x {
			return atom("True")
		}
		return atom("False")
	case string:
		return atom(strconv.Quote(x))
	}
	return atom(string(toJSON(v)))
}

// program is a synthesized program with what is needed to print it.
type program struct {
	Root *node
	// Binding renders the unpacking of input_data into the variables;
	// BindingHelper is Python source it calls (a function definition).
	Binding       string
	BindingHelper string
	Vars          []string
	// Round is the number of decimals float results are rounded to (-1: none).
	Round int
	// Nullable programs return None where the expression raises.
	Nullable bool
}

// Python renders a complete candidate.py defining fname(input_data).
func (p program) Python(fname, comment string) string {
	e := newEmitter(p.Vars)
	body := e.node(p.Root, e.vars)
	if p.Round >= 0 {
		switch t, _ := rootType(p.Root); t {
		case tFloat:
			body = call("round", body, atom(fmt.Sprint(p.Round)))
		case tListFloat:
			body = atom(fmt.Sprintf("[round(v, %d) for v in %s]", p.Round, body.s))
		}
	}
	var sb strings.Builder
	if comment != "" {
		for _, line := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
			sb.WriteString("# " + line + "\n")
		}
	}
	mods := sortedKeys(e.imports)
	for _, m := range mods {
		switch m {
		case "accumulate":
			sb.WriteString("from itertools import accumulate\n")
		case "reduce":
			sb.WriteString("from functools import reduce\n")
		default:
			sb.WriteString("import " + m + "\n")
		}
	}
	if len(mods) > 0 {
		sb.WriteString("\n")
	}
	names := make([]string, 0, len(e.helpers))
	for n := range e.helpers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sb.WriteString("\n" + strings.TrimSpace(e.helpers[n]) + "\n\n")
	}
	if p.BindingHelper != "" {
		sb.WriteString("\n" + strings.TrimSpace(p.BindingHelper) + "\n\n")
	}
	fmt.Fprintf(&sb, "\ndef %s(input_data):\n", fname)
	if p.Binding != "" {
		sb.WriteString("    " + p.Binding + "\n")
	}
	if p.Nullable {
		// The synthesizer matched the null outputs with the inputs on
		// which the expression fails (an empty max, an index past the end).
		sb.WriteString("    try:\n        return " + body.s + "\n")
		sb.WriteString("    except (ArithmeticError, LookupError, ValueError):\n        return None\n")
	} else {
		sb.WriteString("    return " + body.s + "\n")
	}
	return strings.TrimLeft(sb.String(), "\n")
}

// rootType returns the static type of a program.
func rootType(n *node) (valType, bool) {
	if n.Op != nil {
		return n.Op.Ret, true
	}
	return typeOf(n.Const)
}

// loopHelper registers a helper function named after base (numbered when
// the name is taken by another body) and returns its name.
func (e *emitter) loopHelper(base string, params []string, body string) string {
	name := base
	for k := 2; ; k++ {
		src := "def " + name + "(" + strings.Join(params, ", ") + "):\n" + body
		if old, taken := e.helpers[name]; !taken || old == src {
			e.helper(name, src)
			return name
		}
		name = fmt.Sprintf("%s_%d", base, k)
	}
}
