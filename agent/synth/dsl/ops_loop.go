package dsl

// Loops: recurrences, repeated application, iteration until a test holds,
// and the orbit of a step.

// OpRecurrence is recurrence(n, a, b, step): the pair (a, b) stepped n
// times to (b, step(a, b)), a Fibonacci-like recurrence.
var OpRecurrence = opL3("recurrence", FamLoop, SigII, Int, func(ar *Arena, l *Lambda, n, x, y int64) (int64, bool) {
	if n > maxSteps {
		return 0, false
	}
	for i := int64(0); i < n; i++ {
		v, good := Lam2[int64, int64, int64](ar, l, x, y)
		if !good {
			return 0, false
		}
		x, y = y, v
	}
	return x, true
}, func(e *Emitter, l *Lambda, a []Code) Code {
	e.helper("recurrence", pyRecurrence)
	return Atom("recurrence(" + a[0].S + ", " + a[1].S + ", " + a[2].S + ", " + e.fn(l, "a", "b") + ")")
})

// OpApplyTimes is apply_times(x, n, step): step applied n times to x.
var OpApplyTimes = opL2("apply_times", FamLoop, SigI, Int, func(ar *Arena, l *Lambda, x, n int64) (int64, bool) {
	if n > maxSteps {
		return 0, false
	}
	for i := int64(0); i < n; i++ {
		var good bool
		if x, good = Lam1[int64, int64](ar, l, x); !good {
			return 0, false
		}
	}
	return x, true
}, func(e *Emitter, l *Lambda, a []Code) Code {
	e.helper("apply_times", pyApplyTimes)
	return Atom("apply_times(" + a[0].S + ", " + a[1].S + ", " + e.fn(l, "x") + ")")
})

// loopOps are the loop operators: the loop sweep tries OpRecurrence and
// OpApplyTimes over an integer input; steps_until and iterate_until take
// a step and a stopping test (the second lambda, l.Next).
func loopOps() []*Operator {
	I, B := Int, Bool
	return []*Operator{
		OpRecurrence,
		OpApplyTimes,
		thenL(SigI, B, opL1("steps_until", FamLoop, SigI, I, func(ar *Arena, l *Lambda, x int64) (int64, bool) {
			_, steps, good := iterateUntil(ar, l, l.Next, x)
			return steps, good
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			e.helper("steps_until", pyStepsUntil)
			return Atom("steps_until(" + a[0].S + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		})),
		thenL(SigI, B, opL1("iterate_until", FamLoop, SigI, I, func(ar *Arena, l *Lambda, x int64) (int64, bool) {
			x, _, good := iterateUntil(ar, l, l.Next, x)
			return x, good
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			e.helper("iterate_until", pyIterateUntil)
			return Atom("iterate_until(" + a[0].S + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		})),
	}
}

// orbitOps list the orbit of a step (a loop whose result is a list).
func orbitOps() []*Operator {
	return []*Operator{
		// orbit is the sequence step(x), step(step(x)), ... up to the
		// first zero: the quotients n // 5, n // 25... of a count of
		// factors, the shrinking remainders of a digit loop. Orbits longer
		// than maxOrbit, or stuck at a fixed point, are errors.
		opL1("orbit", FamList, SigI, Int, func(ar *Arena, l *Lambda, x int64) ([]int64, bool) {
			// The orbit is collected on the stack and copied to the arena.
			var buf [maxOrbit]int64
			out := buf[:0]
			for range maxOrbit {
				v, good := Lam1[int64, int64](ar, l, x)
				switch {
				case !good:
					return nil, false
				case v == 0:
					return append(allocCap[int64](ar, len(out)), out...), true
				case v == x:
					return nil, false
				}
				out, x = append(out, v), v
			}
			return nil, false
		}, func(e *Emitter, l *Lambda, a []Code) Code {
			e.helper("orbit", pyOrbit)
			return Atom("orbit(" + a[0].S + ", " + e.fn(l, "x") + ")")
		}),
	}
}

// iterateUntil applies step until done holds, returning the final value,
// the number of steps, and whether it stopped within maxSteps steps with
// both lambdas good.
//
// A value coming back (Brent's cycle detection: x is compared with the
// value saved at the last power of two of steps) means a loop that never
// ends: step and done are functions of x alone, and done was false on
// every value of the cycle. It fails at once instead of after maxSteps
// steps, with the result it would have had then (in BenchmarkEnumerate
// these loops were a tenth of the kernels' time, in a thousandth of the
// programs).
func iterateUntil(ar *Arena, step, done *Lambda, x int64) (int64, int64, bool) {
	saved, power := x, int64(1)
	for steps := int64(0); steps <= maxSteps; steps++ {
		b, good := Lam1[int64, bool](ar, done, x)
		if !good {
			return 0, 0, false
		}
		if b {
			return x, steps, true
		}
		if x, good = Lam1[int64, int64](ar, step, x); !good || x == saved {
			return 0, 0, false
		}
		if steps+1 == power {
			saved, power = x, 2*power
		}
	}
	return 0, 0, false
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
