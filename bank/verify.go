package bank

import (
	"context"
	"errors"
	"fmt"
)

// Every blob is stored under the hash of its bytes (a value's canonical
// JSON, a graph structure, a chunk or index node of a tree, a workspace
// archive), so whatever the bank reads back is checked against the hash
// it is read under: a byte changed in the database file behind the bank's
// back (or by a failing disk) is an ErrTampered error naming the blob,
// never content returned as if true.

// verifying reads blobs from a store and checks each against its hash.
type verifying struct{ store blobReader }

// Blobs returns the blobs with the given hashes, each checked.
func (v verifying) Blobs(ctx context.Context, hashes []string) (map[string][]byte, error) {
	m, err := v.store.Blobs(ctx, hashes)
	if err != nil {
		return nil, err
	}
	for h, data := range m {
		if got := HashBytes(data); got != h {
			return nil, fmt.Errorf("blob %s: %w (it hashes to %s): the bank was altered, or its disk failed; run `reconstruct bank check`", h, ErrTampered, got)
		}
	}
	return m, nil
}

// ContentProblem is stored content that cannot be read back as it was
// stored: a blob that does not match its hash, or one that is missing.
type ContentProblem struct {
	Workspace string `json:"workspace"`
	Revision  string `json:"revision"`
	// Input names the revision's input ("" for the graph structure).
	Input string `json:"input,omitempty"`
	// Hash is the content's hash.
	Hash    string `json:"hash"`
	Problem string `json:"problem"`
}

func (p ContentProblem) String() string {
	what := "graph structure"
	if p.Input != "" {
		what = "input " + p.Input
	}
	return fmt.Sprintf("bank workspace %s revision %s %s (%s): %s", p.Workspace, p.Revision, what, p.Hash, p.Problem)
}

// Verify reads back every revision's content, each input and graph
// structure on its own, checking every blob (and every chunk of a tree)
// against its hash, and returns what does not match or is missing. An
// error is a failure to read the store at all.
func (b *Bank) Verify(ctx context.Context) ([]ContentProblem, error) {
	wss, err := b.store.Workspaces(ctx)
	if err != nil {
		return nil, err
	}
	var out []ContentProblem
	seen := map[string]string{} // hash → problem ("" when sound)
	for _, w := range wss {
		recs, err := b.store.Log(ctx, w.Name)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			check := func(input, h string) error {
				problem, done := seen[h]
				if !done {
					_, err := b.contentOf(ctx, rec, h, true)
					switch {
					case err == nil:
					case errors.Is(err, ErrTampered), errors.Is(err, ErrNotFound), errors.Is(err, errBadIndex):
						problem = err.Error()
					default:
						return err
					}
					seen[h] = problem
				}
				if problem != "" {
					out = append(out, ContentProblem{Workspace: w.Name, Revision: rec.Name, Input: input, Hash: h, Problem: problem})
				}
				return nil
			}
			if err := check("", rec.Graph); err != nil {
				return nil, err
			}
			for _, name := range sortedKeys(rec.Inputs) {
				if err := check(name, rec.Inputs[name]); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// contentOf returns the content a revision holds under hash h (an input's
// or its graph structure's), reassembling a tree; checked, it is verified
// against h, else returned as stored (what bank check shows of altered
// content).
func (b *Bank) contentOf(ctx context.Context, rec RevisionRecord, h string, checked bool) ([]byte, error) {
	var store blobReader = b.store
	if checked {
		store = verifying{b.store}
	}
	ref := h
	if root, ok := rec.Trees[h]; ok {
		ref = root
	}
	m, err := store.Blobs(ctx, []string{ref})
	if err != nil {
		return nil, err
	}
	if ref == h {
		return m[h], nil
	}
	return readTree(ctx, store, h, m[ref], checked)
}

// InputAsStored returns a revision's input as the store holds it, not
// checked against its hash (Load checks it): what bank check shows of
// altered content.
func (b *Bank) InputAsStored(ctx context.Context, rec RevisionRecord, name string) (Value, error) {
	h, ok := rec.Inputs[name]
	if !ok {
		return Value{}, fmt.Errorf("%s@%s has no input %s: %w", rec.Workspace, rec.Name, name, ErrNotFound)
	}
	raw, err := b.contentOf(ctx, rec, h, false)
	if err != nil {
		return Value{}, err
	}
	return DecodeValue("inputs."+name, raw)
}

// Revision returns a saved revision's record (name "" is the head).
func (b *Bank) Revision(ctx context.Context, workspace, name string) (RevisionRecord, error) {
	return b.store.Revision(ctx, workspace, name)
}
