package bank

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// KeyEnv names the environment variable that, when set, holds the bank's
// receipt-signing key (hexadecimal, at least KeySize bytes). It wins over
// the key a store keeps (a SQLite bank's key file, a PostgreSQL bank's
// table).
const KeyEnv = "RECONSTRUCT_BANK_KEY"

// KeySize is the size of a generated receipt key, and the least a key from
// KeyEnv may have.
const KeySize = 32

// ParseKey decodes a receipt key written in hexadecimal.
func ParseKey(s string) ([]byte, error) {
	key, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("receipt key: not hexadecimal: %w", err)
	}
	if len(key) < KeySize {
		return nil, fmt.Errorf("receipt key: %d bytes, want at least %d", len(key), KeySize)
	}
	return key, nil
}
