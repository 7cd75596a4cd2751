package bank

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// structureCacheSize bounds the graph structures a Bank keeps decoded.
const structureCacheSize = 32

// structureCache keeps the graph structures a Bank used last decoded and
// validated, by the hash of their canonical encoding. A structure is
// immutable content, and an agent observes, proposes and commits on the
// same one again and again: it is parsed, decoded and validated once while
// it is in use, not on every action. Cached nodes are never modified:
// Load hands out copies, and evaluation only reads them.
type structureCache struct {
	mu      sync.Mutex
	entries map[string]*cachedStructure
	order   []string // oldest first
}

type cachedStructure struct {
	hash      string // HashBytes(canonical)
	canonical []byte // the structure's canonical encoding
	nodes     []Node
	outputs   map[string]string

	mu sync.Mutex
	// checks holds validations of the structure by checkKey: the registry
	// and the kinds of the inputs decide the outcome.
	checks map[string]*Checked
}

func (c *structureCache) get(hash string) *cachedStructure {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[hash]
}

// put caches a structure (which the caller no longer modifies) under its
// hash and returns the entry.
func (c *structureCache) put(hash string, canonical []byte, nodes []Node, outputs map[string]string) *cachedStructure {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.entries[hash]; ok {
		return s
	}
	if c.entries == nil {
		c.entries = map[string]*cachedStructure{}
	}
	if len(c.order) >= structureCacheSize {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	s := &cachedStructure{hash: hash, canonical: canonical, nodes: nodes, outputs: outputs, checks: map[string]*Checked{}}
	c.entries[hash] = s
	c.order = append(c.order, hash)
	return s
}

func checkKey(reg *Registry, inputs map[string]Value) string {
	var b strings.Builder
	b.WriteString(reg.Identity())
	for _, name := range sortedKeys(inputs) {
		b.WriteString("\x00" + name + "\x00" + string(inputs[name].Kind()))
	}
	return b.String()
}

// check validates the structure with the given inputs against reg, once
// per registry and input kinds. The result is shared: callers only read it
// (Result copies what it hands out).
func (s *cachedStructure) check(reg *Registry, inputs map[string]Value) (*Checked, error) {
	key := checkKey(reg, inputs)
	s.mu.Lock()
	chk, ok := s.checks[key]
	s.mu.Unlock()
	if ok {
		return chk, nil
	}
	chk, err := Validate(reg, &Graph{Inputs: inputs, Nodes: s.nodes, Outputs: s.outputs})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if len(s.checks) < structureCacheSize {
		s.checks[key] = chk
	}
	s.mu.Unlock()
	return chk, nil
}

// results is what an evaluation hands out of a Checked: copies, so that a
// caller changing them does not change a cached validation.
func (chk *Checked) results() (map[string]Kind, map[string][]string) {
	deps := make(map[string][]string, len(chk.Dependencies))
	for k, v := range chk.Dependencies {
		deps[k] = slices.Clone(v)
	}
	return maps.Clone(chk.Kinds), deps
}
