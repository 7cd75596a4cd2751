package sketch

import (
	"fmt"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Queues. A list of jobs, each a pair of an arrival time and a duration,
// served in order by one server that takes the next job when it arrives
// or when the one before is done — customers at a counter, requests at a
// single worker, bookings of one room — maps to a number per job: how
// long it waited, when it started, when it finished, how long it stayed.
// The state is the time the server is free again,
//
//	start = max(arrival, free); free = start + duration
//
// which the lambda banks' transitions do not reach (it keeps a time that
// is neither the output nor the element). Which half of a pair is the
// arrival and what the output reads are learned from the examples.

// queueReading is what the output reads of a job.
type queueReading int

const (
	readWait queueReading = iota
	readStart
	readFinish
	readStay
	numQueueReadings
)

var queueReadingNames = [numQueueReadings]string{"wait", "start", "finish", "stay"}

// queue is one filling: which half of a pair is the arrival, and the
// reading.
type queue struct {
	arrivalSecond bool
	read          queueReading
}

func (q queue) run(jobs []dsl.Pair) any {
	out := make([]int64, len(jobs))
	var free int64
	for i, j := range jobs {
		a, d := j[0], j[1]
		if q.arrivalSecond {
			a, d = d, a
		}
		start := max(a, free)
		finish, good := dsl.AddI(start, d)
		if !good {
			return dsl.ErrV
		}
		free = finish
		switch q.read {
		case readWait:
			out[i] = start - a
		case readStart:
			out[i] = start
		case readFinish:
			out[i] = finish
		default:
			out[i] = finish - a
		}
	}
	return out
}

// Queue tries every filling when a list of pairs maps to a list of
// integers as long; it reports whether consider accepted a program.
func Queue(en *Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	if len(p.B.Types) != 1 || p.B.Types[0] != dsl.ListPair || p.Out != dsl.ListInt || p.Nullable || len(p.Outs) < 1 || en.Stopped {
		return false
	}
	jobs := 0
	for i, o := range p.Outs {
		if len(o.([]int64)) != len(p.Envs[i][0].([]dsl.Pair)) {
			return false
		}
		jobs += len(o.([]int64))
	}
	// One job says little: a wait of 0 is the first job's whatever the
	// reading.
	if jobs < minQueueJobs {
		return false
	}
	var fills []queue
	for _, second := range []bool{false, true} {
		for r := range numQueueReadings {
			fills = append(fills, queue{arrivalSecond: second, read: r})
		}
	}
	return fillSketch(en, p, fills, func(q queue, env []any) any { return q.run(env[0].([]dsl.Pair)) },
		func(q queue) *dsl.Node { return queueNode(p, q) }, consider)
}

// minQueueJobs is how many jobs the examples need in all.
const minQueueJobs = 4

func (q queue) String() string {
	order := "arrival, duration"
	if q.arrivalSecond {
		order = "duration, arrival"
	}
	return fmt.Sprintf("%s; %s", order, queueReadingNames[q.read])
}

func queueNode(p *dsl.Problem, q queue) *dsl.Node {
	op := &dsl.Operator{Name: "queue[" + q.String() + "]", Args: p.B.Types, Ret: dsl.ListInt, Fam: dsl.FamScan, Cost: 1,
		Eval: func(_ *dsl.Lambda, a []any) any { return q.run(a[0].([]dsl.Pair)) },
		Py: func(e *dsl.Emitter, _ *dsl.Lambda, a []dsl.Code) dsl.Code {
			return dsl.Call(e.LoopHelper("queue", p.B.Names, queueLoop(q, p.B.Names[0])), a...)
		}}
	return &dsl.Node{Op: op, Kids: []*dsl.Node{{Var: 0, Size: 1}}, Var: -1, Size: 10}
}

// queueLoop renders the simulation: a loop keeping the time the server is
// free.
func queueLoop(q queue, jobs string) string {
	var sb strings.Builder
	names := "arrival, duration"
	if q.arrivalSecond {
		names = "duration, arrival"
	}
	fmt.Fprintf(&sb, "    free, out = 0, []\n    for %s in %s:\n        start = max(arrival, free)\n        free = start + duration\n", names, jobs)
	reading := [numQueueReadings]string{"start - arrival", "start", "free", "free - arrival"}
	fmt.Fprintf(&sb, "        out.append(%s)\n    return out\n", reading[q.read])
	return sb.String()
}
