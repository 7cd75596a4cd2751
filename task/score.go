package task

import "math"

// StageScore is the paper's stage score:
// max(0, accuracy − 0.1·complexity − 0.1·hardcoding).
func StageScore(accuracy, complexity, hardcoding float64) float64 {
	return math.Max(0, accuracy-0.1*complexity-0.1*hardcoding)
}
