// Package sandboxtest is the adversarial suite that both sandbox backends
// run in their tests: hostile candidates (written as a model rewarded for
// passing would write them) that look for the observed outputs in the
// harness's memory, read the bank, other runs' workspaces, the hidden
// program and the held-out tests, reach host sockets, exhaust descriptors,
// disk and processes, signal the harness or forge its replies. Each attack
// either stays contained or is reported as a breach naming what leaked.
//
// It is a test helper: only _test.go files import it.
package sandboxtest
