#!/bin/sh
# Regenerates the viewer's screenshots in docs/img (docs/viewer.md): the
# leagues and games pages, and each of the five games' page in the middle
# and at the end of a game, taken by the browser test in headless Chromium
# (Debian: apt-get install -y chromium; ARENA_CHROMIUM names another).
set -eu
cd "$(dirname "$0")/../.."
command -v "${ARENA_CHROMIUM:-chromium}" >/dev/null || { echo "no chromium: apt-get install -y chromium, or set ARENA_CHROMIUM" >&2; exit 1; }
ARENA_SCREENSHOTS="$PWD/docs/img" go test ./arena/web -run '^TestViewerFlowInBrowser$' -count=1 -v | grep -E '^(---|ok|FAIL)|screenshots in'
