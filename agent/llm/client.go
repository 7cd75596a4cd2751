package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/zap"
)

// errContextLength reports that the conversation exceeds the model's
// context; the session trims and retries once.
var errContextLength = errors.New("prompt exceeds the model's context length")

// chat sends one chat-completions request, retrying transient failures.
// Each attempt is recorded in tr. The error wraps ErrUnavailable after the
// retries, ErrConfig for a request the endpoint refuses, errContextLength,
// or the context's error when ctx ends.
func (a *Agent) chat(ctx context.Context, tr *Transcript, turn int, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	a.fillSampling(&req)
	var last error
	for attempt := 0; ; attempt++ {
		start := time.Now()
		rctx, cancel := context.WithTimeout(ctx, a.opts.RequestTimeout)
		resp, err := a.client.CreateChatCompletion(rctx, req)
		cancel()
		latency := time.Since(start)
		if err == nil && len(resp.Choices) == 0 {
			err = errors.New("response has no choices")
		}
		tr.request(turn, attempt, latency, resp.Usage, err)
		if err == nil {
			a.log.Debug("chat completion", zap.Int("turn", turn), zap.Duration("latency", latency),
				zap.Int("prompt_tokens", resp.Usage.PromptTokens), zap.Int("completion_tokens", resp.Usage.CompletionTokens))
			return resp, nil
		}
		if ctx.Err() != nil {
			return resp, fmt.Errorf("chat completion: %w", context.Cause(ctx))
		}
		if isContextLength(err) {
			return resp, fmt.Errorf("%w: %w", errContextLength, err)
		}
		if !retryable(err) {
			return resp, a.refused(err)
		}
		last = err
		if attempt >= a.opts.Retries {
			break
		}
		delay := a.backoff(attempt)
		if ra, ok := retryAfter(resp.Header()); ok {
			delay = min(ra, DefaultMaxRetryAfter)
		}
		a.log.Warn("chat completion failed; retrying", zap.Int("attempt", attempt+1),
			zap.Duration("delay", delay), zap.Error(err))
		if err := a.sleep(ctx, delay); err != nil {
			return resp, fmt.Errorf("chat completion: %w", err)
		}
	}
	return openai.ChatCompletionResponse{}, fmt.Errorf("%w: %s %s failed %d times: %v",
		ErrUnavailable, SettingBaseURL, a.opts.BaseURL, a.opts.Retries+1, last)
}

// fillSampling sets temperature and the completion cap the way the model
// accepts them.
func (a *Agent) fillSampling(req *openai.ChatCompletionRequest) {
	req.Model = a.opts.Model
	if t := a.opts.Temperature; t != nil {
		req.Temperature = float32(*t)
		if req.Temperature == 0 {
			req.Temperature = math.SmallestNonzeroFloat32
		}
	}
	if a.opts.MaxTokens > 0 {
		req.MaxTokens = a.opts.MaxTokens
		// Reasoning models refuse max_tokens; the client says so before
		// sending anything.
		if errors.Is(openai.NewReasoningValidator().Validate(*req), openai.ErrReasoningModelMaxTokensDeprecated) {
			req.MaxTokens, req.MaxCompletionTokens = 0, a.opts.MaxTokens
		}
	}
	// Reasoning models accept no temperature but their default; leave it
	// to them rather than fail the run over a sampling setting.
	if req.Temperature != 0 {
		err := openai.NewReasoningValidator().Validate(*req)
		if errors.Is(err, openai.ErrReasoningModelLimitationsOther) || errors.Is(err, openai.ErrReasoningSamplingUnsupported) {
			req.Temperature = 0
		}
	}
}

// refused turns a non-retryable failure into an ErrConfig naming the
// setting most likely at fault.
func (a *Agent) refused(err error) error {
	status := httpStatus(err)
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w: the endpoint refused the API key from %s (HTTP %d): %w", ErrConfig, a.keySource(), status, err)
	case http.StatusNotFound:
		return fmt.Errorf("%w: the endpoint does not know model %q or the route (HTTP 404); check %s and %s: %w", ErrConfig, a.opts.Model, SettingModel, SettingBaseURL, err)
	case 0:
		return fmt.Errorf("%w: chat completion request to %s rejected before sending; check %s and %s: %w", ErrConfig, a.opts.BaseURL, SettingModel, SettingToolMode, err)
	}
	return fmt.Errorf("%w: the endpoint refused the request (HTTP %d); check %s and %s (servers without tool calling need %s: %s): %w",
		ErrConfig, status, SettingModel, SettingBaseURL, SettingToolMode, ToolModeText, err)
}

// backoff is the full-jitter exponential delay before retry attempt+1.
func (a *Agent) backoff(attempt int) time.Duration {
	ceil := a.opts.Backoff << min(attempt, 20)
	if ceil <= 0 || ceil > a.opts.MaxBackoff {
		ceil = a.opts.MaxBackoff
	}
	// Half fixed, half random: never zero, never in lock-step.
	return ceil/2 + rand.N(ceil/2+1)
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
func retryAfter(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t)), true
	}
	return 0, false
}

// httpStatus is the HTTP status of an API failure, 0 when there was no
// response.
func httpStatus(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

// retryable reports whether a failure is worth another attempt: rate
// limits, server errors, timeouts, broken connections and unreadable
// responses.
func retryable(err error) bool {
	switch status := httpStatus(err); {
	case status == http.StatusTooManyRequests, status == http.StatusRequestTimeout, status >= 500:
		return true
	case status != 0:
		return false
	}
	// Without a response it was a timeout, a broken connection or an
	// unreadable body, unless the client's own request checks refused the
	// request before sending it.
	for _, e := range clientChecks {
		if errors.Is(err, e) {
			return false
		}
	}
	return true
}

// clientChecks are the go-openai request validation errors: a request
// refused locally, which no retry can fix.
var clientChecks = []error{
	openai.ErrChatCompletionInvalidModel,
	openai.ErrChatCompletionStreamNotSupported,
	openai.ErrReasoningModelMaxTokensDeprecated,
	openai.ErrReasoningModelLimitationsLogprobs,
	openai.ErrReasoningModelLimitationsOther,
	openai.ErrReasoningEffortUnsupported,
	openai.ErrReasoningToolsRequireResponses,
	openai.ErrReasoningSamplingUnsupported,
	openai.ErrO1BetaLimitationsMessageTypes,
	openai.ErrO1BetaLimitationsTools,
	openai.ErrO1BetaLimitationsOther,
}

// isContextLength recognises the context-length refusals of OpenAI
// (code context_length_exceeded), vLLM ("maximum context length") and the
// llama.cpp server (exceed_context_size_error).
func isContextLength(err error) bool {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		if code, ok := apiErr.Code.(string); ok && code == "context_length_exceeded" {
			return true
		}
		if apiErr.Type == "exceed_context_size_error" {
			return true
		}
		if apiErr.HTTPStatusCode != http.StatusBadRequest && apiErr.HTTPStatusCode != http.StatusRequestEntityTooLarge {
			return false
		}
		return mentionsContext(apiErr.Message)
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) && (reqErr.HTTPStatusCode == http.StatusBadRequest || reqErr.HTTPStatusCode == http.StatusRequestEntityTooLarge) {
		return mentionsContext(string(reqErr.Body))
	}
	return false
}

func mentionsContext(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"context length", "context_length", "context size", "context window", "maximum context"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}
