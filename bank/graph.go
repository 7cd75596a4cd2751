package bank

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Limits of graphs (docs/bank.md "Graphs").
const (
	MaxNodes = 10000
	MaxEdits = 64
)

// Node is one graph node: exactly one of Op (with Args), Map, Filter, Fold
// or Choice is set.
type Node struct {
	ID     string
	Op     string
	Args   map[string]string
	Map    *Apply
	Filter *Apply
	Fold   *Apply
	Choice *Choice
}

// Apply configures a map, filter or fold node: the operation, the
// collection it runs over, the fold's initial state, and the references
// bound to the operation's other parameters.
type Apply struct {
	Op       string
	Items    string
	State    string // fold only
	Bindings map[string]string
}

// Choice picks Then or Else by the flag If; only the taken branch runs.
type Choice struct{ If, Then, Else string }

// Form names the node's form: "op", "map", "filter", "fold" or "choice".
func (n *Node) Form() string {
	switch {
	case n.Map != nil:
		return "map"
	case n.Filter != nil:
		return "filter"
	case n.Fold != nil:
		return "fold"
	case n.Choice != nil:
		return "choice"
	}
	return "op"
}

func (n *Node) apply() *Apply {
	switch {
	case n.Map != nil:
		return n.Map
	case n.Filter != nil:
		return n.Filter
	}
	return n.Fold
}

