package synth

// Loops: recurrences, repeated application, iteration until a test holds,
// and the orbit of a step.

// opRecurrence is recurrence(n, a, b, step): the pair (a, b) stepped n
// times to (b, step(a, b)), a Fibonacci-like recurrence.
var opRecurrence = opL3("recurrence", famLoop, sigII, tInt, func(ar *arena, l *lambda, n, x, y int64) (int64, bool) {
	if n > maxSteps {
		return 0, false
	}
	for i := int64(0); i < n; i++ {
		v, good := lam2[int64, int64, int64](ar, l, x, y)
		if !good {
			return 0, false
		}
		x, y = y, v
	}
	return x, true
}, func(e *emitter, l *lambda, a []code) code {
	e.helper("recurrence", pyRecurrence)
	return atom("recurrence(" + a[0].s + ", " + a[1].s + ", " + a[2].s + ", " + e.fn(l, "a", "b") + ")")
})

// opApplyTimes is apply_times(x, n, step): step applied n times to x.
var opApplyTimes = opL2("apply_times", famLoop, sigI, tInt, func(ar *arena, l *lambda, x, n int64) (int64, bool) {
	if n > maxSteps {
		return 0, false
	}
	for i := int64(0); i < n; i++ {
		var good bool
		if x, good = lam1[int64, int64](ar, l, x); !good {
			return 0, false
		}
	}
	return x, true
}, func(e *emitter, l *lambda, a []code) code {
	e.helper("apply_times", pyApplyTimes)
	return atom("apply_times(" + a[0].s + ", " + a[1].s + ", " + e.fn(l, "x") + ")")
})

// loopOps are the loop operators: the loop sweep tries opRecurrence and
// opApplyTimes over an integer input; steps_until and iterate_until take
// a step and a stopping test (the second lambda, l.Next).
func loopOps() []*operator {
	I, B := tInt, tBool
	return []*operator{
		opRecurrence,
		opApplyTimes,
		thenL(sigI, B, opL1("steps_until", famLoop, sigI, I, func(ar *arena, l *lambda, x int64) (int64, bool) {
			_, steps, good := iterateUntil(ar, l, l.Next, x)
			return steps, good
		}, func(e *emitter, l *lambda, a []code) code {
			e.helper("steps_until", pyStepsUntil)
			return atom("steps_until(" + a[0].s + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		})),
		thenL(sigI, B, opL1("iterate_until", famLoop, sigI, I, func(ar *arena, l *lambda, x int64) (int64, bool) {
			x, _, good := iterateUntil(ar, l, l.Next, x)
			return x, good
		}, func(e *emitter, l *lambda, a []code) code {
			e.helper("iterate_until", pyIterateUntil)
			return atom("iterate_until(" + a[0].s + ", " + e.fn(l, "x") + ", " + e.fn(l.Next, "x") + ")")
		})),
	}
}

// orbitOps list the orbit of a step (a loop whose result is a list).
func orbitOps() []*operator {
	return []*operator{
		// orbit is the sequence step(x), step(step(x)), ... up to the
		// first zero: the quotients n // 5, n // 25... of a count of
		// factors, the shrinking remainders of a digit loop. Orbits longer
		// than maxOrbit, or stuck at a fixed point, are errors.
		opL1("orbit", famList, sigI, tInt, func(ar *arena, l *lambda, x int64) ([]int64, bool) {
			// The orbit is collected on the stack and copied to the arena.
			var buf [maxOrbit]int64
			out := buf[:0]
			for range maxOrbit {
				v, good := lam1[int64, int64](ar, l, x)
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
		}, func(e *emitter, l *lambda, a []code) code {
			e.helper("orbit", pyOrbit)
			return atom("orbit(" + a[0].s + ", " + e.fn(l, "x") + ")")
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
func iterateUntil(ar *arena, step, done *lambda, x int64) (int64, int64, bool) {
	saved, power := x, int64(1)
	for steps := int64(0); steps <= maxSteps; steps++ {
		b, good := lam1[int64, bool](ar, done, x)
		if !good {
			return 0, 0, false
		}
		if b {
			return x, steps, true
		}
		if x, good = lam1[int64, int64](ar, step, x); !good || x == saved {
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
