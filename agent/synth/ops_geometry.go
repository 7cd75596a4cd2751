package synth

import "math"

// Geometry: fixed functions of two points, and operators over paths,
// polygons and point sets.

// geoFunc is a fixed function of two points, used by the window operators
// over paths and polygons (a lambda of signature sigGeo). It is typed by
// its result: ints is set when ret is int, floats when it is float.
type geoFunc struct {
	name   string
	ret    valType
	ints   func(p, q pair) int64
	floats func(p, q pair) float64
	py     func(e *emitter, p, q code) code
}

func sub0(p, q code) code { return binop(atom(q.s+"[0]"), "-", atom(p.s+"[0]"), pAdd) }
func sub1(p, q code) code { return binop(atom(q.s+"[1]"), "-", atom(p.s+"[1]"), pAdd) }

var geoFuncs = []*geoFunc{
	{name: "dist", ret: tFloat, floats: func(p, q pair) float64 {
		return math.Hypot(float64(q[0]-p[0]), float64(q[1]-p[1]))
	}, py: func(e *emitter, p, q code) code { e.use("math"); return call("math.dist", p, q) }},
	{name: "manhattan", ret: tInt, ints: func(p, q pair) int64 {
		return absI(q[0]-p[0]) + absI(q[1]-p[1])
	}, py: func(e *emitter, p, q code) code {
		return binop(call("abs", sub0(p, q)), "+", call("abs", sub1(p, q)), pAdd)
	}},
	{name: "sqdist", ret: tInt, ints: func(p, q pair) int64 {
		dx, dy := q[0]-p[0], q[1]-p[1]
		return dx*dx + dy*dy
	}, py: func(e *emitter, p, q code) code {
		return binop(code{sub0(p, q).at(pAtom) + " ** 2", pPow}, "+", code{sub1(p, q).at(pAtom) + " ** 2", pPow}, pAdd)
	}},
	{name: "chebyshev", ret: tInt, ints: func(p, q pair) int64 {
		return max(absI(q[0]-p[0]), absI(q[1]-p[1]))
	}, py: func(e *emitter, p, q code) code {
		return call("max", call("abs", sub0(p, q)), call("abs", sub1(p, q)))
	}},
	{name: "cross", ret: tInt, ints: func(p, q pair) int64 {
		return p[0]*q[1] - p[1]*q[0]
	}, py: func(e *emitter, p, q code) code {
		return binop(binop(atom(p.s+"[0]"), "*", atom(q.s+"[1]"), pMul), "-", binop(atom(p.s+"[1]"), "*", atom(q.s+"[0]"), pMul), pAdd)
	}},
	{name: "dot", ret: tInt, ints: func(p, q pair) int64 {
		return p[0]*q[0] + p[1]*q[1]
	}, py: func(e *emitter, p, q code) code {
		return binop(binop(atom(p.s+"[0]"), "*", atom(q.s+"[0]"), pMul), "+", binop(atom(p.s+"[1]"), "*", atom(q.s+"[1]"), pMul), pAdd)
	}},
	// gcd is the number of lattice steps between two points: the segment
	// holds gcd + 1 integer points.
	{name: "gcd", ret: tInt, ints: func(p, q pair) int64 { return gcdI(q[0]-p[0], q[1]-p[1]) },
		py: func(e *emitter, p, q code) code { e.use("math"); return call("math.gcd", sub0(p, q), sub1(p, q)) }},
	{name: "dx", ret: tInt, ints: func(p, q pair) int64 { return q[0] - p[0] },
		py: func(e *emitter, p, q code) code { return sub0(p, q) }},
	{name: "dy", ret: tInt, ints: func(p, q pair) int64 { return q[1] - p[1] },
		py: func(e *emitter, p, q code) code { return sub1(p, q) }},
}

// geoLambdas wraps the fixed functions as lambdas, by result type.
func geoLambdas(ret valType) []*lambda {
	var out []*lambda
	for _, g := range geoFuncs {
		if g.ret == ret {
			out = append(out, &lambda{Sig: sigGeo, Ret: ret, Geo: g, Size: 1})
		}
	}
	return out
}

