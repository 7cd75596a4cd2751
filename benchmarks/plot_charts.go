package benchmarks

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
)

// Plot names: the file stems in the report directory and the data-plot
// attribute of each SVG.
const (
	PlotSolveRate          = "solve_rate"
	PlotIterationsExamples = "iterations_examples"
	PlotTokensSolved       = "tokens_solved"
	PlotTimePerTask        = "time_per_task"
)

// Task statuses shown in the plots.
const (
	statusSolved   = "solved"
	statusUnsolved = "unsolved"
	statusError    = "error"
)

func taskStatus(r TaskResult) string {
	switch {
	case r.Error != "":
		return statusError
	case r.Solved:
		return statusSolved
	}
	return statusUnsolved
}

func statusColor(st string) color.NRGBA {
	switch st {
	case statusSolved:
		return colSolved
	case statusError:
		return colError
	}
	return colUnsolved
}

// statusLegend lists the statuses present in a summary (solved and unsolved
// always, error only when a task failed).
func statusLegend(s Summary) []legendEntry {
	out := []legendEntry{{statusSolved, colSolved}, {statusUnsolved, colUnsolved}}
	if s.Errors > 0 {
		out = append(out, legendEntry{statusError, colError})
	}
	return out
}

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// emptyNote writes a centred note in an empty plot area.
func (s *scene) emptyNote(fr frame, msg string) {
	s.text(&textItem{x: (fr.x0 + fr.x1) / 2, y: (fr.y0+fr.y1)/2 + 4, s: msg, size: 13, anchor: anchorMiddle, color: colMuted})
}

// solveRateScene is a bar per level (and one for the whole sweep) with the
// share of tasks solved.
func solveRateScene(s Summary, f *fonts) *scene {
	sc := &scene{name: PlotSolveRate, w: 720, h: 400}
	sc.drawTitle("Solve rate per level",
		fmt.Sprintf("%d of %d tasks solved (%s); solved means held-out accuracy 1.0", s.Solved, s.Tasks, fmtPercent(s.SolveRate)))
	fr := frame{x0: 72, y0: 92, x1: sc.w - 24, y1: sc.h - 62, top: 1, step: 0.2}
	sc.drawValueAxis(fr, "tasks solved", fmtPercent)
	type bar struct {
		name  string
		st    LevelStats
		total bool
	}
	var bars []bar
	for _, l := range s.LevelNames() {
		bars = append(bars, bar{name: l, st: s.Levels[l]})
	}
	if len(bars) > 1 {
		bars = append(bars, bar{name: "all levels", st: LevelStats{Tasks: s.Tasks, Solved: s.Solved, Rate: s.SolveRate, Errors: s.Errors}, total: true})
	}
	if len(bars) == 0 {
		sc.emptyNote(fr, "no tasks in this sweep")
		return sc
	}
	slot := (fr.x1 - fr.x0) / float64(len(bars))
	bw := math.Min(84, slot*0.62)
	for i, b := range bars {
		cx := fr.x0 + slot*(float64(i)+0.5)
		top := fr.y(b.st.Rate)
		col := colBar
		if b.total {
			col = colTotal
		}
		sc.rect(&rectItem{x: cx - bw/2, y: top, w: bw, h: fr.y1 - top, fill: col,
			tip:  fmt.Sprintf("%s: %d of %d solved (%s)", b.name, b.st.Solved, b.st.Tasks, fmtPercent(b.st.Rate)),
			data: []attr{{"level", b.name}, {"solved", itoa(b.st.Solved)}, {"tasks", itoa(b.st.Tasks)}, {"rate", ftoa(b.st.Rate)}, {"errors", itoa(b.st.Errors)}}})
		sc.text(&textItem{x: cx, y: top - 20, s: fmtPercent(b.st.Rate), size: 13, bold: true, anchor: anchorMiddle})
		sc.text(&textItem{x: cx, y: top - 6, s: fmt.Sprintf("%d/%d", b.st.Solved, b.st.Tasks), size: 11, anchor: anchorMiddle, color: colMuted})
		sc.text(&textItem{x: cx, y: fr.y1 + 18, s: f.truncate(b.name, 12, slot-4), size: 12, bold: b.total, anchor: anchorMiddle})
		if b.st.Errors > 0 {
			sc.text(&textItem{x: cx, y: fr.y1 + 34, s: fmt.Sprintf("%d %s", b.st.Errors, plural(b.st.Errors, "error", "errors")), size: 10.5, anchor: anchorMiddle, color: colError})
		}
	}
	return sc
}

