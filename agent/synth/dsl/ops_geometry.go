package dsl

import "math"

// Geometry: fixed functions of two points, and operators over paths,
// polygons and point sets.

// geoFunc is a fixed function of two points, used by the window operators
// over paths and polygons (a lambda of signature SigGeo). It is typed by
// its result: ints is set when ret is int, floats when it is float.
type geoFunc struct {
	Name   string
	Ret    Type
	ints   func(p, q Pair) int64
	floats func(p, q Pair) float64
	Py     func(e *Emitter, p, q Code) Code
}

func sub0(p, q Code) Code { return binop(Atom(q.S+"[0]"), "-", Atom(p.S+"[0]"), pAdd) }
func sub1(p, q Code) Code { return binop(Atom(q.S+"[1]"), "-", Atom(p.S+"[1]"), pAdd) }

// GeoFuncs are the fixed functions of two points the geometry lambdas
// apply.
var GeoFuncs = []*geoFunc{
	{Name: "dist", Ret: Float, floats: func(p, q Pair) float64 {
		return math.Hypot(float64(q[0]-p[0]), float64(q[1]-p[1]))
	}, Py: func(e *Emitter, p, q Code) Code { e.use("math"); return Call("math.dist", p, q) }},
	{Name: "manhattan", Ret: Int, ints: func(p, q Pair) int64 {
		return AbsI(q[0]-p[0]) + AbsI(q[1]-p[1])
	}, Py: func(e *Emitter, p, q Code) Code {
		return binop(Call("abs", sub0(p, q)), "+", Call("abs", sub1(p, q)), pAdd)
	}},
	{Name: "sqdist", Ret: Int, ints: func(p, q Pair) int64 {
		dx, dy := q[0]-p[0], q[1]-p[1]
		return dx*dx + dy*dy
	}, Py: func(e *Emitter, p, q Code) Code {
		return binop(Code{sub0(p, q).At(pAtom) + " ** 2", pPow}, "+", Code{sub1(p, q).At(pAtom) + " ** 2", pPow}, pAdd)
	}},
	{Name: "chebyshev", Ret: Int, ints: func(p, q Pair) int64 {
		return max(AbsI(q[0]-p[0]), AbsI(q[1]-p[1]))
	}, Py: func(e *Emitter, p, q Code) Code {
		return Call("max", Call("abs", sub0(p, q)), Call("abs", sub1(p, q)))
	}},
	{Name: "cross", Ret: Int, ints: func(p, q Pair) int64 {
		return p[0]*q[1] - p[1]*q[0]
	}, Py: func(e *Emitter, p, q Code) Code {
		return binop(binop(Atom(p.S+"[0]"), "*", Atom(q.S+"[1]"), pMul), "-", binop(Atom(p.S+"[1]"), "*", Atom(q.S+"[0]"), pMul), pAdd)
	}},
	{Name: "dot", Ret: Int, ints: func(p, q Pair) int64 {
		return p[0]*q[0] + p[1]*q[1]
	}, Py: func(e *Emitter, p, q Code) Code {
		return binop(binop(Atom(p.S+"[0]"), "*", Atom(q.S+"[0]"), pMul), "+", binop(Atom(p.S+"[1]"), "*", Atom(q.S+"[1]"), pMul), pAdd)
	}},
	// gcd is the number of lattice steps between two points: the segment
	// holds gcd + 1 integer points.
	{Name: "gcd", Ret: Int, ints: func(p, q Pair) int64 { return gcdI(q[0]-p[0], q[1]-p[1]) },
		Py: func(e *Emitter, p, q Code) Code { e.use("math"); return Call("math.gcd", sub0(p, q), sub1(p, q)) }},
	{Name: "dx", Ret: Int, ints: func(p, q Pair) int64 { return q[0] - p[0] },
		Py: func(e *Emitter, p, q Code) Code { return sub0(p, q) }},
	{Name: "dy", Ret: Int, ints: func(p, q Pair) int64 { return q[1] - p[1] },
		Py: func(e *Emitter, p, q Code) Code { return sub1(p, q) }},
}

// GeoLambdas wraps the fixed functions as lambdas, by result type.
func GeoLambdas(ret Type) []*Lambda {
	var out []*Lambda
	for _, g := range GeoFuncs {
		if g.Ret == ret {
			out = append(out, &Lambda{Sig: SigGeo, Ret: ret, Geo: g, Size: 1})
		}
	}
	return out
}

