package bank

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// PathError is a decoding or validation error at a named field, such as
// "inputs.grid.data[3]: row length 4, want 5".
type PathError struct {
	Path string
	Msg  string
	// Err, when set, is the cause Msg says (errors.Is finds it).
	Err error
}

func (e *PathError) Unwrap() error { return e.Err }

func (e *PathError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

func pathErr(path, format string, args ...any) error {
	return &PathError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

func joinPath(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// DecodeValue strictly decodes one {"kind", "data"} value. path names the
// value in error messages (e.g. "inputs.grid").
func DecodeValue(path string, raw []byte) (Value, error) {
	tree, err := parseJSON(raw)
	if err != nil {
		return Value{}, pathErr(path, "invalid JSON: %v", err)
	}
	return decodeValueTree(path, tree)
}

// MarshalJSON encodes the value canonically.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.IsZero() {
		return nil, fmt.Errorf("encode value: zero Value")
	}
	var buf bytes.Buffer
	if err := v.encode(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes strictly (see DecodeValue).
func (v *Value) UnmarshalJSON(raw []byte) error {
	x, err := DecodeValue("", raw)
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// Canonical returns the canonical JSON encoding of the value.
func (v Value) Canonical() []byte {
	b, err := v.MarshalJSON()
	if err != nil {
		// Values built by this package always encode; a zero Value is a
		// programming error.
		panic(err)
	}
	return b
}

// Hash returns the content identifier of the value: "sha256:" + hex of its
// canonical JSON.
func (v Value) Hash() string {
	if g, ok := v.data.(*Grid); ok {
		return g.hash()
	}
	return HashBytes(v.Canonical())
}

// Equal reports whether two values are identical (same kind and data).
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	return bytes.Equal(v.Canonical(), w.Canonical())
}

// sameValue is Equal without encoding the values when their data can be
// compared directly.
func sameValue(v, w Value) bool {
	if v.kind != w.kind {
		return false
	}
	switch d := v.data.(type) {
	case float64, int64, bool, string, Point:
		return v.data == w.data
	case *Grid:
		if e, ok := w.data.(*Grid); ok && d == e {
			return true
		}
	case *Object:
		if e, ok := w.data.(*Object); ok && d == e {
			return true
		}
	}
	return v.Equal(w)
}

func (v Value) encode(buf *bytes.Buffer) error {
	buf.WriteString(`{"data":`)
	if err := encodeData(buf, v); err != nil {
		return err
	}
	buf.WriteString(`,"kind":`)
	writeString(buf, string(v.kind))
	buf.WriteByte('}')
	return nil
}

// DataJSON returns the canonical encoding of the value's data alone.
func (v Value) DataJSON() []byte {
	var buf bytes.Buffer
	if err := encodeData(&buf, v); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func encodeData(buf *bytes.Buffer, v Value) error {
	switch d := v.data.(type) {
	case float64:
		return writeFloat(buf, d)
	case int64:
		writeInt(buf, d)
	case bool:
		buf.WriteString(strconv.FormatBool(d))
	case Point:
		writeInts(buf, d.Row, d.Col)
	case *Grid:
		buf.Write(appendGrid(make([]byte, 0, 2+d.Rows*(2*d.Cols+2)), d))
	case *Object:
		buf.WriteString(`{"frame":`)
		writeInts(buf, d.Frame[0], d.Frame[1])
		buf.WriteString(`,"origin":`)
		writeString(buf, d.Origin)
		buf.WriteString(`,"pixels":`)
		writePixels(buf, d.Pixels)
		buf.WriteString(`,"source":`)
		writeString(buf, d.Source)
		buf.WriteByte('}')
	case string:
		writeString(buf, d)
	case json.RawMessage:
		buf.Write(d)
	case *Program:
		buf.WriteString(`{"function":`)
		writeString(buf, d.Function)
		buf.WriteString(`,"language":`)
		writeString(buf, d.Language)
		buf.WriteString(`,"sha256":`)
		writeString(buf, d.SHA256)
		buf.WriteString(`,"source":`)
		writeString(buf, d.Source)
		buf.WriteByte('}')
	case *Example:
		buf.WriteString(`{"input":`)
		buf.Write(d.Input)
		buf.WriteString(`,"output":`)
		buf.Write(d.Output)
		buf.WriteString(`,"source":`)
		writeString(buf, d.Source)
		buf.WriteByte('}')
	case []Value:
		buf.WriteByte('[')
		for i, x := range d {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encodeData(buf, x); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	default:
		return fmt.Errorf("encode value: unsupported data %T for kind %s", v.data, v.kind)
	}
	return nil
}

func writePixels(buf *bytes.Buffer, ps []Pixel) {
	buf.WriteByte('[')
	for i, p := range ps {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeInts(buf, p.Row, p.Col, int64(p.Color))
	}
	buf.WriteByte(']')
}

// writeInt writes n in decimal, without the allocation of a string that
// strconv.FormatInt and fmt make for it.
func writeInt(buf *bytes.Buffer, n int64) {
	buf.Write(strconv.AppendInt(buf.AvailableBuffer(), n, 10))
}

// writeInts writes ns as a JSON array.
func writeInts(buf *bytes.Buffer, ns ...int64) {
	buf.WriteByte('[')
	for i, n := range ns {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeInt(buf, n)
	}
	buf.WriteByte(']')
}

// decodeValueTree decodes a parsed {"kind", "data"} tree.
func decodeValueTree(path string, tree any) (Value, error) {
	m, ok := tree.(map[string]any)
	if !ok {
		return Value{}, pathErr(path, "want an object {\"kind\", \"data\"}, got %s", jsonType(tree))
	}
	if err := exactKeys(path, m, []string{"kind", "data"}, nil); err != nil {
		return Value{}, err
	}
	ks, ok := m["kind"].(string)
	if !ok {
		return Value{}, pathErr(joinPath(path, "kind"), "want a string, got %s", jsonType(m["kind"]))
	}
	k := Kind(ks)
	if !k.Valid() {
		return Value{}, pathErr(joinPath(path, "kind"), "unknown kind %q", ks)
	}
	return decodeData(joinPath(path, "data"), k, m["data"])
}

// exactKeys checks that m has every required key, optionally the optional
// ones, and nothing else.
func exactKeys(path string, m map[string]any, required, optional []string) error {
	for _, k := range required {
		if _, ok := m[k]; !ok {
			return pathErr(path, "missing field %q", k)
		}
	}
	allowed := func(k string) bool {
		for _, r := range required {
			if r == k {
				return true
			}
		}
		for _, r := range optional {
			if r == k {
				return true
			}
		}
		return false
	}
	var unknown []string
	for k := range m {
		if !allowed(k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return pathErr(path, "unknown field %q", unknown[0])
	}
	return nil
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func decodeInt(path string, x any) (int64, error) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, pathErr(path, "want an integer, got %s", jsonType(x))
	}
	if strings.ContainsAny(string(n), ".eE") {
		return 0, pathErr(path, "want an integer, got %s", n)
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, pathErr(path, "integer %s out of range", n)
	}
	return i, nil
}

func decodeColor(path string, x any) (int64, error) {
	c, err := decodeInt(path, x)
	if err != nil {
		return 0, err
	}
	if c < 0 || c > MaxColor {
		return 0, pathErr(path, "color %d out of range 0-9", c)
	}
	return c, nil
}

func decodePoint(path string, x any) (Point, error) {
	xs, ok := x.([]any)
	if !ok {
		return Point{}, pathErr(path, "want [row, column], got %s", jsonType(x))
	}
	if len(xs) != 2 {
		return Point{}, pathErr(path, "want [row, column], got %d elements", len(xs))
	}
	r, err := decodeInt(indexPath(path, 0), xs[0])
	if err != nil {
		return Point{}, err
	}
	c, err := decodeInt(indexPath(path, 1), xs[1])
	if err != nil {
		return Point{}, err
	}
	return Point{r, c}, nil
}

func decodeString(path string, x any) (string, error) {
	s, ok := x.(string)
	if !ok {
		return "", pathErr(path, "want a string, got %s", jsonType(x))
	}
	return s, nil
}

func decodeData(path string, k Kind, x any) (Value, error) {
	if k.IsList() {
		xs, ok := x.([]any)
		if !ok {
			return Value{}, pathErr(path, "want an array for %s, got %s", k, jsonType(x))
		}
		elem := k.Elem()
		items := make([]Value, len(xs))
		for i, e := range xs {
			v, err := decodeData(indexPath(path, i), elem, e)
			if err != nil {
				return Value{}, err
			}
			items[i] = v
		}
		return List(elem, items), nil
	}
	decode, ok := dataDecoders[k]
	if !ok {
		return Value{}, pathErr(path, "unknown kind %q", k)
	}
	d, err := decode(path, x)
	if err != nil {
		return Value{}, err
	}
	return Value{k, d}, nil
}

// dataDecoders decode the data of a value of every kind but the lists
// (decodeData): each yields the Go type that a Value of its kind holds
// (float64 for a scalar, *Grid for a grid, …), as the kind's constructor
// (Scalar, GridValue, …) would store it.
var dataDecoders = map[Kind]func(path string, x any) (any, error){
	KindScalar:  asData(decodeScalar),
	KindIndex:   asData(decodeInt),
	KindColor:   asData(decodeColor),
	KindFlag:    asData(decodeFlag),
	KindPoint:   asData(decodePoint),
	KindGrid:    asData(decodeGrid),
	KindObject:  asData(decodeObject),
	KindText:    asData(decodeString),
	KindJSON:    asData(decodeJSONData),
	KindProgram: asData(decodeProgram),
	KindExample: asData(decodeExample),
}

// asData makes a decoder of one kind's data an entry of dataDecoders.
func asData[T any](decode func(path string, x any) (T, error)) func(path string, x any) (any, error) {
	return func(path string, x any) (any, error) {
		d, err := decode(path, x)
		return d, err
	}
}

func decodeScalar(path string, x any) (float64, error) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, pathErr(path, "want a number, got %s", jsonType(x))
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, pathErr(path, "number %s out of range", n)
	}
	return f, nil
}

func decodeFlag(path string, x any) (bool, error) {
	b, ok := x.(bool)
	if !ok {
		return false, pathErr(path, "want a boolean, got %s", jsonType(x))
	}
	return b, nil
}

// decodeJSONData decodes the data of a json value: any JSON, kept in its
// canonical encoding.
func decodeJSONData(path string, x any) (json.RawMessage, error) {
	c, err := canonicalJSON(x)
	if err != nil {
		return nil, pathErr(path, "%v", err)
	}
	return c, nil
}

func decodeGrid(path string, x any) (*Grid, error) {
	rows, ok := x.([]any)
	if !ok {
		return nil, pathErr(path, "want an array of rows, got %s", jsonType(x))
	}
	if len(rows) < 1 || len(rows) > MaxGridSide {
		return nil, pathErr(path, "grid has %d rows, want 1 to %d", len(rows), MaxGridSide)
	}
	var g *Grid
	for r, rx := range rows {
		rp := indexPath(path, r)
		row, ok := rx.([]any)
		if !ok {
			return nil, pathErr(rp, "want an array of colors, got %s", jsonType(rx))
		}
		if g == nil {
			if len(row) < 1 || len(row) > MaxGridSide {
				return nil, pathErr(rp, "row length %d, want 1 to %d", len(row), MaxGridSide)
			}
			g = &Grid{Rows: len(rows), Cols: len(row), Cells: make([]uint8, len(rows)*len(row))}
		} else if len(row) != g.Cols {
			return nil, pathErr(rp, "row length %d, want %d", len(row), g.Cols)
		}
		for c, cx := range row {
			col, err := decodeColor(indexPath(rp, c), cx)
			if err != nil {
				return nil, err
			}
			g.Cells[r*g.Cols+c] = uint8(col)
		}
	}
	return g, nil
}

// objectWithKeys is x as a JSON object with exactly the fields keys: the
// data of an object, a program or an example.
func objectWithKeys(path string, x any, keys ...string) (map[string]any, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, pathErr(path, "want an object, got %s", jsonType(x))
	}
	if err := exactKeys(path, m, keys, nil); err != nil {
		return nil, err
	}
	return m, nil
}

func decodeObject(path string, x any) (*Object, error) {
	m, err := objectWithKeys(path, x, "source", "origin", "frame", "pixels")
	if err != nil {
		return nil, err
	}
	o := &Object{}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"source", &o.Source}, {"origin", &o.Origin}} {
		fp := joinPath(path, f.name)
		if *f.dst, err = decodeString(fp, m[f.name]); err != nil {
			return nil, err
		}
		if !validID(*f.dst) {
			return nil, pathErr(fp, "want an identifier sha256:<64 hex digits>, got %q", *f.dst)
		}
	}
	fp := joinPath(path, "frame")
	frame, err := decodePoint(fp, m["frame"])
	if err != nil {
		return nil, err
	}
	if frame.Row < 1 || frame.Row > MaxGridSide || frame.Col < 1 || frame.Col > MaxGridSide {
		return nil, pathErr(fp, "frame [%d, %d] out of range 1 to %d", frame.Row, frame.Col, MaxGridSide)
	}
	o.Frame = [2]int64{frame.Row, frame.Col}
	pp := joinPath(path, "pixels")
	px, ok := m["pixels"].([]any)
	if !ok {
		return nil, pathErr(pp, "want an array of [row, column, color], got %s", jsonType(m["pixels"]))
	}
	if len(px) == 0 {
		return nil, pathErr(pp, "object has no pixels")
	}
	o.Pixels = make([]Pixel, len(px))
	for i, p := range px {
		ip := indexPath(pp, i)
		t, ok := p.([]any)
		if !ok || len(t) != 3 {
			return nil, pathErr(ip, "want [row, column, color]")
		}
		r, err := decodeInt(indexPath(ip, 0), t[0])
		if err != nil {
			return nil, err
		}
		c, err := decodeInt(indexPath(ip, 1), t[1])
		if err != nil {
			return nil, err
		}
		col, err := decodeColor(indexPath(ip, 2), t[2])
		if err != nil {
			return nil, err
		}
		o.Pixels[i] = Pixel{r, c, uint8(col)}
		if i > 0 {
			prev := o.Pixels[i-1]
			if prev.Row == r && prev.Col == c {
				return nil, pathErr(ip, "duplicate coordinate [%d, %d]", r, c)
			}
			if prev.Row > r || prev.Row == r && prev.Col > c {
				return nil, pathErr(ip, "pixels not sorted: [%d, %d] after [%d, %d]", r, c, prev.Row, prev.Col)
			}
		}
	}
	return o, nil
}

