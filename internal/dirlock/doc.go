// Package dirlock gives one process at a time a directory to work in: an
// exclusive lock on the directory itself (flock(2) on its descriptor, which
// the kernel drops when the process ends, however it ends), with a note
// of who holds it so that a refused process can say who is in the way.
package dirlock
