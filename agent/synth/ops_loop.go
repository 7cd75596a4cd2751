package synth

// Loops: recurrences, repeated application, iteration until a test holds,
// and the orbit of a step.

// opRecurrence is recurrence(n, a, b, step): the pair (a, b) stepped n
// times to (b, step(a, b)), a Fibonacci-like recurrence.
var opRecurrence = mkL("recurrence", famLoop, sigII, tInt, ts(tInt, tInt, tInt), tInt, func(l *lambda, a []any) any {
	n := a[0].(int64)
	if n > maxSteps {
		return errV
	}
	x, y := a[1], a[2]
	for i := int64(0); i < n; i++ {
		x, y = y, l.call2(x, y)
		if _, good := y.(int64); !good {
			return errV
		}
	}
	return x
}, func(e *emitter, l *lambda, a []code) code {
	e.helper("recurrence", pyRecurrence)
	return atom("recurrence(" + a[0].s + ", " + a[1].s + ", " + a[2].s + ", " + e.fn(l, "a", "b") + ")")
})

// opApplyTimes is apply_times(x, n, step): step applied n times to x.
var opApplyTimes = mkL("apply_times", famLoop, sigI, tInt, ts(tInt, tInt), tInt, func(l *lambda, a []any) any {
	x, n := a[0], a[1].(int64)
	if n > maxSteps {
		return errV
	}
	for i := int64(0); i < n; i++ {
		x = l.call1(x)
		if _, good := x.(int64); !good {
			return errV
		}
	}
	return x
}, func(e *emitter, l *lambda, a []code) code {
	e.helper("apply_times", pyApplyTimes)
	return atom("apply_times(" + a[0].s + ", " + a[1].s + ", " + e.fn(l, "x") + ")")
})

// loopOps are the loop operators: the loop sweep tries opRecurrence and
// opApplyTimes over an integer input; steps_until and iterate_until take
// a step and a stopping test.
func loopOps() []*operator {
	I, B := tInt, tBool
	return []*operator{
		opRecurrence,
		opApplyTimes,
		{Name: "steps_until", Fam: famLoop, Sig: sigI, LamRet: I, Sig2: sigI, LamRet2: B, Args: ts(I), Ret: I, Cost: 1, Eval: func(l *lambda, a []any) any {
			x, _, steps := iterateUntil(l, l.Next, a[0])
			if isErr(x) {
				return errV
			}
			return steps
		}, Py: func(e *emitter, l *lambda, a []code) code {
			e.helper("steps_until", pyStepsUntil)
			return atom("steps_until(" + a[0].s + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		}},
		{Name: "iterate_until", Fam: famLoop, Sig: sigI, LamRet: I, Sig2: sigI, LamRet2: B, Args: ts(I), Ret: I, Cost: 1, Eval: func(l *lambda, a []any) any {
			x, _, _ := iterateUntil(l, l.Next, a[0])
			return x
		}, Py: func(e *emitter, l *lambda, a []code) code {
			e.helper("iterate_until", pyIterateUntil)
			return atom("iterate_until(" + a[0].s + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		}},
	}
}

// orbitOps list the orbit of a step (a loop whose result is a list).
func orbitOps() []*operator {
	I, LI := tInt, tListInt
	return []*operator{
		// orbit is the sequence step(x), step(step(x)), ... up to the
		// first zero: the quotients n // 5, n // 25... of a count of
		// factors, the shrinking remainders of a digit loop. Orbits longer
		// than maxOrbit, or stuck at a fixed point, are errors.
		mkL("orbit", famList, sigI, I, ts(I), LI, func(l *lambda, a []any) any {
			x, out := a[0], []int64{}
			for range maxOrbit {
				v, good := l.call1(x).(int64)
				switch {
				case !good:
					return errV
				case v == 0:
					return out
				case v == x:
					return errV
				}
				out, x = append(out, v), v
			}
			return errV
		}, func(e *emitter, l *lambda, a []code) code {
			e.helper("orbit", pyOrbit)
			return atom("orbit(" + a[0].s + ", " + e.fn(l, "x") + ")")
		}),
	}
}

// iterateUntil applies step until done holds, returning the final value,
// whether it stopped, and the number of steps.
func iterateUntil(step, done *lambda, x any) (any, bool, int64) {
	for steps := int64(0); steps <= maxSteps; steps++ {
		b, good := done.call1(x).(bool)
		if !good {
			return errV, false, 0
		}
		if b {
			return x, true, steps
		}
		x = step.call1(x)
		if _, good := x.(int64); !good {
			return errV, false, 0
		}
	}
	return errV, false, 0
}

// maxOrbit bounds the length of an orbit.
const maxOrbit = 64

const pyRecurrence = `
def recurrence(n, a, b, step):
    for _ in range(n):
        a, b = b, step(a, b)
    return a
`

const pyApplyTimes = `
def apply_times(x, n, step):
    for _ in range(n):
        x = step(x)
    return x
`

const pyStepsUntil = `
def steps_until(x, step, done):
    steps = 0
    while not done(x):
        x = step(x)
        steps += 1
    return steps
`

const pyIterateUntil = `
def iterate_until(x, step, done):
    while not done(x):
        x = step(x)
    return x
`

const pyOrbit = `
def orbit(x, step):
    out = []
    for _ in range(64):
        y = step(x)
        if y == 0:
            return out
        if y == x:
            raise ValueError("orbit stuck at %d" % x)
        out.append(y)
        x = y
    raise ValueError("orbit longer than 64")
`