func decodeProgram(path string, x any) (*Program, error) {
	m, err := objectWithKeys(path, x, "language", "function", "source", "sha256")
	if err != nil {
		return nil, err
	}
	p := &Program{}
	if p.Language, err = decodeString(joinPath(path, "language"), m["language"]); err != nil {
		return nil, err
	}
	if p.Language != "python" {
		return nil, pathErr(joinPath(path, "language"), "unsupported language %q, want \"python\"", p.Language)
	}
	if p.Function, err = decodeString(joinPath(path, "function"), m["function"]); err != nil {
		return nil, err
	}
	if !validPyName(p.Function) {
		return nil, pathErr(joinPath(path, "function"), "%q is not a Python identifier", p.Function)
	}
	if p.Source, err = decodeString(joinPath(path, "source"), m["source"]); err != nil {
		return nil, err
	}
	if p.SHA256, err = decodeString(joinPath(path, "sha256"), m["sha256"]); err != nil {
		return nil, err
	}
	if want := sourceDigest(p.Source); p.SHA256 != want {
		return nil, pathErr(joinPath(path, "sha256"), "digest %q does not match the source (%s)", p.SHA256, want)
	}
	return p, nil
}

// NewProgram returns a program value for Python source, computing its digest.
func NewProgram(function, source string) (Value, error) {
	if !validPyName(function) {
		return Value{}, fmt.Errorf("program: %q is not a Python identifier", function)
	}
	return ProgramValue(&Program{Language: "python", Function: function, Source: source, SHA256: sourceDigest(source)}), nil
}

