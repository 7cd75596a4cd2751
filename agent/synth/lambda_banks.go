package synth

// lamBanks holds the lambdas of every signature, by result type and size.
type lamBanks struct {
	by [numSigs][numTypes][][]*lambda
}

func (b *lamBanks) get(sig lamSig, ret valType, size int) []*lambda {
	s := b.by[sig][ret]
	if size >= len(s) {
		return nil
	}
	return s[size]
}