// tasksByLevel orders results by level (LevelNames order) and then by ID.
func tasksByLevel(s Summary) []TaskResult {
	rank := map[string]int{}
	for i, l := range s.LevelNames() {
		rank[l] = i
	}
	out := append([]TaskResult(nil), s.Results...)
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank[out[i].Level], rank[out[j].Level]; ri != rj {
			return ri < rj
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// iterationsExamplesScene shows two bar panels over the same task axis:
// iterations used and examples in the final set, coloured by status.
func iterationsExamplesScene(s Summary, f *fonts) *scene {
	sc := &scene{name: PlotIterationsExamples, w: 960}
	sc.drawTitle("Iterations and examples per task", "tasks grouped by level; hover a bar for the task")
	sc.drawLegend(f, sc.w-24, 24, statusLegend(s))
	tasks := tasksByLevel(s)
	x0, x1 := 72.0, sc.w-24
	slot := (x1 - x0) / math.Max(1, float64(len(tasks)))
	bw := math.Max(1, math.Min(28, slot*0.75))
	showLabels := slot >= 11
	maxIt, maxEx := 0, 0
	for _, r := range tasks {
		maxIt, maxEx = max(maxIt, r.Iterations), max(maxEx, r.Examples)
	}
	panels := []struct {
		key, heading, axis string
		value              func(TaskResult) int
		max                int
	}{
		{"iterations", "Iterations used", "iterations", func(r TaskResult) int { return r.Iterations }, maxIt},
		{"examples", "Examples in the final set", "examples", func(r TaskResult) int { return r.Examples }, maxEx},
	}
	var frames []frame
	y0 := 92.0
	for _, p := range panels {
		top, step := niceScale(float64(p.max), true)
		fr := frame{x0: x0, y0: y0, x1: x1, y1: y0 + 170, top: top, step: step}
		frames = append(frames, fr)
		sc.text(&textItem{x: x0, y: y0 - 12, s: p.heading, size: 12.5, bold: true})
		sc.drawValueAxis(fr, p.axis, fmtNum)
		if len(tasks) == 0 {
			sc.emptyNote(fr, "no tasks in this sweep")
		}
		for i, r := range tasks {
			v := p.value(r)
			cx := x0 + slot*(float64(i)+0.5)
			top := math.Min(fr.y(float64(v)), fr.y1-1.5) // a zero stays visible as a sliver
			st := taskStatus(r)
			sc.rect(&rectItem{x: cx - bw/2, y: top, w: bw, h: fr.y1 - top, fill: statusColor(st),
				tip:  fmt.Sprintf("%s (%s): %d %s, %s", r.ID, r.Level, v, p.key, st),
				data: []attr{{"task", r.ID}, {"level", r.Level}, {"status", st}, {p.key, itoa(v)}}})
		}
		y0 = fr.y1 + 44
	}
	bottom := frames[len(frames)-1].y1
	labelRow := bottom + 18
	if showLabels {
		longest := 0.0
		for _, r := range tasks {
			longest = math.Max(longest, f.width(r.ID, 10, false))
		}
		longest = math.Min(longest, 150)
		for i, r := range tasks {
			cx := x0 + slot*(float64(i)+0.5)
			sc.text(&textItem{x: cx + 3.5, y: bottom + 6, s: f.truncate(r.ID, 10, 150), size: 10, anchor: anchorEnd, vertical: true})
		}
		labelRow = bottom + 6 + longest + 16
	}
	// Level groups: a dashed separator between groups and the level name
	// under each.
	for i := 0; i < len(tasks); {
		j := i
		for j < len(tasks) && tasks[j].Level == tasks[i].Level {
			j++
		}
		left, right := x0+slot*float64(i), x0+slot*float64(j)
		if i > 0 {
			for _, fr := range frames {
				sc.line(left, fr.y0, left, fr.y1, colMuted, 1, 3)
			}
		}
		name := f.truncate(fmt.Sprintf("%s (%d)", tasks[i].Level, j-i), 12, right-left-2)
		sc.text(&textItem{x: (left + right) / 2, y: labelRow, s: name, size: 12, bold: true, anchor: anchorMiddle})
		i = j
	}
	sc.h = labelRow + 18
	return sc
}

// quantile is the linear-interpolation quantile of sorted values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (sorted[hi]-sorted[lo])*(pos-float64(lo))
}

// minBox is the smallest strip that gets a box: quartiles of fewer points
// mislead more than the points alone.
const minBox = 5

// tokensScene plots each task's tokens in a strip per status, with a median
// line and, from minBox tasks, a box (quartiles) and whiskers (range). A sweep that used
// no tokens (the synthesizer agent) still gets its points on the zero line
// and a note saying so.
func tokensScene(s Summary, f *fonts) *scene {
	sc := &scene{name: PlotTokensSolved, w: 720, h: 420}
	groups := []string{statusSolved, statusUnsolved}
	if s.Errors > 0 {
		groups = append(groups, statusError)
	}
	vals := map[string][]float64{}
	var members = map[string][]TaskResult{}
	maxTok := 0
	total := 0
	for _, r := range s.Results {
		st := taskStatus(r)
		members[st] = append(members[st], r)
		vals[st] = append(vals[st], float64(r.Tokens.Total()))
		maxTok = max(maxTok, r.Tokens.Total())
		total += r.Tokens.Total()
	}
	sc.drawTitle("Tokens against solved", fmt.Sprintf("LLM tokens per task (prompt + completion), %s in total", fmtNum(float64(total))))
	top, step := niceScale(float64(maxTok), true)
	fr := frame{x0: 84, y0: 72, x1: sc.w - 24, y1: sc.h - 66, top: top, step: step}
	sc.drawValueAxis(fr, "tokens per task", fmtNum)
	slot := (fr.x1 - fr.x0) / float64(len(groups))
	for gi, g := range groups {
		cx := fr.x0 + slot*(float64(gi)+0.5)
		col := statusColor(g)
		v := append([]float64(nil), vals[g]...)
		sort.Float64s(v)
		med := quantile(v, 0.5)
		switch {
		case len(v) >= minBox:
			q1, q3 := quantile(v, 0.25), quantile(v, 0.75)
			sc.line(cx, fr.y(v[0]), cx, fr.y(q1), col, 1.2, 0)
			sc.line(cx, fr.y(q3), cx, fr.y(v[len(v)-1]), col, 1.2, 0)
			sc.rect(&rectItem{x: cx - 42, y: fr.y(q3), w: 84, h: math.Max(fr.y(q1)-fr.y(q3), 0.01),
				fill: withAlpha(col, 0x30), stroke: col, strokeW: 1.2,
				tip: fmt.Sprintf("%s: quartiles %s–%s, median %s tokens", g, fmtNum(q1), fmtNum(q3), fmtNum(med))})
			sc.line(cx-42, fr.y(med), cx+42, fr.y(med), col, 2.5, 0)
		case len(v) >= 2 && v[len(v)-1] > 0:
			sc.line(cx-42, fr.y(med), cx+42, fr.y(med), col, 2.5, 0)
		}
		for i, r := range members[g] {
			// Deterministic jitter (golden-ratio sequence) spreads equal values.
			_, frac := math.Modf(float64(i+1) * 0.6180339887)
			sc.circle(&circleItem{cx: cx + (frac-0.5)*64, cy: fr.y(float64(r.Tokens.Total())), r: 4.5,
				fill: withAlpha(col, 0xc0), stroke: colWhite,
				tip:  fmt.Sprintf("%s: %d tokens (%d prompt, %d completion), %s", r.ID, r.Tokens.Total(), r.Tokens.PromptTokens, r.Tokens.CompletionTokens, g),
				data: []attr{{"task", r.ID}, {"status", g}, {"tokens", itoa(r.Tokens.Total())}}})
		}
		sc.text(&textItem{x: cx, y: fr.y1 + 20, s: g, size: 12.5, bold: true, anchor: anchorMiddle,
			data: []attr{{"group", g}, {"n", itoa(len(v))}, {"median", ftoa(med)}}})
		note := fmt.Sprintf("n=%d", len(v))
		if len(v) > 0 {
			note += ", median " + fmtNum(med)
		}
		sc.text(&textItem{x: cx, y: fr.y1 + 36, s: note, size: 11, anchor: anchorMiddle, color: colMuted})
	}
	switch {
	case len(s.Results) == 0:
		sc.emptyNote(fr, "no tasks in this sweep")
	case maxTok == 0:
		sc.text(&textItem{x: (fr.x0 + fr.x1) / 2, y: (fr.y0 + fr.y1) / 2, s: "no task used LLM tokens (the built-in synthesizer uses none)",
			size: 12.5, anchor: anchorMiddle, color: colMuted})
	}
	return sc
}

// timeScene is a horizontal bar per task, longest first.
func timeScene(s Summary, f *fonts) *scene {
	tasks := append([]TaskResult(nil), s.Results...)
	sort.SliceStable(tasks, func(i, j int) bool {
		if tasks[i].WallSeconds != tasks[j].WallSeconds {
			return tasks[i].WallSeconds > tasks[j].WallSeconds
		}
		return tasks[i].ID < tasks[j].ID
	})
	n := len(tasks)
	rowH := 16.0
	if n > 150 {
		rowH = math.Max(2, 2400/float64(n))
	}
	showLabels := rowH >= 10
	fontSize := math.Min(11, rowH-4)
	sum, maxT := 0.0, 0.0
	for _, r := range tasks {
		sum += r.WallSeconds
		maxT = math.Max(maxT, r.WallSeconds)
	}
	sc := &scene{name: PlotTimePerTask, w: 960}
	sub := fmt.Sprintf("longest first; %s summed over %d %s", fmtSeconds(sum), n, plural(n, "task", "tasks"))
	if s.WallSeconds > 0 {
		sub += fmt.Sprintf(", sweep wall time %s", fmtSeconds(s.WallSeconds))
		if s.Parallel > 0 {
			sub += fmt.Sprintf(" with --parallel %d", s.Parallel)
		}
	}
	sc.drawTitle("Wall time per task", sub)
	sc.drawLegend(f, sc.w-24, 24, statusLegend(s))
	labelW := 20.0
	if showLabels {
		for _, r := range tasks {
			labelW = math.Max(labelW, f.width(r.ID, fontSize, false))
		}
		labelW = math.Min(labelW, 240) + 12
	}
	top, step := niceScale(maxT, false)
	x0, x1 := 16+labelW, sc.w-76
	y0 := 84.0
	y1 := y0 + math.Max(1, float64(n))*rowH
	xOf := func(v float64) float64 { return x0 + v/top*(x1-x0) }
	for _, v := range ticks(top, step) {
		x := xOf(v)
		if v > 0 {
			sc.line(x, y0, x, y1, colGrid, 1, 0)
		}
		sc.line(x, y0-4, x, y0, colAxis, 1, 0)
		sc.text(&textItem{x: x, y: y0 - 8, s: fmtNum(v), size: 11, anchor: anchorMiddle, color: colMuted})
	}
	sc.line(x0, y0, x1, y0, colAxis, 1, 0)
	sc.line(x0, y0, x0, y1, colAxis, 1, 0)
	if n == 0 {
		sc.emptyNote(frame{x0: x0, y0: y0, x1: x1, y1: y0 + 40}, "no tasks in this sweep")
		y1 = y0 + 40
	}
	for i, r := range tasks {
		y := y0 + float64(i)*rowH
		st := taskStatus(r)
		w := math.Max(1, xOf(r.WallSeconds)-x0)
		sc.rect(&rectItem{x: x0, y: y + rowH*0.15, w: w, h: rowH * 0.7, fill: statusColor(st),
			tip:  fmt.Sprintf("%s (%s): %s, %s", r.ID, r.Level, fmtSeconds(r.WallSeconds), st),
			data: []attr{{"task", r.ID}, {"status", st}, {"seconds", ftoa(r.WallSeconds)}}})
		if showLabels {
			base := y + rowH/2 + fontSize*0.36
			sc.text(&textItem{x: x0 - 6, y: base, s: f.truncate(r.ID, fontSize, 240), size: fontSize, anchor: anchorEnd})
			sc.text(&textItem{x: x0 + w + 4, y: base, s: fmtSeconds(r.WallSeconds), size: fontSize - 0.5, color: colMuted})
		}
	}
	sc.text(&textItem{x: (x0 + x1) / 2, y: y1 + 26, s: "wall time per task (seconds)", size: 12, anchor: anchorMiddle})
	sc.h = y1 + 40
	return sc
}
