package bank

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"go.uber.org/zap"
)

// Options configure a Bank.
type Options struct {
	Logger *zap.Logger
	// Runner runs program.apply and registered programs (a sandbox).
	Runner ProgramRunner
	// Budget caps operation calls per evaluation; 0 means DefaultBudget.
	Budget int
	// Now returns the current time (tests pin it).
	Now func() time.Time
}

// Bank is a versioned store of typed computations: workspaces with
// append-only revisions, a function registry and event journals, over a
// Store.
type Bank struct {
	store  Store
	log    *zap.Logger
	runner ProgramRunner
	budget int
	now    func() time.Time
	cache  structureCache
}

// New returns a Bank over store. The Bank does not own the store.
func New(store Store, opts Options) *Bank {
	b := &Bank{store: store, log: opts.Logger, runner: opts.Runner, budget: opts.Budget, now: opts.Now}
	if b.log == nil {
		b.log = zap.NewNop()
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Revision is a revision with its content loaded.
type Revision struct {
	RevisionRecord
	Graph *Graph
}

// Registry loads the registry: the built-ins and every registered
// operation in registration order.
func (b *Bank) Registry(ctx context.Context) (*Registry, error) {
	recs, err := b.store.Functions(ctx)
	if err != nil {
		return nil, fmt.Errorf("load registry: %w", err)
	}
	reg := NewRegistry()
	for _, rec := range recs {
		switch rec.Kind {
		case "function":
			f, err := DecodeFunction(rec.Definition)
			if err != nil {
				return nil, fmt.Errorf("load registry: function %s: %w", rec.Name, err)
			}
			if reg, err = reg.WithFunction(rec.Name, f); err != nil {
				return nil, fmt.Errorf("load registry: %w", err)
			}
		case "program":
			v, err := DecodeValue("program", rec.Definition)
			if err != nil {
				return nil, fmt.Errorf("load registry: program %s: %w", rec.Name, err)
			}
			if reg, err = reg.WithProgram(rec.Name, v); err != nil {
				return nil, fmt.Errorf("load registry: %w", err)
			}
		default:
			return nil, fmt.Errorf("load registry: %s has unknown kind %q", rec.Name, rec.Kind)
		}
	}
	return reg, nil
}

func (b *Bank) evaluator(reg *Registry) *Evaluator {
	return &Evaluator{Registry: reg, Runner: b.runner, Budget: b.budget}
}

// Load returns a revision with its content; name "" is the head.
func (b *Bank) Load(ctx context.Context, workspace, name string) (*Revision, error) {
	rec, err := b.store.Revision(ctx, workspace, name)
	if err != nil {
		return nil, err
	}
	g, err := b.content(ctx, rec)
	if err != nil {
		return nil, err
	}
	return &Revision{RevisionRecord: rec, Graph: g}, nil
}

// content returns a revision's content, the caller's to change.
func (b *Bank) content(ctx context.Context, rec RevisionRecord) (*Graph, error) {
	g, _, err := b.contentCached(ctx, rec)
	if err != nil {
		return nil, err
	}
	return &Graph{Inputs: g.Inputs, Nodes: cloneNodes(g.Nodes), Outputs: maps.Clone(g.Outputs)}, nil
}

// contentCached is content, for reading only: the graph's nodes and
// outputs are the cached structure's.
func (b *Bank) contentCached(ctx context.Context, rec RevisionRecord) (*Graph, *cachedStructure, error) {
	cached := b.cache.get(rec.Graph)
	refs := rec.Refs()
	if cached != nil {
		refs = refs[1:] // the graph is first
	}
	store := verifying{b.store}
	blobs, err := store.Blobs(ctx, refs)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s@%s: %w", rec.Workspace, rec.Name, err)
	}
	// data returns the content under hash h, reassembling a tree.
	data := func(h string) ([]byte, error) {
		root, ok := rec.Trees[h]
		if !ok {
			return blobs[h], nil
		}
		return readTree(ctx, store, h, blobs[root], true)
	}
	inputs := make(map[string]Value, len(rec.Inputs))
	for name, h := range rec.Inputs {
		raw, err := data(h)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s@%s input %s: %w", rec.Workspace, rec.Name, name, err)
		}
		v, err := DecodeValue("inputs."+name, raw)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s@%s: %w", rec.Workspace, rec.Name, err)
		}
		inputs[name] = v
	}
	if cached == nil {
		raw, err := data(rec.Graph)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s@%s graph: %w", rec.Workspace, rec.Name, err)
		}
		nodes, outputs, err := decodeStructure(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s@%s graph: %w", rec.Workspace, rec.Name, err)
		}
		cached = b.cache.put(rec.Graph, raw, nodes, outputs)
	}
	return &Graph{Inputs: inputs, Nodes: cached.nodes, Outputs: cached.outputs}, cached, nil
}

