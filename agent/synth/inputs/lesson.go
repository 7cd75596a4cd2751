package inputs

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Lessons from rejections: when the hidden program rejects a proposed
// input, the message is read for what the input broke (a range, a length,
// an order, an excluded value, a character), and every later proposal of
// the run keeps to it; a rejection nothing explains retires the source of
// that input.

// Lesson is what the rejections of earlier proposals taught about a task's
// inputs: narrower ranges and lengths, orders to keep, operations to stop
// using. It outlives one Propose call so that later batches keep it.
type Lesson struct {
	ranges map[string][2]float64
	// exclude are values a position must not take.
	exclude map[string][]float64
	// badChars are characters no string may hold.
	badChars []rune
	// badTokens are literal tokens the hidden program refused ("'+'
	// needs two kept scores", "unknown token 'x'"): proposals leave them
	// out while another choice remains.
	badTokens []string
	// tokenFrom are tokens refused where they stood ("'+' needs two kept
	// scores"): each is left out of the first positions of a list, up to
	// the latest where it was refused; and out of every proposal for the
	// rest of the batch (waiting, the tokens it needs before it).
	tokenFrom map[string]int
	Waiting   []string
	lens      map[string][2]int
	sorted    map[string]bool
	Banned    map[string]bool
	// Strikes counts rejections nothing above explained: proposals then
	// keep closer to the smallest and to the observed inputs.
	Strikes int
	// Last maps each input of the previous proposal to its origin.
	Last map[string]string
}

// NewLesson returns a lesson that has learned nothing yet.
func NewLesson() *Lesson {
	return &Lesson{ranges: map[string][2]float64{}, exclude: map[string][]float64{}, lens: map[string][2]int{}, sorted: map[string]bool{}, Banned: map[string]bool{}, Last: map[string]string{},
		tokenFrom: map[string]int{}}
}

var (
	reasonRangeRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)between\s+(-?\d+(?:\.\d+)?)\s+and\s+(-?\d+(?:\.\d+)?)`),
		regexp.MustCompile(`\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]`),
		regexp.MustCompile(`(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)`),
		regexp.MustCompile(`(?i)from\s+(-?\d+(?:\.\d+)?)\s+to\s+(-?\d+(?:\.\d+)?)`),
		// "must be 0 or 1": two neighbouring integers.
		regexp.MustCompile(`\b(0)\s+or\s+(1)\b`),
	}
	reasonExcludeRe = regexp.MustCompile(`(?i)(?:must\s+not\s+be|is\s+not|cannot\s+be|can't\s+be|not\s+equal\s+to|!=)\s+(-?\d+(?:\.\d+)?)\b|(non-?zero|by\s+zero)`)
	reasonCharRe    = regexp.MustCompile(`(?i)(?:character|char|symbol)\s+['"](.)['"]`)
	reasonUnpackRe  = regexp.MustCompile(`(?i)(?:too many|not enough) values to unpack \(expected (\d+)`)
	reasonTokenRe   = regexp.MustCompile(`(?i)^[\s:]*(?:error:\s*)?(?:\w+Error:\s*)?(?:unknown (?:token|record|operator|word)\s+)?['"]([^'"]+)['"]`)
	reasonIndexRe   = regexp.MustCompile(`\bIndexError\b|index out of range`)
	// reasonResultRe is a count of what the input computes to rather than
	// of the input: "the expression must leave exactly one value", "two
	// values remain on the stack".
	reasonResultRe = regexp.MustCompile(`(?i)\b(?:leaves?|leaving|remains?|remaining|on the stack)\b`)
	reasonOrderRe  = regexp.MustCompile(`(?i)non-decreasing|nondecreasing|ascending|increasing|sorted|\border\b`)
	// reasonContextRe says a token is refused for what comes before it,
	// not for itself.
	reasonContextRe = regexp.MustCompile(`(?i)\b(?:needs?|lacks?|requires?|missing|operands?|before|after|too few|empty stack|nothing to)\b`)
)

// rejectedInput finds which input of the previous proposal a rejection
// names; it returns its canonical form and the message after it.
func (l *Lesson) rejectedInput(reason string) (string, string) {
	best := ""
	for c := range l.Last {
		if len(c) > len(best) && strings.Contains(reason, "("+c+")") {
			best = c
		}
	}
	if best == "" {
		return "", reason
	}
	i := strings.Index(reason, "("+best+")")
	return best, reason[i+len(best)+2:]
}

