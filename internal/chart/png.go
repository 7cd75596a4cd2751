package chart

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// maxPNGSide bounds the raster so a sweep of thousands of tasks still gives
// a PNG an image viewer opens.
const maxPNGSide = 8000

// PNGScale is the raster resolution per SVG pixel: 2 keeps text crisp on
// high-density screens and in slides.
const PNGScale = 2

type pt struct{ x, y float64 }

// rasterizer draws Chart primitives onto an RGBA image with anti-aliasing.
type rasterizer struct {
	dst   *image.RGBA
	scale float64
	fonts *Fonts
	z     *vector.Rasterizer
}

// PNG renders the Chart to PNG bytes at PNGScale, or at a lower scale for
// a chart too large for maxPNGSide.
func (s *Chart) PNG(f *Fonts) ([]byte, error) {
	scale := float64(PNGScale)
	for scale > 1 && math.Max(s.W, s.H)*scale > maxPNGSide {
		scale--
	}
	w, h := int(math.Ceil(s.W*scale)), int(math.Ceil(s.H*scale))
	if w <= 0 || h <= 0 || w > maxPNGSide*PNGScale || h > maxPNGSide*PNGScale {
		return nil, fmt.Errorf("plot %s: raster size %dx%d out of range", s.Name, w, h)
	}
	r := &rasterizer{dst: image.NewRGBA(image.Rect(0, 0, w, h)), scale: scale, fonts: f, z: vector.NewRasterizer(1, 1)}
	draw.Draw(r.dst, r.dst.Bounds(), image.NewUniform(White), image.Point{}, draw.Src)
	for _, it := range s.items {
		switch it := it.(type) {
		case *Rect:
			r.fillRect(it.X, it.Y, it.W, it.H, it.Fill)
			if it.Stroke.A != 0 {
				x0, y0, x1, y1 := it.X, it.Y, it.X+it.W, it.Y+it.H
				for _, l := range [][4]float64{{x0, y0, x1, y0}, {x1, y0, x1, y1}, {x1, y1, x0, y1}, {x0, y1, x0, y0}} {
					r.strokeLine(l[0], l[1], l[2], l[3], it.Stroke, it.StrokeW)
				}
			}
		case *Circle:
			r.fillCircle(it.CX, it.CY, it.R, it.Fill)
			if it.Stroke.A != 0 {
				r.strokeCircle(it.CX, it.CY, it.R, it.Stroke, 1)
			}
		case *lineItem:
			r.dashedLine(it)
		case *Text:
			r.text(it)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, r.dst); err != nil {
		return nil, fmt.Errorf("encode %s.png: %w", s.Name, err)
	}
	return buf.Bytes(), nil
}

// fillPolygon fills a closed polygon given in Chart units. The vector
// rasterizer works on the polygon's bounding box only, so many small shapes
// on a large image stay cheap.
func (r *rasterizer) fillPolygon(pts []pt, c color.NRGBA) {
	if len(pts) < 3 || c.A == 0 {
		return
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i := range pts {
		pts[i].x *= r.scale
		pts[i].y *= r.scale
		minX, maxX = math.Min(minX, pts[i].x), math.Max(maxX, pts[i].x)
		minY, maxY = math.Min(minY, pts[i].y), math.Max(maxY, pts[i].y)
	}
	box := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(r.dst.Bounds())
	if box.Empty() {
		return
	}
	r.z.Reset(box.Dx(), box.Dy())
	r.z.DrawOp = draw.Over
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	r.z.MoveTo(float32(pts[0].x-ox), float32(pts[0].y-oy))
	for _, p := range pts[1:] {
		r.z.LineTo(float32(p.x-ox), float32(p.y-oy))
	}
	r.z.ClosePath()
	r.z.Draw(r.dst, box, image.NewUniform(c), image.Point{})
}

func (r *rasterizer) fillRect(x, y, w, h float64, c color.NRGBA) {
	r.fillPolygon([]pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}, c)
}

func circlePoints(cx, cy, rad float64) []pt {
	const n = 32
	pts := make([]pt, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / n
		pts[i] = pt{cx + rad*math.Cos(a), cy + rad*math.Sin(a)}
	}
	return pts
}

func (r *rasterizer) fillCircle(cx, cy, rad float64, c color.NRGBA) {
	r.fillPolygon(circlePoints(cx, cy, rad), c)
}

func (r *rasterizer) strokeCircle(cx, cy, rad float64, c color.NRGBA, w float64) {
	pts := circlePoints(cx, cy, rad)
	for i := range pts {
		j := (i + 1) % len(pts)
		r.strokeLine(pts[i].x, pts[i].y, pts[j].x, pts[j].y, c, w)
	}
}

// strokeLine draws a segment of width w as a quadrilateral.
func (r *rasterizer) strokeLine(x1, y1, x2, y2 float64, c color.NRGBA, w float64) {
	dx, dy := x2-x1, y2-y1
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	r.fillPolygon([]pt{{x1 + nx, y1 + ny}, {x2 + nx, y2 + ny}, {x2 - nx, y2 - ny}, {x1 - nx, y1 - ny}}, c)
}

func (r *rasterizer) dashedLine(l *lineItem) {
	if l.Dash <= 0 {
		r.strokeLine(l.X1, l.Y1, l.X2, l.Y2, l.Stroke, l.Width)
		return
	}
	dx, dy := l.X2-l.X1, l.Y2-l.Y1
	length := math.Hypot(dx, dy)
	for t := 0.0; t < length; t += 2 * l.Dash {
		e := math.Min(t+l.Dash, length)
		r.strokeLine(l.X1+dx*t/length, l.Y1+dy*t/length, l.X1+dx*e/length, l.Y1+dy*e/length, l.Stroke, l.Width)
	}
}

// text draws a label; vertical labels are drawn into a mask and rotated.
func (r *rasterizer) text(t *Text) {
	face := r.fonts.face(t.Size*r.scale, t.Bold)
	adv := fixedToFloat(font.MeasureString(face, t.S))
	x, y := t.X*r.scale, t.Y*r.scale
	src := image.NewUniform(t.Color)
	if !t.Vertical {
		switch t.Anchor {
		case AnchorMiddle:
			x -= adv / 2
		case AnchorEnd:
			x -= adv
		}
		d := &font.Drawer{Dst: r.dst, Src: src, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
		d.DrawString(t.S)
		return
	}
	m := face.Metrics()
	asc, desc := m.Ascent.Ceil(), m.Descent.Ceil()
	mw := int(math.Ceil(adv))
	if mw <= 0 {
		return
	}
	mask := image.NewAlpha(image.Rect(0, 0, mw, asc+desc))
	d := &font.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.P(0, asc)}
	d.DrawString(t.S)
	// Rotate 90° counter-clockwise: (x, y) → (y, mw-1-x); the baseline row
	// becomes column asc and the start of the text the bottom row.
	rot := image.NewAlpha(image.Rect(0, 0, asc+desc, mw))
	for yy := 0; yy < asc+desc; yy++ {
		for xx := 0; xx < mw; xx++ {
			rot.Pix[(mw-1-xx)*rot.Stride+yy] = mask.Pix[yy*mask.Stride+xx]
		}
	}
	top := y - adv // AnchorStart: the text ends above the Anchor point
	switch t.Anchor {
	case AnchorMiddle:
		top = y - adv/2
	case AnchorEnd:
		top = y
	}
	min := image.Pt(int(math.Round(x))-asc, int(math.Round(top)))
	draw.DrawMask(r.dst, image.Rectangle{Min: min, Max: min.Add(rot.Rect.Size())}, src, image.Point{}, rot, image.Point{}, draw.Over)
}
