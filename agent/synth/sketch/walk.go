package sketch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Walks on a grid. A string of command characters drives a walker from
// the origin — "F" a step forward, "L" and "R" quarter turns; or "U", "D",
// "L", "R" a step in a fixed direction — and the output reads the walk:
// the final position [x, y], its Manhattan distance from the origin, the
// cells visited, whether the walk ends at the origin or visits a cell
// twice. Each character's meaning is learned from the examples among the
// moves a walker has (a step along the heading, back, a turn either way
// or around, a step north, east, south or west, nothing), for each start
// heading; the program is a loop with one branch per character, far
// beyond the sizes the levels reach.

// walkMove is what one command character does.
type walkMove int

const (
	moveStep walkMove = iota
	moveLeft
	moveRight
	moveNorth
	moveEast
	moveSouth
	moveWest
	moveAround
	moveBack
	moveNone
	numMoves
)

// maxWalkChars bounds the distinct command characters (the meanings tried
// grow as numMoves to that power); maxWalkFits bounds the fitting walks
// offered (the first is the program, the others its rivals).
const (
	maxWalkChars = 5
	maxWalkFits  = 8
)

// walkReading is what the output reads of a walk.
type walkReading int

const (
	readPosition walkReading = iota
	readDistance
	readVisited
	readAtOrigin
	readCrossed
	numReadings
)

var walkReadingNames = [numReadings]string{"position", "distance", "visited", "at_origin", "crossed"}

// walk is one filling: the meaning of each character, the start heading
// and the reading.
type walk struct {
	chars   []rune
	moves   []walkMove
	heading int // index into walkHeadings
	read    walkReading
}

// walkHeadings are the start headings tried: north, east, south, west.
var walkHeadings = [][2]int64{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}

// walkState is a walk's position, heading and what its readings need.
type walkState struct {
	x, y, dx, dy int64
	seen         map[[2]int64]bool
	crossed      bool
}

// run walks s and returns the reading, or ErrV for a character without a
// meaning.
func (w walk) run(s string) any {
	h := walkHeadings[w.heading]
	st := walkState{dx: h[0], dy: h[1]}
	track := w.read == readVisited || w.read == readCrossed
	if track {
		st.seen = map[[2]int64]bool{{0, 0}: true}
	}
	for _, c := range s {
		i := slices.Index(w.chars, c)
		if i < 0 {
			continue
		}
		moved := true
		switch w.moves[i] {
		case moveStep:
			st.x, st.y = st.x+st.dx, st.y+st.dy
		case moveBack:
			st.x, st.y = st.x-st.dx, st.y-st.dy
		case moveLeft:
			st.dx, st.dy, moved = -st.dy, st.dx, false
		case moveRight:
			st.dx, st.dy, moved = st.dy, -st.dx, false
		case moveAround:
			st.dx, st.dy, moved = -st.dx, -st.dy, false
		case moveNorth:
			st.y++
		case moveEast:
			st.x++
		case moveSouth:
			st.y--
		case moveWest:
			st.x--
		default:
			moved = false
		}
		if moved && track {
			p := [2]int64{st.x, st.y}
			st.crossed = st.crossed || st.seen[p]
			st.seen[p] = true
		}
	}
	switch w.read {
	case readPosition:
		return []int64{st.x, st.y}
	case readDistance:
		return dsl.AbsI(st.x) + dsl.AbsI(st.y)
	case readVisited:
		return int64(len(st.seen))
	case readAtOrigin:
		return st.x == 0 && st.y == 0
	}
	return st.crossed
}

// twoDimensional reports whether the meanings make a walk on a plane:
// some turn, or steps along both axes (a walk on a line is a count the
// levels find).
func (w walk) twoDimensional() bool {
	var vertical, horizontal bool
	for _, m := range w.moves {
		switch m {
		case moveLeft, moveRight:
			return true
		case moveNorth, moveSouth:
			vertical = true
		case moveEast, moveWest:
			horizontal = true
		case moveStep, moveBack:
			// Without turns a step goes along the start heading.
			if walkHeadings[w.heading][0] == 0 {
				vertical = true
			} else {
				horizontal = true
			}
		}
	}
	return vertical && horizontal
}

// walkReadings are the readings of an output type.
func walkReadings(t dsl.Type) []walkReading {
	switch t {
	case dsl.ListInt:
		return []walkReading{readPosition}
	case dsl.Int:
		return []walkReading{readDistance, readVisited}
	case dsl.Bool:
		return []walkReading{readAtOrigin, readCrossed}
	}
	return nil
}

// Walk learns the walk when the input is one string of a few
// distinct characters; it reports whether consider accepted a program.
func Walk(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.Str || p.Nullable || len(p.Outs) < 2 || en.Stopped {
		return false
	}
	reads := walkReadings(p.Out)
	if reads == nil || p.Out != dsl.ListInt && !walkEvidence(p) {
		return false
	}
	if p.Out == dsl.ListInt {
		for _, o := range p.Outs {
			if xs, good := o.([]int64); !good || len(xs) != 2 {
				return false
			}
		}
	}
	var chars []rune
	for _, o := range p.Envs[:len(p.Outs)] {
		for _, c := range o[0].(string) {
			if !slices.Contains(chars, c) {
				chars = append(chars, c)
			}
		}
	}
	if len(chars) < 2 || len(chars) > maxWalkChars {
		return false
	}
	slices.Sort(chars)
	fits, leaves, accepted := 0, 0, false
	moves := make([]walkMove, len(chars))
	// Walks of fixed directions (no heading) are tried before walks that
	// turn; no two characters do the same thing, unless nothing.
	relative := false
	// try fills the meanings from the i-th character on; it reports
	// whether to stop.
	var try func(i int) bool
	try = func(i int) bool {
		if i < len(moves) {
			for m := range numMoves {
				if !relative && turnsWith(m) || m != moveNone && slices.Contains(moves[:i], m) {
					continue
				}
				moves[i] = m
				if try(i + 1) {
					return true
				}
			}
			return false
		}
		if relative && !slices.ContainsFunc(moves, turnsWith) {
			return false
		}
		if leaves++; leaves&255 == 0 && en.interrupted() {
			return true
		}
		for heading := range walkHeadings {
			if heading > 0 && !turns(moves) {
				break
			}
			if !(walk{moves: moves, heading: heading}).twoDimensional() {
				continue
			}
			for _, read := range reads {
				w := walk{chars: chars, moves: moves, heading: heading, read: read}
				if !walkFits(p, w) {
					continue
				}
				w.moves = slices.Clone(moves)
				if offer(en, walkNode(p, w), consider) {
					accepted = true
					return true
				}
				if fits++; fits >= maxWalkFits {
					return true
				}
			}
		}
		return false
	}
	for _, relative = range []bool{false, true} {
		if try(0) {
			break
		}
	}
	return accepted
}

