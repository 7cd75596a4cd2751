package chart

import (
	"fmt"
	"html"
	"image/color"
	"strconv"
	"strings"
)

// svgFontFamily lists the Go font the layout was measured with first, then
// close metric fallbacks.
const svgFontFamily = "'Go', 'Helvetica Neue', Helvetica, Arial, sans-serif"

// SVG renders the Chart as a standalone SVG element; the same markup is valid
// inline in HTML5 and, after an XML declaration, as an .svg file.
func (s *Chart) SVG() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" class="plot" data-plot="%s" font-family="%s">`,
		num(s.W), num(s.H), num(s.W), num(s.H), esc(s.Name), esc(svgFontFamily))
	fmt.Fprintf(&b, "\n<title>%s</title>\n", esc(s.Title))
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", num(s.W), num(s.H))
	for _, it := range s.items {
		switch it := it.(type) {
		case *Rect:
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s"%s`, num(it.X), num(it.Y), num(it.W), num(it.H), paint("fill", it.Fill))
			if it.Stroke.A != 0 {
				fmt.Fprintf(&b, `%s stroke-width="%s"`, paint("stroke", it.Stroke), num(it.StrokeW))
			}
			writeData(&b, it.Data)
			writeTip(&b, "rect", it.Tip)
		case *Circle:
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s"%s`, num(it.CX), num(it.CY), num(it.R), paint("fill", it.Fill))
			if it.Stroke.A != 0 {
				fmt.Fprintf(&b, `%s stroke-width="1"`, paint("stroke", it.Stroke))
			}
			writeData(&b, it.Data)
			writeTip(&b, "circle", it.Tip)
		case *lineItem:
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"%s stroke-width="%s"`,
				num(it.X1), num(it.Y1), num(it.X2), num(it.Y2), paint("stroke", it.Stroke), num(it.Width))
			if it.Dash > 0 {
				fmt.Fprintf(&b, ` stroke-dasharray="%s %s"`, num(it.Dash), num(it.Dash))
			}
			b.WriteString("/>\n")
		case *Text:
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s"%s`, num(it.X), num(it.Y), num(it.Size), paint("fill", it.Color))
			switch it.Anchor {
			case AnchorMiddle:
				b.WriteString(` text-anchor="middle"`)
			case AnchorEnd:
				b.WriteString(` text-anchor="end"`)
			}
			if it.Bold {
				b.WriteString(` font-weight="bold"`)
			}
			if it.Vertical {
				fmt.Fprintf(&b, ` transform="rotate(-90 %s %s)"`, num(it.X), num(it.Y))
			}
			writeData(&b, it.Data)
			fmt.Fprintf(&b, ">%s</text>\n", esc(it.S))
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// SVGFile is the standalone .svg document.
func (s *Chart) SVGFile() []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n" + s.SVG())
}

// num formats a coordinate with at most two decimals, keeping markup short.
func num(v float64) string { return trimZero(strconv.FormatFloat(v, 'f', 2, 64)) }

func esc(s string) string { return html.EscapeString(s) }

func paint(prop string, c color.NRGBA) string {
	if c.A == 0 {
		return fmt.Sprintf(` %s="none"`, prop)
	}
	out := fmt.Sprintf(` %s="#%02x%02x%02x"`, prop, c.R, c.G, c.B)
	if c.A != 0xff {
		out += fmt.Sprintf(` %s-opacity="%s"`, prop, num(float64(c.A)/255))
	}
	return out
}

func writeData(b *strings.Builder, data []Attr) {
	for _, a := range data {
		fmt.Fprintf(b, ` data-%s="%s"`, a.K, esc(a.V))
	}
}

func writeTip(b *strings.Builder, elem, tip string) {
	if tip == "" {
		b.WriteString("/>\n")
		return
	}
	fmt.Fprintf(b, "><title>%s</title></%s>\n", esc(tip), elem)
}
