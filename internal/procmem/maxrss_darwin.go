package procmem

// maxrssBytes converts getrusage's ru_maxrss (bytes on macOS).
func maxrssBytes(v int64) int64 { return v }
