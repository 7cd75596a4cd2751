package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// tool is one function the model can call. Run's error is shown to the
// model as the tool's result unless it is an infraError, which ends the
// session: the sandbox itself failed.
type tool interface {
	Name() string
	Description() string
	// Schema is the JSON schema of the arguments object.
	Schema() map[string]any
	Run(ctx context.Context, args json.RawMessage) (string, error)
}

// infraError marks a tool failure that is the infrastructure's, not the
// model's.
type infraError struct{ err error }

func (e *infraError) Error() string { return e.err.Error() }
func (e *infraError) Unwrap() error { return e.err }

func infra(err error) error { return &infraError{err: err} }

// definitions turns tools into the request's tool list.
func definitions(tools []tool) []openai.Tool {
	defs := make([]openai.Tool, 0, len(tools))
	for _, t := range tools {
		defs = append(defs, openai.Tool{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name:        t.Name(),
				Description: t.Description(),
				Parameters:  t.Schema(),
			},
		})
	}
	return defs
}

// schemaOf derives the JSON schema of a params struct from its tags: the
// json name, `description:"..."`, and required unless the json tag has
// omitempty. Supported field types: string, integers, floats, bool, slices
// of those, and json.RawMessage (any JSON value).
func schemaOf(params any) map[string]any {
	t := reflect.TypeOf(params)
	props := map[string]any{}
	required := []string{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := typeSchema(f.Type)
		if d := f.Tag.Get("description"); d != "" {
			s["description"] = d
		}
		props[name] = s
		if !strings.Contains(opts, "omitempty") {
			required = append(required, name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

func typeSchema(t reflect.Type) map[string]any {
	if t == rawMessageType {
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Pointer:
		return typeSchema(t.Elem())
	}
	panic(fmt.Sprintf("llm: schemaOf: unsupported field type %s", t))
}

// decodeArgs parses a tool call's arguments into v, checking the schema's
// required fields. Its errors are meant for the model.
func decodeArgs(raw json.RawMessage, v any, schema map[string]any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("arguments are not a JSON object (%w); send a JSON object matching the tool's schema", err)
	}
	if req, ok := schema["required"].([]string); ok {
		var missing []string
		for _, name := range req {
			if _, ok := fields[name]; !ok {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("missing required argument(s): %s", strings.Join(missing, ", "))
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("argument %q must be of type %s, got a JSON %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// capText shortens s to at most n bytes, saying how much was cut.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 { // keep UTF-8 whole
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[... %d more bytes cut]", len(s)-cut)
}

// toolSpec is what every tool with fixed parameters P shares: its name and
// description, the schema derived from P, and the decoding of a call's
// arguments against that schema. Such tools embed it.
type toolSpec[P any] struct {
	name, description string
}

func (s toolSpec[P]) Name() string        { return s.name }
func (s toolSpec[P]) Description() string { return s.description }

func (s toolSpec[P]) Schema() map[string]any {
	var p P
	return schemaOf(p)
}

// decode decodes a call's arguments into P, checked against the schema.
func (s toolSpec[P]) decode(args json.RawMessage) (P, error) {
	var p P
	err := decodeArgs(args, &p, s.Schema())
	return p, err
}

// workspaceTool is a tool that only reads or changes the files of the
// workspace (file_read, file_write, apply_patch): Run decodes the call's
// arguments and hands them to run.
type workspaceTool[P any] struct {
	toolSpec[P]
	ws  *workspace
	run func(ws *workspace, p P) (string, error)
}

func (t *workspaceTool[P]) Run(_ context.Context, args json.RawMessage) (string, error) {
	p, err := t.decode(args)
	if err != nil {
		return "", err
	}
	return t.run(t.ws, p)
}
