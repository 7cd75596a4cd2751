package bank

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	recordstamp "github.com/reconstruct/reconstruct/internal/stamp"
)

// ReceiptFormat is the version of the receipt payload layout. Commit reads
// it and older ones, and refuses a newer one as every reader of a record
// does (internal/stamp's Check: errors.Is finds its ErrNewerFormat).
const ReceiptFormat = 1

// Receipt is a signed, portable proposal: the exact candidate, its
// predicted outputs, constraints and source identities (docs/bank.md
// "Receipts").
type Receipt struct {
	// ProposalID is the SHA-256 of the canonical payload.
	ProposalID string `json:"proposal_id"`
	// Payload is the canonical JSON of ReceiptPayload.
	Payload json.RawMessage `json:"payload"`
	// Signature is "hmac-sha256:" + hex HMAC of the canonical payload under
	// the bank's key.
	Signature string `json:"signature"`
}

// ReceiptPayload is what a receipt commits to.
type ReceiptPayload struct {
	Format           int              `json:"format"`
	Workspace        string           `json:"workspace"`
	BaseRevision     string           `json:"base_revision"`
	Registry         string           `json:"registry"`
	Candidate        *Graph           `json:"candidate"`
	PredictedOutputs map[string]Value `json:"predicted_outputs"`
	Constraints      Constraints      `json:"constraints"`
	Sources          ReceiptSources   `json:"sources"`
	// structure is the candidate's Structure() if it is known already
	// (a proposal that changes inputs only), or nil.
	structure []byte
}

// Constraints are the checks a commit repeats.
type Constraints struct {
	LockedOutputs      []string         `json:"locked_outputs"`
	Targets            map[string]Value `json:"targets"`
	Atol               float64          `json:"atol"`
	RequireTargetMatch bool             `json:"require_target_match"`
}

// ReceiptSources identify what the proposal was computed from and what it
// produced: hashes of the base and candidate inputs, graph structures and
// outputs.
type ReceiptSources struct {
	BaseInputs map[string]string `json:"base_inputs"`
	BaseGraph  string            `json:"base_graph"`
	Inputs     map[string]string `json:"inputs"`
	Graph      string            `json:"graph"`
	Outputs    map[string]string `json:"outputs"`
}

func signPayload(key []byte, p *ReceiptPayload) (Receipt, error) {
	c, err := p.canonical()
	if err != nil {
		return Receipt{}, fmt.Errorf("encode receipt: %w", err)
	}
	return Receipt{ProposalID: HashBytes(c), Payload: c, Signature: macOf(key, c)}, nil
}

// canonical encodes the payload canonically. The candidate and the values
// are already canonical and are copied in as they are, not re-parsed.
func (p *ReceiptPayload) canonical() ([]byte, error) {
	var graph []byte
	if p.structure != nil {
		graph = p.Candidate.marshalWith(p.structure)
	} else {
		graph, _ = p.Candidate.MarshalJSON()
	}
	atol, err := json.Marshal(p.Constraints.Atol)
	if err != nil {
		return nil, err
	}
	var locked any
	if p.Constraints.LockedOutputs != nil {
		xs := make([]any, len(p.Constraints.LockedOutputs))
		for i, s := range p.Constraints.LockedOutputs {
			xs[i] = s
		}
		locked = xs
	}
	s := p.Sources
	return canonicalJSON(map[string]any{
		"format":            json.Number(strconv.Itoa(p.Format)),
		"workspace":         p.Workspace,
		"base_revision":     p.BaseRevision,
		"registry":          p.Registry,
		"candidate":         json.RawMessage(graph),
		"predicted_outputs": valueTree(p.PredictedOutputs),
		"constraints": map[string]any{
			"locked_outputs":       locked,
			"targets":              valueTree(p.Constraints.Targets),
			"atol":                 json.Number(atol),
			"require_target_match": p.Constraints.RequireTargetMatch,
		},
		"sources": map[string]any{
			"base_inputs": stringTree(s.BaseInputs), "base_graph": s.BaseGraph,
			"inputs": stringTree(s.Inputs), "graph": s.Graph, "outputs": stringTree(s.Outputs),
		},
	})
}

