package chart

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNiceScale(t *testing.T) {
	tests := []struct {
		max       float64
		integer   bool
		top, step float64
	}{
		{0, true, 1, 1},
		{0, false, 1, 0.2},
		{7.9, false, 8, 2},
		{40, true, 40, 10},
		{3, true, 3, 1},
		{7700, true, 8000, 2000},
		{0.3, false, 0.3, 0.1},
		{math.Inf(1), false, 1, 0.2},
		{math.NaN(), true, 1, 1},
	}
	for _, tt := range tests {
		top, step := NiceScale(tt.max, tt.integer)
		if math.Abs(top-tt.top) > 1e-9 || math.Abs(step-tt.step) > 1e-9 {
			t.Errorf("NiceScale(%v, %v) = %v, %v; want %v, %v", tt.max, tt.integer, top, step, tt.top, tt.step)
		}
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		top, step float64
		want      []float64
	}{
		{1, 0.2, []float64{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}},
		{40, 10, []float64{0, 10, 20, 30, 40}},
		{3, 1, []float64{0, 1, 2, 3}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Ticks(tt.top, tt.step)); diff != "" {
			t.Errorf("Ticks(%v, %v) (-want +got):\n%s", tt.top, tt.step, diff)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		f    func(float64) string
		in   float64
		want string
	}{
		{"number integer", FormatNumber, 12, "12"},
		{"number fraction", FormatNumber, 1.5, "1.5"},
		{"number small", FormatNumber, 0.25, "0.25"},
		{"number tens", FormatNumber, 12.4, "12"},
		{"number thousands", FormatNumber, 1500, "1.5k"},
		{"number ten thousands", FormatNumber, 12345, "12k"},
		{"number millions", FormatNumber, 3.4e6, "3.4M"},
		{"number negative", FormatNumber, -2000, "-2k"},
		{"seconds small", FormatSeconds, 1.234, "1.23 s"},
		{"seconds", FormatSeconds, 42, "42 s"},
		{"minutes", FormatSeconds, 150, "2.5 min"},
		{"hours", FormatSeconds, 5400, "1.5 h"},
		{"percent", FormatPercent, 0.666, "67%"},
		{"percent whole", FormatPercent, 1, "100%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	f, err := NewFonts()
	if err != nil {
		t.Fatal(err)
	}
	long := "a_rather_long_task_identifier"
	tests := []struct {
		name string
		s    string
		maxW float64
		want func(string) bool
	}{
		{"fits", "add", 100, func(got string) bool { return got == "add" }},
		{"shortened", long, 60, func(got string) bool {
			return strings.HasSuffix(got, "…") && strings.HasPrefix(long, strings.TrimSuffix(got, "…")) && f.Width(got, 12, false) <= 60
		}},
		{"nothing fits", long, 1, func(got string) bool { return got == "…" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f.Truncate(tt.s, 12, tt.maxW); !tt.want(got) {
				t.Errorf("Truncate(%q, 12, %v) = %q", tt.s, tt.maxW, got)
			}
		})
	}
	if w := f.Width("mmmm", 12, true); !(w > f.Width("mmmm", 12, false)) {
		t.Errorf("bold is not wider than regular: %v", w)
	}
}

var (
	red  = color.NRGBA{0xff, 0, 0, 0xff}
	blue = color.NRGBA{0, 0, 0xff, 0xff}
)

// sample is a small chart with one of every primitive.
func sample() *Chart {
	c := &Chart{Name: "sample", W: 200, H: 100}
	c.DrawTitle("A <title>", "")
	c.Rect(&Rect{X: 10, Y: 40, W: 50, H: 40, Fill: red, Tip: `a & "b"`, Data: []Attr{{K: "task", V: "x<y"}}})
	c.Circle(&Circle{CX: 150, CY: 60, R: 10, Fill: WithAlpha(blue, 0x80), Stroke: White})
	c.Line(0, 90, 200, 90, AxisColor, 1, 3)
	c.Text(&Text{X: 100, Y: 95, S: "mid", Size: 10, Anchor: AnchorMiddle, Vertical: true})
	return c
}

func TestSVG(t *testing.T) {
	want := `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100" role="img" class="plot" data-plot="sample" font-family="&#39;Go&#39;, &#39;Helvetica Neue&#39;, Helvetica, Arial, sans-serif">
<title>A &lt;title&gt;</title>
<rect x="0" y="0" width="200" height="100" fill="#ffffff"/>
<text x="16" y="24" font-size="16" fill="#222222" font-weight="bold">A &lt;title&gt;</text>
<rect x="10" y="40" width="50" height="40" fill="#ff0000" data-task="x&lt;y"><title>a &amp; &#34;b&#34;</title></rect>
<circle cx="150" cy="60" r="10" fill="#0000ff" fill-opacity="0.5" stroke="#ffffff" stroke-width="1"/>
<line x1="0" y1="90" x2="200" y2="90" stroke="#444444" stroke-width="1" stroke-dasharray="3 3"/>
<text x="100" y="95" font-size="10" fill="#222222" text-anchor="middle" transform="rotate(-90 100 95)">mid</text>
</svg>
`
	c := sample()
	if diff := cmp.Diff(want, c.SVG()); diff != "" {
		t.Errorf("SVG (-want +got):\n%s", diff)
	}
	if got := string(c.SVGFile()); !strings.HasPrefix(got, `<?xml version="1.0"`) || !strings.HasSuffix(got, want) {
		t.Errorf("SVGFile is not the XML declaration and the SVG:\n%s", got)
	}
}

func TestPNG(t *testing.T) {
	f, err := NewFonts()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		chart   *Chart
		size    image.Point
		at      image.Point // a pixel expected in colour want
		want    color.NRGBA
		wantErr string
	}{
		{name: "drawn at PNGScale", chart: sample(), size: image.Pt(400, 200), at: image.Pt(70, 120), want: red},
		{name: "background", chart: sample(), size: image.Pt(400, 200), at: image.Pt(390, 10), want: White},
		{name: "too large for the scale is drawn smaller", chart: &Chart{Name: "wide", W: 5000, H: 10}, size: image.Pt(5000, 10), at: image.Pt(0, 0), want: White},
		{name: "empty size", chart: &Chart{Name: "empty"}, wantErr: "plot empty: raster size 0x0 out of range"},
		{name: "beyond any scale", chart: &Chart{Name: "huge", W: 20000, H: 10}, wantErr: "plot huge: raster size 20000x10 out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := tt.chart.PNG(f)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got := img.Bounds().Size(); got != tt.size {
				t.Errorf("size %v, want %v", got, tt.size)
			}
			if got := color.NRGBAModel.Convert(img.At(tt.at.X, tt.at.Y)).(color.NRGBA); got != tt.want {
				t.Errorf("pixel %v is %v, want %v", tt.at, got, tt.want)
			}
		})
	}
}

func TestPNGDrawsText(t *testing.T) {
	f, err := NewFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, vertical := range []bool{false, true} {
		c := &Chart{Name: "text", W: 100, H: 100}
		c.Text(&Text{X: 50, Y: 50, S: "Wg", Size: 20, Anchor: AnchorMiddle, Vertical: vertical})
		data, err := c.PNG(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		ink := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) == TextColor {
					ink++
				}
			}
		}
		if ink < 20 {
			t.Errorf("vertical=%v: %d pixels in the text colour, want the label drawn", vertical, ink)
		}
	}
}
