// Package candidates owns the .oc_candidates archive of a workspace: every
// candidate program an agent wrote, its evaluation record and transcript,
// and a versioned manifest saying which run wrote what. Files left by an
// earlier run stay, but a run only ever selects among its own entries.
package candidates
