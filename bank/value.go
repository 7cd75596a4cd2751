package bank

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Kind names the type of a value: a base kind such as "grid", or a
// collection "list[K]" of a base kind K.
type Kind string

// Base kinds (docs/bank.md, "Values").
const (
	KindScalar  Kind = "scalar"
	KindIndex   Kind = "index"
	KindColor   Kind = "color"
	KindFlag    Kind = "flag"
	KindPoint   Kind = "point"
	KindGrid    Kind = "grid"
	KindObject  Kind = "object"
	KindText    Kind = "text"
	KindJSON    Kind = "json"
	KindProgram Kind = "program"
	KindExample Kind = "example"
)

// BaseKinds lists every base kind in a fixed order.
var baseKinds = []Kind{KindScalar, KindIndex, KindColor, KindFlag, KindPoint, KindGrid,
	KindObject, KindText, KindJSON, KindProgram, KindExample}

// ListOf returns the collection kind of base kind k.
func ListOf(k Kind) Kind { return "list[" + k + "]" }

// IsList reports whether k is a collection kind.
func (k Kind) IsList() bool {
	return strings.HasPrefix(string(k), "list[") && strings.HasSuffix(string(k), "]")
}

// Elem returns the element kind of a collection kind ("" for a base kind).
func (k Kind) Elem() Kind {
	if !k.IsList() {
		return ""
	}
	return Kind(k[5 : len(k)-1])
}

// isBase reports whether k is one of the base kinds.
func (k Kind) isBase() bool {
	for _, b := range baseKinds {
		if k == b {
			return true
		}
	}
	return false
}

// Valid reports whether k is a base kind or a list of one.
func (k Kind) Valid() bool {
	if k.IsList() {
		return k.Elem().isBase()
	}
	return k.isBase()
}

// Limits of values.
const (
	MaxGridSide = 256
	MaxColor    = 9
)

// Point is a [row, column] pair, also used for offsets.
type Point struct{ Row, Col int64 }

// Grid is a rectangular array of colors, row-major. A Grid is not
// modified once it is in a Value.
type Grid struct {
	Rows, Cols int
	Cells      []uint8

	cache gridCache
}

// At returns the color at (r, c).
func (g *Grid) At(r, c int) uint8 { return g.Cells[r*g.Cols+c] }

// Pixel is one explicit object pixel.
type Pixel struct {
	Row, Col int64
	Color    uint8
}

// Object is a typed set of pixels with the identity of the grid it came
// from (Source) and of the component it was extracted as (Origin).
type Object struct {
	Source string
	Origin string
	Frame  [2]int64 // [height, width] of the source grid
	Pixels []Pixel  // sorted row-major, no duplicate coordinates
}

// Program is a Python function as source text (docs/bank.md "program").
type Program struct {
	Language string `json:"language"`
	Function string `json:"function"`
	Source   string `json:"source"`
	SHA256   string `json:"sha256"`
}

// Example is one recorded input/output pair of a reconstruction.
type Example struct {
	Input  json.RawMessage `json:"input"`  // canonical JSON
	Output json.RawMessage `json:"output"` // canonical JSON
	Source string          `json:"source"` // "agent", "random" or "initial"
}

// Value is an immutable typed value. The zero Value is invalid. Data is one
// of: float64 (scalar), int64 (index, color), bool (flag), Point, *Grid,
// *Object, string (text), json.RawMessage (json, canonical), *Program,
// *Example, []Value (list). Operations never modify a Value's data.
type Value struct {
	kind Kind
	data any
}

// Kind returns the value's kind.
func (v Value) Kind() Kind { return v.kind }

// IsZero reports whether v is the invalid zero Value.
func (v Value) IsZero() bool { return v.kind == "" }

// Constructors. They do not validate; use the checked constructors
// (NewGrid, NewObject, NewProgram, NewExample) for data from outside.

// Scalar returns a scalar value.
func Scalar(f float64) Value { return Value{KindScalar, f} }

// Index returns an index value.
func Index(i int64) Value { return Value{KindIndex, i} }

// Color returns a color value; c must be 0–9.
func Color(c int64) Value { return Value{KindColor, c} }

// Flag returns a flag value.
func Flag(b bool) Value { return Value{KindFlag, b} }

// PointValue returns a point value.
func PointValue(row, col int64) Value { return Value{KindPoint, Point{row, col}} }

// Text returns a text value.
func Text(s string) Value { return Value{KindText, s} }

// GridValue wraps a grid; the grid must not be modified afterwards.
func GridValue(g *Grid) Value { return Value{KindGrid, g} }

// ObjectValue wraps an object; it must not be modified afterwards.
func ObjectValue(o *Object) Value { return Value{KindObject, o} }

// ProgramValue wraps a program.
func ProgramValue(p *Program) Value { return Value{KindProgram, p} }

// ExampleValue wraps an example.
func ExampleValue(e *Example) Value { return Value{KindExample, e} }

// List returns a collection of elem values; every item must have kind elem.
func List(elem Kind, items []Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{ListOf(elem), items}
}

// JSONValue returns a json value from arbitrary JSON text, canonicalised.
func JSONValue(raw []byte) (Value, error) {
	c, err := Canonicalize(raw)
	if err != nil {
		return Value{}, fmt.Errorf("json value: %w", err)
	}
	return Value{KindJSON, json.RawMessage(c)}, nil
}

// Accessors: each returns the data of the matching kind and false for any
// other kind.

// Scalar returns the data of a scalar.
func (v Value) Scalar() (float64, bool) {
	f, ok := v.data.(float64)
	return f, ok && v.kind == KindScalar
}

// Int returns the data of an index or a color.
func (v Value) Int() (int64, bool) {
	i, ok := v.data.(int64)
	return i, ok && (v.kind == KindIndex || v.kind == KindColor)
}

// Flag returns the data of a flag.
func (v Value) Flag() (bool, bool) { b, ok := v.data.(bool); return b, ok && v.kind == KindFlag }

// Point returns the data of a point.
func (v Value) Point() (Point, bool) { p, ok := v.data.(Point); return p, ok }

// Grid returns the data of a grid (read only).
func (v Value) Grid() (*Grid, bool) { g, ok := v.data.(*Grid); return g, ok }

// Object returns the data of an object (read only).
func (v Value) Object() (*Object, bool) { o, ok := v.data.(*Object); return o, ok }

// Text returns the data of a text.
func (v Value) Text() (string, bool) { s, ok := v.data.(string); return s, ok && v.kind == KindText }

// JSON returns the canonical data of a json value.
func (v Value) JSON() (json.RawMessage, bool) { j, ok := v.data.(json.RawMessage); return j, ok }

// Program returns the data of a program.
func (v Value) Program() (*Program, bool) { p, ok := v.data.(*Program); return p, ok }

// Example returns the data of an example.
func (v Value) Example() (*Example, bool) { e, ok := v.data.(*Example); return e, ok }

// Items returns the elements of a collection (read only).
func (v Value) Items() ([]Value, bool) { xs, ok := v.data.([]Value); return xs, ok }
