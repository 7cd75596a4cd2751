package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/agent"
)

// Session stop reasons, recorded in the transcript and the notes.
const (
	StopDone          = "done"           // the model called done
	StopModelStopped  = "model_stopped"  // the model answered without a tool call
	StopPassed        = "passed"         // text mode: the program passed every example
	StopMaxTurns      = "max_turns"      // Options.MaxTurns requests were made
	StopRepeated      = "repeated_call"  // the same tool call (or answer) twice in a row
	StopContextLength = "context_length" // the context overflowed even after trimming
)

// MaxToolResultBytes caps a tool result sent back to the model.
const MaxToolResultBytes = 32 << 10

// writeSession is one coding session.
type writeSession struct {
	a     *Agent
	req   agent.WriteRequest
	ws    *workspace
	tr    *Transcript
	conv  *conversation
	check *checker
	tools map[string]tool
	names []string
	done  *doneTool
	// lastCall is the previous tool call's name and arguments.
	lastCall string
	nudged   bool
	stop     string
	notes    []string
}

// Write runs one coding session that leaves candidate.py in
// req.Workspace. The error is an infrastructure failure (endpoint, sandbox)
// or the context's; whatever the model did wrong is recorded in the notes
// and the transcript. Usage and transcript are returned in every case.
func (a *Agent) Write(ctx context.Context, req agent.WriteRequest) (agent.WriteResult, error) {
	ws, err := openWorkspace(req.Workspace)
	if err != nil {
		return agent.WriteResult{}, fmt.Errorf("llm write: %w", err)
	}
	defer ws.Close()
	tr := newTranscript("write", a.opts)
	s := &writeSession{
		a: a, req: req, ws: ws, tr: tr,
		check: &checker{
			sb: a.opts.Sandbox, fn: req.Task.FunctionName, examples: req.Examples,
			limits: a.opts.Limits, atol: a.opts.Atol, shown: a.opts.ShownFailures,
		},
	}
	s.setupTools()
	current := ""
	if b, err := ws.ReadFile(agent.CandidateFile); err == nil {
		current = string(b)
	}
	system := writeSystemPrompt(req.Task, a.opts.ToolMode, s.names)
	s.conv = newConversation(a, tr, system, func(keep int) string {
		return writeUserPrompt(req, current, keep, a.opts.ShownFailures)
	}, len(req.Examples))

	log := a.log.With(zap.Int("iteration", req.Iteration))
	start := time.Now()
	if a.opts.ToolMode == ToolModeText {
		err = s.runText(ctx)
	} else {
		err = s.runTools(ctx)
	}
	tr.StopReason = s.stop
	res := agent.WriteResult{Usage: tr.Usage, Notes: s.summary(), Transcript: marshalTranscript(tr)}
	log.Info("llm session finished", zap.String("stop", s.stop), zap.Int("turns", tr.Turns),
		zap.Int("prompt_tokens", tr.Usage.PromptTokens), zap.Int("completion_tokens", tr.Usage.CompletionTokens),
		zap.Duration("elapsed", time.Since(start)), zap.Error(err))
	if err != nil {
		return res, fmt.Errorf("llm write, iteration %d: %w", req.Iteration, err)
	}
	return res, nil
}

func (s *writeSession) setupTools() {
	s.done = newDoneTool(s.ws)
	list := []tool{
		newBashTool(s.a.opts.Sandbox),
		newFileReadTool(s.ws),
		newFileWriteTool(s.ws),
		newApplyPatchTool(s.ws),
		newCheckCandidateTool(s.ws, s.check),
	}
	if s.a.opts.Synth != nil {
		list = append(list, newSynthesizeTool(s.a.opts.Synth, s.req, s.a.opts.ScratchDir))
	}
	if len(s.a.opts.Tools) > 0 {
		keep := map[string]bool{}
		for _, n := range s.a.opts.Tools {
			keep[n] = true
		}
		kept := list[:0]
		for _, t := range list {
			if keep[t.Name()] {
				kept = append(kept, t)
			}
		}
		list = kept
	}
	for _, tt := range s.a.opts.TaskTools {
		// The task's own tool replaces a built-in one of its name.
		kept := list[:0]
		for _, t := range list {
			if t.Name() != tt.Name {
				kept = append(kept, t)
			}
		}
		list = append(kept, &taskTool{t: tt, ws: s.ws})
	}
	list = append(list, s.done)
	s.tools = map[string]tool{}
	for _, t := range list {
		s.tools[t.Name()] = t
		s.names = append(s.names, t.Name())
	}
}

// runTools is the tool-calling loop.
func (s *writeSession) runTools(ctx context.Context) error {
	defs := make([]tool, 0, len(s.names))
	for _, n := range s.names {
		defs = append(defs, s.tools[n])
	}
	tools := definitions(defs)
	for turn := 1; turn <= s.a.opts.MaxTurns; turn++ {
		s.tr.Turns = turn
		msg, err := s.conv.complete(ctx, turn, tools)
		if err != nil {
			return s.endOnError(turn, err)
		}
		if len(msg.ToolCalls) == 0 {
			if s.noToolCall(msg.Content) {
				return nil
			}
			continue
		}
		for _, call := range msg.ToolCalls {
			key := call.Function.Name + "\x00" + normalizeArgs(call.Function.Arguments)
			if key == s.lastCall {
				s.stop = StopRepeated
				s.notes = append(s.notes, fmt.Sprintf("the model repeated the call %s(%s)", call.Function.Name, capText(call.Function.Arguments, 200)))
				return nil
			}
			s.lastCall = key
			out, err := s.runTool(ctx, turn, call)
			if err != nil {
				return err
			}
			s.conv.msgs = append(s.conv.msgs, openai.ChatCompletionMessage{
				Role: openai.ChatMessageRoleTool, Content: out, ToolCallID: call.ID,
			})
			if s.done.finished {
				s.tr.setMessages(s.conv.msgs)
				s.stop = StopDone
				if s.done.summary != "" {
					s.notes = append(s.notes, s.done.summary)
				}
				return nil
			}
		}
		s.tr.setMessages(s.conv.msgs)
	}
	s.stop = StopMaxTurns
	return nil
}

