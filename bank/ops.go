package bank

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// BuiltinVersion is the version of every built-in operation of this
// release; changing an implementation's behaviour must bump it (which
// changes the registry identity).
const BuiltinVersion = "1.0.0"

func sig(result Kind, params ...Param) Signature { return Signature{Params: params, Result: result} }

func p(name string, k Kind) Param { return Param{name, k} }

func builtins() []*Operation {
	ops := []*Operation{}
	add := func(name string, s Signature, f callFunc) {
		ops = append(ops, &Operation{Name: name, Sig: s, Version: BuiltinVersion, builtin: f})
	}
	ab := []Param{p("a", varN), p("b", varN)}
	for _, name := range []string{"add", "sub", "mul", "div", "min", "max"} {
		name := name
		add("number."+name, sig(varN, ab...), func(c *call, a map[string]Value) (Value, error) {
			return arith(name, a["a"], a["b"])
		})
	}
	add("number.neg", sig(varN, p("a", varN)), func(c *call, a map[string]Value) (Value, error) {
		if i, ok := a["a"].Int(); ok {
			if i == math.MinInt64 {
				return Value{}, errors.New("index overflow")
			}
			return Index(-i), nil
		}
		f, _ := a["a"].Scalar()
		return Scalar(-f), nil
	})
	add("number.abs", sig(varN, p("a", varN)), func(c *call, a map[string]Value) (Value, error) {
		if i, ok := a["a"].Int(); ok {
			if i == math.MinInt64 {
				return Value{}, errors.New("index overflow")
			}
			if i < 0 {
				i = -i
			}
			return Index(i), nil
		}
		f, _ := a["a"].Scalar()
		return Scalar(math.Abs(f)), nil
	})
	for _, name := range []string{"lt", "le", "eq", "ge", "gt"} {
		name := name
		add("number."+name, sig(KindFlag, ab...), func(c *call, a map[string]Value) (Value, error) {
			x, y := numeric(a["a"]), numeric(a["b"])
			var r bool
			if xi, ok := a["a"].Int(); ok {
				yi, _ := a["b"].Int()
				r = cmpOrdered(name, xi, yi)
			} else {
				r = cmpOrdered(name, x, y)
			}
			return Flag(r), nil
		})
	}
	fab := []Param{p("a", KindFlag), p("b", KindFlag)}
	add("flag.and", sig(KindFlag, fab...), func(c *call, a map[string]Value) (Value, error) {
		x, _ := a["a"].Flag()
		y, _ := a["b"].Flag()
		return Flag(x && y), nil
	})
	add("flag.or", sig(KindFlag, fab...), func(c *call, a map[string]Value) (Value, error) {
		x, _ := a["a"].Flag()
		y, _ := a["b"].Flag()
		return Flag(x || y), nil
	})
	add("flag.not", sig(KindFlag, p("a", KindFlag)), func(c *call, a map[string]Value) (Value, error) {
		x, _ := a["a"].Flag()
		return Flag(!x), nil
	})
	add("grid.components", sig(ListOf(KindObject), p("grid", KindGrid), p("background", KindColor)), opComponents)
	add("grid.size", sig(KindPoint, p("grid", KindGrid)), func(c *call, a map[string]Value) (Value, error) {
		g, _ := a["grid"].Grid()
		return PointValue(int64(g.Rows), int64(g.Cols)), nil
	})
	add("grid.blank", sig(KindGrid, p("size", KindPoint), p("color", KindColor)), func(c *call, a map[string]Value) (Value, error) {
		s, _ := a["size"].Point()
		col, _ := a["color"].Int()
		if s.Row < 1 || s.Row > MaxGridSide || s.Col < 1 || s.Col > MaxGridSide {
			return Value{}, fmt.Errorf("size [%d, %d] out of range 1 to %d", s.Row, s.Col, MaxGridSide)
		}
		g := &Grid{Rows: int(s.Row), Cols: int(s.Col), Cells: make([]uint8, s.Row*s.Col)}
		for i := range g.Cells {
			g.Cells[i] = uint8(col)
		}
		return GridValue(g), nil
	})
	add("object.size", sig(KindIndex, p("item", KindObject)), func(c *call, a map[string]Value) (Value, error) {
		o, _ := a["item"].Object()
		return Index(int64(len(o.Pixels))), nil
	})
	add("object.color", sig(KindColor, p("item", KindObject)), func(c *call, a map[string]Value) (Value, error) {
		o, _ := a["item"].Object()
		col := o.Pixels[0].Color
		for _, px := range o.Pixels[1:] {
			if px.Color != col {
				return Value{}, fmt.Errorf("ambiguous color: the object has colors %d and %d", col, px.Color)
			}
		}
		return Color(int64(col)), nil
	})
	add("object.translate", sig(KindObject, p("item", KindObject), p("offset", KindPoint)), func(c *call, a map[string]Value) (Value, error) {
		o, _ := a["item"].Object()
		off, _ := a["offset"].Point()
		n := &Object{Source: o.Source, Origin: o.Origin, Frame: o.Frame, Pixels: make([]Pixel, len(o.Pixels))}
		for i, px := range o.Pixels {
			r, ok1 := addInt(px.Row, off.Row)
			col, ok2 := addInt(px.Col, off.Col)
			if !ok1 || !ok2 {
				return Value{}, errors.New("coordinate overflow")
			}
			n.Pixels[i] = Pixel{r, col, px.Color}
		}
		return ObjectValue(n), nil
	})
	add("object.recolor", sig(KindObject, p("item", KindObject), p("color", KindColor)), func(c *call, a map[string]Value) (Value, error) {
		o, _ := a["item"].Object()
		col, _ := a["color"].Int()
		n := &Object{Source: o.Source, Origin: o.Origin, Frame: o.Frame, Pixels: make([]Pixel, len(o.Pixels))}
		for i, px := range o.Pixels {
			n.Pixels[i] = Pixel{px.Row, px.Col, uint8(col)}
		}
		return ObjectValue(n), nil
	})
	add("object.paint", sig(KindGrid, p("item", KindObject), p("state", KindGrid), p("background", KindColor), p("overwrite", KindFlag)), opPaint)
	add("object.erase", sig(KindGrid, p("item", KindObject), p("state", KindGrid), p("background", KindColor)), opErase)
	add("object.bbox", sig(ListOf(KindPoint), p("item", KindObject)), func(c *call, a map[string]Value) (Value, error) {
		o, _ := a["item"].Object()
		minR, maxR := o.Pixels[0].Row, o.Pixels[len(o.Pixels)-1].Row
		minC, maxC := o.Pixels[0].Col, o.Pixels[0].Col
		for _, px := range o.Pixels {
			minC, maxC = min(minC, px.Col), max(maxC, px.Col)
		}
		return List(KindPoint, []Value{PointValue(minR, minC), PointValue(maxR, maxC)}), nil
	})
	add("list.length", sig(KindIndex, p("items", ListOf(varK))), func(c *call, a map[string]Value) (Value, error) {
		xs, _ := a["items"].Items()
		return Index(int64(len(xs))), nil
	})
	add("list.sum", sig(varN, p("items", ListOf(varN))), func(c *call, a map[string]Value) (Value, error) {
		xs, _ := a["items"].Items()
		acc := zeroOf(a["items"].Kind().Elem())
		for _, x := range xs {
			var err error
			if acc, err = arith("add", acc, x); err != nil {
				return Value{}, err
			}
		}
		return acc, nil
	})
	add("list.concat", sig(ListOf(varK), p("a", ListOf(varK)), p("b", ListOf(varK))), func(c *call, a map[string]Value) (Value, error) {
		xs, _ := a["a"].Items()
		ys, _ := a["b"].Items()
		out := make([]Value, 0, len(xs)+len(ys))
		out = append(append(out, xs...), ys...)
		return List(a["a"].Kind().Elem(), out), nil
	})
	add("list.reverse", sig(ListOf(varK), p("items", ListOf(varK))), func(c *call, a map[string]Value) (Value, error) {
		xs, _ := a["items"].Items()
		out := make([]Value, len(xs))
		for i, x := range xs {
			out[len(xs)-1-i] = x
		}
		return List(a["items"].Kind().Elem(), out), nil
	})
	add("program.apply", sig(KindJSON, p("program", KindProgram), p("input", KindJSON)), func(c *call, a map[string]Value) (Value, error) {
		prog, _ := a["program"].Program()
		in, _ := a["input"].JSON()
		outs, err := c.runPrograms(prog, []json.RawMessage{in})
		if err != nil {
			return Value{}, err
		}
		return outs[0], nil
	})
	return ops
}