// geoWindows applies f, a geoFunc's ints or floats, to consecutive
// points (round the polygon when cyclic). f is nil only for a geoFunc of
// the other result type, which fails as soon as it is called.
func geoWindows[B int64 | float64](ps []pair, f func(p, q pair) B, cyclic bool) ([]B, bool) {
	n := len(ps) - 1
	if cyclic {
		n = len(ps)
	}
	if n < 0 {
		n = 0
	}
	if n > 0 && f == nil {
		return nil, false
	}
	out := make([]B, n)
	for i := 0; i < n; i++ {
		out[i] = f(ps[i], ps[(i+1)%len(ps)])
	}
	return out, true
}

// geoAllPairs applies f, a geoFunc's ints or floats, to every pair of
// points (nil f as in geoWindows).
func geoAllPairs[B int64 | float64](ps []pair, f func(p, q pair) B) ([]B, bool) {
	if len(ps) > 200 {
		return nil, false
	}
	if len(ps) > 1 && f == nil {
		return nil, false
	}
	out := make([]B, 0, len(ps)*(len(ps)-1)/2)
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			out = append(out, f(ps[i], ps[j]))
		}
	}
	return out, true
}

// pointWindowOps apply a fixed function of two points to consecutive points
// (of a path), to consecutive points round a polygon, and to all pairs.
func pointWindowOps() []*operator {
	I, F := tInt, tFloat
	return []*operator{
		opL1("adjacent", famScan, sigGeo, I, func(ar *arena, l *lambda, ps []pair) ([]int64, bool) { return geoWindows(ps, l.Geo.ints, false) },
			func(e *emitter, l *lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
			}),
		opL1("adjacent", famScan, sigGeo, F, func(ar *arena, l *lambda, ps []pair) ([]float64, bool) { return geoWindows(ps, l.Geo.floats, false) },
			func(e *emitter, l *lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:])")
			}),
		opL1("cyclic", famScan, sigGeo, I, func(ar *arena, l *lambda, ps []pair) ([]int64, bool) { return geoWindows(ps, l.Geo.ints, true) },
			func(e *emitter, l *lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:] + "+a[0].at(pAtom)+"[:1])")
			}),
		opL1("cyclic", famScan, sigGeo, F, func(ar *arena, l *lambda, ps []pair) ([]float64, bool) { return geoWindows(ps, l.Geo.floats, true) },
			func(e *emitter, l *lambda, a []code) code {
				return comp(e.lam(l, atom("p"), atom("q")), "p, q", "zip("+a[0].s+", "+a[0].at(pAtom)+"[1:] + "+a[0].at(pAtom)+"[:1])")
			}),
		opL1("all_pairs", famScan, sigGeo, I, func(ar *arena, l *lambda, ps []pair) ([]int64, bool) { return geoAllPairs(ps, l.Geo.ints) },
			func(e *emitter, l *lambda, a []code) code {
				v := a[0].s
				return atom("[" + e.lam(l, atom(v+"[i]"), atom(v+"[j]")).s + " for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + "))]")
			}),
		opL1("all_pairs", famScan, sigGeo, F, func(ar *arena, l *lambda, ps []pair) ([]float64, bool) { return geoAllPairs(ps, l.Geo.floats) },
			func(e *emitter, l *lambda, a []code) code {
				v := a[0].s
				return atom("[" + e.lam(l, atom(v+"[i]"), atom(v+"[j]")).s + " for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + "))]")
			}),
	}
}

// pointLibraryOps are geometric library functions: twice the areas of all
// triangles, the convex hull, points relative to the first.
func pointLibraryOps() []*operator {
	return []*operator{
		op1("triangle_areas2", famScan, func(ps []pair) ([]int64, bool) {
			n := int64(len(ps))
			if n*(n-1)*(n-2)/6 > maxLen {
				return nil, false
			}
			out := []int64{}
			for i := range ps {
				for j := i + 1; j < len(ps); j++ {
					for k := j + 1; k < len(ps); k++ {
						c, good := cross3(ps[i], ps[j], ps[k])
						if !good || c == math.MinInt64 {
							return nil, false
						}
						out = append(out, absI(c))
					}
				}
			}
			return out, true
		}, func(e *emitter, a []code) code {
			e.use("itertools")
			return atom("[abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) for a, b, c in itertools.combinations(" + a[0].s + ", 3)]")
		}),
		op1("convex_hull", famScan, convexHull,
			func(e *emitter, a []code) code {
				e.helper("convex_hull", pyConvexHull)
				return call("convex_hull", a[0])
			}),
		op1("from_first", famList, func(ps []pair) ([]pair, bool) {
			out := make([]pair, len(ps))
			for i, p := range ps {
				dx, good := subI(p[0], ps[0][0])
				dy, good2 := subI(p[1], ps[0][1])
				if !good || !good2 {
					return nil, false
				}
				out[i] = pair{dx, dy}
			}
			return out, true
		}, pyOnly(func(a []code) code {
			v := a[0].at(pAtom)
			return atom("[[x - " + v + "[0][0], y - " + v + "[0][1]] for x, y in " + a[0].s + "]")
		})),
	}
}

