package main

import (
	"fmt"
	"sort"
	"strings"

	"go.uber.org/zap/buffer"
	"go.uber.org/zap/zapcore"
)

// textEncoder writes a log entry as one line that reads like the rest of
// the command's output on stderr:
//
//	reconstruct: warning: sandbox.kind auto: using the process sandbox: image … not found (run=…, task=…)
//
// Fields follow the message as key=value in parentheses.
type textEncoder struct {
	*zapcore.MapObjectEncoder
}

func newTextEncoder() zapcore.Encoder {
	return &textEncoder{MapObjectEncoder: zapcore.NewMapObjectEncoder()}
}

var textPool = buffer.NewPool()

// Clone copies the fields added so far (zap's With).
func (e *textEncoder) Clone() zapcore.Encoder {
	c := zapcore.NewMapObjectEncoder()
	for k, v := range e.Fields {
		c.Fields[k] = v
	}
	return &textEncoder{MapObjectEncoder: c}
}

// EncodeEntry renders one line.
func (e *textEncoder) EncodeEntry(ent zapcore.Entry, fields []zapcore.Field) (*buffer.Buffer, error) {
	all := e.Clone().(*textEncoder)
	for _, f := range fields {
		f.AddTo(all.MapObjectEncoder)
	}
	buf := textPool.Get()
	buf.AppendString("reconstruct: ")
	buf.AppendString(levelWord(ent.Level))
	buf.AppendString(": ")
	if ent.LoggerName != "" {
		buf.AppendString(ent.LoggerName + ": ")
	}
	buf.AppendString(ent.Message)
	if len(all.Fields) > 0 {
		keys := make([]string, 0, len(all.Fields))
		for k := range all.Fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + textValue(all.Fields[k])
		}
		buf.AppendString(" (" + strings.Join(parts, ", ") + ")")
	}
	if ent.Stack != "" {
		buf.AppendString("\n" + ent.Stack)
	}
	buf.AppendString("\n")
	return buf, nil
}

func levelWord(l zapcore.Level) string {
	if l == zapcore.WarnLevel {
		return "warning"
	}
	return l.String()
}

// textValue prints a field's value without quotes unless it holds spaces.
func textValue(v any) string {
	s := fmt.Sprint(v)
	if strings.ContainsAny(s, " ,()=") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