// Learn reads a rejection: the numbers and lengths of the rejected input
// that break a range the message states, an order it names; when nothing
// explains it, the operations that made the input are dropped.
func (l *Lesson) Learn(reason string, tp *Template, observed []any) {
	c, msg := l.rejectedInput(reason)
	if i := strings.Index(msg, "got "); i >= 0 {
		msg = msg[:i]
	}
	learned := false
	if c != "" {
		if v, ok := dsl.DecodeRaw(json.RawMessage(c)); ok {
			o := Observe(append(slices.Clone(observed), v), tp, nil)
			var ranges [][2]float64
			for _, re := range reasonRangeRes {
				for _, m := range re.FindAllStringSubmatch(msg, -1) {
					lo, _ := strconv.ParseFloat(m[1], 64)
					hi, _ := strconv.ParseFloat(m[2], 64)
					if lo <= hi {
						ranges = append(ranges, [2]float64{lo, hi})
					}
				}
			}
			nlo, nhi, hasLen := LengthsFrom(msg)
			if m := atMostRe.FindStringSubmatch(msg); !hasLen && m != nil {
				nlo, nhi, hasLen = 0, atoi(m[1]), true
			}
			if reasonResultRe.MatchString(msg) {
				// "must leave exactly one value": the count is of what
				// evaluating the input leaves, not of the input.
				hasLen = false
			}
			ordered := reasonOrderRe.MatchString(msg)
			if m := reasonTokenRe.FindStringSubmatch(msg); m != nil && strings.Contains(c, `"`+m[1]+`"`) {
				// A token the program refuses where it stands is kept out
				// of the positions up to there; one it refuses outright,
				// out of every proposal while another choice remains.
				if at := tokenIndex(v, m[1]); at >= 0 && reasonContextRe.MatchString(msg) {
					l.tokenFrom[m[1]] = max(l.tokenFrom[m[1]], at+1)
					if !slices.Contains(l.Waiting, m[1]) {
						l.Waiting = append(l.Waiting, m[1])
					}
				} else if !slices.Contains(l.badTokens, m[1]) {
					l.badTokens = append(l.badTokens, m[1])
				}
				learned, hasLen = true, false
			}
			if m := reasonUnpackRe.FindStringSubmatch(msg); m != nil {
				// The input, or the list in it, unpacks into so many values.
				if x, ok := v.([]any); ok && len(x) != atoi(m[1]) {
					l.lens["$"] = [2]int{atoi(m[1]), atoi(m[1])}
					learned = true
				}
			}
			if reasonIndexRe.MatchString(msg) {
				// An index past the end: the shortest list must be longer.
				if sig, n, ok := shortestList(o, &v); ok {
					old, had := l.lens[sig]
					if !had {
						old = [2]int{0, 1000}
					}
					if n+1 <= old[1] {
						l.lens[sig] = [2]int{max(old[0], n+1), old[1]}
						learned = true
					}
				}
			}

			if l.learnExclusion(msg, o, &v) {
				learned = true
			}
			if m := reasonCharRe.FindStringSubmatch(msg); m != nil && strings.Contains(c, m[1]) {
				if r := []rune(m[1])[0]; !slices.Contains(l.badChars, r) {
					l.badChars = append(l.badChars, r)
				}
				learned = true
			}
			for _, s := range o.slots(&v) {
				switch x := s.get().(type) {
				case json.Number, int64, float64:
					f, _ := numberOf(x)
					for _, r := range ranges {
						if f < r[0] || f > r[1] {
							l.narrow(s.sig, r)
							learned = true
						}
					}
				case string:
					if hasLen && (len([]rune(x)) < nlo || len([]rune(x)) > nhi) && strings.Contains(msg, "string") {
						l.lens[s.sig] = [2]int{nlo, nhi}
						learned = true
					}
				case []any:
					if o.isTupleAt(s.sig) {
						continue
					}
					if hasLen && (len(x) < nlo || len(x) > nhi) {
						if old, ok := l.lens[s.sig]; ok {
							nlo, nhi = max(nlo, old[0]), min(nhi, old[1])
						}
						l.lens[s.sig] = [2]int{nlo, nhi}
						learned = true
					}
					if ordered && len(x) > 1 && !slices.IsSortedFunc(x, compareValues) {
						l.sorted[s.sig] = true
						learned = true
					}
				}
			}
		}
	}
	if learned {
		return
	}
	l.Strikes++
	if origin := l.Last[c]; origin != "" {
		for _, op := range strings.Split(origin, "+") {
			l.Banned[op] = true
		}
	}
}

// learnExclusion reads "b must not be 0" and the like: the value is
// excluded where the rejected input holds it, at the positions the message
// names when it names some.
func (l *Lesson) learnExclusion(msg string, o *Observation, v *any) bool {
	m := reasonExcludeRe.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	x := 0.0
	if m[1] != "" {
		x, _ = strconv.ParseFloat(m[1], 64)
	}
	words := nameWords(lastWords(msg[:strings.Index(msg, m[0])], 2))
	var at, named []string
	for _, s := range o.slots(v) {
		if f, ok := numberOf(s.get()); ok && f == x && !slices.Contains(at, s.sig) {
			at = append(at, s.sig)
			if len(bestMatches(o.tmpl[s.sig], words)) > 0 {
				named = append(named, s.sig)
			}
		}
	}
	if len(named) > 0 {
		at = named
	}
	for _, sig := range at {
		if !slices.Contains(l.exclude[sig], x) {
			l.exclude[sig] = append(l.exclude[sig], x)
		}
	}
	return len(at) > 0
}