// Refs returns every reference of the node, sorted and unique.
func (n *Node) Refs() []string {
	var out []string
	switch n.Form() {
	case "op":
		out = make([]string, 0, len(n.Args))
		for _, r := range n.Args {
			out = append(out, r)
		}
	case "choice":
		out = []string{n.Choice.If, n.Choice.Then, n.Choice.Else}
	default:
		a := n.apply()
		out = make([]string, 0, len(a.Bindings)+2)
		out = append(out, a.Items)
		if a.State != "" {
			out = append(out, a.State)
		}
		for _, r := range a.Bindings {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// writeRefMap writes a NAME: REF map canonically (keys sorted).
func writeRefMap(buf *bytes.Buffer, m map[string]string) {
	buf.WriteByte('{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, k)
		buf.WriteByte(':')
		writeString(buf, m[k])
	}
	buf.WriteByte('}')
}

// writeCanonical writes the node's canonical JSON (keys in sorted order).
func (n *Node) writeCanonical(buf *bytes.Buffer) {
	field := func(k, v string) {
		writeString(buf, k)
		buf.WriteByte(':')
		writeString(buf, v)
	}
	switch form := n.Form(); form {
	case "op":
		buf.WriteString(`{"args":`)
		writeRefMap(buf, n.Args)
		buf.WriteByte(',')
		field("id", n.ID)
		buf.WriteByte(',')
		field("op", n.Op)
		buf.WriteByte('}')
	case "choice":
		buf.WriteString(`{"choice":{`)
		field("else", n.Choice.Else)
		buf.WriteByte(',')
		field("if", n.Choice.If)
		buf.WriteByte(',')
		field("then", n.Choice.Then)
		buf.WriteString(`},`)
		field("id", n.ID)
		buf.WriteByte('}')
	default:
		a := n.apply()
		body := func() {
			buf.WriteString(`{"bindings":`)
			writeRefMap(buf, a.Bindings)
			buf.WriteByte(',')
			field("items", a.Items)
			buf.WriteByte(',')
			field("op", a.Op)
			if n.Fold != nil {
				buf.WriteByte(',')
				field("state", a.State)
			}
			buf.WriteByte('}')
		}
		// "filter" and "fold" sort before "id", "map" after it.
		buf.WriteByte('{')
		if form == "map" {
			field("id", n.ID)
			buf.WriteString(`,"map":`)
			body()
		} else {
			writeString(buf, form)
			buf.WriteByte(':')
			body()
			buf.WriteByte(',')
			field("id", n.ID)
		}
		buf.WriteByte('}')
	}
}

func writeNodes(buf *bytes.Buffer, nodes []Node) {
	buf.WriteByte('[')
	for i := range nodes {
		if i > 0 {
			buf.WriteByte(',')
		}
		nodes[i].writeCanonical(buf)
	}
	buf.WriteByte(']')
}

// MarshalJSON encodes the node canonically.
func (n Node) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	n.writeCanonical(&buf)
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes a node strictly.
func (n *Node) UnmarshalJSON(raw []byte) error {
	tree, err := parseJSON(raw)
	if err != nil {
		return fmt.Errorf("node: invalid JSON: %w", err)
	}
	x, err := decodeNode("node", tree)
	if err != nil {
		return err
	}
	*n = x
	return nil
}

func (n *Node) clone() Node {
	c := Node{ID: n.ID, Op: n.Op, Args: maps.Clone(n.Args)}
	ca := func(a *Apply) *Apply {
		if a == nil {
			return nil
		}
		return &Apply{Op: a.Op, Items: a.Items, State: a.State, Bindings: maps.Clone(a.Bindings)}
	}
	c.Map, c.Filter, c.Fold = ca(n.Map), ca(n.Filter), ca(n.Fold)
	if n.Choice != nil {
		ch := *n.Choice
		c.Choice = &ch
	}
	return c
}

func cloneNodes(ns []Node) []Node {
	out := make([]Node, len(ns))
	for i := range ns {
		out[i] = ns[i].clone()
	}
	return out
}

func decodeRefMap(path string, x any) (map[string]string, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, pathErr(path, "want an object of NAME: REF, got %s", jsonType(x))
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, pathErr(joinPath(path, k), "want a reference string, got %s", jsonType(v))
		}
		out[k] = s
	}
	return out, nil
}

func decodeNodes(path string, x any) ([]Node, error) {
	xs, ok := x.([]any)
	if !ok {
		return nil, pathErr(path, "want an array of nodes, got %s", jsonType(x))
	}
	if len(xs) > MaxNodes {
		return nil, pathErr(path, "%d nodes, at most %d allowed", len(xs), MaxNodes)
	}
	nodes := make([]Node, len(xs))
	for i, nx := range xs {
		n, err := decodeNode(indexPath(path, i), nx)
		if err != nil {
			return nil, err
		}
		nodes[i] = n
	}
	return nodes, nil
}

func decodeNode(path string, x any) (Node, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return Node{}, pathErr(path, "want a node object, got %s", jsonType(x))
	}
	var n Node
	id, ok := m["id"].(string)
	if !ok {
		return Node{}, pathErr(joinPath(path, "id"), "missing or not a string")
	}
	n.ID = id
	var forms []string
	for _, f := range []string{"op", "map", "filter", "fold", "choice"} {
		if _, ok := m[f]; ok {
			forms = append(forms, f)
		}
	}
	if len(forms) != 1 {
		return Node{}, pathErr(path, "node %q must have exactly one of op, map, filter, fold, choice (has %d)", id, len(forms))
	}
	var err error
	switch forms[0] {
	case "op":
		if err := exactKeys(path, m, []string{"id", "op", "args"}, nil); err != nil {
			return Node{}, err
		}
		if n.Op, err = decodeString(joinPath(path, "op"), m["op"]); err != nil {
			return Node{}, err
		}
		if n.Args, err = decodeRefMap(joinPath(path, "args"), m["args"]); err != nil {
			return Node{}, err
		}
	case "choice":
		if err := exactKeys(path, m, []string{"id", "choice"}, nil); err != nil {
			return Node{}, err
		}
		cp := joinPath(path, "choice")
		cm, ok := m["choice"].(map[string]any)
		if !ok {
			return Node{}, pathErr(cp, "want an object {if, then, else}")
		}
		if err := exactKeys(cp, cm, []string{"if", "then", "else"}, nil); err != nil {
			return Node{}, err
		}
		n.Choice = &Choice{}
		for _, f := range []struct {
			k string
			d *string
		}{{"if", &n.Choice.If}, {"then", &n.Choice.Then}, {"else", &n.Choice.Else}} {
			if *f.d, err = decodeString(joinPath(cp, f.k), cm[f.k]); err != nil {
				return Node{}, err
			}
		}
	default:
		form := forms[0]
		if err := exactKeys(path, m, []string{"id", form}, nil); err != nil {
			return Node{}, err
		}
		ap := joinPath(path, form)
		am, ok := m[form].(map[string]any)
		if !ok {
			return Node{}, pathErr(ap, "want an object {op, items, bindings}")
		}
		req := []string{"op", "items"}
		if form == "fold" {
			req = append(req, "state")
		}
		if err := exactKeys(ap, am, req, []string{"bindings"}); err != nil {
			return Node{}, err
		}
		a := &Apply{Bindings: map[string]string{}}
		if a.Op, err = decodeString(joinPath(ap, "op"), am["op"]); err != nil {
			return Node{}, err
		}
		if a.Items, err = decodeString(joinPath(ap, "items"), am["items"]); err != nil {
			return Node{}, err
		}
		if form == "fold" {
			if a.State, err = decodeString(joinPath(ap, "state"), am["state"]); err != nil {
				return Node{}, err
			}
		}
		if b, ok := am["bindings"]; ok {
			if a.Bindings, err = decodeRefMap(joinPath(ap, "bindings"), b); err != nil {
				return Node{}, err
			}
		}
		switch form {
		case "map":
			n.Map = a
		case "filter":
			n.Filter = a
		case "fold":
			n.Fold = a
		}
	}
	return n, nil
}

