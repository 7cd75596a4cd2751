package benchmarks

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// A scene is one chart as a list of drawing primitives in pixel units. The
// report renders the same scene to SVG (plot_svg.go) and to PNG
// (plot_png.go), so the inline chart, the .svg and the .png cannot drift.
// Shapes carry data attributes and a tooltip with the values they show, so
// a reader can hover them and a test can check them.
type scene struct {
	name  string // file stem, e.g. "solve_rate"
	title string
	w, h  float64
	items []any // *rectItem, *lineItem, *circleItem, *textItem
}

type attr struct{ k, v string }

type rectItem struct {
	x, y, w, h float64
	fill       color.NRGBA
	stroke     color.NRGBA // zero alpha: none
	strokeW    float64
	tip        string
	data       []attr
}

type lineItem struct {
	x1, y1, x2, y2 float64
	stroke         color.NRGBA
	width          float64
	dash           float64 // dash length; 0 is solid
}

type circleItem struct {
	cx, cy, r float64
	fill      color.NRGBA
	stroke    color.NRGBA
	tip       string
	data      []attr
}

type anchor int

const (
	anchorStart anchor = iota
	anchorMiddle
	anchorEnd
)

type textItem struct {
	x, y     float64 // the baseline point the anchor refers to
	s        string
	size     float64
	anchor   anchor
	vertical bool // rotated -90°: reads bottom to top
	bold     bool
	color    color.NRGBA
	data     []attr
}

func (s *scene) rect(r *rectItem)     { s.items = append(s.items, r) }
func (s *scene) circle(c *circleItem) { s.items = append(s.items, c) }
func (s *scene) line(x1, y1, x2, y2 float64, c color.NRGBA, w, dash float64) {
	s.items = append(s.items, &lineItem{x1: x1, y1: y1, x2: x2, y2: y2, stroke: c, width: w, dash: dash})
}
func (s *scene) text(t *textItem) {
	if t.color.A == 0 {
		t.color = colText
	}
	s.items = append(s.items, t)
}

// Palette: solved and unsolved differ in hue and lightness so they stay
// apart in grey print and for the common colour-vision deficiencies.
var (
	colSolved   = color.NRGBA{0x1b, 0x9e, 0x77, 0xff}
	colUnsolved = color.NRGBA{0xd9, 0x5f, 0x02, 0xff}
	colError    = color.NRGBA{0x7f, 0x7f, 0x7f, 0xff}
	colBar      = color.NRGBA{0x3b, 0x6e, 0xa8, 0xff}
	colTotal    = color.NRGBA{0x23, 0x3d, 0x5c, 0xff}
	colText     = color.NRGBA{0x22, 0x22, 0x22, 0xff}
	colMuted    = color.NRGBA{0x66, 0x66, 0x66, 0xff}
	colAxis     = color.NRGBA{0x44, 0x44, 0x44, 0xff}
	colGrid     = color.NRGBA{0xdd, 0xdd, 0xdd, 0xff}
	colWhite    = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

func withAlpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

// fonts measures and draws text with the Go fonts, for both renderers: the
// PNG uses them directly and the SVG layout is computed with their metrics.
// A fonts value is not safe for concurrent use (opentype faces are not).
type fonts struct {
	faces map[faceKey]font.Face
}

type faceKey struct {
	size float64
	bold bool
}

var parsedFonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	reg, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, fmt.Errorf("parse Go Regular: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return [2]*opentype.Font{}, fmt.Errorf("parse Go Bold: %w", err)
	}
	return [2]*opentype.Font{reg, bold}, nil
})

func newFonts() (*fonts, error) {
	if _, err := parsedFonts(); err != nil {
		return nil, err
	}
	return &fonts{faces: map[faceKey]font.Face{}}, nil
}

// face returns the face for a pixel size (at 72 dpi one point is one pixel).
func (f *fonts) face(size float64, bold bool) font.Face {
	k := faceKey{size, bold}
	if fc, ok := f.faces[k]; ok {
		return fc
	}
	fs, _ := parsedFonts() // newFonts checked the error
	i := 0
	if bold {
		i = 1
	}
	fc, err := opentype.NewFace(fs[i], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		// NewFace fails only for invalid options; sizes here are positive.
		panic(fmt.Sprintf("opentype face %v: %v", k, err))
	}
	f.faces[k] = fc
	return fc
}

// width is the advance of s in pixels.
func (f *fonts) width(s string, size float64, bold bool) float64 {
	return fixedToFloat(font.MeasureString(f.face(size, bold), s))
}

