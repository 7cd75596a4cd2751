package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/bank"
	"github.com/reconstruct/reconstruct/config"
	"github.com/reconstruct/reconstruct/sandbox"
)

// ProgramRunner runs the bank's programs (program.apply and registered
// programs) in a sandbox started on first use, never in this process.
type ProgramRunner struct {
	s   config.Sandbox
	log *zap.Logger

	mu  sync.Mutex
	box sandbox.Sandbox
}

var _ bank.ProgramRunner = (*ProgramRunner)(nil)

// NewProgramRunner runs programs with the sandbox settings s (kind,
// limits).
func NewProgramRunner(s config.Sandbox, log *zap.Logger) *ProgramRunner {
	if log == nil {
		log = zap.NewNop()
	}
	return &ProgramRunner{s: s, log: log}
}

// Apply calls prog on each input; a call that does not return a value is
// an error naming the input.
func (p *ProgramRunner) Apply(ctx context.Context, prog *bank.Program, inputs []json.RawMessage) ([]json.RawMessage, error) {
	box, err := p.sandbox(ctx)
	if err != nil {
		return nil, err
	}
	outs, err := box.Call(ctx, sandbox.CallRequest{
		Program: sandbox.Program{Source: prog.Source, Function: prog.Function},
		Inputs:  inputs, Limits: p.s.Limits(),
	})
	if err != nil {
		return nil, fmt.Errorf("run program %s: %w", prog.Function, err)
	}
	res := make([]json.RawMessage, len(outs))
	for i, o := range outs {
		if !o.OK() {
			return nil, fmt.Errorf("program %s on input %d: %s: %s", prog.Function, i, o.Status, o.Error)
		}
		res[i] = o.Output
	}
	return res, nil
}

func (p *ProgramRunner) sandbox(ctx context.Context) (sandbox.Sandbox, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.box == nil {
		box, err := OpenScoringSandbox(ctx, p.s, p.log)
		if err != nil {
			return nil, err
		}
		p.box = box
	}
	return p.box, nil
}

// Close stops the sandbox if one was started.
func (p *ProgramRunner) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.box == nil {
		return nil
	}
	err := p.box.Close()
	p.box = nil
	return err
}
