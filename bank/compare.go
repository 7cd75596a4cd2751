package bank

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
)

// DefaultAtol is the default absolute tolerance for scalar comparisons.
const DefaultAtol = 1e-9

// MaxResidualEntries caps each list of a Residual; Truncated reports a cap.
const MaxResidualEntries = 256

// Residual compares one output with its target.
type Residual struct {
	Output string `json:"output"`
	// Status is match, mismatch, missing_output, kind_mismatch or
	// shape_mismatch.
	Status string `json:"status"`
	Match  bool   `json:"match"`
	// Score is the fraction of matching leaves (cells, numbers, ...); it is
	// absent when there is nothing to score (a missing output).
	Score    *float64 `json:"score,omitempty"`
	GotKind  Kind     `json:"got_kind,omitempty"`
	WantKind Kind     `json:"want_kind"`
	// ScalarErrors are numeric differences beyond atol.
	ScalarErrors   []ScalarError `json:"scalar_errors,omitempty"`
	MaxScalarError *float64      `json:"max_scalar_error,omitempty"`
	// Mismatches are categorical differences (colors, flags, text, ...).
	Mismatches []Mismatch `json:"mismatches,omitempty"`
	// Cells are grid cell mismatches [row, column, got, want].
	Cells      [][4]int64      `json:"cells,omitempty"`
	CellCount  int             `json:"cell_mismatch_count,omitempty"`
	Shapes     []ShapeMismatch `json:"shape_mismatches,omitempty"`
	Truncated  bool            `json:"truncated"`
	leaves     int
	matched    int
	shapeAtTop bool
}

// ScalarError is one numeric difference.
type ScalarError struct {
	Path  string  `json:"path"`
	Got   float64 `json:"got"`
	Want  float64 `json:"want"`
	Error float64 `json:"error"`
}

// Mismatch is one categorical difference.
type Mismatch struct {
	Path string          `json:"path"`
	Got  json.RawMessage `json:"got"`
	Want json.RawMessage `json:"want"`
}

// ShapeMismatch reports different sizes: grid [rows, columns] or a list or
// JSON array length.
type ShapeMismatch struct {
	Path string  `json:"path"`
	Got  []int64 `json:"got"`
	Want []int64 `json:"want"`
}

// Compare compares an output value (present false: the output is missing)
// with its target within the absolute tolerance atol (negative:
// DefaultAtol).
func Compare(output string, got Value, present bool, want Value, atol float64) Residual {
	if atol < 0 {
		atol = DefaultAtol
	}
	r := Residual{Output: output, WantKind: want.Kind()}
	if !present {
		r.Status = "missing_output"
		return r
	}
	r.GotKind = got.Kind()
	zero := 0.0
	if got.Kind() != want.Kind() {
		r.Status, r.Score = "kind_mismatch", &zero
		return r
	}
	r.walk("", got, want, atol)
	switch {
	case r.shapeAtTop:
		r.Status, r.Score = "shape_mismatch", &zero
		return r
	case r.matched == r.leaves && len(r.Shapes) == 0:
		r.Status, r.Match = "match", true
	default:
		r.Status = "mismatch"
	}
	s := 1.0
	if r.leaves > 0 {
		s = float64(r.matched) / float64(r.leaves)
	}
	if len(r.Shapes) > 0 && s == 1 {
		s = 0
	}
	r.Score = &s
	return r
}

func (r *Residual) full(n int) bool {
	if n >= MaxResidualEntries {
		r.Truncated = true
		return true
	}
	return false
}

func (r *Residual) scalar(path string, g, w, atol float64) {
	r.leaves++
	d := math.Abs(g - w)
	if d <= atol {
		r.matched++
		return
	}
	if r.MaxScalarError == nil || d > *r.MaxScalarError {
		r.MaxScalarError = &d
	}
	if !r.full(len(r.ScalarErrors)) {
		r.ScalarErrors = append(r.ScalarErrors, ScalarError{Path: path, Got: g, Want: w, Error: d})
	}
}

func (r *Residual) categorical(path string, g, w []byte) {
	r.leaves++
	if string(g) == string(w) {
		r.matched++
		return
	}
	if !r.full(len(r.Mismatches)) {
		r.Mismatches = append(r.Mismatches, Mismatch{Path: path, Got: brief(g), Want: brief(w)})
	}
}