// Graph is a workspace's computation: named typed inputs, nodes, and named
// outputs referring to inputs or nodes.
type Graph struct {
	Inputs  map[string]Value
	Nodes   []Node
	Outputs map[string]string
}

// Clone returns a deep copy (values are immutable and shared).
func (g *Graph) Clone() *Graph {
	c := &Graph{Inputs: make(map[string]Value, len(g.Inputs)), Nodes: cloneNodes(g.Nodes), Outputs: make(map[string]string, len(g.Outputs))}
	for k, v := range g.Inputs {
		c.Inputs[k] = v
	}
	for k, v := range g.Outputs {
		c.Outputs[k] = v
	}
	return c
}

// DecodeGraph strictly decodes {"inputs", "nodes", "outputs"}.
func DecodeGraph(path string, raw []byte) (*Graph, error) {
	tree, err := parseJSON(raw)
	if err != nil {
		return nil, pathErr(path, "invalid JSON: %v", err)
	}
	return decodeGraphTree(path, tree, nil)
}

// decodeGraphTree decodes a parsed graph; with known, the graph's
// structure, its nodes and outputs are known's (read only), not decoded.
func decodeGraphTree(path string, tree any, known *cachedStructure) (*Graph, error) {
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, pathErr(path, "want an object {inputs, nodes, outputs}, got %s", jsonType(tree))
	}
	if err := exactKeys(path, m, []string{"inputs", "nodes", "outputs"}, nil); err != nil {
		return nil, err
	}
	g := &Graph{Inputs: map[string]Value{}}
	ip := joinPath(path, "inputs")
	im, ok := m["inputs"].(map[string]any)
	if !ok {
		return nil, pathErr(ip, "want an object of NAME: VALUE, got %s", jsonType(m["inputs"]))
	}
	for name, vx := range im {
		v, err := decodeValueTree(joinPath(ip, name), vx)
		if err != nil {
			return nil, err
		}
		g.Inputs[name] = v
	}
	if known != nil {
		g.Nodes, g.Outputs = known.nodes, known.outputs
		return g, nil
	}
	var err error
	if g.Nodes, err = decodeNodes(joinPath(path, "nodes"), m["nodes"]); err != nil {
		return nil, err
	}
	if g.Outputs, err = decodeRefMap(joinPath(path, "outputs"), m["outputs"]); err != nil {
		return nil, err
	}
	return g, nil
}

