// Command selfcheck measures the synthesizer on a task set without the
// workflow: it runs a simplified loop (initial batch of 2, batches growing
// by 2 after each full pass, early stop after 5 consecutive passes, at most
// 50 iterations), querying hidden.py with python3, and scores the final
// candidate on heldout.jsonl. With -trace it prints every session's
// program, and with -dump it writes every session's examples. It is a
// development tool; it runs the task set's own hidden programs, never
// candidates from elsewhere.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/agent/synth"
	"github.com/reconstruct/reconstruct/task"
)

const runner = `
import importlib.util, json, sys, os
path, fn = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
spec = importlib.util.spec_from_file_location("m", path)
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
f = getattr(m, fn)
out = []
for x in json.load(sys.stdin):
    try:
        out.append({"output": f(x)})
    except Exception as e:
        out.append({"error": type(e).__name__ + ": " + str(e)})
print(json.dumps(out))
`

type taskFile struct {
	Task struct {
		Name             string       `yaml:"name"`
		Level            string       `yaml:"level"`
		InputType        string       `yaml:"input_type"`
		InputConstraints string       `yaml:"input_constraints"`
		FunctionName     string       `yaml:"function_name"`
		Kind             task.Kind    `yaml:"kind"`
		Domain           *task.Domain `yaml:"domain"`
		Oracle           struct {
			Python   string `yaml:"python"`
			Function string `yaml:"function"`
		} `yaml:"oracle"`
		RandomInputs struct {
			Python   string `yaml:"python"`
			Function string `yaml:"function"`
		} `yaml:"random_inputs"`
	} `yaml:"task"`
}

// generatorRunner draws inputs from a task's generator, as the workflow's
// proposal fallback does when every proposal attempt failed.
const generatorRunner = `
import importlib.util, json, random, sys, os
path, fn, k, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
spec = importlib.util.spec_from_file_location("g", path)
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
print(json.dumps(getattr(m, fn)(k, json.load(sys.stdin), random.Random(seed))))
`

// generate draws k inputs from the generator at path, none of exclude.
func generate(ctx context.Context, path, fn string, k, seed int, exclude []json.RawMessage) ([]json.RawMessage, error) {
	in, _ := json.Marshal(exclude)
	cmd := exec.CommandContext(ctx, "python3", "-c", generatorRunner, path, fn, fmt.Sprint(k), fmt.Sprint(seed))
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("generate %s: %w", path, err)
	}
	var xs []json.RawMessage
	if err := json.Unmarshal(out, &xs); err != nil {
		return nil, fmt.Errorf("generate %s: %w", path, err)
	}
	return xs, nil
}

type answer struct {
	Output json.RawMessage `json:"output"`
	Error  string          `json:"error"`
}

func run(ctx context.Context, path, fn string, inputs []json.RawMessage) ([]answer, error) {
	in, _ := json.Marshal(inputs)
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "python3", "-c", runner, path, fn)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("run %s: %w: %s", path, err, stderr.String())
	}
	var ans []answer
	if err := json.Unmarshal(out, &ans); err != nil {
		return nil, fmt.Errorf("decode %s output: %w", path, err)
	}
	return ans, nil
}

type outcome struct {
	name, level string
	solved      bool
	acc         float64
	iters       int
	examples    int
	secs        float64
	note        string
}

