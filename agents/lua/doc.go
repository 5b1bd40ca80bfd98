// Package lua hosts Lua scripts as arena agents. A script names its move
// in choose_move(state, clock); the host gives it read-only positions
// (engine.State behind a locked userdata), native search helpers driven by
// Lua evaluation functions, and a sandbox: base (without loading or the
// collector), table, string and math only, a capped string.rep and
// string.format, per-game random numbers, print to stderr, the move
// deadline as the Lua context, and a heap cap.
//
// A reference "lua:PATH?k=v&..." is served by the arena binary itself (see
// Serve); the parameters reach the script's init(game_info) as
// game_info.params, and "mem" sets the heap cap in MiB. docs/lua.md is the
// script author's guide.
//
// One Lua state lives per game and is only ever touched by that game's
// worker goroutine; compiled chunks are shared through a Cache.
package lua
