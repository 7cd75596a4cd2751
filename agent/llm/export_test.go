package llm

// NewFakeSandbox is newFakeSandbox for the tests of package llm_test
// (configs_test.go), which load configurations with config, an importer of
// this package.
func NewFakeSandbox() Sandbox { return newFakeSandbox() }
