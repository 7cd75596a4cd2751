package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reconstruct/reconstruct/agent"
)

const synthesizeToolName = "synthesize"

const synthesizeDescription = `Ask the built-in enumerative synthesizer for the simplest program it can find that is consistent with the observed examples. ` +
	`Returns its program (it is not written to candidate.py; write it yourself if you want it) and its notes. ` +
	`It can take a while and may find nothing for complex behaviour.`

type synthesizeParams struct{}

type synthesizeTool struct {
	toolSpec[synthesizeParams]
	synth   Synthesizer
	req     agent.WriteRequest
	scratch string
}

// newSynthesizeTool offers synth on the session's request; the synthesizer
// writes in a fresh directory under scratch, never in the workspace.
func newSynthesizeTool(synth Synthesizer, req agent.WriteRequest, scratch string) *synthesizeTool {
	return &synthesizeTool{toolSpec: toolSpec[synthesizeParams]{synthesizeToolName, synthesizeDescription}, synth: synth, req: req, scratch: scratch}
}

func (t *synthesizeTool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	if _, err := t.decode(args); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(t.scratch, "reconstruct-synth-")
	if err != nil {
		return "", infra(fmt.Errorf("synthesize tool: scratch directory: %w", err))
	}
	defer os.RemoveAll(dir)
	req := t.req
	req.Workspace = dir
	res, err := t.synth.Write(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("the synthesizer did not finish in time: %v", ctx.Err())
		}
		return "", fmt.Errorf("the synthesizer failed: %w", err)
	}
	src, err := os.ReadFile(filepath.Join(dir, agent.CandidateFile))
	if err != nil || strings.TrimSpace(string(src)) == "" {
		msg := "the synthesizer found no program"
		if res.Notes != "" {
			msg += " (" + res.Notes + ")"
		}
		return "", fmt.Errorf("%s", msg)
	}
	var b strings.Builder
	b.WriteString("the synthesizer proposes:\n```python\n")
	b.WriteString(strings.TrimRight(string(src), "\n"))
	b.WriteString("\n```")
	if res.Notes != "" {
		b.WriteString("\nnotes: " + res.Notes)
	}
	return b.String(), nil
}
