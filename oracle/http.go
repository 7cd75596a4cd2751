package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/reconstruct/reconstruct/task"
)

// HTTP is a hidden program behind an HTTP endpoint: each input is POSTed as
// JSON; a 2xx answer's body is the output; a 4xx (but 429) rejects the
// input; 5xx, 429 and timeouts are retried with exponential backoff, then reported as an
// infrastructure error.
type HTTP struct {
	url     string
	client  *http.Client
	retries int
	// BaseDelay is the first backoff delay (doubles each retry).
	BaseDelay time.Duration
}

var _ Oracle = (*HTTP)(nil)

// NewHTTP returns an oracle posting to url.
func NewHTTP(url string, timeout time.Duration, retries int) *HTTP {
	return &HTTP{url: url, client: &http.Client{Timeout: timeout}, retries: retries, BaseDelay: 200 * time.Millisecond}
}

// Query posts each input.
func (h *HTTP) Query(ctx context.Context, inputs []json.RawMessage) ([]Answer, error) {
	answers := make([]Answer, len(inputs))
	for i, in := range inputs {
		a, err := h.one(ctx, in)
		var bound *BoundError
		if errors.As(err, &bound) {
			bound.Index, bound.Input = i+1, in
		}
		if err != nil {
			return nil, fmt.Errorf("http oracle %s: input %d: %w", h.url, i+1, err)
		}
		answers[i] = a
	}
	return answers, nil
}

func (h *HTTP) one(ctx context.Context, input json.RawMessage) (Answer, error) {
	var lastErr error
	for attempt := 0; attempt <= h.retries; attempt++ {
		if attempt > 0 {
			d := h.BaseDelay << (attempt - 1)
			d += time.Duration(rand.Int64N(int64(d)/2 + 1))
			if ra, ok := lastErr.(retryAfter); ok && ra.after > d {
				d = ra.after
			}
			select {
			case <-ctx.Done():
				return Answer{}, ctx.Err()
			case <-time.After(d):
			}
		}
		a, err := h.post(ctx, input)
		var bound *BoundError
		if err == nil || errors.As(err, &bound) {
			// An answer beyond a bound is not retried: it would be the
			// same.
			return a, err
		}
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		lastErr = err
	}
	return Answer{}, fmt.Errorf("gave up after %d attempts: %w", h.retries+1, lastErr)
}

type retryAfter struct {
	err   error
	after time.Duration
}

func (r retryAfter) Error() string { return r.err.Error() }

func (h *HTTP) post(ctx context.Context, input json.RawMessage) (Answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(input))
	if err != nil {
		return Answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCommandOutput))
	if err != nil {
		return Answer{}, err
	}
	switch {
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		e := fmt.Errorf("server error %s", resp.Status)
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			return Answer{}, retryAfter{e, time.Duration(s) * time.Second}
		}
		return Answer{}, e
	case resp.StatusCode >= 400:
		msg := string(bytes.TrimSpace(body))
		if msg == "" {
			msg = resp.Status
		}
		return Answer{Invalid: msg}, nil
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		out := bytes.TrimSpace(body)
		if !utf8.Valid(out) {
			return Answer{}, &BoundError{Key: KeyUTF8, Detail: "is not UTF-8 text: an endpoint must answer UTF-8 JSON"}
		}
		if _, err := task.Decode(out); err != nil {
			return Answer{}, fmt.Errorf("response body is not one JSON value: %w", err)
		}
		return Answer{Output: json.RawMessage(out)}, nil
	}
	return Answer{}, fmt.Errorf("unexpected status %s", resp.Status)
}

// Close releases idle connections.
func (h *HTTP) Close() error {
	h.client.CloseIdleConnections()
	return nil
}
