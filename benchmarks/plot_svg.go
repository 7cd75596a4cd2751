package benchmarks

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

// svg renders a scene as a standalone SVG element; the same markup is valid
// inline in HTML5 and, after an XML declaration, as an .svg file.
func (s *scene) svg() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" class="plot" data-plot="%s" font-family="%s">`,
		num(s.w), num(s.h), num(s.w), num(s.h), esc(s.name), esc(svgFontFamily))
	fmt.Fprintf(&b, "\n<title>%s</title>\n", esc(s.title))
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", num(s.w), num(s.h))
	for _, it := range s.items {
		switch it := it.(type) {
		case *rectItem:
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s"%s`, num(it.x), num(it.y), num(it.w), num(it.h), paint("fill", it.fill))
			if it.stroke.A != 0 {
				fmt.Fprintf(&b, `%s stroke-width="%s"`, paint("stroke", it.stroke), num(it.strokeW))
			}
			writeData(&b, it.data)
			writeTip(&b, "rect", it.tip)
		case *circleItem:
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s"%s`, num(it.cx), num(it.cy), num(it.r), paint("fill", it.fill))
			if it.stroke.A != 0 {
				fmt.Fprintf(&b, `%s stroke-width="1"`, paint("stroke", it.stroke))
			}
			writeData(&b, it.data)
			writeTip(&b, "circle", it.tip)
		case *lineItem:
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"%s stroke-width="%s"`,
				num(it.x1), num(it.y1), num(it.x2), num(it.y2), paint("stroke", it.stroke), num(it.width))
			if it.dash > 0 {
				fmt.Fprintf(&b, ` stroke-dasharray="%s %s"`, num(it.dash), num(it.dash))
			}
			b.WriteString("/>\n")
		case *textItem:
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s"%s`, num(it.x), num(it.y), num(it.size), paint("fill", it.color))
			switch it.anchor {
			case anchorMiddle:
				b.WriteString(` text-anchor="middle"`)
			case anchorEnd:
				b.WriteString(` text-anchor="end"`)
			}
			if it.bold {
				b.WriteString(` font-weight="bold"`)
			}
			if it.vertical {
				fmt.Fprintf(&b, ` transform="rotate(-90 %s %s)"`, num(it.x), num(it.y))
			}
			writeData(&b, it.data)
			fmt.Fprintf(&b, ">%s</text>\n", esc(it.s))
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// svgFile is the standalone .svg document.
func (s *scene) svgFile() []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n" + s.svg())
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

func writeData(b *strings.Builder, data []attr) {
	for _, a := range data {
		fmt.Fprintf(b, ` data-%s="%s"`, a.k, esc(a.v))
	}
}

func writeTip(b *strings.Builder, elem, tip string) {
	if tip == "" {
		b.WriteString("/>\n")
		return
	}
	fmt.Fprintf(b, "><title>%s</title></%s>\n", esc(tip), elem)
}
