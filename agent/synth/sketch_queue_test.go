package synth

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// randJobs draws 0 to max jobs [arrival, duration], arrivals in order.
func randJobs(r *rand.Rand, max int) [][]int {
	jobs := [][]int{}
	at := 0
	for range r.Intn(max + 1) {
		at += r.Intn(6)
		jobs = append(jobs, []int{at, 1 + r.Intn(8)})
	}
	return jobs
}

// serve runs the jobs through one server and reads each job with read
// (its arrival, start and finish).
func serve(read func(arrival, start, finish int) int) func(in any) any {
	return func(in any) any {
		free, out := 0, []int{}
		for _, j := range in.([]any) {
			a, d := int(num(j.([]any)[0])), int(num(j.([]any)[1]))
			start := max(a, free)
			free = start + d
			out = append(out, read(a, start, free))
		}
		return out
	}
}

// The queue sketch learns what a single server's jobs are read for: the
// waits, the finishing times.
func TestQueueSketch(t *testing.T) {
	jobs := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindOther, InputType: "list of [arrival time, duration]", FunctionName: "solve"}
	}
	cases := []sketchCase{
		{name: "queue_waits", task: jobs("queue_waits"), n: 3,
			gen: func(r *rand.Rand) any { return randJobs(r, 8) },
			f:   serve(func(a, start, _ int) int { return start - a })},
		{name: "queue_finish_times", task: jobs("finish_times"), n: 3,
			gen: func(r *rand.Rand) any { return randJobs(r, 8) },
			f:   serve(func(_, _, finish int) int { return finish })},
	}
	wantOpPrefix(cases, "queue[", "a queue")
	runSketchCases(t, cases, sketch.Queue)
}

// Outputs no reading of a queue gives, and too few jobs, are not the
// sketch's.
func TestQueueSketchDeclines(t *testing.T) {
	jobs := task.Task{Name: "t", Kind: task.KindOther, InputType: "list of [arrival time, duration]", FunctionName: "solve"}
	checkDeclines(t, jobs, sketch.Queue, []declineCase{
		{"each pair's sum", [][2]any{{[][]int{{1, 2}, {3, 4}, {5, 1}}, []int{3, 7, 6}}, {[][]int{{0, 1}, {9, 9}}, []int{1, 18}}}},
		{"one job", [][2]any{{[][]int{{2, 3}}, []int{0}}}},
	})
}