func zeroOf(k Kind) Value {
	if k == KindIndex {
		return Index(0)
	}
	return Scalar(0)
}

func numeric(v Value) float64 {
	if i, ok := v.Int(); ok {
		return float64(i)
	}
	f, _ := v.Scalar()
	return f
}

func cmpOrdered[T int64 | float64](name string, x, y T) bool {
	switch name {
	case "lt":
		return x < y
	case "le":
		return x <= y
	case "eq":
		return x == y
	case "ge":
		return x >= y
	}
	return x > y
}

func addInt(a, b int64) (int64, bool) {
	s := a + b
	return s, !((a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0))
}

// arith applies a binary number operation to two values of one kind N.
func arith(name string, a, b Value) (Value, error) {
	if x, ok := a.Int(); ok {
		y, _ := b.Int()
		switch name {
		case "add":
			s, ok := addInt(x, y)
			if !ok {
				return Value{}, errors.New("index overflow")
			}
			return Index(s), nil
		case "sub":
			if y == math.MinInt64 {
				return Value{}, errors.New("index overflow")
			}
			s, ok := addInt(x, -y)
			if !ok {
				return Value{}, errors.New("index overflow")
			}
			return Index(s), nil
		case "mul":
			if x != 0 && y != 0 {
				s := x * y
				if s/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
					return Value{}, errors.New("index overflow")
				}
				return Index(s), nil
			}
			return Index(0), nil
		case "div":
			if y == 0 {
				return Value{}, errors.New("division by zero")
			}
			if x == math.MinInt64 && y == -1 {
				return Value{}, errors.New("index overflow")
			}
			q := x / y
			if (x%y != 0) && ((x < 0) != (y < 0)) {
				q--
			}
			return Index(q), nil
		case "min":
			return Index(min(x, y)), nil
		case "max":
			return Index(max(x, y)), nil
		}
	}
	x, _ := a.Scalar()
	y, _ := b.Scalar()
	var r float64
	switch name {
	case "add":
		r = x + y
	case "sub":
		r = x - y
	case "mul":
		r = x * y
	case "div":
		if y == 0 {
			return Value{}, errors.New("division by zero")
		}
		r = x / y
	case "min":
		r = math.Min(x, y)
	case "max":
		r = math.Max(x, y)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return Value{}, fmt.Errorf("scalar %s overflows", name)
	}
	return Scalar(r), nil
}

