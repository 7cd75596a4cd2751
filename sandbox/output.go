package sandbox

import "sync"

// CappedOutput collects a command's output (stdout and stderr may write to
// it concurrently), keeping the first Limit bytes and noting whether more
// came: what an Executor returns as ExecResult.Output and Truncated.
type CappedOutput struct {
	mu        sync.Mutex
	limit     int64
	buf       []byte
	truncated bool
}

// NewCappedOutput keeps at most limit bytes.
func NewCappedOutput(limit int64) *CappedOutput { return &CappedOutput{limit: limit} }

// Write keeps what fits and never fails, so that the command is not stopped
// by a full buffer.
func (c *CappedOutput) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - int64(len(c.buf))
	if int64(len(p)) > room {
		c.truncated = true
		if room > 0 {
			c.buf = append(c.buf, p[:room]...)
		}
		return len(p), nil
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

// Result is the output kept and whether any was dropped.
func (c *CappedOutput) Result() (output string, truncated bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.buf), c.truncated
}
