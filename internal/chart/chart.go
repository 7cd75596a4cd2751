package chart

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

// Chart is one chart as a list of drawing primitives in pixel units. The
// same Chart renders to SVG (SVG, SVGFile) and to PNG (PNG), so an inline
// chart, its .svg and its .png cannot drift. Shapes carry data attributes
// and a tooltip with the values they show, so a reader can hover them and a
// test can check them.
type Chart struct {
	Name  string // file stem and data-plot attribute, e.g. "solve_rate"
	Title string
	W, H  float64
	items []any // *Rect, *lineItem, *Circle, *Text
}

// Attr is a data attribute of a shape: data-K="V" in the SVG.
type Attr struct{ K, V string }

// Rect is a filled rectangle, optionally outlined.
type Rect struct {
	X, Y, W, H float64
	Fill       color.NRGBA
	Stroke     color.NRGBA // zero alpha: none
	StrokeW    float64
	Tip        string
	Data       []Attr
}

type lineItem struct {
	X1, Y1, X2, Y2 float64
	Stroke         color.NRGBA
	Width          float64
	Dash           float64 // dash length; 0 is solid
}

// Circle is a filled circle, optionally outlined.
type Circle struct {
	CX, CY, R float64
	Fill      color.NRGBA
	Stroke    color.NRGBA // zero alpha: none
	Tip       string
	Data      []Attr
}

// Anchor is which point of a text its (X, Y) is.
type Anchor int

// The anchors: the start, the middle or the end of the baseline.
const (
	AnchorStart Anchor = iota
	AnchorMiddle
	AnchorEnd
)

// Text is a label in the Go fonts.
type Text struct {
	X, Y     float64 // the baseline point the Anchor refers to
	S        string
	Size     float64
	Anchor   Anchor
	Vertical bool // rotated -90°: reads bottom to top
	Bold     bool
	Color    color.NRGBA // zero: TextColor
	Data     []Attr
}

// Rect adds a rectangle.
func (s *Chart) Rect(r *Rect) { s.items = append(s.items, r) }

// Circle adds a circle.
func (s *Chart) Circle(c *Circle) { s.items = append(s.items, c) }

// Line adds a segment of width w, dashed when dash > 0.
func (s *Chart) Line(x1, y1, x2, y2 float64, c color.NRGBA, w, dash float64) {
	s.items = append(s.items, &lineItem{X1: x1, Y1: y1, X2: x2, Y2: y2, Stroke: c, Width: w, Dash: dash})
}

// Text adds a label.
func (s *Chart) Text(t *Text) {
	if t.Color.A == 0 {
		t.Color = TextColor
	}
	s.items = append(s.items, t)
}

