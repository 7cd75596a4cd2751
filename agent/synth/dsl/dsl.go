package dsl

import (
	"strconv"
	"strings"
)

// Family groups operators for the search order and for the notes.
type Family uint8

// Operator families, simplest first: within one size, whole programs try
// them in this order (loops right after the scalars), and the notes name
// the families a program uses.
const (
	FamConst Family = iota
	FamScalar
	famCond
	FamList
	FamScan
	FamLoop
	NumFamilies
)

var familyNames = [NumFamilies]string{"constants", "scalar", "conditionals", "lists (map/filter/zip/index)", "windows and scans", "loops and recursion"}

// String names the family in the notes.
func (f Family) String() string { return familyNames[f] }

// Sig is the argument signature of a lambda: which variables it binds.
type Sig uint8

// Lambda signatures. SigGeo lambdas are a fixed bank of functions of two
// points, not enumerated.
const (
	SigNone Sig = iota
	SigI        // x: int
	SigII       // x, y: int
	SigF        // x: float
	SigFF       // x, y: float
	SigS        // x: str
	SigGeo      // p, q: point
	NumSigs
)

// SigArgs are the argument types of each lambda signature.
var SigArgs = [NumSigs][]Type{nil, {Int}, {Int, Int}, {Float}, {Float, Float}, {Str}, nil}

// Operator is one operator of the DSL: its typed signature, its Go evaluation
// with Python's semantics and its Python translation.
type Operator struct {
	Name string
	Args []Type
	// Sig and LamRet describe the operator's lambda argument, if any.
	Sig    Sig
	LamRet Type
	// Sig2 and LamRet2 describe a second lambda (loops: step and stop).
	Sig2    Sig
	LamRet2 Type
	Ret     Type
	Fam     Family
	// Cost is the operator's own size: 1, or 2 for operators seldom a step
	// towards something else.
	Cost int
	// Lazy operators (conditionals) receive failed arguments; the others
	// fail when any argument failed.
	Lazy bool
	// HeapRows says the lists the operator returns are made on the heap,
	// not in the arena its kernel is given (op1, op2, op3): a stored
	// program's lists are then charged to the search's memory one by one
	// (HeapBytes).
	HeapRows bool
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
	// Eval computes the value; it returns ErrV when Python would raise.
	Eval func(l *Lambda, a []any) any
	// kern, when set, computes the values on every environment at once
	// from typed columns (kernel.go); the enumerator falls back to Eval
	// without it.
	Kern kernel
	// lower, when set, compiles the operator applied to typed kids (each
	// a typedFn) to a typedFn, or returns nil (lambda_typed.go).
	lower func(l *Lambda, kids []any) any
	// Py renders the call in Python given the rendered arguments.
	Py func(e *Emitter, l *Lambda, a []Code) Code
	// Choice, when set, says the operator names its argument's value by
	// a label (a table, intervals): a choice of programs by that label
	// (ChooseOp) is written with it.
	Choice *Choice
}

// Node is a DSL program: an operator applied to sub-programs, a constant or
// a variable.
type Node struct {
	Op   *Operator
	Kids []*Node
	Lam  *Lambda
	// Const is the value of a constant leaf (Op nil, Var < 0).
	Const any
	// Var is the index of a variable leaf (Op nil), -1 otherwise.
	Var  int
	Size int
}

// Lambda is an anonymous function argument of a higher-order operator.
type Lambda struct {
	Sig  Sig
	Ret  Type
	Body *Node
	// Geo names a fixed function of two points when Sig is SigGeo.
	Geo *geoFunc
	// Next is the operator's second lambda, if it takes two.
	Next *Lambda
	Size int
	fn   func(env []any) any
	// Typed is the body compiled over typed values (a typedFn of Ret),
	// nil when it has no typed form.
	Typed any
}

// Call1 calls a one-argument lambda over boxed values. Lambdas are
// shared by the searches running at once, so a call keeps its arguments
// to itself.
func (l *Lambda) Call1(x any) any {
	return l.fn([]any{x, nil})
}

