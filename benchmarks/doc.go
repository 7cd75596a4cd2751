// Package benchmarks holds IO2CodeBench-style task sets (tasks/, data) and
// the code that scores programs on held-out tests, sweeps task sets and
// reports on sweeps. Held-out tests are read only here and by the score
// command: they are never passed to an agent or copied into a workspace.
package benchmarks
