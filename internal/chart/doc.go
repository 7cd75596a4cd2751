// Package chart draws simple charts (rectangles, circles, lines, text,
// value axes, titles and legends) once, as a Chart of primitives, and
// renders that Chart to SVG and to PNG with the same layout: text is
// measured with the Go fonts both formats use. It knows nothing of what the
// charts show; the sweep report (benchmarks) builds its charts with it.
package chart
