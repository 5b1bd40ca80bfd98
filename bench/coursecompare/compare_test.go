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

// The hex TA server's console is read for one player: a line per turn,
// "no response." when it played a random move for a silent player.
func TestReadHexResultCountsOnePlayer(t *testing.T) {
	console := "player 1 = team 1001\nplayer 2 = team 1002\n" +
		"player 1: [(3, 4), 1, 1]\nmovement: [(3, 4), 1, 1]\n" +
		"player 2: None\nplayer 2 no response.\n" +
		"player 1: [(5, 5), 2, 4]\n" +
		"player 2: [(6, 6), 1, 1]\nplayer 2: movement illegal.\n" +
		"\n----------END GAME----------\n"
	if got, want := readHexResult(console, 2), (tally{games: 1, moves: 2, substituted: 1, lost: 1}); got != want {
		t.Fatalf("player 2: got %+v, want %+v", got, want)
	}
	if got, want := readHexResult(console, 1), (tally{games: 1, moves: 2}); got != want {
		t.Fatalf("player 1: got %+v, want %+v", got, want)
	}
	if got := readHexResult("player 1: [(3, 4), 1, 1]\nTraceback", 1); got.games != 0 {
		t.Fatalf("a console without the end of a game was read as a game: %+v", got)
	}
}

// The Cachex referee's console at -v 1 is read for one seat: its actions,
// and the space breach the course named no player for.
func TestReadCachexResultCountsOneSeat(t *testing.T) {
	console := "* player 1 (red) returned action: ('PLACE', 1, 0)\n* player 2 (blue) returned action: ('STEAL',)\n" +
		"* player 1 (red) returned action: ('PLACE', 2, 2)\n** game error!\n* error: resource limit exceeded!\n* players exceeded shared space limit\n"
	if got, want := readCachexResult(console, "player 1"), (tally{games: 1, moves: 2, memory: 1, lost: 1}); got != want {
		t.Fatalf("player 1: got %+v, want %+v", got, want)
	}
	if got, want := readCachexResult(console, "player 2"), (tally{games: 1, moves: 1, memory: 1, lost: 1}); got != want {
		t.Fatalf("player 2: got %+v, want %+v", got, want)
	}
}