// The renderer's own colours: text, secondary text, axes, grid lines and
// the background.
var (
	TextColor  = color.NRGBA{0x22, 0x22, 0x22, 0xff}
	MutedColor = color.NRGBA{0x66, 0x66, 0x66, 0xff}
	AxisColor  = color.NRGBA{0x44, 0x44, 0x44, 0xff}
	GridColor  = color.NRGBA{0xdd, 0xdd, 0xdd, 0xff}
	White      = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

// WithAlpha is c with opacity a.
func WithAlpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

// Fonts measures and draws text with the Go fonts, for both renderers: the
// PNG uses them directly and the SVG layout is computed with their metrics.
// A Fonts value is not safe for concurrent use (opentype faces are not).
type Fonts struct {
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

// NewFonts parses the Go fonts (once per process) and returns an empty set
// of faces.
func NewFonts() (*Fonts, error) {
	if _, err := parsedFonts(); err != nil {
		return nil, err
	}
	return &Fonts{faces: map[faceKey]font.Face{}}, nil
}

// face returns the face for a pixel size (at 72 dpi one point is one pixel).
func (f *Fonts) face(size float64, bold bool) font.Face {
	k := faceKey{size, bold}
	if fc, ok := f.faces[k]; ok {
		return fc
	}
	fs, _ := parsedFonts() // NewFonts checked the error
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

// Width is the advance of s in pixels.
func (f *Fonts) Width(s string, size float64, bold bool) float64 {
	return fixedToFloat(font.MeasureString(f.face(size, bold), s))
}

// Truncate shortens s with an ellipsis to fit maxW pixels.
func (f *Fonts) Truncate(s string, size, maxW float64) string {
	if f.Width(s, size, false) <= maxW {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if t := string(r) + "…"; f.Width(t, size, false) <= maxW {
			return t
		}
	}
	return "…"
}

func fixedToFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

// NiceScale returns an axis top at or above max and a tick step of 1, 2 or 5
// times a power of ten, for about five ticks. Integer axes step by at least 1.
func NiceScale(max float64, integer bool) (top, step float64) {
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

// Ticks lists 0, step, … up to top.
func Ticks(top, step float64) []float64 {
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

// FormatNumber formats an axis or label value compactly: 12, 1.5, 12k, 3.4M.
func FormatNumber(v float64) string {
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

// FormatSeconds formats a duration in seconds for labels.
func FormatSeconds(v float64) string {
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

// FormatPercent formats a rate in [0, 1] as a whole percentage.
func FormatPercent(rate float64) string { return fmt.Sprintf("%.0f%%", 100*rate) }

// Frame is a plot area with a vertical value axis from 0 to top.
type Frame struct {
	X0, Y0, X1, Y1 float64 // plot area: left, top, right, bottom
	Top, Step      float64
}

// Y maps a value to a pixel row.
func (fr Frame) Y(v float64) float64 {
	return fr.Y1 - (v/fr.Top)*(fr.Y1-fr.Y0)
}

// DrawValueAxis draws grid lines, tick labels, the axes and the rotated axis
// label of a Frame.
func (s *Chart) DrawValueAxis(fr Frame, label string, format func(float64) string) {
	for _, v := range Ticks(fr.Top, fr.Step) {
		y := fr.Y(v)
		if v > 0 {
			s.Line(fr.X0, y, fr.X1, y, GridColor, 1, 0)
		}
		s.Line(fr.X0-4, y, fr.X0, y, AxisColor, 1, 0)
		s.Text(&Text{X: fr.X0 - 7, Y: y + 4, S: format(v), Size: 11, Anchor: AnchorEnd, Color: MutedColor})
	}
	s.Line(fr.X0, fr.Y0, fr.X0, fr.Y1, AxisColor, 1, 0)
	s.Line(fr.X0, fr.Y1, fr.X1, fr.Y1, AxisColor, 1, 0)
	if label != "" {
		s.Text(&Text{X: fr.X0 - 46, Y: (fr.Y0 + fr.Y1) / 2, S: label, Size: 12, Anchor: AnchorMiddle, Vertical: true})
	}
}

// DrawTitle writes the chart title and a muted subtitle under it.
func (s *Chart) DrawTitle(title, subtitle string) {
	s.Title = title
	s.Text(&Text{X: 16, Y: 24, S: title, Size: 16, Bold: true})
	if subtitle != "" {
		s.Text(&Text{X: 16, Y: 42, S: subtitle, Size: 11.5, Color: MutedColor})
	}
}

// LegendEntry is one swatch of a legend.
type LegendEntry struct {
	Label string
	Color color.NRGBA
}

// DrawLegend writes swatches right-aligned at (right, y).
func (s *Chart) DrawLegend(f *Fonts, right, y float64, entries []LegendEntry) {
	x := right
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		x -= f.Width(e.Label, 11.5, false)
		s.Text(&Text{X: x, Y: y + 4, S: e.Label, Size: 11.5})
		x -= 16
		s.Rect(&Rect{X: x, Y: y - 6, W: 11, H: 11, Fill: e.Color})
		x -= 14
	}
}

// EmptyNote writes a centred note in an empty plot area.
func (s *Chart) EmptyNote(fr Frame, msg string) {
	s.Text(&Text{X: (fr.X0 + fr.X1) / 2, Y: (fr.Y0+fr.Y1)/2 + 4, S: msg, Size: 13, Anchor: AnchorMiddle, Color: MutedColor})
}
