package dsl

// Typed lambdas. A lambda body is compiled twice: over boxed values
// (compile, for Eval and the strategies), and, when every operator in it
// has a typed lowering, over typed values: a typedFn of the body's type
// reading its arguments from a lamEnv. Operators with a typed function
// (kernel.go) call a lambda through lam1 and lam2, which take the typed
// path when the lambda has one and the arguments are of its signature's
// types; neither its arguments nor its results are boxed.

// lamEnv holds a typed lambda's arguments by type.
type lamEnv struct {
	i [2]int64
	f [2]float64
	s [2]string
}

// typedFn is a lambda body compiled over typed values.
type typedFn[T any] func(env *lamEnv) (T, bool)

// compileTyped compiles a lambda body of a signature whose arguments have
// the types args to a typedFn of the body's type (as any); nil when an
// operator in it has no typed lowering.
func compileTyped(n *Node, args []Type) any {
	if n.Op == nil {
		if n.Var >= 0 {
			if n.Var >= len(args) {
				return nil
			}
			return varFn(args[n.Var], n.Var)
		}
		return constFn(n.Const)
	}
	if n.Op.lower == nil {
		return nil
	}
	kids := make([]any, len(n.Kids))
	for i, k := range n.Kids {
		if kids[i] = compileTyped(k, args); kids[i] == nil {
			return nil
		}
	}
	return n.Op.lower(n.Lam, kids)
}

// varFn reads argument i of type t.
func varFn(t Type, i int) any {
	switch t {
	case Int:
		return typedFn[int64](func(env *lamEnv) (int64, bool) { return env.i[i], true })
	case Float:
		return typedFn[float64](func(env *lamEnv) (float64, bool) { return env.f[i], true })
	case Str:
		return typedFn[string](func(env *lamEnv) (string, bool) { return env.s[i], true })
	}
	return nil
}

// constFn is a constant.
func constFn(c any) any {
	switch v := c.(type) {
	case int64:
		return typedFn[int64](func(*lamEnv) (int64, bool) { return v, true })
	case float64:
		return typedFn[float64](func(*lamEnv) (float64, bool) { return v, true })
	case string:
		return typedFn[string](func(*lamEnv) (string, bool) { return v, true })
	case bool:
		return typedFn[bool](func(*lamEnv) (bool, bool) { return v, true })
	}
	return nil
}

// setArg stores argument k of a typed lambda whose signature wants type
// want there; false when x is of another type (the boxed path then
// decides, as it did before there was a typed one).
func setArg[A any](env *lamEnv, k int, want Type, x A) bool {
	switch p := any(&x).(type) {
	case *int64:
		env.i[k] = *p
		return want == Int
	case *float64:
		env.f[k] = *p
		return want == Float
	case *string:
		env.s[k] = *p
		return want == Str
	}
	return false
}

// lower1 is the typed lowering of an operator of one argument.
func lower1[A, R any](f func(ar *Arena, l *Lambda, x A) (R, bool)) func(l *Lambda, kids []any) any {
	return func(l *Lambda, kids []any) any {
		ka, good := kids[0].(typedFn[A])
		if !good {
			return nil
		}
		return typedFn[R](func(env *lamEnv) (R, bool) {
			x, good := ka(env)
			if !good {
				var zero R
				return zero, false
			}
			return f(nil, l, x)
		})
	}
}

// lower2 is the typed lowering of an operator of two arguments.
func lower2[A, B, R any](f func(ar *Arena, l *Lambda, x A, y B) (R, bool)) func(l *Lambda, kids []any) any {
	return func(l *Lambda, kids []any) any {
		ka, good1 := kids[0].(typedFn[A])
		kb, good2 := kids[1].(typedFn[B])
		if !good1 || !good2 {
			return nil
		}
		return typedFn[R](func(env *lamEnv) (R, bool) {
			var zero R
			x, good := ka(env)
			if !good {
				return zero, false
			}
			y, good := kb(env)
			if !good {
				return zero, false
			}
			return f(nil, l, x, y)
		})
	}
}

// lower3 is the typed lowering of an operator of three arguments.
func lower3[A, B, C, R any](f func(ar *Arena, l *Lambda, x A, y B, z C) (R, bool)) func(l *Lambda, kids []any) any {
	return func(l *Lambda, kids []any) any {
		ka, good1 := kids[0].(typedFn[A])
		kb, good2 := kids[1].(typedFn[B])
		kc, good3 := kids[2].(typedFn[C])
		if !good1 || !good2 || !good3 {
			return nil
		}
		return typedFn[R](func(env *lamEnv) (R, bool) {
			var zero R
			x, good := ka(env)
			if !good {
				return zero, false
			}
			y, good := kb(env)
			if !good {
				return zero, false
			}
			z, good := kc(env)
			if !good {
				return zero, false
			}
			return f(nil, l, x, y, z)
		})
	}
}

// lowerCond is the typed lowering of "t if c else e": lazy, it fails only
// where the branch it takes fails. Both branches are evaluated, as the
// boxed evaluation does.
func lowerCond[T any](_ *Lambda, kids []any) any {
	kc, good1 := kids[0].(typedFn[bool])
	kt, good2 := kids[1].(typedFn[T])
	ke, good3 := kids[2].(typedFn[T])
	if !good1 || !good2 || !good3 {
		return nil
	}
	return typedFn[T](func(env *lamEnv) (T, bool) {
		c, goodC := kc(env)
		t, goodT := kt(env)
		e, goodE := ke(env)
		var zero T
		switch {
		case !goodC:
			return zero, false
		case c:
			return t, goodT
		}
		return e, goodE
	})
}