// Structure returns the canonical JSON of the nodes and outputs (the part of
// a graph stored content-addressed apart from the input values).
func (g *Graph) Structure() []byte {
	var buf bytes.Buffer
	buf.Grow(64 * (len(g.Nodes) + 1))
	g.writeStructure(&buf, false)
	return buf.Bytes()
}

// writeStructure writes {"nodes", "outputs"}, or with inputs as well
// {"inputs", "nodes", "outputs"}.
func (g *Graph) writeStructure(buf *bytes.Buffer, inputs bool) {
	buf.WriteByte('{')
	if inputs {
		g.writeInputs(buf)
	}
	buf.WriteString(`"nodes":`)
	writeNodes(buf, g.Nodes)
	buf.WriteString(`,"outputs":`)
	writeRefMap(buf, g.Outputs)
	buf.WriteByte('}')
}

// writeInputs writes `"inputs":{…},`.
func (g *Graph) writeInputs(buf *bytes.Buffer) {
	buf.WriteString(`"inputs":{`)
	for i, k := range sortedKeys(g.Inputs) {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, k)
		buf.WriteByte(':')
		if err := g.Inputs[k].encode(buf); err != nil {
			panic(err) // values built by this package always encode
		}
	}
	buf.WriteString(`},`)
}

// MarshalJSON encodes {"inputs", "nodes", "outputs"} canonically.
func (g *Graph) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	g.writeStructure(&buf, true)
	return buf.Bytes(), nil
}

// marshalWith is MarshalJSON for a graph whose structure is encoded
// already (structure is g.Structure(), a cached structure's, say): only
// the inputs are encoded.
func (g *Graph) marshalWith(structure []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(structure) + 64*(len(g.Inputs)+1))
	buf.WriteByte('{')
	g.writeInputs(&buf)
	buf.Write(structure[1:]) // after its '{'
	return buf.Bytes()
}

// UnmarshalJSON decodes strictly.
func (g *Graph) UnmarshalJSON(raw []byte) error {
	x, err := DecodeGraph("", raw)
	if err != nil {
		return err
	}
	*g = *x
	return nil
}

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// validName reports whether s can name an input, node, output or parameter.
func validName(s string) bool { return len(s) <= 64 && nameRE.MatchString(s) }

// Checked is the result of validating nodes: the kind of every reference,
// the nodes by id, and the potential dependencies of every output.
type Checked struct {
	Kinds        map[string]Kind
	Dependencies map[string][]string
	nodes        map[string]*checkedNode

	idsOnce sync.Once
	ids     []string
}

// sortedIDs returns the node ids, sorted (read only). A validation is
// cached and used again and again: they are sorted once.
func (chk *Checked) sortedIDs() []string {
	chk.idsOnce.Do(func() { chk.ids = sortedKeys(chk.nodes) })
	return chk.ids
}

// checkedNode is a validated node with what validation and evaluation
// need of it worked out once: its references, the names of its arguments
// (or bindings) in the order they are evaluated, and, in a graph (not a
// function's body), its trace path.
type checkedNode struct {
	*Node
	refs []string
	args []string
	path string
}

// Validate checks the graph against the registry before anything runs:
// names, unique ids, references, kinds, cycles and limits.
func Validate(reg *Registry, g *Graph) (*Checked, error) {
	env := make(map[string]Kind, len(g.Inputs))
	for name, v := range g.Inputs {
		if !validName(name) {
			return nil, pathErr("inputs."+name, "invalid name (want letters, digits, _ or -, starting with a letter or _, at most 64)")
		}
		if v.IsZero() {
			return nil, pathErr("inputs."+name, "missing value")
		}
		env[name] = v.Kind()
	}
	return checkNodes(reg, env, g.Nodes, g.Outputs, "")
}

