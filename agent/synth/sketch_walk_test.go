package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// randCommands is a string of 0 to max characters from alphabet.
func randCommands(r *rand.Rand, alphabet string, max int) string {
	b := make([]byte, r.Intn(max+1))
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}

// gridWalk walks s from the origin facing north: F steps forward, L and R
// turn, U D E W step north, south, east, west; it returns the cells
// visited in order, the origin first.
func gridWalk(s string) [][2]int {
	x, y, dx, dy := 0, 0, 0, 1
	cells := [][2]int{{0, 0}}
	for _, c := range s {
		switch c {
		case 'F':
			x, y = x+dx, y+dy
		case 'L':
			dx, dy = -dy, dx
			continue
		case 'R':
			dx, dy = dy, -dx
			continue
		case 'U':
			y++
		case 'D':
			y--
		case 'E':
			x++
		case 'W':
			x--
		default:
			continue
		}
		cells = append(cells, [2]int{x, y})
	}
	return cells
}

// The walk sketch learns what each command character does: a turtle's
// final position, a grid walk's return to the origin, the cells a walk
// visits, whether it visits one twice.
func TestWalkSketch(t *testing.T) {
	str := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindString, InputType: "string", FunctionName: "solve"}
	}
	last := func(s string) [2]int { c := gridWalk(s); return c[len(c)-1] }
	cases := []sketchCase{
		{name: "walk_turtle_position", task: str("robot_walk"), n: 4,
			gen: func(r *rand.Rand) any { return randCommands(r, "FLR", 20) },
			f:   func(in any) any { p := last(in.(string)); return []int{p[0], p[1]} }},
		{name: "walk_back_at_origin", task: str("back_at_origin"), n: 12,
			gen: func(r *rand.Rand) any {
				s := randCommands(r, "UDEW", 6)
				if r.Intn(2) == 0 {
					return s
				}
				// Half the walks retrace their steps.
				back := []byte{}
				for i := len(s) - 1; i >= 0; i-- {
					back = append(back, map[byte]byte{'U': 'D', 'D': 'U', 'E': 'W', 'W': 'E'}[s[i]])
				}
				return s + string(back)
			},
			f: func(in any) any { return last(in.(string)) == [2]int{0, 0} }},
		{name: "walk_cells_visited", task: str("cells_visited"), n: 8,
			gen: func(r *rand.Rand) any { return randCommands(r, "UDEW", 14) },
			f: func(in any) any {
				seen := map[[2]int]bool{}
				for _, c := range gridWalk(in.(string)) {
					seen[c] = true
				}
				return len(seen)
			}},
		{name: "walk_crosses_itself", task: str("path_crossing"), n: 12,
			gen: func(r *rand.Rand) any { return randCommands(r, "UDEW", 8) },
			f: func(in any) any {
				seen := map[[2]int]bool{}
				for _, c := range gridWalk(in.(string)) {
					if seen[c] {
						return true
					}
					seen[c] = true
				}
				return false
			}},
	}
	wantOpPrefix(cases, "walk[", "a walk")
	runSketchCases(t, cases, sketch.Walk)
}

// Inputs of many characters, outputs no walk gives, and walks along one
// line (a count) are not the sketch's.
func TestWalkSketchDeclines(t *testing.T) {
	str := task.Task{Name: "t", Kind: task.KindString, InputType: "string", FunctionName: "solve"}
	cases := []declineCase{
		{"many characters", [][2]any{{"abcdefg", []int{1, 2}}, {"gfedcba", []int{2, 1}}}},
		{"a list of three", [][2]any{{"FFL", []int{0, 2, 1}}, {"LFR", []int{1, 0, 0}}}},
		{"a count from few examples", [][2]any{{"0110", 2}, {"1111", 4}, {"000", 0}, {"1", 1}}},
		{"a truth value that barely varies", [][2]any{{"UD", true}, {"UU", false}, {"DD", false}, {"UE", false},
			{"EW", false}, {"WW", false}, {"EE", false}, {"DE", false}}},
		{"a string output", [][2]any{{"FL", "FL"}, {"RF", "RF"}}},
	}
	checkDeclines(t, str, sketch.Walk, cases)
}
