#!/usr/bin/env bash
# Per-move overhead of the course adapters against a native agent in the
# same games: each course agent of agents/course/testdata (trivial players,
# so the time is the adapter's and the runtime's) plays builtin:random, and
# the referee's wall-clock time per move (request to reply) is compared
# between the two sides. Usage: bench/course-overhead.sh [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/arena" ./cmd/arena
export ARENA_COURSE_CACHE="$tmp/cache"
td=agents/course/testdata
run() {
  local game=$1 ref=$2
  "$tmp/arena" play "$game" "$ref" builtin:random --games "$games" --records "$tmp/$game.jsonl" >/dev/null 2>&1
  python3 - "$tmp/$game.jsonl" "$game" <<'PY'
import json, statistics, sys
path, game = sys.argv[1], sys.argv[2]
course, native = [], []
for line in open(path):
    r = json.loads(line)
    seat = 0 if r["agents"][0]["ref"].startswith("course:") else 1
    seen = set()
    for m in r["moves"]:
        if m["source"] != "agent":
            continue
        first = m["seat"] not in seen  # start-up and first-move effects excluded
        seen.add(m["seat"])
        if not first:
            (course if m["seat"] == seat else native).append(m["wall_ms"])
med = lambda v: statistics.median(v) if v else float("nan")
p90 = lambda v: statistics.quantiles(v, n=10)[-1] if len(v) > 1 else float("nan")
print(f"{game:15} moves {len(course):5}/{len(native):<5} course median {med(course):7.2f} ms p90 {p90(course):7.2f} ms | native median {med(native):6.2f} ms p90 {p90(native):6.2f} ms | overhead (median) {med(course)-med(native):7.2f} ms")
PY
}
run dots-and-boxes "course:$td/dab/greedy.py"
run cachex "course:$td/cachex/team_a"
run hex-crossout "course:$td/hex/agent.py"
run pentago-twist "course:$td/comp424/pentago"
run bohnenspiel "course:$td/comp424/bohnenspiel"