// checkNodes validates nodes over an environment of typed names.
func checkNodes(reg *Registry, env map[string]Kind, nodes []Node, outputs map[string]string, prefix string) (*Checked, error) {
	np := joinPath(prefix, "nodes")
	if len(nodes) > MaxNodes {
		return nil, pathErr(np, "%d nodes, at most %d allowed", len(nodes), MaxNodes)
	}
	byID := make(map[string]*checkedNode, len(nodes))
	all := make([]checkedNode, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		if !validName(n.ID) {
			return nil, pathErr(indexPath(np, i), "invalid node id %q", n.ID)
		}
		if _, ok := env[n.ID]; ok {
			return nil, pathErr(np+"["+n.ID+"]", "id %q is already an input name", n.ID)
		}
		if _, ok := byID[n.ID]; ok {
			return nil, pathErr(np+"["+n.ID+"]", "duplicate node id %q", n.ID)
		}
		c := &all[i]
		c.Node, c.refs = n, n.Refs()
		if prefix == "" {
			c.path = rootPath + "/" + n.ID
		}
		if n.Form() == "op" {
			c.args = sortedKeys(n.Args)
		} else if n.Form() != "choice" {
			c.args = sortedKeys(n.apply().Bindings)
		}
		byID[n.ID] = c
	}
	exists := func(r string) bool {
		if _, ok := env[r]; ok {
			return true
		}
		_, ok := byID[r]
		return ok
	}
	for i := range all {
		for _, ref := range all[i].refs {
			if !exists(ref) {
				return nil, pathErr(np+"["+all[i].ID+"]", "reference %q does not name an input or node", ref)
			}
		}
	}
	outNames := make([]string, 0, len(outputs))
	for name := range outputs {
		outNames = append(outNames, name)
	}
	sort.Strings(outNames)
	for _, name := range outNames {
		if !validName(name) {
			return nil, pathErr(joinPath(prefix, "outputs."+name), "invalid output name")
		}
		if !exists(outputs[name]) {
			return nil, pathErr(joinPath(prefix, "outputs."+name), "reference %q does not name an input or node", outputs[name])
		}
	}
	// Topological order with cycle detection (iterative DFS).
	kinds := make(map[string]Kind, len(env)+len(nodes))
	for k, v := range env {
		kinds[k] = v
	}
	state := make(map[string]int, len(nodes)) // 1 visiting, 2 done
	order := make([]*Node, 0, len(nodes))
	type frame struct {
		n    *checkedNode
		next int
	}
	var stack []frame
	for i := range all {
		if state[all[i].ID] != 0 {
			continue
		}
		stack = append(stack[:0], frame{n: &all[i]})
		state[all[i].ID] = 1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.n.refs) {
				r := top.n.refs[top.next]
				top.next++
				child, ok := byID[r]
				if !ok {
					continue
				}
				switch state[r] {
				case 1:
					cycle := []string{}
					for _, f := range stack {
						cycle = append(cycle, f.n.ID)
					}
					cycle = append(cycle, r)
					return nil, pathErr(np+"["+r+"]", "cycle: %s", strings.Join(cycle, " → "))
				case 0:
					state[r] = 1
					stack = append(stack, frame{n: child})
				}
				continue
			}
			state[top.n.ID] = 2
			order = append(order, top.n.Node)
			stack = stack[:len(stack)-1]
		}
	}
	for _, n := range order {
		k, err := nodeKind(reg, n, kinds, np+"["+n.ID+"]")
		if err != nil {
			return nil, err
		}
		kinds[n.ID] = k
	}
	chk := &Checked{Kinds: kinds, nodes: byID, Dependencies: map[string][]string{}}
	// Potential dependencies: everything reachable from the output over
	// every reference, including both branches of a choice.
	for _, name := range outNames {
		seen := map[string]bool{}
		stack := []string{outputs[name]}
		for len(stack) > 0 {
			ref := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[ref] {
				continue
			}
			seen[ref] = true
			if n, ok := byID[ref]; ok {
				stack = append(stack, n.refs...)
			}
		}
		list := make([]string, 0, len(seen))
		for x := range seen {
			list = append(list, x)
		}
		sort.Strings(list)
		chk.Dependencies[name] = list
	}
	return chk, nil
}

