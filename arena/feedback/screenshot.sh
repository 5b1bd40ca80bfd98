#!/bin/sh
# Regenerates docs/img/feedback.png (docs/leagues.md): a small class league
# on hex cross-out (a submission that prints to stderr and once replies
# with something that is not a move, against the house greedy bot), its
# feedback page for the submission, and a headless Chromium screenshot of
# the page opened from disk (Debian: apt-get install -y chromium;
# ARENA_CHROMIUM names another).
set -eu
cd "$(dirname "$0")/../.."
chrome="${ARENA_CHROMIUM:-chromium}"
command -v "$chrome" >/dev/null || { echo "no chromium: apt-get install -y chromium, or set ARENA_CHROMIUM" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/arena" ./cmd/arena
mkdir -p "$work/class/submissions"
cat >"$work/class/submissions/ann.lua" <<'LUA'
function choose_move(state, clock)
  local moves = state:legal_moves()
  print("ply " .. state:ply() .. ": " .. #moves .. " moves, taking the first")
  if state:ply() == 4 then return "cross out the middle" end
  return moves[1]
end
LUA
cat >"$work/class/class.yaml" <<'YAML'
game: hex-crossout
params: {free: 16, seed: 5}
entrants:
  dir: submissions
agents:
  - name: house
    agent: builtin:greedy
games_per_pairing: 2
YAML
"$work/arena" league run "$work/class/class.yaml" --output "$work/out" --quiet >/dev/null
"$work/arena" league report "$work/out" --entrant ann -o "$work/ann.html"
"$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1700 \
  --screenshot="$PWD/docs/img/feedback.png" "file://$work/ann.html" 2>/dev/null
echo "screenshot in docs/img/feedback.png"
