package main

import (
	"errors"
	"fmt"
)

// Exit codes (ARCHITECTURE.md).
const (
	exitOK       = 0
	exitRejected = 1 // completed but rejected or failed its goal
	exitUsage    = 2 // bad usage or bad input
	exitInfra    = 3 // infrastructure failure
)

// exitError carries the process exit code a command failed with.
type exitError struct {
	Code int
	Err  error
}

func (e *exitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *exitError) Unwrap() error { return e.Err }

// withCode wraps err with an exit code; nil stays nil.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{Code: code, Err: err}
}

// exitCode maps an error to the process exit status.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.Code
	}
	if isUsageError(err) {
		return exitUsage
	}
	return exitRejected
}