// originOf returns the origin identifier of a component: the hash of the
// canonical {"pixels", "source"} it was extracted as.
func originOf(source string, pixels []Pixel) string {
	var buf = make([]byte, 0, 64+len(pixels)*8)
	b := bytes.NewBuffer(buf)
	b.WriteString(`{"pixels":`)
	writePixels(b, pixels)
	b.WriteString(`,"source":`)
	writeString(b, source)
	b.WriteByte('}')
	return HashBytes(b.Bytes())
}

func opComponents(c *call, a map[string]Value) (Value, error) {
	gv := a["grid"]
	g, _ := gv.Grid()
	bgc, _ := a["background"].Int()
	bg := uint8(bgc)
	source := gv.Hash()
	seen := make([]bool, len(g.Cells))
	var objs []Value
	stack := []int{}
	for start, col := range g.Cells {
		if col == bg || seen[start] {
			continue
		}
		var pixels []Pixel
		seen[start] = true
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r, cc := i/g.Cols, i%g.Cols
			pixels = append(pixels, Pixel{int64(r), int64(cc), col})
			for _, n := range [4][2]int{{r - 1, cc}, {r + 1, cc}, {r, cc - 1}, {r, cc + 1}} {
				if n[0] < 0 || n[0] >= g.Rows || n[1] < 0 || n[1] >= g.Cols {
					continue
				}
				j := n[0]*g.Cols + n[1]
				if !seen[j] && g.Cells[j] == col {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		sort.Slice(pixels, func(x, y int) bool {
			return pixels[x].Row < pixels[y].Row || pixels[x].Row == pixels[y].Row && pixels[x].Col < pixels[y].Col
		})
		objs = append(objs, ObjectValue(&Object{Source: source, Origin: originOf(source, pixels),
			Frame: [2]int64{int64(g.Rows), int64(g.Cols)}, Pixels: pixels}))
	}
	return List(KindObject, objs), nil
}

func copyGrid(g *Grid) *Grid {
	return &Grid{Rows: g.Rows, Cols: g.Cols, Cells: slices.Clone(g.Cells)}
}

func inGrid(g *Grid, px Pixel) error {
	if px.Row < 0 || px.Row >= int64(g.Rows) || px.Col < 0 || px.Col >= int64(g.Cols) {
		return fmt.Errorf("pixel [%d, %d] is outside the %d×%d grid", px.Row, px.Col, g.Rows, g.Cols)
	}
	return nil
}

func opPaint(c *call, a map[string]Value) (Value, error) {
	o, _ := a["item"].Object()
	g, _ := a["state"].Grid()
	bgc, _ := a["background"].Int()
	overwrite, _ := a["overwrite"].Flag()
	check := func(px Pixel, cell uint8) error {
		if !overwrite && cell != uint8(bgc) {
			return fmt.Errorf("destination [%d, %d] has color %d, not the background %d (overwrite is false)", px.Row, px.Col, cell, bgc)
		}
		return nil
	}
	return stamp(c, o, g, check, func(px Pixel) uint8 { return px.Color })
}

func opErase(c *call, a map[string]Value) (Value, error) {
	o, _ := a["item"].Object()
	g, _ := a["state"].Grid()
	bgc, _ := a["background"].Int()
	check := func(px Pixel, cell uint8) error {
		if cell != px.Color {
			return fmt.Errorf("pixel [%d, %d] has color %d in the grid, the object has %d", px.Row, px.Col, cell, px.Color)
		}
		return nil
	}
	return stamp(c, o, g, check, func(Pixel) uint8 { return uint8(bgc) })
}

// stamp writes the cells under o's pixels, each in the color color gives
// it, into the grid of c.stateGrid: paint and erase differ only in that
// color and in check, which accepts or refuses the cell of g a pixel
// covers. Every pixel is checked before any cell is written, so that a
// refused operation leaves g as it was even when g is a fold's state that
// the result would have been written into.
func stamp(c *call, o *Object, g *Grid, check func(px Pixel, cell uint8) error, color func(Pixel) uint8) (Value, error) {
	first := g.Rows
	for _, px := range o.Pixels {
		if err := inGrid(g, px); err != nil {
			return Value{}, err
		}
		first = min(first, int(px.Row))
		if err := check(px, g.Cells[int(px.Row)*g.Cols+int(px.Col)]); err != nil {
			return Value{}, err
		}
	}
	n := c.stateGrid(g, first)
	for _, px := range o.Pixels {
		n.setCell(int(px.Row)*g.Cols+int(px.Col), color(px))
	}
	return GridValue(n), nil
}

// stateGrid returns the grid an operation that changes g from row first
// on writes its result into: a copy of g, or g itself when g is a fold's
// state that nothing but the fold refers to (run.owned), which then keeps
// its canonical encoding up to date as it changes. Either way the
// result's hash will start from g's saved hash states.
func (c *call) stateGrid(g *Grid, first int) *Grid {
	if c != nil && c.r.owned == g {
		g.reuse(first)
		g.own()
		c.r.fresh = g
		return g
	}
	n := copyGrid(g)
	n.derive(g, first)
	if c != nil {
		c.r.fresh = n
	}
	return n
}
