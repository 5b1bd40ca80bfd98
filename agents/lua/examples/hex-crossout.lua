-- Hex cross-out: whoever crosses out the last cell loses, so parity
-- decides. One ply of lookahead over a parity evaluation, and an exact
-- search of the ending once few cells are left.

-- Cells are numbered i = x * 12 + y. near[i] lists the cells next to i:
-- rows y with odd y are shifted right, so the steps (dx, dy) of the six
-- directions depend on the row.
local steps = {
  [0] = { { -1, -1 }, { 0, -1 }, { -1, 0 }, { 1, 0 }, { -1, 1 }, { 0, 1 } },
  [1] = { { 0, -1 }, { 1, -1 }, { -1, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } },
}
local near = {}
for x = 0, 11 do
  for y = 0, 11 do
    local list = {}
    for _, d in ipairs(steps[y % 2]) do
      local nx, ny = x + d[1], y + d[2]
      if nx >= 0 and nx < 12 and ny >= 0 and ny < 12 then list[#list + 1] = nx * 12 + ny end
    end
    near[x * 12 + y] = list
  end
end

-- Regions of free cells: how many single cells, how many larger ones.
-- cells[x][y] is -1 for a free cell.
local function regions(cells)
  local free = {}
  for x = 0, 11 do
    local col = cells[x]
    for y = 0, 11 do
      if col[y] == -1 then free[x * 12 + y] = true end
    end
  end
  local singles, big = 0, 0
  for i in pairs(free) do
    if free[i] then
      free[i] = false
      local size, stack = 0, { i }
      while #stack > 0 do
        local c = stack[#stack]
        stack[#stack] = nil
        size = size + 1
        local list = near[c]
        for k = 1, #list do
          local n = list[k]
          if free[n] then free[n] = false; stack[#stack + 1] = n end
        end
      end
      if size == 1 then singles = singles + 1 else big = big + 1 end
    end
  end
  return singles, big
end

-- For the side to move: with only single cells left an even number wins;
-- with one larger region the mover can usually set the parity; otherwise
-- each region counts as one move.
local function evaluate(state, me)
  local singles, big = regions(state:cells().cells)
  local v
  if big == 0 then
    v = (singles % 2 == 0) and 1 or -1
  elseif big == 1 then
    v = 0.5
  else
    v = ((singles + big) % 2 == 0) and 0.25 or -0.25
  end
  if state:to_move() ~= me then v = -v end
  return v
end

function choose_move(state, clock)
  local free = state:cells().free
  if free <= 7 then
    return (search.alphabeta(state, free, evaluate, { time_ms = clock.remaining() / 3 }))
  end
  return (search.greedy(state, evaluate))
end
