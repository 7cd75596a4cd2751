// Package oracle queries hidden programs: a Python function run in a
// sandbox, an external command, or an HTTP endpoint. An input the hidden
// program rejects is an Answer with Invalid set; a Go error is an
// infrastructure failure and never becomes a rejected input.
package oracle
