package synth

import (
	"math"
	"time"
)

// resume makes an enumerator stopped by its clock go on until a new
// deadline (or budget of programs), cancelled by done. The level it was
// cut in restarts after the choices of arguments it went through.
func (en *enumerator) resume(deadline time.Time, maxEval int64, done <-chan struct{}) {
	en.deadline, en.done = deadline, done
	if maxEval > 0 {
		en.maxEval = en.evaluated + maxEval
	} else {
		en.maxEval = 0
	}
	en.stopped, en.timedOut, en.cancelled = false, false, false
	en.skip = en.levelDone
}

// clock is the search's position: programs evaluated when it counts
// programs, else the time in nanoseconds.
func (en *enumerator) clock() int64 {
	if en.maxEval > 0 {
		return en.evaluated
	}
	return time.Now().UnixNano()
}

// end is the clock's end: the budget of programs or the deadline.
func (en *enumerator) end() int64 {
	switch {
	case en.maxEval > 0:
		return en.maxEval
	case en.deadline.IsZero():
		return math.MaxInt64
	}
	return en.deadline.UnixNano()
}

// Mark is the position on the clock after share of what is left.
func (en *enumerator) Mark(share float64) int64 {
	now := en.clock()
	return now + int64(float64(en.end()-now)*share)
}

// interrupted reports (and records) whether the search was cancelled.
func (en *enumerator) interrupted() bool {
	if en.done == nil {
		return false
	}
	select {
	case <-en.done:
		en.stopped, en.cancelled = true, true
		return true
	default:
		return false
	}
}

func (en *enumerator) checkLimits() bool {
	if en.evaluated&1023 == 0 {
		if en.interrupted() {
			return true
		}
		now := en.clock()
		if now >= en.end() || (en.maxEval > 0 && !en.deadline.IsZero() && time.Now().After(en.deadline)) {
			en.stopped, en.timedOut = true, true
		}
		if en.sweepUntil != 0 && now >= en.sweepUntil {
			en.stopped, en.sweepCut = true, true
		}
		switch {
		case en.memFull:
		case !en.mem.fits(0):
			en.freeze()
		case en.bounded && heapOver.Load():
			// The process's heap passed its share although the budgets'
			// count did not: the bank freezes all the same (gc.go).
			en.freeze()
			en.heapFull = true
			en.heapLive, en.heapShare = heapReading()
		}
	}
	return en.stopped
}

// budgeted runs f (a sweep) with at most share of the remaining time; a
// sweep cut short does not stop the search.
func (en *enumerator) budgeted(share float64, f func()) {
	if en.stopped {
		return
	}
	en.sweepUntil = en.Mark(share)
	f()
	en.sweepUntil = 0
	if en.sweepCut {
		en.stopped, en.sweepCut = false, false
		en.recording = false
		en.recent = nil
	}
}
