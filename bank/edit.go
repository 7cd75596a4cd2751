package bank

import (
	"fmt"
)

// Edit is one graph edit of a proposal (docs/bank.md "Edit graph
// structure"). Kind is rebind, replace_node, add_node, remove_node or
// set_output.
type Edit struct {
	Kind     string
	Node     string
	Argument string
	Ref      string
	Output   string
	Value    *Node
}

// decodeEdits strictly decodes a graph_edits list.
func decodeEdits(path string, x any) ([]Edit, error) {
	xs, ok := x.([]any)
	if !ok {
		return nil, pathErr(path, "want an array of edits, got %s", jsonType(x))
	}
	if len(xs) > MaxEdits {
		return nil, &LimitError{What: "graph_edits", Got: len(xs), Max: MaxEdits}
	}
	out := make([]Edit, len(xs))
	for i, ex := range xs {
		ep := indexPath(path, i)
		m, ok := ex.(map[string]any)
		if !ok {
			return nil, pathErr(ep, "want an edit object, got %s", jsonType(ex))
		}
		kind, ok := m["kind"].(string)
		if !ok {
			return nil, pathErr(joinPath(ep, "kind"), "missing or not a string")
		}
		e := Edit{Kind: kind}
		var req []string
		switch kind {
		case "rebind":
			req = []string{"kind", "node", "argument", "ref"}
		case "replace_node":
			req = []string{"kind", "node", "value"}
		case "add_node":
			req = []string{"kind", "value"}
		case "remove_node":
			req = []string{"kind", "node"}
		case "set_output":
			req = []string{"kind", "output", "ref"}
		default:
			return nil, pathErr(joinPath(ep, "kind"), "unknown edit kind %q", kind)
		}
		if err := exactKeys(ep, m, req, nil); err != nil {
			return nil, err
		}
		var err error
		for _, f := range []struct {
			k string
			d *string
		}{{"node", &e.Node}, {"argument", &e.Argument}, {"ref", &e.Ref}, {"output", &e.Output}} {
			if v, ok := m[f.k]; ok {
				if *f.d, err = decodeString(joinPath(ep, f.k), v); err != nil {
					return nil, err
				}
			}
		}
		if v, ok := m["value"]; ok {
			n, err := decodeNode(joinPath(ep, "value"), v)
			if err != nil {
				return nil, err
			}
			e.Value = &n
		}
		out[i] = e
	}
	return out, nil
}

// LimitError reports a request over one of the bank's limits.
type LimitError struct {
	What     string
	Got, Max int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %d given, at most %d allowed", e.What, e.Got, e.Max)
}

// ApplyEdits applies edits in order to a copy of g. Each edit must make
// sense on its own (the node exists, the argument is an explicit named
// argument, ...); the whole result is validated by the caller.
func ApplyEdits(g *Graph, edits []Edit) (*Graph, error) {
	if len(edits) > MaxEdits {
		return nil, &LimitError{What: "graph_edits", Got: len(edits), Max: MaxEdits}
	}
	c := g.Clone()
	find := func(id string) int {
		for i := range c.Nodes {
			if c.Nodes[i].ID == id {
				return i
			}
		}
		return -1
	}
	for i, e := range edits {
		path := indexPath("graph_edits", i)
		switch e.Kind {
		case "rebind":
			j := find(e.Node)
			if j < 0 {
				return nil, pathErr(path, "no node %q", e.Node)
			}
			n := &c.Nodes[j]
			if n.Form() != "op" {
				return nil, pathErr(path, "node %q is a %s node; replace the node to change its configuration", e.Node, n.Form())
			}
			if _, ok := n.Args[e.Argument]; !ok {
				return nil, pathErr(path, "node %q has no argument %q", e.Node, e.Argument)
			}
			n.Args[e.Argument] = e.Ref
		case "replace_node":
			j := find(e.Node)
			if j < 0 {
				return nil, pathErr(path, "no node %q", e.Node)
			}
			if e.Value.ID != e.Node {
				return nil, pathErr(path+".value.id", "replacement id %q differs from node %q", e.Value.ID, e.Node)
			}
			c.Nodes[j] = e.Value.clone()
		case "add_node":
			if find(e.Value.ID) >= 0 {
				return nil, pathErr(path+".value.id", "node %q exists", e.Value.ID)
			}
			if _, ok := c.Inputs[e.Value.ID]; ok {
				return nil, pathErr(path+".value.id", "%q is an input name", e.Value.ID)
			}
			c.Nodes = append(c.Nodes, e.Value.clone())
		case "remove_node":
			j := find(e.Node)
			if j < 0 {
				return nil, pathErr(path, "no node %q", e.Node)
			}
			c.Nodes = append(c.Nodes[:j], c.Nodes[j+1:]...)
		case "set_output":
			if !validName(e.Output) {
				return nil, pathErr(path, "invalid output name %q", e.Output)
			}
			c.Outputs[e.Output] = e.Ref
		default:
			return nil, pathErr(path, "unknown edit kind %q", e.Kind)
		}
	}
	return c, nil
}
