package bank

// CachedCandidate reports whether b finds the structure of r's candidate
// among the structures it keeps, and so commits r without decoding the
// candidate's nodes.
func CachedCandidate(b *Bank, r Receipt) bool {
	s, _ := candidateStructure(r.Payload, &b.cache)
	return s != nil
}