// noToolCall handles an answer without tool calls and reports whether the
// session ends. A fenced program is taken as candidate.py when none exists;
// a model that has written nothing is reminded once.
func (s *writeSession) noToolCall(content string) bool {
	exists := s.ws.Exists(agent.CandidateFile)
	if !exists {
		if code := lastFencedBlock(content, "python"); code != "" {
			if err := s.ws.WriteFile(agent.CandidateFile, []byte(code)); err == nil {
				s.notes = append(s.notes, "candidate.py taken from the model's fenced python block")
				s.stop = StopModelStopped
				return true
			}
		}
		if !s.nudged {
			s.nudged = true
			s.conv.add(openai.ChatMessageRoleUser, "candidate.py does not exist yet. Write it with the file_write tool, check it with check_candidate, then call done.")
			return false
		}
	}
	s.stop = StopModelStopped
	if t := strings.TrimSpace(content); t != "" {
		s.notes = append(s.notes, capText(t, 500))
	}
	return true
}

// runTool runs one tool call; a tool's failure becomes its result, an
// infrastructure failure is returned.
func (s *writeSession) runTool(ctx context.Context, turn int, call openai.ToolCall) (string, error) {
	t, ok := s.tools[call.Function.Name]
	start := time.Now()
	if !ok {
		s.tr.tool(turn, call.ID, call.Function.Name, true, 0)
		return fmt.Sprintf("error: there is no tool %q; the tools are %s", call.Function.Name, strings.Join(s.names, ", ")), nil
	}
	tctx, cancel := context.WithTimeout(ctx, s.toolTimeout(t.Name()))
	out, err := t.Run(tctx, json.RawMessage(call.Function.Arguments))
	cancel()
	s.tr.tool(turn, call.ID, t.Name(), err != nil, time.Since(start))
	if ctx.Err() != nil {
		return "", context.Cause(ctx)
	}
	if err != nil {
		var ie *infraError
		if errors.As(err, &ie) {
			return "", ie.err
		}
		return capText("error: "+err.Error(), MaxToolResultBytes), nil
	}
	return capText(out, MaxToolResultBytes), nil
}

func (s *writeSession) toolTimeout(name string) time.Duration {
	if _, ok := s.tools[name].(*taskTool); ok {
		return 2 * DefaultToolTimeout
	}
	switch name {
	case bashToolName:
		return MaxBashTimeout + 15*time.Second
	case checkCandidateToolName:
		per := s.a.opts.Limits.WithDefaults().Timeout
		return DefaultToolTimeout + per*time.Duration(len(s.req.Examples))
	case synthesizeToolName:
		return 5 * DefaultToolTimeout
	}
	return DefaultToolTimeout
}

// runText is the plain-text loop: take the program from the reply, check
// it, send the failures back.
func (s *writeSession) runText(ctx context.Context) error {
	var last string
	for turn := 1; turn <= s.a.opts.MaxTurns; turn++ {
		s.tr.Turns = turn
		msg, err := s.conv.complete(ctx, turn, nil)
		if err != nil {
			return s.endOnError(turn, err)
		}
		code := lastFencedBlock(msg.Content, "python")
		if code == "" {
			if s.nudged {
				s.stop = StopModelStopped
				s.notes = append(s.notes, "the model sent no fenced python block")
				return nil
			}
			s.nudged = true
			s.conv.add(openai.ChatMessageRoleUser, "Send the complete candidate.py in one fenced ```python code block.")
			continue
		}
		if code == last {
			s.stop = StopRepeated
			s.notes = append(s.notes, "the model sent the same program twice")
			return nil
		}
		last = code
		if err := s.ws.WriteFile(agent.CandidateFile, []byte(code)); err != nil {
			return fmt.Errorf("write %s: %w", agent.CandidateFile, err)
		}
		rep, err := s.check.check(ctx, code)
		if err != nil {
			return err
		}
		if len(rep.Failures) == 0 {
			s.stop = StopPassed
			return nil
		}
		s.conv.add(openai.ChatMessageRoleUser, "candidate.py "+rep.String(s.check.shown)+
			"\nSend a corrected complete program in one fenced ```python code block.")
	}
	s.stop = StopMaxTurns
	return nil
}

// endOnError decides whether a failed request ends the session cleanly. A
// context overflow after trimming ends it, unless not even the first
// request fit, which is a configuration problem.
func (s *writeSession) endOnError(turn int, err error) error {
	if !errors.Is(err, errContextLength) {
		return err
	}
	if turn == 1 {
		return fmt.Errorf("%w: the first request exceeds the context of model %q even after trimming; choose a model with a longer context (%s) or a smaller task: %w",
			ErrConfig, s.a.opts.Model, SettingModel, err)
	}
	s.stop = StopContextLength
	s.notes = append(s.notes, "the conversation outgrew the model's context")
	return nil
}

func (s *writeSession) summary() string {
	parts := []string{"stop: " + s.stop}
	if !s.ws.Exists(agent.CandidateFile) {
		parts = append(parts, "no candidate.py was written")
	}
	parts = append(parts, s.notes...)
	return strings.Join(parts, "; ")
}

// normalizeArgs makes equal JSON arguments compare equal.
func normalizeArgs(args string) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(args)); err != nil {
		return args
	}
	return buf.String()
}