func (l *Lesson) narrow(sig string, r [2]float64) {
	if old, ok := l.ranges[sig]; ok {
		r = [2]float64{math.Max(r[0], old[0]), math.Min(r[1], old[1])}
	}
	l.ranges[sig] = r
}

// ApplyTo narrows a template by what the lesson holds.
func (l *Lesson) ApplyTo(tp *Template) {
	tp.walk(func(n *Template) {
		switch {
		case n.Kind == tkAlt:
			if kept := slices.DeleteFunc(slices.Clone(n.Elems), l.badLiteral); len(kept) > 0 {
				n.Elems = kept
			}
		case n.Kind == TkStr && len(n.Choices) > 0:
			if kept := slices.DeleteFunc(slices.Clone(n.Choices), l.refused); len(kept) > 0 {
				n.Choices = kept
			}
		}
	})
	for sig, nodes := range templateSigs(tp) {
		for _, n := range nodes {
			if n.Kind == TkInt {
				for _, x := range l.exclude[sig] {
					if x == math.Trunc(x) && !slices.Contains(n.exclude, int64(x)) {
						n.exclude = append(n.exclude, int64(x))
					}
				}
			}
			if r, ok := l.ranges[sig]; ok && n.Kind == TkInt {
				lo, hi := max(n.lo, int64(math.Ceil(r[0]))), min(n.hi, int64(math.Floor(r[1])))
				if lo <= hi {
					n.lo, n.hi = lo, hi
				}
			}
			if r, ok := l.ranges[sig]; ok && n.Kind == TkFloat {
				if lo, hi := math.Max(n.flo, r[0]), math.Min(n.fhi, r[1]); lo <= hi {
					n.flo, n.fhi = lo, hi
				}
			}
			if n.Kind == TkStr && len(n.Choices) == 0 {
				if al := slices.DeleteFunc(slices.Clone(n.alphabet), func(r rune) bool { return slices.Contains(l.badChars, r) }); len(al) > 0 {
					n.alphabet = al
				}
			}
			if r, ok := l.lens[sig]; ok && (n.Kind == TkList || n.Kind == tkRPN || n.Kind == TkStr || n.Kind == tkJoined) {
				lo, hi := max(n.minLen, r[0]), min(n.maxLen, r[1])
				if lo <= hi {
					n.minLen, n.maxLen = lo, hi
				}
			}
			if l.sorted[sig] && n.Kind == TkList && n.sortKey == -2 {
				n.sortKey = -1
			}
		}
	}
}

// refused reports whether proposals leave a token out: refused outright,
// or refused where it stood during this batch.
func (l *Lesson) refused(tok string) bool {
	return slices.Contains(l.badTokens, tok) || slices.Contains(l.Waiting, tok)
}

// tokenIndex is the first position of a list input holding tok (as a
// string, or as the word a record starts with), or -1.
func tokenIndex(v any, tok string) int {
	xs, ok := v.([]any)
	if !ok {
		return -1
	}
	for i, x := range xs {
		if rec, ok := x.([]any); ok && len(rec) > 0 {
			x = rec[0]
		}
		if s, ok := x.(string); ok && s == tok {
			return i
		}
	}
	return -1
}

// TokensPlaced reports whether no token of a list input stands before the
// position the lesson keeps it from.
func (l *Lesson) TokensPlaced(v any) bool {
	for tok, from := range l.tokenFrom {
		if at := tokenIndex(v, tok); at >= 0 && at < from {
			return false
		}
	}
	return true
}

// badLiteral reports whether a template part is a literal token the
// hidden program refused, or a tuple tagged with one.
func (l *Lesson) badLiteral(n *Template) bool {
	switch n.Kind {
	case tkLit:
		str, ok := n.lit.(string)
		return ok && l.refused(str)
	case TkTuple:
		return len(n.Elems) > 0 && l.badLiteral(n.Elems[0])
	}
	return false
}

// shortestList finds the shortest list of an input, by its position.
func shortestList(o *Observation, v *any) (string, int, bool) {
	sig, best, found := "", 0, false
	for _, s := range o.slots(v) {
		if x, ok := s.get().([]any); ok && (!found || len(x) < best) {
			sig, best, found = s.sig, len(x), true
		}
	}
	return sig, best, found
}