// turnsWith reports whether a move depends on the heading.
func turnsWith(m walkMove) bool {
	switch m {
	case moveStep, moveBack, moveLeft, moveRight, moveAround:
		return true
	}
	return false
}

// walkEvidence reports whether a count or a truth value has examples
// enough for a walk: with few examples, or outputs that barely vary, some
// meanings of a few characters fit by chance. A count needs three
// values, a truth value each of its two twice.
func walkEvidence(p *dsl.Problem) bool {
	if len(p.Outs) < minWalkExamples {
		return false
	}
	counts := map[any]int{}
	for _, o := range p.Outs {
		counts[o]++
	}
	if p.Out == dsl.Int {
		return len(counts) >= 3
	}
	return len(counts) == 2 && counts[true] >= 2 && counts[false] >= 2
}

// minWalkExamples is how many examples a walk's count or truth value
// needs.
const minWalkExamples = 8

// turns reports whether the start heading matters: some move is
// relative to it.
func turns(moves []walkMove) bool {
	for _, m := range moves {
		if m == moveStep || m == moveBack {
			return true
		}
	}
	return false
}

// walkFits checks a walk on the examples, stopping at the first wrong
// output.
func walkFits(p *dsl.Problem, w walk) bool {
	for i := range p.Outs {
		if !p.MatchesAt(i, w.run(p.Envs[i][0].(string))) {
			return false
		}
	}
	return true
}

// String writes the walk for names and notes.
func (w walk) String() string {
	var parts []string
	for i, c := range w.chars {
		parts = append(parts, fmt.Sprintf("%q=%s", c, walkMoveNames[w.moves[i]]))
	}
	h := walkHeadings[w.heading]
	return fmt.Sprintf("%s; facing (%d, %d); %s", strings.Join(parts, " "), h[0], h[1], walkReadingNames[w.read])
}

var walkMoveNames = [numMoves]string{"step", "left", "right", "north", "east", "south", "west", "around", "back", "none"}

// walkNode is the program of a walk over the string variable.
func walkNode(p *dsl.Problem, w walk) *dsl.Node {
	size := 3 + 2*len(w.chars)
	op := &dsl.Operator{Name: "walk[" + w.String() + "]", Args: p.B.Types, Ret: p.Out, Fam: dsl.FamLoop, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return w.run(a[0].(string)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("walk", p.B.Names, walkLoop(w, p.B.Names[0])), a...)
		}}
	return overVars(p, op, size)
}

// walkLoop renders the walk's helper: a loop with a branch per character
// that does something.
func walkLoop(w walk, s string) string {
	var sb strings.Builder
	h := walkHeadings[w.heading]
	if turns(w.moves) {
		fmt.Fprintf(&sb, "    x, y, dx, dy = 0, 0, %d, %d\n", h[0], h[1])
	} else {
		sb.WriteString("    x, y = 0, 0\n")
	}
	track := w.read == readVisited || w.read == readCrossed
	if track {
		sb.WriteString("    seen = {(0, 0)}\n")
	}
	if w.read == readCrossed {
		sb.WriteString("    crossed = False\n")
	}
	fmt.Fprintf(&sb, "    for c in %s:\n", s)
	kw := "if"
	for i, c := range w.chars {
		var do string
		moved := true
		switch w.moves[i] {
		case moveStep:
			do = "x, y = x + dx, y + dy"
		case moveBack:
			do = "x, y = x - dx, y - dy"
		case moveLeft:
			do, moved = "dx, dy = -dy, dx", false
		case moveRight:
			do, moved = "dx, dy = dy, -dx", false
		case moveAround:
			do, moved = "dx, dy = -dx, -dy", false
		case moveNorth:
			do = "y += 1"
		case moveEast:
			do = "x += 1"
		case moveSouth:
			do = "y -= 1"
		case moveWest:
			do = "x -= 1"
		default:
			continue
		}
		fmt.Fprintf(&sb, "        %s c == %s:\n            %s\n", kw, strconv.Quote(string(c)), do)
		if moved && w.read == readCrossed {
			sb.WriteString("            crossed = crossed or (x, y) in seen\n")
		}
		if moved && track {
			sb.WriteString("            seen.add((x, y))\n")
		}
		kw = "elif"
	}
	switch w.read {
	case readPosition:
		sb.WriteString("    return [x, y]\n")
	case readDistance:
		sb.WriteString("    return abs(x) + abs(y)\n")
	case readVisited:
		sb.WriteString("    return len(seen)\n")
	case readAtOrigin:
		sb.WriteString("    return x == 0 and y == 0\n")
	default:
		sb.WriteString("    return crossed\n")
	}
	return sb.String()
}
