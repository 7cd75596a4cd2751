package procmem

// maxrssBytes converts getrusage's ru_maxrss (kilobytes on Linux).
func maxrssBytes(v int64) int64 { return v << 10 }