// brief returns small JSON as is and large JSON as its hash string.
func brief(b []byte) json.RawMessage {
	if len(b) <= inlineValueBytes {
		return b
	}
	return json.RawMessage(strconv.Quote(HashBytes(b)))
}

func (r *Residual) shape(path string, g, w []int64) {
	r.leaves++
	if path == "" {
		r.shapeAtTop = true
	}
	if !r.full(len(r.Shapes)) {
		r.Shapes = append(r.Shapes, ShapeMismatch{Path: path, Got: g, Want: w})
	}
}

func (r *Residual) walk(path string, got, want Value, atol float64) {
	if got.Kind() != want.Kind() {
		r.categorical(path, []byte(strconv.Quote(string(got.Kind()))), []byte(strconv.Quote(string(want.Kind()))))
		return
	}
	switch got.Kind() {
	case KindScalar:
		g, _ := got.Scalar()
		w, _ := want.Scalar()
		r.scalar(path, g, w, atol)
	case KindIndex:
		g, _ := got.Int()
		w, _ := want.Int()
		r.scalar(path, float64(g), float64(w), 0)
	case KindPoint:
		g, _ := got.Point()
		w, _ := want.Point()
		r.scalar(path+"[0]", float64(g.Row), float64(w.Row), 0)
		r.scalar(path+"[1]", float64(g.Col), float64(w.Col), 0)
	case KindGrid:
		g, _ := got.Grid()
		w, _ := want.Grid()
		if g.Rows != w.Rows || g.Cols != w.Cols {
			r.shape(path, []int64{int64(g.Rows), int64(g.Cols)}, []int64{int64(w.Rows), int64(w.Cols)})
			return
		}
		for i := range g.Cells {
			r.leaves++
			if g.Cells[i] == w.Cells[i] {
				r.matched++
				continue
			}
			r.CellCount++
			if !r.full(len(r.Cells)) {
				r.Cells = append(r.Cells, [4]int64{int64(i / g.Cols), int64(i % g.Cols), int64(g.Cells[i]), int64(w.Cells[i])})
			}
		}
	case KindJSON:
		gj, _ := got.JSON()
		wj, _ := want.JSON()
		gt, _ := parseJSON(gj)
		wt, _ := parseJSON(wj)
		r.walkJSON(path, gt, wt, atol)
	default:
		if got.Kind().IsList() {
			gs, _ := got.Items()
			ws, _ := want.Items()
			if len(gs) != len(ws) {
				r.shape(path, []int64{int64(len(gs))}, []int64{int64(len(ws))})
				return
			}
			for i := range gs {
				r.walk(indexPath(path, i), gs[i], ws[i], atol)
			}
			return
		}
		r.categorical(path, got.DataJSON(), want.DataJSON())
	}
}

func (r *Residual) walkJSON(path string, g, w any, atol float64) {
	switch wt := w.(type) {
	case json.Number:
		if gn, ok := g.(json.Number); ok {
			gf, err1 := gn.Float64()
			wf, err2 := wt.Float64()
			if err1 == nil && err2 == nil {
				r.scalar(path, gf, wf, atol)
				return
			}
		}
	case []any:
		if ga, ok := g.([]any); ok {
			if len(ga) != len(wt) {
				r.shape(path, []int64{int64(len(ga))}, []int64{int64(len(wt))})
				return
			}
			for i := range ga {
				r.walkJSON(indexPath(path, i), ga[i], wt[i], atol)
			}
			return
		}
	case map[string]any:
		if gm, ok := g.(map[string]any); ok {
			keys := map[string]bool{}
			for k := range gm {
				keys[k] = true
			}
			for k := range wt {
				keys[k] = true
			}
			names := make([]string, 0, len(keys))
			for k := range keys {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				gv, gok := gm[k]
				wv, wok := wt[k]
				if !gok || !wok {
					gb, wb := []byte("null"), []byte("null")
					if gok {
						gb, _ = canonicalJSON(gv)
					}
					if wok {
						wb, _ = canonicalJSON(wv)
					}
					r.leaves++
					if !r.full(len(r.Mismatches)) {
						r.Mismatches = append(r.Mismatches, Mismatch{Path: joinPath(path, k), Got: brief(gb), Want: brief(wb)})
					}
					continue
				}
				r.walkJSON(joinPath(path, k), gv, wv, atol)
			}
			return
		}
	}
	gb, _ := canonicalJSON(g)
	wb, _ := canonicalJSON(w)
	r.categorical(path, gb, wb)
}
