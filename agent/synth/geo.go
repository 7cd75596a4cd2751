package synth

import "math"

// geoFunc is a fixed function of two points, used by the window operators
// over paths and polygons (a lambda of signature sigGeo).
type geoFunc struct {
	name string
	ret  Type
	f    func(p, q pair) any
	py   func(e *emitter, p, q code) code
}

func sub0(p, q code) code { return binop(atom(q.s+"[0]"), "-", atom(p.s+"[0]"), pAdd) }
func sub1(p, q code) code { return binop(atom(q.s+"[1]"), "-", atom(p.s+"[1]"), pAdd) }

var geoFuncs = []*geoFunc{
	{name: "dist", ret: TFloat, f: func(p, q pair) any {
		return math.Hypot(float64(q[0]-p[0]), float64(q[1]-p[1]))
	}, py: func(e *emitter, p, q code) code { e.use("math"); return call("math.dist", p, q) }},
	{name: "manhattan", ret: TInt, f: func(p, q pair) any {
		return absI(q[0]-p[0]) + absI(q[1]-p[1])
	}, py: func(e *emitter, p, q code) code {
		return binop(call("abs", sub0(p, q)), "+", call("abs", sub1(p, q)), pAdd)
	}},
	{name: "sqdist", ret: TInt, f: func(p, q pair) any {
		dx, dy := q[0]-p[0], q[1]-p[1]
		return dx*dx + dy*dy
	}, py: func(e *emitter, p, q code) code {
		return binop(code{sub0(p, q).at(pAtom) + " ** 2", pPow}, "+", code{sub1(p, q).at(pAtom) + " ** 2", pPow}, pAdd)
	}},
	{name: "chebyshev", ret: TInt, f: func(p, q pair) any {
		return max(absI(q[0]-p[0]), absI(q[1]-p[1]))
	}, py: func(e *emitter, p, q code) code {
		return call("max", call("abs", sub0(p, q)), call("abs", sub1(p, q)))
	}},
	{name: "cross", ret: TInt, f: func(p, q pair) any {
		return p[0]*q[1] - p[1]*q[0]
	}, py: func(e *emitter, p, q code) code {
		return binop(binop(atom(p.s+"[0]"), "*", atom(q.s+"[1]"), pMul), "-", binop(atom(p.s+"[1]"), "*", atom(q.s+"[0]"), pMul), pAdd)
	}},
	{name: "dot", ret: TInt, f: func(p, q pair) any {
		return p[0]*q[0] + p[1]*q[1]
	}, py: func(e *emitter, p, q code) code {
		return binop(binop(atom(p.s+"[0]"), "*", atom(q.s+"[0]"), pMul), "+", binop(atom(p.s+"[1]"), "*", atom(q.s+"[1]"), pMul), pAdd)
	}},
	// gcd is the number of lattice steps between two points: the segment
	// holds gcd + 1 integer points.
	{name: "gcd", ret: TInt, f: func(p, q pair) any { return gcdI(q[0]-p[0], q[1]-p[1]) },
		py: func(e *emitter, p, q code) code { e.use("math"); return call("math.gcd", sub0(p, q), sub1(p, q)) }},
	{name: "dx", ret: TInt, f: func(p, q pair) any { return q[0] - p[0] },
		py: func(e *emitter, p, q code) code { return sub0(p, q) }},
	{name: "dy", ret: TInt, f: func(p, q pair) any { return q[1] - p[1] },
		py: func(e *emitter, p, q code) code { return sub1(p, q) }},
}

// geoLambdas wraps the fixed functions as lambdas, by result type.
func geoLambdas(ret Type) []*Lambda {
	var out []*Lambda
	for _, g := range geoFuncs {
		if g.ret == ret {
			out = append(out, &Lambda{Sig: sigGeo, Ret: ret, Geo: g, Size: 1})
		}
	}
	return out
}

func geoWindows[B int64 | float64](ps []pair, g *geoFunc, cyclic bool) any {
	n := len(ps) - 1
	if cyclic {
		n = len(ps)
	}
	if n < 0 {
		n = 0
	}
	out := make([]B, n)
	for i := 0; i < n; i++ {
		v, good := g.f(ps[i], ps[(i+1)%len(ps)]).(B)
		if !good {
			return errV
		}
		out[i] = v
	}
	return out
}

func geoAllPairs[B int64 | float64](ps []pair, g *geoFunc) any {
	if len(ps) > 200 {
		return errV
	}
	out := make([]B, 0, len(ps)*(len(ps)-1)/2)
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			v, good := g.f(ps[i], ps[j]).(B)
			if !good {
				return errV
			}
			out = append(out, v)
		}
	}
	return out
}
