package workflow

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reconstruct/reconstruct/oracle"
	"github.com/reconstruct/reconstruct/task"
)

// recheck asks the hidden program again for a sample of the observed
// examples at the end of a batch — the batch's first new input and one
// earlier input, chosen by the batch number so that a resumed run checks
// the same ones — and fails with oracle.ErrNondeterministic when an answer
// differs from the recorded one.
func (e *engine) recheck(ctx context.Context, batch []task.Example, n int) error {
	var sample []task.Example
	if len(batch) > 0 {
		sample = append(sample, batch[0])
	}
	if old := e.st.Examples; len(old) > 0 {
		sample = append(sample, old[(n*7919)%len(old)])
	}
	if len(sample) == 0 {
		return nil
	}
	inputs := make([]json.RawMessage, len(sample))
	for i, ex := range sample {
		inputs[i] = ex.Input
	}
	answers, err := e.deps.Oracle.Query(ctx, inputs)
	if err != nil {
		return fmt.Errorf("query hidden program again (batch %d): %w", n, err)
	}
	for i, a := range answers {
		ex := sample[i]
		switch {
		case a.Invalid != "":
			return fmt.Errorf("%w: it answered input %s with %s, then rejected it: %s", oracle.ErrNondeterministic,
				task.MustCanonical(ex.Input), task.MustCanonical(ex.Output), a.Invalid)
		case !task.Equal(a.Output, ex.Output, e.settings().Atol):
			return fmt.Errorf("%w: it answered input %s with %s, then with %s", oracle.ErrNondeterministic,
				task.MustCanonical(ex.Input), task.MustCanonical(ex.Output), task.MustCanonical(a.Output))
		}
	}
	return nil
}
