package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/config"
)

// CheckTasks checks every task of cs as a run checks its own before it
// starts anything (checkTask: the functions exist, the generator returns a
// list of inputs, the hidden program loads and answers them), all in one
// sandbox set up as the oracles' over the directory holding every task's
// files, with every task's held-out tests hidden from it: a sweep finds
// its broken tasks before the first one starts, in about the time of one
// sandbox's start. errs has one entry per configuration, nil or what is
// wrong with it (ErrConfig); err is the sandbox's failure. Factory tasks,
// bound when the sweep is planned, are not checked again.
func CheckTasks(ctx context.Context, cs []*config.Config, log *zap.Logger) (errs []error, err error) {
	errs = make([]error, len(cs))
	var todo []*config.Config
	var dirs []string
	for _, c := range cs {
		if c.Task.Factory == "" {
			todo = append(todo, c)
			dirs = append(dirs, oracleDir(c))
		}
	}
	if len(todo) == 0 {
		return errs, nil
	}
	if log == nil {
		log = zap.NewNop()
	}
	dir := commonDir(dirs)
	var hide []string
	for _, c := range todo {
		hide = append(hide, hiddenFromOracle(c.Task.Heldout, dir)...)
	}
	c0 := todo[0]
	kind, err := chooseKind(ctx, c0.Sandbox, log)
	if err != nil {
		return nil, err
	}
	box, err := openBox(ctx, c0.Sandbox, kind, NewRunID(), "oracle", dir, hide, log)
	if err != nil {
		return nil, fmt.Errorf("%w: start the %s sandbox to check the tasks: %w", ErrInfra, kind, err)
	}
	defer box.Close()
	for i, c := range cs {
		if c.Task.Factory != "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		errs[i] = checkFiles(ctx, c, box)
		if errs[i] != nil && !errors.Is(errs[i], ErrConfig) {
			return nil, errs[i]
		}
	}
	return errs, nil
}

// commonDir is the deepest directory holding every one of dirs.
func commonDir(dirs []string) string {
	dir := ""
	for _, d := range dirs {
		d = filepath.Clean(d)
		if dir == "" {
			dir = d
			continue
		}
		for dir != d && !strings.HasPrefix(d, dir+string(filepath.Separator)) && dir != filepath.Dir(dir) {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}