// decodeStructure decodes a stored graph structure {"nodes", "outputs"}.
func decodeStructure(raw []byte) ([]Node, map[string]string, error) {
	tree, err := parseJSON(raw)
	if err != nil {
		return nil, nil, err
	}
	m, _ := tree.(map[string]any)
	nodes, err := decodeNodes("nodes", m["nodes"])
	if err != nil {
		return nil, nil, err
	}
	outputs, err := decodeRefMap("outputs", m["outputs"])
	if err != nil {
		return nil, nil, err
	}
	return nodes, outputs, nil
}

// blobsOf fills the record's references to g's inputs and structure and
// returns the blobs to store. Content that one of the known revisions
// (already stored) refers to is not stored again: the record points at
// the same blob or tree. Input values larger than ChunkThreshold become
// trees; the graph structure stays one blob, as the stores' schema has
// the revision's graph refer to a blob. structure is g's structure
// encoded and hashed already, or nil.
func blobsOf(g *Graph, structure *cachedStructure, rec *RevisionRecord, known ...RevisionRecord) map[string][]byte {
	blobs := map[string][]byte{}
	rec.Inputs = make(map[string]string, len(g.Inputs))
	rec.Trees = nil
	stage := func(h string, data []byte, tree bool) {
		for _, k := range known {
			if root, ok := k.Trees[h]; ok {
				rec.setTree(h, root)
				return
			}
			if k.Graph == h || slices.Contains(mapValues(k.Inputs), h) {
				return // one blob, stored
			}
		}
		if tree && len(data) > ChunkThreshold {
			rec.setTree(h, splitTree(data, blobs))
			return
		}
		blobs[h] = data
	}
	for name, v := range g.Inputs {
		c := v.Canonical()
		h := HashBytes(c)
		rec.Inputs[name] = h
		stage(h, c, true)
	}
	if structure != nil {
		rec.Graph = structure.hash
		stage(rec.Graph, structure.canonical, false)
	} else {
		s := g.Structure()
		rec.Graph = HashBytes(s)
		stage(rec.Graph, s, false)
	}
	return blobs
}

func (r *RevisionRecord) setTree(h, root string) {
	if r.Trees == nil {
		r.Trees = map[string]string{}
	}
	r.Trees[h] = root
}

// Create makes a workspace whose first revision holds g. The graph must
// validate against the current registry.
func (b *Bank) Create(ctx context.Context, workspace string, g *Graph, message string) (RevisionRecord, error) {
	if !validName(workspace) {
		return RevisionRecord{}, &PathError{Path: "workspace", Msg: fmt.Sprintf("invalid workspace name %q", workspace)}
	}
	reg, err := b.Registry(ctx)
	if err != nil {
		return RevisionRecord{}, err
	}
	if _, err := Validate(reg, g); err != nil {
		return RevisionRecord{}, err
	}
	rec := RevisionRecord{Workspace: workspace, Registry: reg.Identity(), Time: b.now().UTC(), Action: "create", Message: message}
	blobs := blobsOf(g, nil, &rec)
	out, err := b.store.Append(ctx, "", nil, rec, blobs)
	if err != nil {
		return RevisionRecord{}, fmt.Errorf("create workspace %s: %w", workspace, err)
	}
	b.remember(rec.Graph, blobs[rec.Graph], g)
	b.log.Info("workspace created", zap.String("workspace", workspace), zap.String("revision", out.Name))
	return out, nil
}

// Update appends a revision to the workspace with inputs set (added or
// replaced) and, if g is not nil, the graph structure of g. It is how the
// workflow records examples and programs. expected must be the head.
func (b *Bank) Update(ctx context.Context, workspace, expected string, inputs map[string]Value, g *Graph, message string) (RevisionRecord, error) {
	head, err := b.Load(ctx, workspace, "")
	if err != nil {
		return RevisionRecord{}, err
	}
	if head.Name != expected {
		return RevisionRecord{}, fmt.Errorf("update %s: head is %s, expected %s: %w", workspace, head.Name, expected, ErrStale)
	}
	cand := head.Graph.Clone()
	if g != nil {
		cand.Nodes, cand.Outputs = cloneNodes(g.Nodes), g.Clone().Outputs
	}
	for name, v := range inputs {
		cand.Inputs[name] = v
	}
	return b.appendGraph(ctx, head.RevisionRecord, cand, "update", head.Name, message)
}

