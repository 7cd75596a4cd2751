// Package task describes a reconstruction task: what its inputs look like
// (kind, domain, type description), the observed examples, how JSON values are
// compared, and the structural case categories of each input kind used by the
// coverage gate and by agents choosing inputs.
package task
