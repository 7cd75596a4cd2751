package synth

import (
	"strconv"
	"strings"
)

// family groups operators for the search order and for the notes.
type family uint8

// Operator families, simplest first: within one size, whole programs try
// them in this order (loops right after the scalars), and the notes name
// the families a program uses.
const (
	famConst family = iota
	famScalar
	famCond
	famList
	famScan
	famLoop
	numFamilies
)

var familyNames = [numFamilies]string{"constants", "scalar", "conditionals", "lists (map/filter/zip/index)", "windows and scans", "loops and recursion"}

func (f family) String() string { return familyNames[f] }

// lamSig is the argument signature of a lambda: which variables it binds.
type lamSig uint8

// Lambda signatures. sigGeo lambdas are a fixed bank of functions of two
// points, not enumerated.
const (
	sigNone lamSig = iota
	sigI           // x: int
	sigII          // x, y: int
	sigF           // x: float
	sigFF          // x, y: float
	sigS           // x: str
	sigGeo         // p, q: point
	numSigs
)

var sigArgs = [numSigs][]valType{nil, {tInt}, {tInt, tInt}, {tFloat}, {tFloat, tFloat}, {tStr}, nil}

// operator is one operator of the DSL: its typed signature, its Go evaluation
// with Python's semantics and its Python translation.
type operator struct {
	Name string
	Args []valType
	// Sig and LamRet describe the operator's lambda argument, if any.
	Sig    lamSig
	LamRet valType
	// Sig2 and LamRet2 describe a second lambda (loops: step and stop).
	Sig2    lamSig
	LamRet2 valType
	Ret     valType
	Fam     family
	// Cost is the operator's own size: 1, or 2 for operators seldom a step
	// towards something else.
	Cost int
	// Lazy operators (conditionals) receive failed arguments; the others
	// fail when any argument failed.
	Lazy bool
	// Rare scalar operators are seldom a step towards something else: they
	// go last within a size and anchored and keyed lambdas leave them out.
	Rare bool
	// Comprehension operators (map, filter, count of one list) are swept
	// one lambda size ahead of the others.
	Comprehension bool
	// PyBuiltin is the Python builtin (max, min) equal to the operator on
	// its two arguments: a lambda that only applies the operator to its own
	// two variables is written as that name.
	PyBuiltin string
	// Eval computes the value; it returns errV when Python would raise.
	Eval func(l *lambda, a []any) any
	// kern, when set, computes the values on every environment at once
	// from typed columns (kernel.go); the enumerator falls back to Eval
	// without it.
	kern kernel
	// lower, when set, compiles the operator applied to typed kids (each
	// a typedFn) to a typedFn, or returns nil (lambda_typed.go).
	lower func(l *lambda, kids []any) any
	// Py renders the call in Python given the rendered arguments.
	Py func(e *emitter, l *lambda, a []code) code
}

// node is a DSL program: an operator applied to sub-programs, a constant or
// a variable.
type node struct {
	Op   *operator
	Kids []*node
	Lam  *lambda
	// Const is the value of a constant leaf (Op nil, Var < 0).
	Const any
	// Var is the index of a variable leaf (Op nil), -1 otherwise.
	Var  int
	Size int
}

// lambda is an anonymous function argument of a higher-order operator.
type lambda struct {
	Sig  lamSig
	Ret  valType
	Body *node
	// Geo names a fixed function of two points when Sig is sigGeo.
	Geo *geoFunc
	// Next is the operator's second lambda, if it takes two.
	Next *lambda
	Size int
	fn   func(env []any) any
	// typed is the body compiled over typed values (a typedFn of Ret),
	// nil when it has no typed form.
	typed any
}

// call1 calls a one-argument lambda over boxed values. Lambdas are
// shared by the searches running at once, so a call keeps its arguments
// to itself.
func (l *lambda) call1(x any) any {
	return l.fn([]any{x, nil})
}

// call2 calls a two-argument lambda over boxed values.
func (l *lambda) call2(x, y any) any {
	return l.fn([]any{x, y})
}

// newLambda compiles a lambda body.
func newLambda(sig lamSig, ret valType, body *node) *lambda {
	return &lambda{Sig: sig, Ret: ret, Body: body, Size: body.Size, fn: compile(body),
		typed: compileTyped(body, sigArgs[sig])}
}

// compile turns a lambda body into a closure over an environment.
func compile(n *node) func(env []any) any {
	if n.Op == nil {
		if n.Var >= 0 {
			i := n.Var
			return func(env []any) any { return env[i] }
		}
		c := n.Const
		return func([]any) any { return c }
	}
	kids := make([]func([]any) any, len(n.Kids))
	for i, k := range n.Kids {
		kids[i] = compile(k)
	}
	op, lam := n.Op, n.Lam
	return func(env []any) any {
		// Arguments of each call of their own: a compiled lambda may be
		// called by several searches at once.
		args := make([]any, len(kids))
		for i, k := range kids {
			args[i] = k(env)
			if !op.Lazy && isErr(args[i]) {
				return errV
			}
		}
		return op.Eval(lam, args)
	}
}

// evalNode evaluates a program on one environment (the input variables).
func evalNode(n *node, env []any) any {
	if n.Op == nil {
		if n.Var >= 0 {
			return env[n.Var]
		}
		return n.Const
	}
	args := make([]any, len(n.Kids))
	for i, k := range n.Kids {
		args[i] = evalNode(k, env)
		if !n.Op.Lazy && isErr(args[i]) {
			return errV
		}
	}
	return n.Op.Eval(n.Lam, args)
}

// String renders a program in a compact prefix form (for notes and tests).
func (n *node) String() string {
	var sb strings.Builder
	n.write(&sb, nil)
	return sb.String()
}

func (n *node) write(sb *strings.Builder, names []string) {
	switch {
	case n.Op == nil && n.Var >= 0:
		if n.Var < len(names) {
			sb.WriteString(names[n.Var])
		} else {
			sb.WriteString("v" + strconv.Itoa(n.Var))
		}
	case n.Op == nil:
		sb.WriteString(string(toJSON(n.Const)))
	default:
		sb.WriteString(n.Op.Name)
		sb.WriteByte('(')
		first := true
		if n.Lam != nil {
			sb.WriteString(n.Lam.String())
			first = false
		}
		for _, k := range n.Kids {
			if !first {
				sb.WriteString(", ")
			}
			first = false
			k.write(sb, names)
		}
		sb.WriteByte(')')
	}
}

// String renders a lambda as "λx.body".
func (l *lambda) String() string {
	if l.Geo != nil {
		return l.Geo.name
	}
	var sb strings.Builder
	names := []string{"x", "y"}
	if len(sigArgs[l.Sig]) == 1 {
		sb.WriteString("λx.")
	} else {
		sb.WriteString("λxy.")
	}
	l.Body.write(&sb, names)
	return sb.String()
}

// families returns the families a program uses.
func (n *node) families(seen map[family]bool) {
	if n.Op == nil {
		if n.Var < 0 {
			seen[famConst] = true
		}
		return
	}
	seen[n.Op.Fam] = true
	if n.Lam != nil && n.Lam.Body != nil {
		n.Lam.Body.families(seen)
	}
	for _, k := range n.Kids {
		k.families(seen)
	}
}

// evalSafe evaluates a program, an operator panicking counting as failing.
func evalSafe(n *node, env []any) (v any) {
	defer func() {
		if recover() != nil {
			v = errV
		}
	}()
	return evalNode(n, env)
}

// bracketPairs are the pairs a scan may count, opening then closing.
var bracketPairs = []string{"()", "[]", "{}", "<>"}