// pointNamedOps are the bounding box and the centroid of points.
func pointNamedOps() []*operator {
	return []*operator{
		op1("bounding_box", famList, func(ps []pair) ([]int64, bool) {
			if len(ps) == 0 {
				return nil, false
			}
			b := []int64{ps[0][0], ps[0][1], ps[0][0], ps[0][1]}
			for _, p := range ps {
				b[0], b[1], b[2], b[3] = min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[0]), max(b[3], p[1])
			}
			return b, true
		}, pyOnly(func(a []code) code {
			v := a[0].s
			return atom("[min(x for x, _ in " + v + "), min(y for _, y in " + v + "), max(x for x, _ in " + v + "), max(y for _, y in " + v + ")]")
		})),
		op1("centroid", famList, func(ps []pair) ([]float64, bool) {
			if len(ps) == 0 {
				return nil, false
			}
			var sx, sy int64
			for _, p := range ps {
				sx += p[0]
				sy += p[1]
			}
			return []float64{float64(sx) / float64(len(ps)), float64(sy) / float64(len(ps))}, true
		}, pyOnly(func(a []code) code {
			v := a[0].s
			return atom("[sum(x for x, _ in " + v + ") / len(" + v + "), sum(y for _, y in " + v + ") / len(" + v + ")]")
		})),
	}
}

// cross3 is the z component of (b - a) x (c - a), positive for a left
// turn a -> b -> c; it fails on overflow.
func cross3(a, b, c pair) (int64, bool) {
	var d [4]int64
	var good [4]bool
	d[0], good[0] = subI(b[0], a[0])
	d[1], good[1] = subI(c[1], a[1])
	d[2], good[2] = subI(b[1], a[1])
	d[3], good[3] = subI(c[0], a[0])
	if !good[0] || !good[1] || !good[2] || !good[3] {
		return 0, false
	}
	x, g1 := mulI(d[0], d[1])
	y, g2 := mulI(d[2], d[3])
	if !g1 || !g2 {
		return 0, false
	}
	return subI(x, y)
}

// convexHull is Andrew's monotone chain: the hull of the distinct points
// counter-clockwise from the smallest, without collinear points; fewer
// than three distinct points come back sorted.
func convexHull(pts []pair) ([]pair, bool) {
	ps := pointSet(pts)
	if len(ps) < 3 {
		if ps == nil {
			ps = []pair{}
		}
		return ps, true
	}
	half := func(order []pair) ([]pair, bool) {
		var chain []pair
		for _, p := range order {
			for len(chain) >= 2 {
				c, good := cross3(chain[len(chain)-2], chain[len(chain)-1], p)
				if !good {
					return nil, false
				}
				if c > 0 {
					break
				}
				chain = chain[:len(chain)-1]
			}
			chain = append(chain, p)
		}
		return chain, true
	}
	lower, good := half(ps)
	if !good {
		return nil, false
	}
	upper, good := half(reversed(nil, ps))
	if !good {
		return nil, false
	}
	return append(lower[:len(lower)-1:len(lower)-1], upper[:len(upper)-1]...), true
}

const pyConvexHull = `
def convex_hull(pts):
    ps = sorted(set(map(tuple, pts)))
    if len(ps) < 3:
        return [list(p) for p in ps]

    def chain(points):
        out = []
        for p in points:
            while len(out) >= 2 and (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0]) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(ps), chain(reversed(ps))
    return [list(p) for p in lower[:-1] + upper[:-1]]
`
