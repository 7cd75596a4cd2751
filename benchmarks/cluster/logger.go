package cluster

import (
	"go.temporal.io/sdk/log"
	"go.uber.org/zap"
)

// logger passes the Temporal SDK's log lines to zap, one level down: the
// SDK's routine information (pollers started, workers stopped) is debug
// detail for a reconstruct user, and the failed attempts it reports as
// errors are retried (the worker logs each attempt's end itself).
type logger struct{ s *zap.SugaredLogger }

var _ log.Logger = logger{}

func newLogger(l *zap.Logger) logger {
	if l == nil {
		l = zap.NewNop()
	}
	return logger{l.With(zap.String("component", "temporal")).Sugar()}
}

func (l logger) Debug(msg string, kv ...any) { l.s.Debugw(msg, kv...) }
func (l logger) Info(msg string, kv ...any)  { l.s.Debugw(msg, kv...) }
func (l logger) Warn(msg string, kv ...any)  { l.s.Infow(msg, kv...) }
func (l logger) Error(msg string, kv ...any) { l.s.Warnw(msg, kv...) }

// With keeps the SDK's context fields.
func (l logger) With(kv ...any) log.Logger { return logger{l.s.With(kv...)} }