// geoWindows applies f, a geoFunc's ints or floats, to consecutive
// points (round the polygon when cyclic). f is nil only for a geoFunc of
// the other result type, which fails as soon as it is called.
func geoWindows[B int64 | float64](ps []Pair, f func(p, q Pair) B, cyclic bool) ([]B, bool) {
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
func geoAllPairs[B int64 | float64](ps []Pair, f func(p, q Pair) B) ([]B, bool) {
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
func pointWindowOps() []*Operator {
	I, F := Int, Float
	return []*Operator{
		opL1("adjacent", FamScan, SigGeo, I, func(ar *Arena, l *Lambda, ps []Pair) ([]int64, bool) { return geoWindows(ps, l.Geo.ints, false) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, Atom("p"), Atom("q")), "p, q", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:])")
			}),
		opL1("adjacent", FamScan, SigGeo, F, func(ar *Arena, l *Lambda, ps []Pair) ([]float64, bool) { return geoWindows(ps, l.Geo.floats, false) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, Atom("p"), Atom("q")), "p, q", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:])")
			}),
		opL1("cyclic", FamScan, SigGeo, I, func(ar *Arena, l *Lambda, ps []Pair) ([]int64, bool) { return geoWindows(ps, l.Geo.ints, true) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, Atom("p"), Atom("q")), "p, q", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:] + "+a[0].At(pAtom)+"[:1])")
			}),
		opL1("cyclic", FamScan, SigGeo, F, func(ar *Arena, l *Lambda, ps []Pair) ([]float64, bool) { return geoWindows(ps, l.Geo.floats, true) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				return comp(e.Lam(l, Atom("p"), Atom("q")), "p, q", "zip("+a[0].S+", "+a[0].At(pAtom)+"[1:] + "+a[0].At(pAtom)+"[:1])")
			}),
		opL1("all_pairs", FamScan, SigGeo, I, func(ar *Arena, l *Lambda, ps []Pair) ([]int64, bool) { return geoAllPairs(ps, l.Geo.ints) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				v := a[0].S
				return Atom("[" + e.Lam(l, Atom(v+"[i]"), Atom(v+"[j]")).S + " for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + "))]")
			}),
		opL1("all_pairs", FamScan, SigGeo, F, func(ar *Arena, l *Lambda, ps []Pair) ([]float64, bool) { return geoAllPairs(ps, l.Geo.floats) },
			func(e *Emitter, l *Lambda, a []Code) Code {
				v := a[0].S
				return Atom("[" + e.Lam(l, Atom(v+"[i]"), Atom(v+"[j]")).S + " for i in range(len(" + v + ")) for j in range(i + 1, len(" + v + "))]")
			}),
	}
}

// pointLibraryOps are geometric library functions: twice the areas of all
// triangles, the convex hull, points relative to the first.
func pointLibraryOps() []*Operator {
	return []*Operator{
		op1("triangle_areas2", FamScan, func(ps []Pair) ([]int64, bool) {
			n := int64(len(ps))
			if n*(n-1)*(n-2)/6 > MaxLen {
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
						out = append(out, AbsI(c))
					}
				}
			}
			return out, true
		}, func(e *Emitter, a []Code) Code {
			e.use("itertools")
			return Atom("[abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) for a, b, c in itertools.combinations(" + a[0].S + ", 3)]")
		}),
		op1("convex_hull", FamScan, convexHull,
			func(e *Emitter, a []Code) Code {
				e.helper("convex_hull", pyConvexHull)
				return Call("convex_hull", a[0])
			}),
		op1("from_first", FamList, func(ps []Pair) ([]Pair, bool) {
			out := make([]Pair, len(ps))
			for i, p := range ps {
				dx, good := SubI(p[0], ps[0][0])
				dy, good2 := SubI(p[1], ps[0][1])
				if !good || !good2 {
					return nil, false
				}
				out[i] = Pair{dx, dy}
			}
			return out, true
		}, pyOnly(func(a []Code) Code {
			v := a[0].At(pAtom)
			return Atom("[[x - " + v + "[0][0], y - " + v + "[0][1]] for x, y in " + a[0].S + "]")
		})),
	}
}

// pointNamedOps are the bounding box and the centroid of points.
func pointNamedOps() []*Operator {
	return []*Operator{
		op1("bounding_box", FamList, func(ps []Pair) ([]int64, bool) {
			if len(ps) == 0 {
				return nil, false
			}
			b := []int64{ps[0][0], ps[0][1], ps[0][0], ps[0][1]}
			for _, p := range ps {
				b[0], b[1], b[2], b[3] = min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[0]), max(b[3], p[1])
			}
			return b, true
		}, pyOnly(func(a []Code) Code {
			v := a[0].S
			return Atom("[min(x for x, _ in " + v + "), min(y for _, y in " + v + "), max(x for x, _ in " + v + "), max(y for _, y in " + v + ")]")
		})),
		op1("centroid", FamList, func(ps []Pair) ([]float64, bool) {
			if len(ps) == 0 {
				return nil, false
			}
			var sx, sy int64
			for _, p := range ps {
				sx += p[0]
				sy += p[1]
			}
			return []float64{float64(sx) / float64(len(ps)), float64(sy) / float64(len(ps))}, true
		}, pyOnly(func(a []Code) Code {
			v := a[0].S
			return Atom("[sum(x for x, _ in " + v + ") / len(" + v + "), sum(y for _, y in " + v + ") / len(" + v + ")]")
		})),
	}
}

// cross3 is the z component of (b - a) x (c - a), positive for a left
// turn a -> b -> c; it fails on overflow.
func cross3(a, b, c Pair) (int64, bool) {
	var d [4]int64
	var good [4]bool
	d[0], good[0] = SubI(b[0], a[0])
	d[1], good[1] = SubI(c[1], a[1])
	d[2], good[2] = SubI(b[1], a[1])
	d[3], good[3] = SubI(c[0], a[0])
	if !good[0] || !good[1] || !good[2] || !good[3] {
		return 0, false
	}
	x, g1 := MulI(d[0], d[1])
	y, g2 := MulI(d[2], d[3])
	if !g1 || !g2 {
		return 0, false
	}
	return SubI(x, y)
}

// convexHull is Andrew's monotone chain: the hull of the distinct points
// counter-clockwise from the smallest, without collinear points; fewer
// than three distinct points come back sorted.
func convexHull(pts []Pair) ([]Pair, bool) {
	ps := pointSet(pts)
	if len(ps) < 3 {
		if ps == nil {
			ps = []Pair{}
		}
		return ps, true
	}
	half := func(order []Pair) ([]Pair, bool) {
		var chain []Pair
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
	upper, good := half(Reversed(nil, ps))
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
