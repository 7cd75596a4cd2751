package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// DefaultModel is the model the server lists at GET /v1/models.
const DefaultModel = "fake-model"

// Reply is one scripted answer to a chat-completions request.
type Reply struct {
	// Content is the assistant message's text.
	Content string
	// ToolCalls are the tool calls of the assistant message.
	ToolCalls []ToolCall
	// PromptTokens and CompletionTokens fill the response's usage.
	PromptTokens, CompletionTokens int

	// Status, when not 0 or 200, makes the reply an error response with
	// ErrorMessage, ErrorType and ErrorCode in OpenAI's error envelope.
	Status       int
	ErrorMessage string
	ErrorType    string
	ErrorCode    string
	// Header is added to the response (e.g. Retry-After).
	Header http.Header
	// RawBody, when set, is sent verbatim instead of a JSON response.
	RawBody string
	// Delay makes the server wait before answering (client timeouts).
	Delay time.Duration
}

// ToolCall is one function call in a scripted reply. Arguments are sent
// verbatim, so they can be broken JSON.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Text is a reply with only text.
func Text(content string, prompt, completion int) Reply {
	return Reply{Content: content, PromptTokens: prompt, CompletionTokens: completion}
}

// Call is a reply with one tool call whose arguments are v marshalled to
// JSON (a string is sent as it is).
func Call(name string, v any, prompt, completion int) Reply {
	return Reply{ToolCalls: []ToolCall{{Name: name, Arguments: args(v)}}, PromptTokens: prompt, CompletionTokens: completion}
}

// Error is an error response in OpenAI's envelope.
func Error(status int, message string) Reply {
	return Reply{Status: status, ErrorMessage: message, ErrorType: "server_error"}
}

// RateLimited is a 429 with a Retry-After header ("" for none).
func RateLimited(retryAfter string) Reply {
	r := Reply{Status: http.StatusTooManyRequests, ErrorMessage: "Rate limit reached", ErrorType: "requests", ErrorCode: "rate_limit_exceeded"}
	if retryAfter != "" {
		r.Header = http.Header{"Retry-After": []string{retryAfter}}
	}
	return r
}

// ContextLength is OpenAI's refusal of a prompt longer than the context.
func ContextLength() Reply {
	return Reply{
		Status:       http.StatusBadRequest,
		ErrorMessage: "This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.",
		ErrorType:    "invalid_request_error",
		ErrorCode:    "context_length_exceeded",
	}
}

func args(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: marshal tool arguments: %v", err))
	}
	return string(b)
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
	// Chat is the decoded body of a chat-completions request.
	Chat *openai.ChatCompletionRequest
}

// Handler answers a chat-completions request; it is used once the script
// is exhausted (or instead of one).
type Handler func(r *Request) Reply

// Server is an in-process OpenAI-compatible endpoint: GET /v1/models and
// POST /v1/chat/completions in the chat-completions wire format, answering
// with a script of replies in order, then with its Handler.
type Server struct {
	// URL is the base URL to configure (it ends in /v1).
	URL string
	// Models are listed at GET /v1/models (default: DefaultModel).
	Models []string
	// NoModels makes GET /v1/models answer 404, like proxies without a
	// model list.
	NoModels bool

	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	script  []Reply
	handler Handler
	reqs    []Request
	ids     int
}

// NewServer starts a server answering with replies in order; it is closed
// when the test ends, which also fails the test if replies were left over.
// A request beyond the script fails the test and gets a 500.
func NewServer(t testing.TB, replies ...Reply) *Server {
	return start(t, nil, replies)
}

// NewServerFunc starts a server whose every chat request is answered by h.
func NewServerFunc(t testing.TB, h Handler) *Server {
	return start(t, h, nil)
}

