// Package machine describes the machine a program runs on, for records
// whose figures depend on it: a time-bounded search finds more on a faster
// or idler machine, so a sweep's summary says where and under what load
// it ran.
package machine
