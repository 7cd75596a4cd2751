package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/task"
)

// finiteDomain is the list of a task's valid inputs a Domain gave when the
// run started.
type finiteDomain struct {
	inputs []json.RawMessage
	canon  []string // canonical texts, in the order of inputs
	has    map[string]bool
	from   string
}

// openDomain asks the run's Domain, if any, for the task's inputs.
func (e *engine) openDomain() {
	if e.deps.Domain == nil {
		return
	}
	ins, from, ok := e.deps.Domain.Inputs(DomainLimit)
	if !ok || len(ins) == 0 || len(ins) > DomainLimit {
		return
	}
	d := &finiteDomain{has: map[string]bool{}, from: from}
	for _, in := range ins {
		c, err := task.Canonical(in)
		if err != nil || d.has[c] {
			continue
		}
		d.has[c] = true
		d.inputs = append(d.inputs, in)
		d.canon = append(d.canon, c)
	}
	e.dom = d
	if left, ok := e.left(); ok && !e.st.InitialDone {
		e.progress("domain: %s (%s); the run ends exhausted once every one is observed and passed", inputsCount(len(left)), from)
	}
}

// left lists the inputs of the finite domain not observed yet, nor
// rejected by the hidden program; ok is false when no finite domain is
// known. An observed input outside the list proves the list incomplete:
// the domain is then forgotten (it is no longer known to be finite).
func (e *engine) left() ([]json.RawMessage, bool) {
	d := e.dom
	if d == nil {
		return nil, false
	}
	seen := make(map[string]bool, len(e.st.Examples)+len(e.st.Invalid))
	for _, ex := range e.st.Examples {
		c := task.MustCanonical(ex.Input)
		if !d.has[c] {
			e.dom = nil
			e.log.Warn("an observed input lies outside the task's finite domain; it is no longer known to be finite",
				zap.String("input", c), zap.String("from", d.from), zap.Int("inputs", len(d.inputs)))
			e.progress("input %s was accepted but is not among the %d inputs of %s: the task's inputs are not known to be few",
				firstLineOf(c, 80), len(d.inputs), d.from)
			return nil, false
		}
		seen[c] = true
	}
	for _, c := range e.st.Invalid {
		seen[c] = true
	}
	var out []json.RawMessage
	for i, c := range d.canon {
		if !seen[c] {
			out = append(out, d.inputs[i])
		}
	}
	return out, true
}

// exhausted reports whether every valid input of a finite domain has been
// observed: none left of the listed domain or, without one, the generator
// gave fewer inputs than asked.
func (e *engine) exhausted() bool {
	if left, ok := e.left(); ok {
		return len(left) == 0
	}
	return e.st.GeneratorDone
}

// domainSummary is what the run knows of its finite domain, for the
// Result; nil when none is known.
func (e *engine) domainSummary() *FiniteDomain {
	if left, ok := e.left(); ok {
		return &FiniteDomain{From: e.dom.from, Inputs: len(e.dom.inputs) - len(e.st.Invalid), Left: len(left), Rejected: len(e.st.Invalid)}
	}
	if e.st.GeneratorDone {
		return &FiniteDomain{From: DomainFromGenerator, Inputs: len(e.st.Examples)}
	}
	return nil
}

// noteInvalid records an input of the finite domain the hidden program
// rejected: it is not one of the domain's valid inputs.
func (e *engine) noteInvalid(in json.RawMessage) {
	if e.dom == nil {
		return
	}
	c := task.MustCanonical(in)
	if !e.dom.has[c] {
		return
	}
	for _, x := range e.st.Invalid {
		if x == c {
			return
		}
	}
	e.st.Invalid = append(e.st.Invalid, c)
}

// queryDomain asks the hidden program for inputs of the finite domain:
// those it rejects are recorded as invalid, the others become examples
// of the given source.
func (e *engine) queryDomain(ctx context.Context, inputs []json.RawMessage, source task.Source, batch int) ([]task.Example, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	answers, err := e.deps.Oracle.Query(ctx, inputs)
	if err != nil {
		return nil, fmt.Errorf("query hidden program (batch %d): %w", batch, err)
	}
	var exs []task.Example
	for i, a := range answers {
		if a.Invalid != "" {
			e.noteInvalid(inputs[i])
			continue
		}
		exs = append(exs, task.Example{Input: inputs[i], Output: a.Output, Source: source})
	}
	return exs, nil
}

// sampleLeft draws n of the inputs left, at random but the same in a
// resumed run (seeded by the batch).
func (e *engine) sampleLeft(left []json.RawMessage, n, batch int) []json.RawMessage {
	if n >= len(left) {
		return left
	}
	rng := rand.New(rand.NewSource(e.settings().Seed*1_000_003 + int64(batch)*7_919))
	out := make([]json.RawMessage, n)
	for i, j := range rng.Perm(len(left))[:n] {
		out[i] = left[j]
	}
	return out
}