// valueTree and stringTree give maps as canonicalJSON takes them (nil
// stays null, as encoding/json writes it).
func valueTree(m map[string]Value) any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = json.RawMessage(v.Canonical())
	}
	return out
}

func stringTree(m map[string]string) any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func macOf(key, payload []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return "hmac-sha256:" + hex.EncodeToString(m.Sum(nil))
}

// errUndecodable marks a payload that is authentic but does not decode.
var errUndecodable = errors.New("signed payload does not decode")

// open checks the proposal id and signature over the canonical payload and
// decodes the payload, parsing it once. tree is the payload already
// parsed (by Act), or nil. A candidate whose graph structure is among
// structures has its nodes taken from there, not decoded: they are what
// the same canonical bytes decode to. open returns that structure, or nil.
func (r Receipt) open(key []byte, tree any, structures *structureCache) (*ReceiptPayload, *cachedStructure, error) {
	c := []byte(r.Payload)
	id := HashBytes(c)
	if tree == nil && id != r.ProposalID {
		// A payload as signed is canonical already; one re-formatted in
		// transit is checked in canonical form.
		var err error
		if tree, err = parseJSON(c); err != nil {
			return nil, nil, fmt.Errorf("payload is not valid JSON: %w", err)
		}
		if c, err = canonicalJSON(tree); err != nil {
			return nil, nil, fmt.Errorf("payload is not valid JSON: %w", err)
		}
		id = HashBytes(c)
	}
	if id != r.ProposalID {
		return nil, nil, fmt.Errorf("proposal_id does not match the payload")
	}
	if !hmac.Equal([]byte(macOf(key, c)), []byte(r.Signature)) {
		return nil, nil, fmt.Errorf("signature does not match the payload")
	}
	cached, nodes := candidateStructure(c, structures)
	if tree == nil {
		doc := c
		if cached != nil {
			// The nodes, most of the payload, are not parsed either.
			doc = slices.Concat(c[:nodes[0]], []byte("[]"), c[nodes[1]:])
		}
		var err error
		if tree, err = parseJSON(doc); err != nil {
			return nil, nil, fmt.Errorf("payload is not valid JSON: %w", err)
		}
	}
	p, err := decodePayload(tree, cached)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errUndecodable, err)
	}
	return p, cached, nil
}

// candidateStructure finds the graph structure of the candidate in a
// canonical payload among structures by its hash, computed from the bytes
// of the candidate's nodes and outputs; if it is there, it returns it and
// the bounds of the nodes in c.
func candidateStructure(c []byte, structures *structureCache) (*cachedStructure, [2]int) {
	cs, ce, ok := jsonField(c, 0, "candidate")
	if !ok {
		return nil, [2]int{}
	}
	ns, ne, ok := jsonField(c[:ce], cs, "nodes")
	if !ok {
		return nil, [2]int{}
	}
	outs, oute, ok := jsonField(c[:ce], cs, "outputs")
	if !ok {
		return nil, [2]int{}
	}
	// The structure's canonical encoding, as Graph.Structure writes it.
	d := sha256.New()
	d.Write([]byte(`{"nodes":`))
	d.Write(c[ns:ne])
	d.Write([]byte(`,"outputs":`))
	d.Write(c[outs:oute])
	d.Write([]byte(`}`))
	var sum [sha256.Size]byte
	d.Sum(sum[:0])
	s := structures.get(hashName(sum))
	if s == nil {
		return nil, [2]int{}
	}
	return s, [2]int{ns, ne}
}

