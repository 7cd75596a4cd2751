package synth

import "github.com/reconstruct/reconstruct/agent/synth/dsl"

// The jobs and reductions the sweeps share (strategy_sweep_inputs.go,
// strategy_sweep_derived.go): every one-lambda operator with the programs
// its arguments take.

// all returns every program of type t, smallest first.
func (en *enumerator) all(t dsl.Type) []*dsl.Entry {
	var out []*dsl.Entry
	for _, es := range en.bank[t] {
		out = append(out, es...)
	}
	return out
}

// sweepJob is a one-lambda operator with the programs its arguments take.
type sweepJob struct {
	op    *dsl.Operator
	lists [][]*dsl.Entry
	// args is the size of one choice of arguments.
	args int
}

// sweepJobs lists the one-lambda operators (not loops) with their
// arguments: size-1 programs, except one argument (each in turn) of size
// argMax.
func (en *enumerator) sweepJobs(argMax int) []sweepJob {
	var jobs []sweepJob
	for _, op := range en.ops {
		if op.Sig == dsl.SigNone || op.Sig2 != dsl.SigNone || op.Fam == dsl.FamLoop {
			continue
		}
		// One argument (each in turn) takes size argMax, the others size 1.
		positions := len(op.Args)
		if argMax == 1 {
			positions = 1
		}
		for pos := 0; pos < positions; pos++ {
			lists := make([][]*dsl.Entry, len(op.Args))
			skip := false
			for a, t := range op.Args {
				size := 1
				if a == pos {
					size = argMax
				}
				if len(en.bank[t]) <= size || len(en.bank[t][size]) == 0 {
					skip = true
					break
				}
				lists[a] = en.bank[t][size]
			}
			if !skip {
				args := 0
				for _, l := range lists {
					args += l[0].N.Size
				}
				jobs = append(jobs, sweepJob{op, lists, args})
			}
		}
	}
	return jobs
}

// reduceRecent applies the lambda-free operators to the programs the sweep
// produced, with size-1 programs as any further arguments: sum of a map,
// length of a filter, the maximum of the neighbours' differences...
func (en *enumerator) reduceRecent() {
	recent := en.recent
	en.recent = nil
	for _, e := range recent {
		t := e.Type()
		if t < dsl.Str {
			// Only reductions of lists and strings: scalar results are
			// combined by the regular levels.
			continue
		}
		for _, op := range en.ops {
			if op.Sig != dsl.SigNone || len(op.Args) == 0 || len(op.Args) > 2 || op.Args[0] != t {
				continue
			}
			if len(op.Args) == 1 {
				if en.stopped {
					return
				}
				en.try(op, nil, []*dsl.Entry{e}, op.Cost+e.N.Size)
				continue
			}
			if len(en.bank[op.Args[1]]) < 2 {
				continue
			}
			for _, k := range en.bank[op.Args[1]][1] {
				if en.stopped {
					return
				}
				en.try(op, nil, []*dsl.Entry{e, k}, op.Cost+e.N.Size+1)
			}
		}
	}
}
