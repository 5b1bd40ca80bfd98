// Package playoutrow is the record bench/enginespeed prints with -json and
// the bench command reads: one game's playout comparison.
package playoutrow

// Row is one game's playouts per CPU second on the engine's two paths and
// the plain reference's two loops, measured in interleaved rounds of one
// run, with the engine's allocations per move.
type Row struct {
	Game          string  `json:"game"`
	Engine        float64 `json:"engine"`         // RandomPlayoutMove + Apply
	EngineListing float64 `json:"engine_listing"` // LegalMoves + Apply
	RefDraw       float64 `json:"ref_draw"`       // 0 when the reference has no direct draw
	RefListing    float64 `json:"ref_listing"`    // the reference's listing loop
	Plies         float64 `json:"plies"`          // per playout
	AllocsPerMove float64 `json:"allocs_per_move"`
	ListingAllocs float64 `json:"listing_allocs_per_move"`
}