// decodePayload decodes a verified payload strictly. With known, the
// candidate's structure, its nodes and outputs are known's.
func decodePayload(tree any, known *cachedStructure) (*ReceiptPayload, error) {
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, pathErr("payload", "want an object")
	}
	if err := exactKeys("payload", m, []string{"format", "workspace", "base_revision", "registry", "candidate", "predicted_outputs", "constraints", "sources"}, nil); err != nil {
		return nil, err
	}
	var p ReceiptPayload
	format, err := decodeInt("payload.format", m["format"])
	if err != nil {
		return nil, err
	}
	if format < 1 {
		return nil, pathErr("payload.format", "unsupported receipt format %d, want 1 to %d", format, ReceiptFormat)
	}
	if err := (recordstamp.Stamp{Format: int(format)}).Check("receipt", ReceiptFormat); err != nil {
		return nil, &PathError{Path: "payload.format", Msg: err.Error(), Err: err}
	}
	p.Format = int(format)
	for _, f := range []struct {
		k string
		d *string
	}{{"workspace", &p.Workspace}, {"base_revision", &p.BaseRevision}, {"registry", &p.Registry}} {
		if *f.d, err = decodeString("payload."+f.k, m[f.k]); err != nil {
			return nil, err
		}
	}
	if p.Sources, err = decodeSources("payload.sources", m["sources"]); err != nil {
		return nil, err
	}
	if p.Candidate, err = decodeGraphTree("payload.candidate", m["candidate"], known); err != nil {
		return nil, err
	}
	if p.PredictedOutputs, err = decodeValueMap("payload.predicted_outputs", m["predicted_outputs"]); err != nil {
		return nil, err
	}
	cm, ok := m["constraints"].(map[string]any)
	if !ok {
		return nil, pathErr("payload.constraints", "want an object")
	}
	if p.Constraints, err = decodeConstraints("payload.constraints", cm, true); err != nil {
		return nil, err
	}
	return &p, nil
}

func decodeSources(path string, x any) (ReceiptSources, error) {
	var s ReceiptSources
	m, ok := x.(map[string]any)
	if !ok {
		return s, pathErr(path, "want an object")
	}
	if err := exactKeys(path, m, []string{"base_inputs", "base_graph", "inputs", "graph", "outputs"}, nil); err != nil {
		return s, err
	}
	var err error
	if s.BaseGraph, err = decodeString(joinPath(path, "base_graph"), m["base_graph"]); err != nil {
		return s, err
	}
	if s.Graph, err = decodeString(joinPath(path, "graph"), m["graph"]); err != nil {
		return s, err
	}
	for _, f := range []struct {
		k string
		d *map[string]string
	}{{"base_inputs", &s.BaseInputs}, {"inputs", &s.Inputs}, {"outputs", &s.Outputs}} {
		if *f.d, err = decodeRefMap(joinPath(path, f.k), m[f.k]); err != nil {
			return s, err
		}
	}
	return s, nil
}

func decodeValueMap(path string, x any) (map[string]Value, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, pathErr(path, "want an object of NAME: VALUE, got %s", jsonType(x))
	}
	out := make(map[string]Value, len(m))
	for k, vx := range m {
		v, err := decodeValueTree(joinPath(path, k), vx)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// decodeConstraints reads locked_outputs, targets, atol and
// require_target_match from m (all optional unless all is set).
func decodeConstraints(path string, m map[string]any, all bool) (Constraints, error) {
	c := Constraints{Atol: DefaultAtol, Targets: map[string]Value{}, LockedOutputs: []string{}}
	if x, ok := m["locked_outputs"]; ok {
		xs, ok := x.([]any)
		if !ok {
			return c, pathErr(joinPath(path, "locked_outputs"), "want an array of output names")
		}
		for i, e := range xs {
			s, err := decodeString(indexPath(joinPath(path, "locked_outputs"), i), e)
			if err != nil {
				return c, err
			}
			c.LockedOutputs = append(c.LockedOutputs, s)
		}
	} else if all {
		return c, pathErr(path, "missing field \"locked_outputs\"")
	}
	if x, ok := m["targets"]; ok {
		t, err := decodeValueMap(joinPath(path, "targets"), x)
		if err != nil {
			return c, err
		}
		c.Targets = t
	} else if all {
		return c, pathErr(path, "missing field \"targets\"")
	}
	if x, ok := m["atol"]; ok {
		n, ok := x.(json.Number)
		f, err := n.Float64()
		if !ok || err != nil || f < 0 {
			return c, pathErr(joinPath(path, "atol"), "want a non-negative number")
		}
		c.Atol = f
	} else if all {
		return c, pathErr(path, "missing field \"atol\"")
	}
	if x, ok := m["require_target_match"]; ok {
		b, ok := x.(bool)
		if !ok {
			return c, pathErr(joinPath(path, "require_target_match"), "want a boolean")
		}
		c.RequireTargetMatch = b
	} else if all {
		return c, pathErr(path, "missing field \"require_target_match\"")
	}
	return c, nil
}