// Call2 calls a two-argument lambda over boxed values.
func (l *Lambda) Call2(x, y any) any {
	return l.fn([]any{x, y})
}

// NewLambda compiles a lambda body.
func NewLambda(sig Sig, ret Type, body *Node) *Lambda {
	return &Lambda{Sig: sig, Ret: ret, Body: body, Size: body.Size, fn: compile(body),
		Typed: compileTyped(body, SigArgs[sig])}
}

// compile turns a lambda body into a closure over an environment.
func compile(n *Node) func(env []any) any {
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
			if !op.Lazy && IsErr(args[i]) {
				return ErrV
			}
		}
		return op.Eval(lam, args)
	}
}

// EvalNode evaluates a program on one environment (the input variables).
func EvalNode(n *Node, env []any) any {
	if n.Op == nil {
		if n.Var >= 0 {
			return env[n.Var]
		}
		return n.Const
	}
	args := make([]any, len(n.Kids))
	for i, k := range n.Kids {
		args[i] = EvalNode(k, env)
		if !n.Op.Lazy && IsErr(args[i]) {
			return ErrV
		}
	}
	return n.Op.Eval(n.Lam, args)
}

// String renders a program in a compact prefix form (for notes and tests).
// Clone returns a copy of the program n (nil for nil) whose nodes are
// its own: a program kept after its search ended must not keep the
// search's store alive (one node would keep its whole chunk, and the
// chunks of the nodes below it). Lambdas and constants are shared: they
// belong to the lambda banks and the problem.
func (n *Node) Clone() *Node { return n.CloneWith(nil) }

// CloneWith is Clone, a node met twice (in memo, when not nil) copied
// once: the lambdas of a bank share their bodies' smaller parts.
func (n *Node) CloneWith(memo map[*Node]*Node) *Node {
	if n == nil {
		return nil
	}
	if c, ok := memo[n]; ok {
		return c
	}
	c := *n
	if n.Kids != nil {
		c.Kids = make([]*Node, len(n.Kids))
		for i, k := range n.Kids {
			c.Kids[i] = k.CloneWith(memo)
		}
	}
	if memo != nil {
		memo[n] = &c
	}
	return &c
}

func (n *Node) String() string {
	var sb strings.Builder
	n.write(&sb, nil)
	return sb.String()
}

func (n *Node) write(sb *strings.Builder, names []string) {
	switch {
	case n.Op == nil && n.Var >= 0:
		if n.Var < len(names) {
			sb.WriteString(names[n.Var])
		} else {
			sb.WriteString("v" + strconv.Itoa(n.Var))
		}
	case n.Op == nil:
		sb.WriteString(string(ToJSON(n.Const)))
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
func (l *Lambda) String() string {
	if l.Geo != nil {
		return l.Geo.Name
	}
	var sb strings.Builder
	names := []string{"x", "y"}
	if len(SigArgs[l.Sig]) == 1 {
		sb.WriteString("λx.")
	} else {
		sb.WriteString("λxy.")
	}
	l.Body.write(&sb, names)
	return sb.String()
}

// Families returns the families a program uses.
func (n *Node) Families(seen map[Family]bool) {
	if n.Op == nil {
		if n.Var < 0 {
			seen[FamConst] = true
		}
		return
	}
	seen[n.Op.Fam] = true
	if n.Lam != nil && n.Lam.Body != nil {
		n.Lam.Body.Families(seen)
	}
	for _, k := range n.Kids {
		k.Families(seen)
	}
}

// EvalSafe evaluates a program, an operator panicking counting as failing.
func EvalSafe(n *Node, env []any) (v any) {
	defer func() {
		if recover() != nil {
			v = ErrV
		}
	}()
	return EvalNode(n, env)
}

// BracketPairs are the pairs a scan may count, opening then closing.
var BracketPairs = []string{"()", "[]", "{}", "<>"}
