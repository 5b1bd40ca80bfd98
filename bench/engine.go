package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"time"

	"arena/bench/internal/playoutrow"
)

// engineTarget is the floor for every ratio of this section.
const engineTarget = 1.5

// benchEngine runs the engine-speed comparison (bench/enginespeed) and adds
// two rows per game: the random-playout path against the faster reference
// loop, and the listing path against the reference's listing loop.
func benchEngine(ctx context.Context, o options, b *bins, t *table) error {
	rounds, each := 3, 300*time.Millisecond
	if o.quick {
		rounds, each = 1, 100*time.Millisecond
	}
	cmd := exec.CommandContext(ctx, b.enginespeed, "-json", "-rounds", fmt.Sprint(rounds), "-time", each.String())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("enginespeed: %w", err)
	}
	rows, err := parseEngineRows(out.Bytes())
	if err != nil {
		return err
	}
	for _, r := range rows {
		for _, a := range engineLines(r) {
			t.add("engine", a[0], a[1], a[2], a[3])
		}
	}
	return nil
}

func parseEngineRows(data []byte) ([]playoutrow.Row, error) {
	var rows []playoutrow.Row
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("enginespeed -json output: %w", err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("enginespeed -json printed no games")
	}
	return rows, nil
}

// engineLines renders one game as two table rows (measure, arena, floor,
// ratio), each ratio with the 1.5× target and whether it is met.
func engineLines(r playoutrow.Row) [2][4]string {
	refFast, refName := r.RefListing, "listing"
	if r.RefDraw > refFast {
		refFast, refName = r.RefDraw, "direct draw"
	}
	verdict := func(x float64) string {
		if x >= engineTarget {
			return fmt.Sprintf("%.2f× (target %.1f×: met)", x, engineTarget)
		}
		return fmt.Sprintf("%.2f× (target %.1f×: NOT met)", x, engineTarget)
	}
	return [2][4]string{
		{fmt.Sprintf("%s random playouts, RandomPlayoutMove+Apply, %.1f plies, %.3f allocs/move", r.Game, r.Plies, r.AllocsPerMove),
			fmt.Sprintf("%.0f playouts/s", r.Engine), fmt.Sprintf("reference (%s) %.0f/s", refName, refFast), verdict(r.Engine / refFast)},
		{fmt.Sprintf("%s listing playouts, LegalMoves+Apply, %.3f allocs/move", r.Game, r.ListingAllocs),
			fmt.Sprintf("%.0f playouts/s", r.EngineListing), fmt.Sprintf("reference listing %.0f/s", r.RefListing), verdict(r.EngineListing / r.RefListing)},
	}
}
