package search

// ForTurnAt exposes the clock arithmetic of ForTurn to tests.
var ForTurnAt = forClock

// ProcessCPU exposes the process CPU clock to tests.
var ProcessCPU = processCPU
