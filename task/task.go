package task

import (
	"encoding/json"
	"fmt"
)

// Kind is the structural kind of a task's input.
type Kind string

// The input kinds of docs/workflow.md.
const (
	KindList     Kind = "list"
	KindTwoLists Kind = "two_lists"
	KindInt      Kind = "int"
	KindPair     Kind = "pair"
	KindString   Kind = "string"
	KindPoints   Kind = "points"
	KindOther    Kind = "other"
)

// Kinds lists every valid kind.
var Kinds = []Kind{KindList, KindTwoLists, KindInt, KindPair, KindString, KindPoints, KindOther}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool {
	for _, v := range Kinds {
		if k == v {
			return true
		}
	}
	return false
}

// Domain is the inclusive range of every number in an input.
type Domain struct {
	Lo float64 `json:"lo" yaml:"lo"`
	Hi float64 `json:"hi" yaml:"hi"`
}

// Contains reports whether x lies in [Lo, Hi].
func (d Domain) Contains(x float64) bool { return x >= d.Lo && x <= d.Hi }

// String formats the domain as "[lo, hi]".
func (d Domain) String() string { return fmt.Sprintf("[%g, %g]", d.Lo, d.Hi) }

// Task describes what an agent may know about a hidden program: never the
// program itself.
type Task struct {
	Name             string  `json:"name"`
	Level            string  `json:"level,omitempty"`
	InputType        string  `json:"input_type"`
	InputConstraints string  `json:"input_constraints,omitempty"`
	FunctionName     string  `json:"function_name"`
	Kind             Kind    `json:"kind"`
	Domain           *Domain `json:"domain,omitempty"`
}

// Source says where an example's input came from.
type Source string

// Example sources.
const (
	SourceInitial Source = "initial"
	SourceAgent   Source = "agent"
	SourceRandom  Source = "random"
)

// Example is one observed input and the hidden program's output for it.
type Example struct {
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output"`
	Source Source          `json:"source"`
}

// MarshalJSON keeps Example compact and stable.
func (e Example) MarshalJSON() ([]byte, error) {
	type plain Example
	return json.Marshal(plain(e))
}

// Usage counts the tokens an agent spent.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens" yaml:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens" yaml:"completion_tokens"`
}

// Total is prompt plus completion tokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens + v.PromptTokens, CompletionTokens: u.CompletionTokens + v.CompletionTokens}
}