// truncate shortens s with an ellipsis to fit maxW pixels.
func (f *fonts) truncate(s string, size, maxW float64) string {
	if f.width(s, size, false) <= maxW {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if t := string(r) + "…"; f.width(t, size, false) <= maxW {
			return t
		}
	}
	return "…"
}

func fixedToFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

// niceScale returns an axis top at or above max and a tick step of 1, 2 or 5
// times a power of ten, for about five ticks. Integer axes step by at least 1.
func niceScale(max float64, integer bool) (top, step float64) {
	if !(max > 0) || math.IsInf(max, 0) {
		max = 1
	}
	raw := max / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	switch n := raw / mag; {
	case n <= 1:
		step = mag
	case n <= 2:
		step = 2 * mag
	case n <= 5:
		step = 5 * mag
	default:
		step = 10 * mag
	}
	if integer && step < 1 {
		step = 1
	}
	top = math.Ceil(max/step-1e-9) * step
	return top, step
}

// ticks lists 0, step, … up to top.
func ticks(top, step float64) []float64 {
	var out []float64
	for i := 0; ; i++ {
		v := float64(i) * step
		if v > top+step*1e-6 {
			break
		}
		out = append(out, v)
	}
	return out
}

// fmtNum formats an axis or label value compactly: 12, 1.5, 12k, 3.4M.
func fmtNum(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return trimZero(strconv.FormatFloat(v/1e6, 'f', 1, 64)) + "M"
	case a >= 1e4:
		return trimZero(strconv.FormatFloat(v/1e3, 'f', 0, 64)) + "k"
	case a >= 1e3:
		return trimZero(strconv.FormatFloat(v/1e3, 'f', 1, 64)) + "k"
	case a == math.Trunc(a):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 1:
		return trimZero(strconv.FormatFloat(v, 'f', 1, 64))
	}
	return trimZero(strconv.FormatFloat(v, 'f', 2, 64))
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// fmtSeconds formats a duration in seconds for labels.
func fmtSeconds(v float64) string {
	switch {
	case v >= 3600:
		return fmt.Sprintf("%.1f h", v/3600)
	case v >= 120:
		return fmt.Sprintf("%.1f min", v/60)
	case v >= 10:
		return fmt.Sprintf("%.0f s", v)
	}
	return fmt.Sprintf("%.2f s", v)
}

func fmtPercent(rate float64) string { return fmt.Sprintf("%.0f%%", 100*rate) }

// frame is a plot area with a vertical value axis from 0 to top.
type frame struct {
	x0, y0, x1, y1 float64 // plot area: left, top, right, bottom
	top, step      float64
}

// y maps a value to a pixel row.
func (fr frame) y(v float64) float64 {
	return fr.y1 - (v/fr.top)*(fr.y1-fr.y0)
}

// drawValueAxis draws grid lines, tick labels, the axes and the rotated axis
// label of a frame.
func (s *scene) drawValueAxis(fr frame, label string, format func(float64) string) {
	for _, v := range ticks(fr.top, fr.step) {
		y := fr.y(v)
		if v > 0 {
			s.line(fr.x0, y, fr.x1, y, colGrid, 1, 0)
		}
		s.line(fr.x0-4, y, fr.x0, y, colAxis, 1, 0)
		s.text(&textItem{x: fr.x0 - 7, y: y + 4, s: format(v), size: 11, anchor: anchorEnd, color: colMuted})
	}
	s.line(fr.x0, fr.y0, fr.x0, fr.y1, colAxis, 1, 0)
	s.line(fr.x0, fr.y1, fr.x1, fr.y1, colAxis, 1, 0)
	if label != "" {
		s.text(&textItem{x: fr.x0 - 46, y: (fr.y0 + fr.y1) / 2, s: label, size: 12, anchor: anchorMiddle, vertical: true})
	}
}

// drawTitle writes the chart title and a muted subtitle under it.
func (s *scene) drawTitle(title, subtitle string) {
	s.title = title
	s.text(&textItem{x: 16, y: 24, s: title, size: 16, bold: true})
	if subtitle != "" {
		s.text(&textItem{x: 16, y: 42, s: subtitle, size: 11.5, color: colMuted})
	}
}

type legendEntry struct {
	label string
	col   color.NRGBA
}

// drawLegend writes swatches right-aligned at (right, y).
func (s *scene) drawLegend(f *fonts, right, y float64, entries []legendEntry) {
	x := right
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		x -= f.width(e.label, 11.5, false)
		s.text(&textItem{x: x, y: y + 4, s: e.label, size: 11.5})
		x -= 16
		s.rect(&rectItem{x: x, y: y - 6, w: 11, h: 11, fill: e.col})
		x -= 14
	}
}
