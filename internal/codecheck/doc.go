// Package codecheck holds checks of the repository's own source that go vet
// does not make: its tests read every Go file of the module. It has no code
// of its own.
package codecheck
