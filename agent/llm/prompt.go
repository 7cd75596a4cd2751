package llm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"
)

// taskLines describes the task the way both prompts state it.
func taskLines(t task.Task, domain *task.Domain) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Function: def %s(input_data)\n", t.FunctionName)
	fmt.Fprintf(&b, "Input type: %s\n", t.InputType)
	if t.InputConstraints != "" {
		fmt.Fprintf(&b, "Input constraints: %s\n", t.InputConstraints)
	}
	if domain != nil {
		fmt.Fprintf(&b, "Every number in an input lies in %s.\n", domain)
	}
	return b.String()
}

// writeSystemPrompt is the role and the working discipline of a coding
// session.
func writeSystemPrompt(t task.Task, mode string, tools []string) string {
	var b strings.Builder
	b.WriteString("You reconstruct a hidden program from its behaviour. You cannot see or run the hidden program: you only see observed examples of its inputs and outputs. ")
	fmt.Fprintf(&b, "Your answer is a Python file, candidate.py, defining\n\n    def %s(input_data):\n\nthat returns exactly what the hidden program returns, for every valid input, not only the observed ones.\n\n", t.FunctionName)
	b.WriteString(taskLines(t, t.Domain))
	b.WriteString(`
Rules:
- Prefer the simplest hypothesis consistent with all the evidence: a constant before an expression, an expression before a conditional, a conditional before a loop. Add structure only when an example forces it.
- Never hard-code observed inputs or outputs (no lookup tables, no special cases for particular examples): the program must work on inputs nobody has observed yet.
- Use only the Python standard library. Return a JSON-compatible value (lists, not tuples or sets); do not print.
`)
	if mode == ToolModeText {
		b.WriteString("\nReply with the complete candidate.py in one fenced ```python code block. If it fails an observed example you will be told which, and can send a corrected program the same way.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "\nTools: %s. Write candidate.py with file_write (or edit it with apply_patch), then run check_candidate, which runs it on every observed example. ", strings.Join(tools, ", "))
	if slices.Contains(tools, synthesizeToolName) {
		b.WriteString("synthesize asks an enumerative synthesizer for a simple program consistent with the examples; check its proposal before relying on it. ")
	}
	b.WriteString("When check_candidate passes every example, call done with a one-line summary of the rule.\n")
	return b.String()
}

// writeUserPrompt holds the evidence: every observed example (or the newest
// keep of them, after a context-length trim), the previous feedback and the
// current candidate.
func writeUserPrompt(req agent.WriteRequest, current string, keep int, shownFailures int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Iteration %d of task %q.\n\n", req.Iteration, req.Task.Name)
	b.WriteString(examplesBlock(req.Examples, keep))
	if fb := req.Feedback; fb != nil {
		fmt.Fprintf(&b, "\nFeedback on the previous candidate (iteration %d): it passed %d of %d observed examples.\n", fb.Iteration, fb.Passed, fb.Total)
		fails := fb.Failures
		if keep < len(req.Examples) { // trimmed: the oldest feedback goes too
			fails = fails[:min(len(fails), max(1, shownFailures/2))]
		}
		for _, f := range fails {
			b.WriteString(formatFailure(f))
			b.WriteByte('\n')
		}
		for _, m := range fb.Messages {
			fmt.Fprintf(&b, "The workflow asks: %s\n", m)
		}
	}
	if current != "" {
		fmt.Fprintf(&b, "\nThe workspace holds this candidate.py from the previous iteration:\n```python\n%s\n```\n", strings.TrimRight(current, "\n"))
	} else {
		b.WriteString("\nThere is no candidate.py yet.\n")
	}
	return b.String()
}

// examplesBlock lists the newest keep examples, one per line.
func examplesBlock(examples []task.Example, keep int) string {
	var b strings.Builder
	from := 0
	if keep < len(examples) {
		from = len(examples) - keep
	}
	fmt.Fprintf(&b, "Observed examples (%d):\n", len(examples))
	if from > 0 {
		fmt.Fprintf(&b, "(the %d oldest are omitted to fit the model's context; check_candidate still checks every one)\n", from)
	}
	for _, e := range examples[from:] {
		fmt.Fprintf(&b, "input: %s  output: %s\n", compact(e.Input), compact(e.Output))
	}
	return b.String()
}

// proposeSystemPrompt is the role of a proposal session.
func proposeSystemPrompt(t task.Task, k int, mode string) string {
	var b strings.Builder
	b.WriteString("You help reconstruct a hidden program from its behaviour by choosing the next inputs to query it with. ")
	b.WriteString("Choose inputs that would expose a wrong hypothesis: edge cases, boundaries, unusual shapes and values, and cases unlike every observed input. ")
	b.WriteString("Each input must be valid for the task, distinct from the others and from every observed input.\n\n")
	b.WriteString(taskLines(t, nil))
	if mode == ToolModeText {
		fmt.Fprintf(&b, "\nReply with a JSON array of exactly %d inputs in one fenced ```json code block.\n", k)
	} else {
		fmt.Fprintf(&b, "\nCall propose_inputs with exactly %d inputs.\n", k)
	}
	return b.String()
}

// proposeUserPrompt states the request: k, the evidence, the missing
// categories, the domain and why the previous attempt was rejected.
func proposeUserPrompt(req agent.ProposeRequest, current string, keep int) string {
	var b strings.Builder
	b.WriteString(examplesBlock(req.Examples, keep))
	if current != "" {
		fmt.Fprintf(&b, "\nThe current hypothesis (candidate.py):\n```python\n%s\n```\n", strings.TrimRight(current, "\n"))
	}
	fmt.Fprintf(&b, "\nPropose exactly %d new inputs.\n", req.K)
	if len(req.Missing) > 0 {
		fmt.Fprintf(&b, "The observed inputs do not yet cover these case categories; include inputs that do: %s.\n", strings.Join(req.Missing, ", "))
	}
	if req.Domain != nil {
		fmt.Fprintf(&b, "Every number in every input must lie in %s; inputs outside it are rejected.\n", req.Domain)
	}
	if req.Rejection != "" {
		fmt.Fprintf(&b, "\nYour previous proposal (attempt %d) was rejected: %s\nFix this in the new proposal.\n", max(1, req.Attempt-1), req.Rejection)
	}
	return b.String()
}
