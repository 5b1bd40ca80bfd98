-- Bohnenspiel: alpha-beta to a fixed depth over a weighted evaluation.
-- Parameter: depth (default 4), e.g. lua:bohnenspiel.lua?depth=5

local depth = 4

function init(game_info)
  depth = tonumber(game_info.params.depth) or depth
end

-- A pit holding 1, 3 or 5 seeds is a capture target: one more seed makes
-- it 2, 4 or 6.
local function target(seeds)
  return seeds == 1 or seeds == 3 or seeds == 5
end

-- evaluate scores a position for seat me:
--   1.0 x (my score - the opponent's score)
--   0.7 x (capture targets on the opponent's side - targets on mine)
--   0.3 x (seeds in my pits - seeds in the opponent's pits)
local function evaluate(state, me)
  local pits = state:cells().pits
  local scores = state:scores()
  local mine, theirs = pits[me], pits[1 - me]
  local targets, seeds = 0, 0
  for i = 0, 5 do
    seeds = seeds + mine[i] - theirs[i]
    if target(theirs[i]) then targets = targets + 1 end
    if target(mine[i]) then targets = targets - 1 end
  end
  return 1.0 * (scores[me] - scores[1 - me]) + 0.7 * targets + 0.3 * seeds
end

function choose_move(state, clock)
  -- Deepening within a quarter of the time left, never past depth.
  local move = search.alphabeta(state, depth, evaluate, { time_ms = clock.remaining() / 4 })
  return move
end
