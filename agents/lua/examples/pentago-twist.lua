-- Pentago-Twist: one ply of lookahead over every placement and twist,
-- scoring the board by its five-in-a-row windows, quadrant centres first.

-- The 32 windows of five cells (12 in rows, 12 in columns, 8 diagonal),
-- flattened: window w is cells (wx[k], wy[k]) for k = 5w-4 .. 5w.
local wx, wy = {}, {}
local function window(x, y, dx, dy)
  for k = 0, 4 do
    wx[#wx + 1] = x + k * dx
    wy[#wy + 1] = y + k * dy
  end
end
for i = 0, 5 do
  for j = 0, 1 do window(i, j, 0, 1); window(j, i, 1, 0) end
end
for j = 0, 1 do
  for k = 0, 1 do window(j, k, 1, 1); window(j, 5 - k, 1, -1) end
end
local nwindows = #wx / 5

-- Worth of a window holding n stones of one colour and none of the other.
local worth = { [0] = 0, 1, 4, 16, 64, 1000 }
-- The quadrant centres: a stone there survives every twist of its quadrant.
local centres = { { 1, 1 }, { 1, 4 }, { 4, 1 }, { 4, 4 } }

-- cells[x][y] is 0 (white), 1 (black) or -1 (empty); x is the row from
-- the top, y the column from the left.
local function evaluate(state, me)
  local cells = state:cells().cells
  local score, k = 0, 0
  for _ = 1, nwindows do
    local mine, theirs = 0, 0
    for _ = 1, 5 do
      k = k + 1
      local v = cells[wx[k]][wy[k]]
      if v == me then mine = mine + 1 elseif v >= 0 then theirs = theirs + 1 end
    end
    if theirs == 0 then
      score = score + worth[mine]
    elseif mine == 0 then
      -- The opponent moves next: its lines count double.
      score = score - 2 * worth[theirs]
    end
  end
  for i = 1, 4 do
    local v = cells[centres[i][1]][centres[i][2]]
    if v == me then score = score + 3 elseif v >= 0 then score = score - 3 end
  end
  return score
end

function choose_move(state, clock)
  return (search.greedy(state, evaluate))
end
