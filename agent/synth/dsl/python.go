package dsl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Python operator precedence, low to high.
const (
	pLambda = iota
	PTern
	POr
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

// Code is a rendered Python expression and its precedence.
type Code struct {
	S string
	P int
}

// Atom is Python code that binds tightest: a name, a literal, a call.
func Atom(s string) Code { return Code{s, pAtom} }

// At renders c where an operand of precedence at least min is needed.
func (c Code) At(min int) string {
	if c.P < min {
		return "(" + c.S + ")"
	}
	return c.S
}

func binop(a Code, op string, b Code, p int) Code {
	return Code{a.At(p) + " " + op + " " + b.At(p+1), p}
}

func cmpop(a Code, op string, b Code) Code {
	return Code{a.At(pCmp+1) + " " + op + " " + b.At(pCmp+1), pCmp}
}

// Compare is the Python comparison a op b (op: <, >, ==, in...).
func Compare(a Code, op string, b Code) Code { return cmpop(a, op, b) }

// Call is the Python call of a function on arguments.
func Call(name string, args ...Code) Code {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.At(pLambda + 1)
	}
	return Atom(name + "(" + strings.Join(parts, ", ") + ")")
}

func method(recv Code, name string, args ...Code) Code {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.S
	}
	return Atom(recv.At(pAtom) + "." + name + "(" + strings.Join(parts, ", ") + ")")
}

// Emitter renders programs as Python, collecting imports and helpers.
type Emitter struct {
	Vars    []Code
	Imports map[string]bool
	Helpers map[string]string
}

// NewEmitter returns an emitter of programs over the variables named.
func NewEmitter(vars []string) *Emitter {
	e := &Emitter{Imports: map[string]bool{}, Helpers: map[string]string{}}
	for _, v := range vars {
		e.Vars = append(e.Vars, Atom(v))
	}
	return e
}

// Node writes a program as a Python expression over vars.
func (e *Emitter) Node(n *Node, vars []Code) Code {
	if n.Op == nil {
		if n.Var >= 0 {
			return vars[n.Var]
		}
		return ConstCode(n.Const)
	}
	args := make([]Code, len(n.Kids))
	for i, k := range n.Kids {
		args[i] = e.Node(k, vars)
	}
	return n.Op.Py(e, n.Lam, args)
}

// Lam renders a lambda's body with its variables bound to the given code.
func (e *Emitter) Lam(l *Lambda, vars ...Code) Code {
	if l.Geo != nil {
		return l.Geo.Py(e, vars[0], vars[1])
	}
	return e.Node(l.Body, vars)
}

// fn renders a lambda as a Python function value: a builtin name when the
// body is exactly one (max, min), else a lambda expression.
func (e *Emitter) fn(l *Lambda, names ...string) string {
	if l.Body != nil && l.Body.Op != nil && len(names) == 2 && len(l.Body.Kids) == 2 &&
		l.Body.Kids[0].Var == 0 && l.Body.Kids[1].Var == 1 && l.Body.Kids[0].Op == nil && l.Body.Kids[1].Op == nil {
		if b := l.Body.Op.PyBuiltin; b != "" {
			return b
		}
	}
	vars := make([]Code, len(names))
	for i, n := range names {
		vars[i] = Atom(n)
	}
	return "lambda " + strings.Join(names, ", ") + ": " + e.Lam(l, vars...).S
}

func (e *Emitter) use(module string) { e.Imports[module] = true }

func (e *Emitter) helper(name, src string) { e.Helpers[name] = src }

// ConstCode writes a value as a Python literal.
func ConstCode(v any) Code {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return Code{strconv.FormatInt(x, 10), pUnary}
		}
		return Atom(strconv.FormatInt(x, 10))
	case float64:
		s := pyFloat(x)
		if x < 0 {
			return Code{s, pUnary}
		}
		return Atom(s)
	case bool:
		if x {
			return Atom("True")
		}
		return Atom("False")
	case string:
		return Atom(strconv.Quote(x))
	}
	return Atom(string(ToJSON(v)))
}

// Program is a synthesized program with what is needed to print it.
type Program struct {
	Root *Node
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
func (p Program) Python(fname, comment string) string {
	e := NewEmitter(p.Vars)
	body := e.Node(p.Root, e.Vars)
	if p.Round >= 0 {
		switch t, _ := rootType(p.Root); t {
		case Float:
			body = Call("round", body, Atom(fmt.Sprint(p.Round)))
		case ListFloat:
			body = Atom(fmt.Sprintf("[round(v, %d) for v in %s]", p.Round, body.S))
		}
	}
	var sb strings.Builder
	if comment != "" {
		for _, line := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
			sb.WriteString("# " + line + "\n")
		}
	}
	mods := SortedKeys(e.Imports)
	for _, m := range mods {
		switch m {
		case "accumulate":
			sb.WriteString("from itertools import accumulate\n")
		case "reduce":
			sb.WriteString("from functools import reduce\n")
		case "Counter":
			sb.WriteString("from collections import Counter\n")
		default:
			sb.WriteString("import " + m + "\n")
		}
	}
	if len(mods) > 0 {
		sb.WriteString("\n")
	}
	names := make([]string, 0, len(e.Helpers))
	for n := range e.Helpers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sb.WriteString("\n" + strings.TrimSpace(e.Helpers[n]) + "\n\n")
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
		sb.WriteString("    try:\n        return " + body.S + "\n")
		sb.WriteString("    except (ArithmeticError, LookupError, ValueError):\n        return None\n")
	} else {
		sb.WriteString("    return " + body.S + "\n")
	}
	return strings.TrimLeft(sb.String(), "\n")
}

// rootType returns the static type of a program.
func rootType(n *Node) (Type, bool) {
	if n.Op != nil {
		return n.Op.Ret, true
	}
	return TypeOf(n.Const)
}

// LoopHelper registers a helper function named after base (numbered when
// the name is taken by another body) and returns its name.
func (e *Emitter) LoopHelper(base string, params []string, body string) string {
	name := base
	for k := 2; ; k++ {
		src := "def " + name + "(" + strings.Join(params, ", ") + "):\n" + body
		if old, taken := e.Helpers[name]; !taken || old == src {
			e.helper(name, src)
			return name
		}
		name = fmt.Sprintf("%s_%d", base, k)
	}
}
