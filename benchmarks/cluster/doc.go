// Package cluster runs benchmark sweeps across many machines on Temporal:
// a sweep is one workflow (SweepWorkflow) with one activity per task and
// repeat, which Temporal hands to the workers (`reconstruct worker`,
// Serve) and retries on another worker when one is lost.
//
// The machines share no file system, only the bank: a sweep's task
// directories travel in it as trees of blobs (without their held-out
// tests, which go to the scoring step alone), and each run records there
// as it goes — its events and checkpoints, as a local run does, plus a
// snapshot of its candidate archive after every candidate — so that a
// retry on another machine resumes the same run where it was, asking the
// hidden program nothing twice. A finished run's whole workspace goes back
// into the bank too, and Write restores it in the sweep's output
// directory, which then looks like the local engine's.
package cluster