func (b *Bank) appendGraph(ctx context.Context, head RevisionRecord, g *Graph, action, parent, message string, known ...RevisionRecord) (RevisionRecord, error) {
	reg, err := b.Registry(ctx)
	if err != nil {
		return RevisionRecord{}, err
	}
	if _, err := Validate(reg, g); err != nil {
		return RevisionRecord{}, err
	}
	return b.appendChecked(ctx, head, g, nil, reg, action, parent, message, known...)
}

// appendChecked appends g, already validated against reg, after head;
// structure is g's structure (see blobsOf), or nil.
func (b *Bank) appendChecked(ctx context.Context, head RevisionRecord, g *Graph, structure *cachedStructure, reg *Registry, action, parent, message string, known ...RevisionRecord) (RevisionRecord, error) {
	rec := RevisionRecord{Workspace: head.Workspace, Parent: parent, Registry: reg.Identity(), Time: b.now().UTC(), Action: action, Message: message}
	blobs := blobsOf(g, structure, &rec, append(known, head)...)
	out, err := b.store.Append(ctx, head.Name, nil, rec, blobs)
	if err != nil {
		return RevisionRecord{}, fmt.Errorf("%s %s: %w", action, head.Workspace, err)
	}
	b.remember(rec.Graph, blobs[rec.Graph], g)
	return out, nil
}

// remember caches the structure of g, just stored as canonical under hash,
// as the next action on the workspace will read it (nil canonical: it was
// stored before, and read from the store when needed).
func (b *Bank) remember(hash string, canonical []byte, g *Graph) {
	if canonical == nil || b.cache.get(hash) != nil {
		return
	}
	b.cache.put(hash, canonical, cloneNodes(g.Nodes), maps.Clone(g.Outputs))
}

// Checkout appends a revision equal to the saved revision name. expected
// "" means the current head (still checked atomically).
func (b *Bank) Checkout(ctx context.Context, workspace, name, expected string) (RevisionRecord, error) {
	head, err := b.store.Revision(ctx, workspace, "")
	if err != nil {
		return RevisionRecord{}, err
	}
	if expected != "" && head.Name != expected {
		return RevisionRecord{}, fmt.Errorf("checkout %s: head is %s, expected %s: %w", workspace, head.Name, expected, ErrStale)
	}
	src, err := b.store.Revision(ctx, workspace, name)
	if err != nil {
		return RevisionRecord{}, err
	}
	return b.copyRevision(ctx, head, src, "checkout", head.Name, fmt.Sprintf("checkout %s", name))
}

// ErrNothingToUndo: the head has no parent.
var ErrNothingToUndo = errors.New("nothing to undo: the head has no parent")

// Undo appends a revision equal to the head's parent; its own parent is
// that revision's parent, so repeated undos walk back in history.
func (b *Bank) Undo(ctx context.Context, workspace, expected string) (RevisionRecord, error) {
	head, err := b.store.Revision(ctx, workspace, "")
	if err != nil {
		return RevisionRecord{}, err
	}
	if head.Name != expected {
		return RevisionRecord{}, fmt.Errorf("undo %s: head is %s, expected %s: %w", workspace, head.Name, expected, ErrStale)
	}
	if head.Parent == "" {
		return RevisionRecord{}, fmt.Errorf("undo %s@%s: %w", workspace, head.Name, ErrNothingToUndo)
	}
	parent, err := b.store.Revision(ctx, workspace, head.Parent)
	if err != nil {
		return RevisionRecord{}, err
	}
	return b.copyRevision(ctx, head, parent, "undo", parent.Parent, fmt.Sprintf("undo %s (restores %s)", head.Name, parent.Name))
}

// copyRevision appends a revision with src's content. The registry
// identity recorded is the current one; the content is revalidated so a
// revision never holds a graph the registry cannot run.
func (b *Bank) copyRevision(ctx context.Context, head, src RevisionRecord, action, parent, message string) (RevisionRecord, error) {
	g, err := b.content(ctx, src)
	if err != nil {
		return RevisionRecord{}, err
	}
	return b.appendGraph(ctx, head, g, action, parent, message, src)
}

