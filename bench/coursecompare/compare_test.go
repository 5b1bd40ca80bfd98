package main

import (
	"math"
	"testing"
)

// The course's server log and console are read for the student's seat
// only: its moves, the random moves played for it, and the outcome.
func TestReadCourseGameCountsTheStudentsSeat(t *testing.T) {
	console := "Server started. Waiting for incoming connections on localhost:1 ...\n" +
		"Player 1 timeout - Playing random move: 4 0 3 0 1\n" +
		"Player 0 timeout - Playing random move: 0 3 3 1 0\n"
	got, err := readCourseGame("testdata/course", "HeapSearcher", console)
	if err != nil {
		t.Fatal(err)
	}
	want := tally{games: 1, moves: 2, substituted: 1}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestReadCourseGameWithoutALogIsAnError(t *testing.T) {
	if _, err := readCourseGame(t.TempDir(), "HeapSearcher", "no game"); err == nil {
		t.Fatal("a folder without a game log was read as a game")
	}
}

func TestReadArenaGameCountsTheCourseSeat(t *testing.T) {
	got, err := readArenaGame("testdata/arena.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := tally{games: 1, moves: 3, substituted: 1, died: 1, lost: 0, contention: 1}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestWilsonInterval(t *testing.T) {
	// 5 of 100: the textbook interval is [2.15%, 11.2%].
	lo, hi := wilson(5, 100)
	if math.Abs(lo-0.0215) > 0.0005 || math.Abs(hi-0.1118) > 0.0005 {
		t.Fatalf("wilson(5, 100) = [%.4f, %.4f]", lo, hi)
	}
	if lo, hi := wilson(0, 0); lo != 0 || hi != 1 {
		t.Fatalf("no trials must give [0, 1], got [%v, %v]", lo, hi)
	}
}
