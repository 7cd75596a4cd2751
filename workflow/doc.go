// Package workflow runs the reconstruction loop of docs/workflow.md: batches
// of observed examples, one agent session per iteration, evaluation of each
// candidate in a sandbox, promotion, the five disciplines (random share and
// the coverage, memorisation, complexity and domain gates), the stage
// score, the token budget and every stop reason. It knows nothing of
// Docker, HTTP or SQL: those arrive behind small interfaces declared here.
package workflow
