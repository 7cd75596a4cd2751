package dsl

// OrDefaultOp is "a, or d where a raises" for values of type t: a
// function that answers a fixed value (-1, 0, "") where its computation
// has nothing to work on (the largest of no numbers, the index of no
// word). A failure in Go stands for the Python exceptions the emitted
// helper catches, as for or_none.
func OrDefaultOp(t Type) *Operator {
	return &Operator{Name: "or_default", Fam: famCond, Args: Types(t, t), Ret: t, Cost: 1, Lazy: true,
		Eval: func(_ *Lambda, a []any) any {
			if IsErr(a[0]) {
				return a[1]
			}
			return a[0]
		},
		Py: func(e *Emitter, _ *Lambda, a []Code) Code {
			e.helper("or_default", pyOrDefault)
			return Atom("or_default(lambda: " + a[0].At(PTern) + ", " + a[1].At(pLambda+1) + ")")
		}}
}

// pyOrDefault gives the default where the computation raises.
const pyOrDefault = `def or_default(part, default):
    try:
        return part()
    except (ArithmeticError, LookupError, ValueError):
        return default`