// nodeKind type-checks one node whose references are already typed.
func nodeKind(reg *Registry, n *Node, kinds map[string]Kind, path string) (Kind, error) {
	switch n.Form() {
	case "choice":
		c := n.Choice
		if kinds[c.If] != KindFlag {
			return "", pathErr(path+".choice.if", "%q has kind %s, want flag", c.If, kinds[c.If])
		}
		if kinds[c.Then] != kinds[c.Else] {
			return "", pathErr(path+".choice", "branches differ in kind: then %q is %s, else %q is %s", c.Then, kinds[c.Then], c.Else, kinds[c.Else])
		}
		return kinds[c.Then], nil
	case "op":
		op, ok := reg.Lookup(n.Op)
		if !ok {
			return "", pathErr(path+".op", "unknown operation %q", n.Op)
		}
		args := map[string]Kind{}
		if err := bindArgs(op, n.Args, nil, kinds, path+".args", args); err != nil {
			return "", err
		}
		k, err := op.Sig.unify(args)
		if err != nil {
			return "", pathErr(path+".args", "%s: %v", n.Op, err)
		}
		return k, nil
	}
	form := n.Form()
	a := n.apply()
	ap := path + "." + form
	op, ok := reg.Lookup(a.Op)
	if !ok {
		return "", pathErr(ap+".op", "unknown operation %q", a.Op)
	}
	items := kinds[a.Items]
	if !items.IsList() {
		return "", pathErr(ap+".items", "%q has kind %s, want a collection", a.Items, items)
	}
	if _, ok := op.Sig.param("item"); !ok {
		return "", pathErr(ap+".op", "%s has no item parameter (%s)", a.Op, op.Sig)
	}
	args := map[string]Kind{"item": items.Elem()}
	implicit := []string{"item"}
	if form == "fold" {
		if _, ok := op.Sig.param("state"); !ok {
			return "", pathErr(ap+".op", "%s has no state parameter (%s)", a.Op, op.Sig)
		}
		args["state"] = kinds[a.State]
		implicit = append(implicit, "state")
	}
	if err := bindArgs(op, a.Bindings, implicit, kinds, ap+".bindings", args); err != nil {
		return "", err
	}
	res, err := op.Sig.unify(args)
	if err != nil {
		return "", pathErr(ap, "%s: %v", a.Op, err)
	}
	switch form {
	case "map":
		if res.IsList() {
			return "", pathErr(ap+".op", "%s returns the collection %s; map does not accept operations returning a collection", a.Op, res)
		}
		return ListOf(res), nil
	case "filter":
		if res != KindFlag {
			return "", pathErr(ap+".op", "%s returns %s; a filter's operation must return flag", a.Op, res)
		}
		return items, nil
	default:
		if res != args["state"] {
			return "", pathErr(ap+".op", "%s returns %s; a fold's operation must preserve the state kind %s", a.Op, res, args["state"])
		}
		return res, nil
	}
}

// bindArgs checks that refs bind exactly the operation's parameters other
// than implicit ones, and records their kinds in args.
func bindArgs(op *Operation, refs map[string]string, implicit []string, kinds map[string]Kind, path string, args map[string]Kind) error {
	isImplicit := func(n string) bool {
		for _, x := range implicit {
			if x == n {
				return true
			}
		}
		return false
	}
	names := make([]string, 0, len(refs))
	for name := range refs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := op.Sig.param(name); !ok {
			return pathErr(path+"."+name, "%s has no parameter %q (%s)", op.Name, name, op.Sig)
		}
		if isImplicit(name) {
			return pathErr(path+"."+name, "parameter %q is bound by the collection node itself", name)
		}
		args[name] = kinds[refs[name]]
	}
	for _, p := range op.Sig.Params {
		if _, ok := refs[p.Name]; !ok && !isImplicit(p.Name) {
			return pathErr(path, "missing argument %q for %s (%s)", p.Name, op.Name, op.Sig)
		}
	}
	return nil
}
