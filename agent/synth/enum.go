package synth

import (
	"slices"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// enumerator grows a bank of programs bottom-up by size. Programs with the
// same values on every environment are observationally equivalent: only the
// first (smallest, earliest operator) is kept.
type enumerator struct {
	envs  [][]any
	vars  []dsl.Type
	ops   []*dsl.Operator
	lams  *dsl.Lambdas
	bank  [dsl.NumTypes][][]*dsl.Entry // [type][size]
	seen  [dsl.NumTypes]dsl.HashSet
	level int // last size completed

	// The search's clock (clock, mark) runs in nanoseconds up to
	// deadline, or, when MaxEval is set, in programs evaluated up to
	// MaxEval: a budget counted in programs makes the search's outcome
	// independent of the machine's load.
	deadline time.Time
	maxEval  int64
	// done, when closed, stops the search (cancelled is then set).
	done      <-chan struct{}
	cancelled bool
	// mem counts the memory the enumerator holds against its bound
	// (memLimit, and its session's: memory.go); every structure below
	// charges it a chunk or a table at a time.
	mem      *memBudget
	memLimit int64
	// reserve is the room a program stored may take in new chunks of the
	// store: the bank freezes when less is left (addUnseen).
	reserve int64
	// maxPerType caps the bank per type (0: unbounded).
	maxPerType int
	perType    [dsl.NumTypes]int

	// evaluated counts candidate programs evaluated (each on every env).
	evaluated int64
	stopped   bool
	// timedOut is set when the deadline stopped the search.
	timedOut bool
	// memFull is set once the memory bound stopped the bank from
	// growing: the enumerator goes on checking programs built from it
	// (checkFull). frozeAt is the size it was enumerating then.
	memFull bool
	frozeAt int
	// bounded says the enumerator's budget has a bound: it freezes too
	// when the process's heap passes its share (gc.go's heapOver), which
	// heapFull then says, with the heap then (an estimate) and the share.
	bounded   bool
	heapFull  bool
	heapLive  int64
	heapShare int64

	// onNew is called for each new program; returning true stops the
	// search. Once the bank is full (memFull), the programs it is given
	// are not kept: such an entry (transient is set during the call) and
	// its node, column and values are valid during the call only, and a
	// caller that keeps one keeps a copy (dsl.Node.Clone,
	// dsl.CloneValues).
	onNew     func(t dsl.Type, e *dsl.Entry) bool
	transient bool
	// The scratch program offered while the bank is full (checkFull).
	scratchNode  dsl.Node
	scratchKids  []*dsl.Node
	scratchEntry dsl.Entry

	// The scratch space of try: a column of every result type (in the
	// store: the first new program of the type keeps it), the mask of
	// failed environments, the arguments' columns and boxed values.
	out    [dsl.NumTypes]any
	bad    []bool
	cols   []dsl.Vec
	args   []any
	picked []*dsl.Entry
	// ar holds the results of kernels, store what the bank keeps
	// (dsl/arena.go).
	ar    dsl.Arena
	store *dsl.Store
	// sweepUntil bounds a sweep on the clock (0: unbounded); sweepCut
	// says it was cut short.
	sweepUntil int64
	sweepCut   bool
	// A level cut short is resumed where it stopped: levelDone counts the
	// choices of arguments the current level went through, skip those a
	// resumed level passes over.
	inLevel   bool
	levelDone int64
	skip      int64
	// recent collects new programs while recording (for the sweep);
	// recordFull says it also collects, as copies, the programs a full
	// bank checks without keeping (a sweep that reduces what it made
	// after each operator, so that the copies stay few).
	recording, recordFull bool
	recent                []*dsl.Entry
}

type enumConfig struct {
	envs     [][]any
	vars     []dsl.Type
	consts   []any
	ops      []*dsl.Operator
	lams     *dsl.Lambdas
	deadline time.Time
	maxEval  int64
	done     <-chan struct{}
	// mem is the budget the enumerator takes its part (of memLimit
	// bytes) of: its session's; nil: a budget of its own, of memLimit
	// bytes (0: unbounded).
	mem       *memBudget
	memLimit  int64
	maxPerTyp int
}

func newEnumerator(c enumConfig) *enumerator {
	en := &enumerator{envs: c.envs, vars: c.vars, ops: c.ops, lams: c.lams, deadline: c.deadline, maxEval: c.maxEval, done: c.done, memLimit: c.memLimit, maxPerType: c.maxPerTyp}
	for t := range en.bank {
		en.bank[t] = [][]*dsl.Entry{nil, nil}
	}
	if c.mem != nil {
		en.mem = c.mem.sub(c.memLimit)
	} else {
		en.mem = newMemBudget(c.memLimit, c.memLimit/8)
	}
	en.reserve = storeReserve
	if l := en.mem.tightest(); l > 0 {
		en.reserve = min(en.reserve, l/16)
		en.bounded = true
	}
	en.store = new(dsl.Store)
	en.store.SetMeter(en.mem)
	en.ar.SetMeter(en.mem)
	for t := range en.seen {
		en.seen[t].SetMeter(en.mem)
	}
	en.bad = make([]bool, len(c.envs))
	en.cols = make([]dsl.Vec, 4)
	en.args = make([]any, 4)
	// Size 1: variables, then constants.
	for i, t := range c.vars {
		vals := make([]any, len(c.envs))
		for j, env := range c.envs {
			vals[j] = env[i]
		}
		en.add(t, &dsl.Node{Var: i, Size: 1}, vals)
	}
	for _, k := range c.consts {
		t, _ := dsl.TypeOf(k)
		vals := make([]any, len(c.envs))
		for j := range vals {
			vals[j] = k
		}
		en.add(t, &dsl.Node{Var: -1, Const: k, Size: 1}, vals)
	}
	en.level = 1
	return en
}

// add registers a program given its values boxed unless an equivalent
// one exists; it reports whether the program was new. A constant's values
// are the same on every environment (vec.same).
func (en *enumerator) add(t dsl.Type, n *dsl.Node, vals []any) bool {
	col := dsl.ColumnOf(t, vals)
	if col.Bad != nil && !slices.Contains(col.Bad, false) {
		return false
	}
	col.Same = n.Op == nil && n.Var < 0
	return en.addHashed(t, n, col, dsl.HashColumn(col.Data, col.Bad, len(vals), col.Same))
}

func (en *enumerator) addHashed(t dsl.Type, n *dsl.Node, col dsl.Vec, h dsl.Hasher) bool {
	if en.seen[t].Has(h) {
		return false
	}
	return en.addUnseen(t, n, col, h, false)
}

// addUnseen is addHashed for a hash known not to be in the set (try has
// just looked it up); heapRows says the column's lists were made on the
// heap, not in the arena (dsl.HeapBytes).
func (en *enumerator) addUnseen(t dsl.Type, n *dsl.Node, col dsl.Vec, h dsl.Hasher, heapRows bool) bool {
	if en.maxPerType > 0 && en.perType[t] >= en.maxPerType {
		return false
	}
	for len(en.bank[t]) <= n.Size {
		en.bank[t] = append(en.bank[t], nil)
	}
	list := en.bank[t][n.Size]
	if g := en.seen[t].GrowBytes(); en.memFull || !en.mem.fits(en.reserve+g) ||
		len(list) == cap(list) && len(list) > 0 && !en.mem.fits(int64(cap(list))*8) {
		// The set's next table or the list's would pass the bound: the
		// bank is full. The program is checked all the same.
		en.freeze()
		en.offer(t, &dsl.Entry{N: n, Col: col}, h)
		return false
	}
	en.seen[t].Insert(h)
	en.perType[t]++
	// Strings, and the lists of operators without an arena, are made on
	// the heap: charged at the sizes the allocator gives them.
	en.mem.Charge(dsl.HeapBytes(col.Data, heapRows))
	e := en.store.Entry(dsl.Entry{N: n, Col: col})
	en.bank[t][n.Size] = en.appendEntry(list, e)
	if en.recording {
		en.recent = append(en.recent, e)
	}
	if en.onNew != nil && en.onNew(t, e) {
		en.stopped = true
	}
	return true
}

// appendEntry is append(list, e), except that a list grows into memory
// from NewChunk: a size of a type holds up to millions of programs, and
// the fresh memory of each doubling is, from a megabyte on, faulted in
// by one system call instead of one page fault at a time. The growth is
// charged to the enumerator's budget (the list it replaces is garbage).
func (en *enumerator) appendEntry(list []*dsl.Entry, e *dsl.Entry) []*dsl.Entry {
	if len(list) == cap(list) {
		n := max(16, 2*cap(list))
		en.mem.Charge(8 * int64(n-cap(list)))
		list = append(dsl.NewChunk[*dsl.Entry](n, true), list...)
	}
	return append(list, e)
}

// storeReserve is the most room kept for the chunks a stored program
// may take (its node, kids, entry, column and failures; a chunk is at
// most 4 MiB, most are far smaller); a small bound keeps a sixteenth.
const storeReserve = 8 << 20

// freeze marks the bank full: it stores no further program (memory.go).
func (en *enumerator) freeze() {
	if !en.memFull {
		en.memFull, en.frozeAt = true, en.level+1
	}
}

// offer hands onNew a program the full bank does not keep, as a
// transient entry (see onNew); its hash stays in the set while the set
// has room, so that equivalent programs are not offered again.
func (en *enumerator) offer(t dsl.Type, e *dsl.Entry, h dsl.Hasher) {
	if en.seen[t].GrowBytes() == 0 {
		en.seen[t].Insert(h)
	}
	if en.recording && en.recordFull {
		vals := dsl.CloneValues(e.Values())
		en.recent = append(en.recent, &dsl.Entry{N: e.N.Clone(), Col: dsl.ColumnOf(t, vals), BoxedVals: vals})
	}
	en.transient = true
	if en.onNew != nil && en.onNew(t, e) {
		en.stopped = true
	}
	en.transient = false
}

// checkFull is the end of tryOne once the bank is full (memory.go): the
// program's values (in the scratch column out, failed where bad, lists in
// the arena after mark) are offered to onNew as a transient entry, with a
// scratch node, and nothing of them is kept: the arena is rewound, the
// column written again by the next program.
func (en *enumerator) checkFull(op *dsl.Operator, l *dsl.Lambda, picked []*dsl.Entry, size int, out any, bad []bool, same bool, h dsl.Hasher, mark dsl.ArenaMark) {
	en.scratchKids = en.scratchKids[:0]
	for _, e := range picked {
		en.scratchKids = append(en.scratchKids, e.N)
	}
	en.scratchNode = dsl.Node{Op: op, Kids: en.scratchKids, Lam: l, Var: -1, Size: size}
	col := dsl.Vec{Data: out, Same: same}
	if slices.Contains(bad, true) {
		col.Bad = bad
		clearBad(out, bad)
	}
	en.scratchEntry = dsl.Entry{N: &en.scratchNode, Col: col}
	en.offer(op.Ret, &en.scratchEntry, h)
	en.ar.Rewind(mark)
}

// release gives the enumerator's memory back to its session's budget:
// its search ended, and nothing may use its bank after.
func (en *enumerator) release() {
	en.mem.close()
}

// grow enumerates every size up to MaxSize (continuing from the last level
// completed) until the deadline, the memory bound or onNew stops it. A
// level cut short by the deadline is resumed by the next grow where it
// stopped (resume).
func (en *enumerator) grow(maxSize int, afterLevel func(size int) bool) {
	root := en.mem.root()
	holdGC(root)
	defer releaseGC(root)
	for s := en.level + 1; s <= maxSize && !en.stopped; s++ {
		en.inLevel, en.levelDone = true, 0
		en.growLevel(s)
		en.inLevel = false
		if en.stopped {
			return
		}
		en.skip, en.levelDone = 0, 0
		en.level = s
		if afterLevel != nil && afterLevel(s) {
			en.stopped = true
			return
		}
	}
}

func (en *enumerator) growLevel(s int) {
	for _, op := range en.ops {
		rest := s - op.Cost
		nslots := len(op.Args)
		if op.Sig != dsl.SigNone {
			nslots++
		}
		if op.Sig2 != dsl.SigNone {
			nslots++
		}
		if rest < nslots {
			continue
		}
		// Quick reject: every argument type must have programs.
		skip := false
		for _, t := range op.Args {
			if en.perType[t] == 0 {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		sizes := make([]int, nslots)
		en.compositions(op, sizes, 0, rest)
		if en.stopped {
			return
		}
	}
}

// compositions distributes total over the operator's slots (lambdas first,
// then arguments), each at least 1, and enumerates each distribution.
func (en *enumerator) compositions(op *dsl.Operator, sizes []int, i, total int) {
	if en.stopped {
		return
	}
	if i == len(sizes)-1 {
		sizes[i] = total
		en.combine(op, sizes)
		return
	}
	for k := 1; k <= total-(len(sizes)-1-i); k++ {
		sizes[i] = k
		en.compositions(op, sizes, i+1, total-k)
	}
}

func (en *enumerator) combine(op *dsl.Operator, sizes []int) {
	j := 0
	var lams1, lams2 []*dsl.Lambda
	if op.Sig != dsl.SigNone {
		lams1 = en.lams.Get(op.Sig, op.LamRet, sizes[j])
		j++
		if len(lams1) == 0 {
			return
		}
	}
	if op.Sig2 != dsl.SigNone {
		lams2 = en.lams.Get(op.Sig2, op.LamRet2, sizes[j])
		j++
		if len(lams2) == 0 {
			return
		}
	}
	argSizes := sizes[j:]
	lists := make([][]*dsl.Entry, len(op.Args))
	for a, t := range op.Args {
		if argSizes[a] >= len(en.bank[t]) {
			return
		}
		lists[a] = en.bank[t][argSizes[a]]
		if len(lists[a]) == 0 {
			return
		}
	}
	size := op.Cost
	for _, s := range sizes {
		size += s
	}
	if cap(en.picked) < len(lists) {
		en.picked = make([]*dsl.Entry, len(lists))
	}
	picked := en.picked[:len(lists)]
	run := func(l *dsl.Lambda) {
		en.product(op, l, lists, picked, 0, size)
	}
	switch {
	case op.Sig == dsl.SigNone:
		run(nil)
	case op.Sig2 == dsl.SigNone:
		for _, l := range lams1 {
			if en.stopped {
				return
			}
			run(l)
		}
	default:
		for _, l1 := range lams1 {
			for _, l2 := range lams2 {
				if en.stopped {
					return
				}
				pl := *l1
				pl.Next = l2
				pl.Size = l1.Size + l2.Size
				run(&pl)
			}
		}
	}
}

func (en *enumerator) product(op *dsl.Operator, l *dsl.Lambda, lists [][]*dsl.Entry, picked []*dsl.Entry, i, size int) {
	switch {
	case i == len(lists):
		// An operator without arguments.
		if en.inLevel && en.levelDone < en.skip {
			en.levelDone++
			return
		}
		en.try(op, l, picked, size)
		if en.inLevel && !en.stopped {
			en.levelDone++
		}
		return
	case i == len(lists)-1:
		for k := 0; k < len(lists[i]) && !en.stopped; k++ {
			k = en.tryFrom(op, l, lists[i], picked, size, k)
		}
		return
	}
	for _, e := range lists[i] {
		if en.stopped {
			return
		}
		picked[i] = e
		en.product(op, l, lists, picked, i+1, size)
	}
}

// tryFrom tries op with the programs of last, from the k-th on, as its
// last argument, and returns len(last), or the index of a program whose
// evaluation panicked: an operator panicking on an extreme value drops
// that one program, and its caller goes on with the next. The panic is
// recovered here, once for all the programs of last, and not in tryOne,
// where the deferred call cost every program evaluated (runtime.gorecover
// and the deferred function, 1.5% of BenchmarkEnumerate's CPU).
//
// In a level, the choices of arguments are counted (levelDone), and
// those a resumed level went through before are passed over (skip).
func (en *enumerator) tryFrom(op *dsl.Operator, l *dsl.Lambda, last, picked []*dsl.Entry, size, k int) (at int) {
	defer func() {
		if recover() != nil {
			if en.inLevel && !en.stopped {
				en.levelDone++
			}
			at = k
		}
	}()
	j := len(picked) - 1
	for ; k < len(last) && !en.stopped; k++ {
		if en.inLevel && en.levelDone < en.skip {
			// Tried before the level was cut short.
			en.levelDone++
			continue
		}
		picked[j] = last[k]
		en.tryOne(op, l, picked, size)
		if en.inLevel && !en.stopped {
			en.levelDone++
		}
	}
	return len(last)
}

// try evaluates op applied to the picked programs on every environment;
// an operator panicking on an extreme value drops that one program.
func (en *enumerator) try(op *dsl.Operator, l *dsl.Lambda, picked []*dsl.Entry, size int) {
	defer func() { _ = recover() }()
	en.tryOne(op, l, picked, size)
}

// tryOne is try without recovering from a panic (tryFrom recovers).
func (en *enumerator) tryOne(op *dsl.Operator, l *dsl.Lambda, picked []*dsl.Entry, size int) {
	if en.maxPerType > 0 && en.perType[op.Ret] >= en.maxPerType {
		return
	}
	en.evaluated++
	if en.checkLimits() {
		// Not evaluated: a resumed search tries it again.
		en.evaluated--
		return
	}
	n := len(en.envs)
	out := en.out[op.Ret]
	if out == nil {
		out = en.store.FreshColumn(op.Ret, n)
		en.out[op.Ret] = out
	}
	bad := en.bad
	mark := en.ar.Mark()
	// An operator (a function of its arguments and lambda alone, which
	// sees only its own arguments) applied to programs that are the same
	// on every environment gives the same value on every one: it is
	// computed on the first and copied to the others.
	same := op.Kern != nil && len(picked) > 0
	if op.Kern != nil {
		clear(bad)
		args := en.cols[:len(picked)]
		for j, e := range picked {
			args[j] = e.Col
			same = same && e.Col.Same
			if !op.Lazy {
				for i, b := range e.Col.Bad {
					bad[i] = bad[i] || b
				}
			}
		}
		if same {
			op.Kern(&en.ar, l, args, 1, out, bad)
			dsl.Spread(out, bad, n)
		} else {
			op.Kern(&en.ar, l, args, n, out, bad)
		}
	} else {
		en.evalBoxed(op, l, picked, out)
	}
	if !slices.Contains(bad, false) {
		en.ar.Rewind(mark)
		return
	}
	if en.inLevel && repeatsArgument(op, out, bad, picked, n, same) {
		// The values of an argument, which is in the bank: equivalent to
		// it, without hashing the values and probing the set for them
		// (BenchmarkEnumerate: one program evaluated in seven, a sort of
		// a sorted list, a filter keeping everything...). Only in a
		// level, whose arguments all come from the bank.
		en.ar.Rewind(mark)
		return
	}
	h := dsl.HashColumn(out, bad, n, same)
	if en.seen[op.Ret].Has(h) {
		// Equivalent to a program kept before: its results go back.
		en.ar.Rewind(mark)
		return
	}
	if en.memFull {
		en.checkFull(op, l, picked, size, out, bad, same, h, mark)
		return
	}
	kids := en.store.Kids.Take(len(picked))
	for i, e := range picked {
		kids[i] = e.N
	}
	// The column the kernel wrote is the new program's; the next program
	// of this type gets a fresh one.
	col := dsl.Vec{Data: out, Same: same}
	en.out[op.Ret] = nil
	if slices.Contains(bad, true) {
		col.Bad = dsl.CopyInto(en.store.Bools.Take(n), bad)
		clearBad(col.Data, col.Bad)
	}
	en.addUnseen(op.Ret, en.store.Node(dsl.Node{Op: op, Kids: kids, Lam: l, Var: -1, Size: size}), col, h, op.HeapRows || op.Kern == nil)
}

// evalBoxed is try's evaluation of an operator without a kernel (or a
// lazy one, which receives failed arguments): environment by environment
// over boxed values.
func (en *enumerator) evalBoxed(op *dsl.Operator, l *dsl.Lambda, picked []*dsl.Entry, out any) {
	var boxed [4][]any
	for j, e := range picked {
		if e.BoxedVals == nil {
			// Boxed once, kept with the program.
			en.mem.Charge(boxedBytes * int64(len(en.envs)))
		}
		boxed[j] = e.Values()
	}
	args := en.args[:len(picked)]
	for i := range en.bad {
		failed := false
		for j := range picked {
			v := boxed[j][i]
			if dsl.IsErr(v) && !op.Lazy {
				failed = true
				break
			}
			args[j] = v
		}
		en.bad[i] = failed || !dsl.SetAt(out, i, op.Eval(l, args))
	}
}

// boxedBytes is what a program's value boxed takes (Entry.Values): its
// interface and, for most values, the boxed number or slice header.
const boxedBytes = 40

// clearBad zeroes the values of the environments where a program raised,
// so that a stored column holds on to nothing a failed call left there.
func clearBad(data any, bad []bool) {
	for i, b := range bad {
		if b {
			setZero(data, i)
		}
	}
}

func setZero(data any, i int) {
	switch c := data.(type) {
	case []int64:
		c[i] = 0
	case []float64:
		c[i] = 0
	case []bool:
		c[i] = false
	case []string:
		c[i] = ""
	case [][]int64:
		c[i] = nil
	case [][]float64:
		c[i] = nil
	case [][]bool:
		c[i] = nil
	case [][]string:
		c[i] = nil
	case [][]dsl.Pair:
		c[i] = nil
	}
}
