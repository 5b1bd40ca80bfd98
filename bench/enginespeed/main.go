// Command enginespeed measures random playouts per second on one core:
// the engine's search path (CopyFrom, RandomPlayoutMove, Apply) against
// the plain array reference implementations in bench/reference, for every
// game, with allocations per move, and prints a Markdown table; then the
// cost of each hot-path operation (Clone, CopyFrom, Apply, LegalMoves,
// RandomPlayoutMove, Hash) on mid-game positions; then the SDK's
// alpha-beta nodes and MCTS playouts per CPU second from the start.
//
// Usage:
//
//	go run ./bench/enginespeed [-time 1s] [-rounds 3] [-games name,...] [-json]
//	go run ./bench/enginespeed -pairs 25 -time 20ms [-games name,...]
//
// With -json it measures only the playout comparison and prints it as one
// JSON array (the rows of `go run ./bench`'s engine section). With -pairs N
// it measures only the ratios, engine against reference on both paths, in
// N interleaved pairs of -time each, and prints their medians and
// quartiles: the figure to read on a loaded machine.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

func main() {
	d := flag.Duration("time", time.Second, "duration of each timed run")
	rounds := flag.Int("rounds", 3, "interleaved rounds per implementation; the fastest counts")
	only := flag.String("games", "", "comma-separated games to measure (default all)")
	asJSON := flag.Bool("json", false, "measure the playouts only and print them as JSON")
	pairs := flag.Int("pairs", 0, "measure only the engine/reference ratios in this many interleaved pairs of -time each")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: go run ./bench/enginespeed [flags]\n\n"+
			"Random playouts per second, single core: the engine's search path against the plain\n"+
			"reference implementations of bench/reference, with allocations per move.\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *rounds < 1 || *d <= 0 || *pairs < 0 {
		fmt.Fprintln(os.Stderr, "enginespeed: -rounds must be at least 1, -time positive and -pairs not negative")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(1)
	if *pairs > 0 {
		runPairs(*only, *pairs, *d)
		return
	}
	var rs []result
	var ops []opRow
	var searches []searchRow
	for _, c := range cases() {
		if *only != "" && !contains(strings.Split(*only, ","), c.Name) {
			continue
		}
		rs = append(rs, compare(c, *rounds, *d))
		if *asJSON {
			continue
		}
		ops = append(ops, measureOps(c, *d/5))
		searches = append(searches, measureSearch(c, *d))
	}
	if len(rs) == 0 {
		fmt.Fprintf(os.Stderr, "enginespeed: no game matches -games %q\n", *only)
		os.Exit(2)
	}
	if *asJSON {
		if err := json.NewEncoder(os.Stdout).Encode(jsonRows(rs)); err != nil {
			fmt.Fprintln(os.Stderr, "enginespeed:", err)
			os.Exit(1)
		}
		return
	}
	fmt.Printf("go run ./bench/enginespeed -time %v -rounds %d (%s, %s/%s, GOMAXPROCS=1, rates per second of CPU time)\n\n",
		*d, *rounds, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Print(table(rs))
	fmt.Printf("\nHot-path operations on mid-game positions (CPU ns per call; Apply excludes the CopyFrom that restores the position):\n\n")
	fmt.Print(opTable(ops))
	fmt.Printf("\nThe SDK's searchers (plugins/sdk/search) from the start position, one search of %v CPU time each, single thread:\n\n", *d)
	fmt.Print(searchTable(searches))
}

// runPairs prints the paired comparison of the games named in only (all
// when empty).
func runPairs(only string, n int, d time.Duration) {
	var rows []pairRow
	for _, c := range cases() {
		if only != "" && !contains(strings.Split(only, ","), c.Name) {
			continue
		}
		rows = append(rows, comparePairs(c, n, d))
	}
	if len(rows) == 0 {
		fmt.Fprintf(os.Stderr, "enginespeed: no game matches -games %q\n", only)
		os.Exit(2)
	}
	fmt.Printf("go run ./bench/enginespeed -pairs %d -time %v (%s, %s/%s, GOMAXPROCS=1, rates per second of CPU time)\n\n",
		n, d, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Print(pairTable(rows, n, d))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}
