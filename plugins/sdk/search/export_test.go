package search

// ForTurnAt exposes the clock arithmetic of ForTurn to tests.
var ForTurnAt = forClock
