package dsl

// Lambdas are the lambda banks: the lambdas of every signature, by result
// type and size, that operators taking a function are enumerated with.
// The search builds them (package synth) and never changes them after.
type Lambdas struct {
	By [NumSigs][NumTypes][][]*Lambda
}

// Get returns the lambdas of a signature and result type of one size.
func (b *Lambdas) Get(sig Sig, ret Type, size int) []*Lambda {
	s := b.By[sig][ret]
	if size >= len(s) {
		return nil
	}
	return s[size]
}