// Fork creates workspace name whose history copies source's revisions up
// to its head (which must be expected), each recording where it came from.
func (b *Bank) Fork(ctx context.Context, source, name, expected string) (RevisionRecord, error) {
	if !validName(name) {
		return RevisionRecord{}, &PathError{Path: "name", Msg: fmt.Sprintf("invalid workspace name %q", name)}
	}
	log, err := b.store.Log(ctx, source)
	if err != nil {
		return RevisionRecord{}, err
	}
	head := log[len(log)-1]
	if head.Name != expected {
		return RevisionRecord{}, fmt.Errorf("fork %s: head is %s, expected %s: %w", source, head.Name, expected, ErrStale)
	}
	from := source + "@" + head.Name
	history := make([]RevisionRecord, 0, len(log)-1)
	for _, r := range log[:len(log)-1] {
		r.Workspace = name
		if r.ForkedFrom == "" {
			r.ForkedFrom = source + "@" + r.Name
		}
		history = append(history, r)
	}
	rec := head
	rec.Workspace, rec.Action, rec.ForkedFrom, rec.Time = name, "fork", from, b.now().UTC()
	rec.Message = "fork of " + from
	out, err := b.store.Append(ctx, "", history, rec, nil)
	if err != nil {
		return RevisionRecord{}, fmt.Errorf("fork %s as %s: %w", source, name, err)
	}
	return out, nil
}

// Register validates and stores a user function under name.
func (b *Bank) Register(ctx context.Context, name string, f *Function) (string, error) {
	return b.register(ctx, name, "function",
		func(reg *Registry) (*Registry, error) { return reg.WithFunction(name, f) }, f.canonical)
}

// RegisterProgram stores a reconstructed program as operation name
// (item: json → json).
func (b *Bank) RegisterProgram(ctx context.Context, name string, prog Value) (string, error) {
	return b.register(ctx, name, "program",
		func(reg *Registry) (*Registry, error) { return reg.WithProgram(name, prog) }, prog.Canonical)
}

// register adds operation name of the kind: with validates it against the
// bank's registry and returns the registry that has it; definition, called
// once it is valid, is what the store records. It returns the new
// registry's identity.
func (b *Bank) register(ctx context.Context, name, kind string, with func(*Registry) (*Registry, error), definition func() []byte) (string, error) {
	reg, err := b.Registry(ctx)
	if err != nil {
		return "", err
	}
	next, err := with(reg)
	if err != nil {
		return "", err
	}
	if err := b.store.AddFunction(ctx, FunctionRecord{Name: name, Kind: kind, Definition: definition(), Time: b.now().UTC()}); err != nil {
		return "", fmt.Errorf("register %s: %w", name, err)
	}
	return next.Identity(), nil
}

// Workspaces lists the workspaces.
func (b *Bank) Workspaces(ctx context.Context) ([]WorkspaceInfo, error) {
	return b.store.Workspaces(ctx)
}

// Log returns a workspace's revisions, oldest first.
func (b *Bank) Log(ctx context.Context, workspace string) ([]RevisionRecord, error) {
	return b.store.Log(ctx, workspace)
}

// AppendEvents appends records to a workspace's event journal; events
// without a time get the current time.
func (b *Bank) AppendEvents(ctx context.Context, workspace string, events []Event) error {
	for i := range events {
		if events[i].Time.IsZero() {
			events[i].Time = b.now().UTC()
		}
		if len(events[i].Data) == 0 {
			events[i].Data = []byte("null")
		}
		c, err := Canonicalize(events[i].Data)
		if err != nil {
			return fmt.Errorf("append events to %s: event %d data: %w", workspace, i, err)
		}
		events[i].Data = c
	}
	return b.store.AppendEvents(ctx, workspace, events)
}

// Events returns a workspace's event journal in order.
func (b *Bank) Events(ctx context.Context, workspace string) ([]Event, error) {
	return b.store.Events(ctx, workspace)
}

// PutBlob stores data content-addressed and returns its hash, for data
// that no revision holds (a run's workspace archive, say).
func (b *Bank) PutBlob(ctx context.Context, data []byte) (string, error) {
	h := HashBytes(data)
	if err := b.store.PutBlobs(ctx, map[string][]byte{h: data}); err != nil {
		return "", fmt.Errorf("store blob %s: %w", h, err)
	}
	return h, nil
}

// Blob returns the blob with the given hash (ErrNotFound if absent).
func (b *Bank) Blob(ctx context.Context, hash string) ([]byte, error) {
	m, err := verifying{b.store}.Blobs(ctx, []string{hash})
	if err != nil {
		return nil, err
	}
	return m[hash], nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// unionKeys is the set of names in a or b.
func unionKeys(a, b map[string]Value) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