func sourceDigest(src string) string {
	sum := sha256.Sum256([]byte(src))
	return hex.EncodeToString(sum[:])
}

func validPyName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Example sources.
var exampleSources = map[string]bool{"agent": true, "random": true, "initial": true}

func decodeExample(path string, x any) (*Example, error) {
	m, err := objectWithKeys(path, x, "input", "output", "source")
	if err != nil {
		return nil, err
	}
	e := &Example{}
	in, err := canonicalJSON(m["input"])
	if err != nil {
		return nil, pathErr(joinPath(path, "input"), "%v", err)
	}
	out, err := canonicalJSON(m["output"])
	if err != nil {
		return nil, pathErr(joinPath(path, "output"), "%v", err)
	}
	e.Input, e.Output = in, out
	if e.Source, err = decodeString(joinPath(path, "source"), m["source"]); err != nil {
		return nil, err
	}
	if !exampleSources[e.Source] {
		return nil, pathErr(joinPath(path, "source"), "unknown example source %q, want agent, random or initial", e.Source)
	}
	return e, nil
}

// NewExample returns an example value; input and output are any JSON.
func NewExample(input, output []byte, source string) (Value, error) {
	if !exampleSources[source] {
		return Value{}, fmt.Errorf("example: unknown source %q", source)
	}
	in, err := Canonicalize(input)
	if err != nil {
		return Value{}, fmt.Errorf("example input: %w", err)
	}
	out, err := Canonicalize(output)
	if err != nil {
		return Value{}, fmt.Errorf("example output: %w", err)
	}
	return ExampleValue(&Example{Input: in, Output: out, Source: source}), nil
}

// NewGrid validates rows of colors and returns a grid value.
func NewGrid(rows [][]int) (Value, error) {
	tree := make([]any, len(rows))
	for r, row := range rows {
		xs := make([]any, len(row))
		for c, x := range row {
			xs[c] = json.Number(strconv.Itoa(x))
		}
		tree[r] = xs
	}
	g, err := decodeGrid("grid", tree)
	if err != nil {
		return Value{}, err
	}
	return GridValue(g), nil
}

// appendGrid appends the canonical rows of g (colors are single digits).
func appendGrid(b []byte, g *Grid) []byte {
	b = append(b, '[')
	for r := 0; r < g.Rows; r++ {
		if r > 0 {
			b = append(b, ',')
		}
		b = appendRow(b, g.Cells[r*g.Cols:(r+1)*g.Cols])
	}
	return append(b, ']')
}