func main() {
	dir := flag.String("tasks", "benchmarks/tasks/io2code-style", "task set directory")
	filter := flag.String("run", "", "regexp selecting task names")
	limit := flag.Duration("time", synth.DefaultTimeLimit, "synthesizer time limit per session")
	runLimit := flag.Duration("run-time", 45*time.Second, "synthesizer time limit of all a task's sessions (the configuration's agent.synth.run_time_limit; 0: none)")
	proposeLimit := flag.Duration("propose-time", synth.DefaultProposeTimeLimit, "search time of a proposal's rival programs (the configuration's agent.synth.propose_time_limit)")
	verbose := flag.Bool("v", false, "print each task's final program")
	stall := flag.Int("stall", 5, "stop a task after this many consecutive sessions that write the same candidate (as the workflow's stall_limit)")
	trace := flag.Bool("trace", false, "print every session's program, the examples it passed and its time")
	dump := flag.String("dump", "", "write the examples of every session to DIR/TASK-SESSION.json (to replay a session's search)")
	flag.Parse()
	re := regexp.MustCompile(*filter)
	entries, err := os.ReadDir(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var results []outcome
	for _, e := range entries {
		if !e.IsDir() || !re.MatchString(e.Name()) {
			continue
		}
		o := checkTask(filepath.Join(*dir, e.Name()), synth.Options{Seed: 1, TimeLimit: *limit, RunTimeLimit: *runLimit, ProposeTimeLimit: *proposeLimit}, *verbose, *trace, *stall, *dump)
		results = append(results, o)
		fmt.Printf("%-40s %-9s solved=%-5v acc=%.2f iters=%-2d examples=%-3d %5.1fs %s\n", o.name, o.level, o.solved, o.acc, o.iters, o.examples, o.secs, o.note)
	}
	byLevel := map[string][2]int{}
	for _, o := range results {
		c := byLevel[o.level]
		c[1]++
		if o.solved {
			c[0]++
		}
		byLevel[o.level] = c
	}
	levels := make([]string, 0, len(byLevel))
	for l := range byLevel {
		levels = append(levels, l)
	}
	sort.Strings(levels)
	total := [2]int{}
	fmt.Println("\n| level | solved | tasks | share |\n|---|---|---|---|")
	for _, l := range levels {
		c := byLevel[l]
		total[0] += c[0]
		total[1] += c[1]
		fmt.Printf("| %s | %d | %d | %.0f%% |\n", l, c[0], c[1], 100*float64(c[0])/float64(c[1]))
	}
	if total[1] > 0 {
		fmt.Printf("| all | %d | %d | %.0f%% |\n", total[0], total[1], 100*float64(total[0])/float64(total[1]))
	}
}

func checkTask(dir string, opts synth.Options, verbose, trace bool, stall int, dump string) outcome {
	start := time.Now()
	o := outcome{name: filepath.Base(dir)}
	raw, err := os.ReadFile(filepath.Join(dir, "task.yaml"))
	if err != nil {
		o.note = err.Error()
		return o
	}
	var tf taskFile
	if err := yaml.Unmarshal(raw, &tf); err != nil {
		o.note = err.Error()
		return o
	}
	tt := tf.Task
	t := task.Task{Name: tt.Name, Level: tt.Level, InputType: tt.InputType, InputConstraints: tt.InputConstraints,
		FunctionName: tt.FunctionName, Kind: tt.Kind, Domain: tt.Domain}
	o.level = t.Level
	if t.FunctionName == "" {
		t.FunctionName = "solve"
	}
	hidden := filepath.Join(dir, tf.Task.Oracle.Python)
	ctx := context.Background()
	ag := synth.New(opts)
	ws, _ := os.MkdirTemp("", "selfcheck-")
	defer os.RemoveAll(ws)
	var exs []task.Example
	query := func(k int, batch int) bool {
		var rejection string
		for attempt := 1; attempt <= 3; attempt++ {
			pr, err := ag.Propose(ctx, agent.ProposeRequest{Task: t, K: k, Examples: exs, Attempt: attempt, Rejection: rejection, Workspace: ws,
				Missing: task.Uncovered(t.Kind, t.Domain, inputsOf(exs))})
			if err != nil {
				o.note = "propose: " + err.Error()
				return false
			}
			ans, err := run(ctx, hidden, tf.Task.Oracle.Function, pr.Inputs)
			if err != nil {
				o.note = err.Error()
				return false
			}
			bad := ""
			for i, a := range ans {
				if a.Error != "" {
					bad = fmt.Sprintf("input %s rejected: %s", pr.Inputs[i], a.Error)
					break
				}
			}
			if bad != "" {
				rejection = bad
				continue
			}
			for i, a := range ans {
				exs = append(exs, task.Example{Input: pr.Inputs[i], Output: a.Output, Source: task.SourceAgent})
			}
			return true
		}
		if tf.Task.RandomInputs.Python == "" {
			o.note = "proposer failed: " + rejection
			return false
		}
		// As the workflow's proposal_fallback: random.
		ins, err := generate(ctx, filepath.Join(dir, tf.Task.RandomInputs.Python), tf.Task.RandomInputs.Function, k, batch, inputsOf(exs))
		if err == nil {
			var ans []answer
			if ans, err = run(ctx, hidden, tf.Task.Oracle.Function, ins); err == nil {
				for i, a := range ans {
					if a.Error != "" {
						err = fmt.Errorf("generated input %s rejected: %s", ins[i], a.Error)
						break
					}
				}
				if err == nil {
					for i, a := range ans {
						exs = append(exs, task.Example{Input: ins[i], Output: a.Output, Source: task.SourceRandom})
					}
					return true
				}
			}
		}
		o.note = "proposer failed: " + rejection + "; generator: " + err.Error()
		return false
	}
	if !query(2, 2) {
		return o
	}
	batch, streak := 2, 0
	lastNotes := ""
	lastSrc, same := "", 0
	var fb *agent.Feedback
	for it := 1; it <= 50; it++ {
		o.iters = it
		began := time.Now()
		wr, err := ag.Write(ctx, agent.WriteRequest{Task: t, Iteration: it, Examples: exs, Feedback: fb, Workspace: ws})
		if err != nil {
			o.note = "write: " + err.Error()
			return o
		}
		lastNotes = wr.Notes
		ans, err := run(ctx, filepath.Join(ws, agent.CandidateFile), t.FunctionName, inputsOf(exs))
		if err != nil {
			o.note = err.Error()
			return o
		}
		passed := 0
		for i, a := range ans {
			if a.Error == "" && task.Equal(a.Output, exs[i].Output, task.DefaultAtol) {
				passed++
			}
		}
		src, _ := os.ReadFile(filepath.Join(ws, agent.CandidateFile))
		if dump != "" {
			b, err := json.Marshal(exs)
			if err == nil {
				err = os.WriteFile(filepath.Join(dump, fmt.Sprintf("%s-%d.json", o.name, it)), b, 0o644)
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "dump %s session %d: %v\n", o.name, it, err)
			}
		}
		if trace {
			fmt.Printf("  %s session %d: %d of %d examples in %.1fs: %s\n", o.name, it, passed, len(exs),
				time.Since(began).Seconds(), headline(string(src)))
		}
		if string(src) == lastSrc && passed < len(exs) {
			if same++; stall > 0 && same >= stall {
				o.note = "stalled"
				break
			}
		} else {
			same = 0
		}
		lastSrc = string(src)
		if passed < len(exs) {
			streak = 0
			fb = &agent.Feedback{Iteration: it, Passed: passed, Total: len(exs)}
			continue
		}
		fb = nil
		streak++
		if streak >= 5 {
			break
		}
		batch += 2
		if !query(batch, batch) {
			break
		}
	}
	o.examples = len(exs)
	// Held-out score.
	var ins []json.RawMessage
	var outs []json.RawMessage
	f, err := os.Open(filepath.Join(dir, "heldout.jsonl"))
	if err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var l struct {
				Input  json.RawMessage `json:"input"`
				Output json.RawMessage `json:"output"`
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				ins, outs = append(ins, l.Input), append(outs, l.Output)
			}
		}
		f.Close()
	}
	ans, err := run(ctx, filepath.Join(ws, agent.CandidateFile), t.FunctionName, ins)
	if err == nil && len(ins) > 0 {
		ok := 0
		for i, a := range ans {
			if a.Error == "" && task.Equal(a.Output, outs[i], task.DefaultAtol) {
				ok++
			}
		}
		o.acc = float64(ok) / float64(len(ins))
		o.solved = ok == len(ins)
	}
	if verbose {
		src, _ := os.ReadFile(filepath.Join(ws, agent.CandidateFile))
		o.note += headline(string(src))
		if !o.solved {
			o.note += "\n    " + strings.ReplaceAll(strings.TrimSpace(lastNotes), "\n", "\n    ")
			o.note += "\n    examples: " + shortExamples(exs)
		}
	}
	o.secs = time.Since(start).Seconds()
	return o
}

// headline is the first comment line of a candidate: the program it
// writes, or why it is a partial one.
func headline(src string) string {
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "# ") {
			return strings.TrimPrefix(line, "# ")
		}
	}
	return ""
}

func inputsOf(exs []task.Example) []json.RawMessage {
	out := make([]json.RawMessage, len(exs))
	for i, e := range exs {
		out[i] = e.Input
	}
	return out
}

func shortExamples(exs []task.Example) string {
	var sb strings.Builder
	for i, e := range exs {
		if i == 3 {
			break
		}
		fmt.Fprintf(&sb, "%s -> %s; ", e.Input, e.Output)
	}
	return sb.String()
}