func start(t testing.TB, h Handler, replies []Reply) *Server {
	t.Helper()
	s := &Server{t: t, script: replies, handler: h, Models: []string{DefaultModel}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(func() {
		s.srv.Close()
		if n := s.Remaining(); n > 0 {
			t.Errorf("llmtest: %d scripted replies were never requested", n)
		}
	})
	return s
}

// Push appends replies to the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Remaining is the number of scripted replies not yet sent.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// ChatRequests returns the chat-completions requests received so far.
func (s *Server) ChatRequests() []*openai.ChatCompletionRequest {
	var out []*openai.ChatCompletionRequest
	for _, r := range s.Requests() {
		if r.Chat != nil {
			out = append(out, r.Chat)
		}
	}
	return out
}

// Close stops the server early (an unreachable endpoint).
func (s *Server) Close() { s.srv.Close() }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models" && !s.NoModels:
		s.record(req)
		s.models(w)
		return
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		var chat openai.ChatCompletionRequest
		if err := json.Unmarshal(body, &chat); err != nil {
			s.record(req)
			s.t.Errorf("llmtest: undecodable chat request: %v", err)
			writeError(w, Reply{Status: http.StatusBadRequest, ErrorMessage: err.Error(), ErrorType: "invalid_request_error"})
			return
		}
		req.Chat = &chat
	default:
		s.record(req)
		writeError(w, Reply{Status: http.StatusNotFound, ErrorMessage: "no route " + r.Method + " " + r.URL.Path, ErrorType: "invalid_request_error"})
		return
	}
	reply, ok := s.next(&req)
	if !ok {
		s.t.Errorf("llmtest: unexpected chat request %d: the script is exhausted", len(s.Requests()))
		writeError(w, Reply{Status: http.StatusInternalServerError, ErrorMessage: "llmtest: script exhausted", ErrorType: "server_error"})
		return
	}
	if reply.Delay > 0 {
		select {
		case <-time.After(reply.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, vs := range reply.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	switch {
	case reply.RawBody != "":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(max(reply.Status, http.StatusOK))
		io.WriteString(w, reply.RawBody)
	case reply.Status != 0 && reply.Status != http.StatusOK:
		writeError(w, reply)
	default:
		s.writeCompletion(w, req.Chat, reply)
	}
}

// next records the request and picks its reply.
func (s *Server) next(req *Request) (Reply, bool) {
	s.mu.Lock()
	s.reqs = append(s.reqs, *req)
	if len(s.script) > 0 {
		r := s.script[0]
		s.script = s.script[1:]
		s.mu.Unlock()
		return r, true
	}
	h := s.handler
	s.mu.Unlock()
	if h == nil {
		return Reply{}, false
	}
	return h(req), true
}

func (s *Server) record(req Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
}

func (s *Server) models(w http.ResponseWriter) {
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, m := range s.Models {
		list.Data = append(list.Data, model{ID: m, Object: "model", Created: 1700000000, OwnedBy: "llmtest"})
	}
	writeJSON(w, http.StatusOK, list)
}

// Wire format of a chat completion, written by hand rather than with the
// client's types so the test exercises the client's decoding.
type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
}

type wireChoice struct {
	Index        int         `json:"index"`
	Message      wireMessage `json:"message"`
	FinishReason string      `json:"finish_reason"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type wireCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   wireUsage    `json:"usage"`
}

func (s *Server) writeCompletion(w http.ResponseWriter, req *openai.ChatCompletionRequest, r Reply) {
	s.mu.Lock()
	s.ids++
	id := s.ids
	s.mu.Unlock()
	msg := wireMessage{Role: "assistant"}
	if r.Content != "" || len(r.ToolCalls) == 0 {
		c := r.Content
		msg.Content = &c
	}
	finish := "stop"
	for i, tc := range r.ToolCalls {
		wc := wireToolCall{ID: tc.ID, Type: "function"}
		if wc.ID == "" {
			wc.ID = fmt.Sprintf("call_%d_%d", id, i)
		}
		wc.Function.Name, wc.Function.Arguments = tc.Name, tc.Arguments
		msg.ToolCalls = append(msg.ToolCalls, wc)
		finish = "tool_calls"
	}
	writeJSON(w, http.StatusOK, wireCompletion{
		ID: fmt.Sprintf("chatcmpl-%d", id), Object: "chat.completion", Created: time.Now().Unix(), Model: req.Model,
		Choices: []wireChoice{{Message: msg, FinishReason: finish}},
		Usage:   wireUsage{PromptTokens: r.PromptTokens, CompletionTokens: r.CompletionTokens, TotalTokens: r.PromptTokens + r.CompletionTokens},
	})
}

func writeError(w http.ResponseWriter, r Reply) {
	type apiErr struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	}
	e := apiErr{Message: r.ErrorMessage, Type: r.ErrorType}
	if r.ErrorCode != "" {
		e.Code = &r.ErrorCode
	}
	writeJSON(w, r.Status, struct {
		Error apiErr `json:"error"`
	}{e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		return // the client went away
	}
}

// ProposeK is the k a proposal request asks for (the minItems of the
// propose_inputs tool's inputs), or 0 when the request offers no such tool.
func ProposeK(r *Request) int {
	if r.Chat == nil {
		return 0
	}
	for _, t := range r.Chat.Tools {
		if t.Function == nil || t.Function.Name != "propose_inputs" {
			continue
		}
		b, err := json.Marshal(t.Function.Parameters)
		if err != nil {
			return 0
		}
		var schema struct {
			Properties struct {
				Inputs struct {
					MinItems int `json:"minItems"`
				} `json:"inputs"`
			} `json:"properties"`
		}
		if json.Unmarshal(b, &schema) != nil {
			return 0
		}
		return schema.Properties.Inputs.MinItems
	}
	return 0
}

// LastMessage is the last message of a chat request ("" role when none).
func LastMessage(r *Request) openai.ChatCompletionMessage {
	if r.Chat == nil || len(r.Chat.Messages) == 0 {
		return openai.ChatCompletionMessage{}
	}
	return r.Chat.Messages[len(r.Chat.Messages)-1]
}

// HasText reports whether any message of the request contains s.
func HasText(r *Request, s string) bool {
	if r.Chat == nil {
		return false
	}
	for _, m := range r.Chat.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}
