-- Cachex: one ply of lookahead, scoring a board by shortest-path
-- distance: how many more stones each side needs to join its edges.

-- Cells are numbered i = r * n + q. For each board size, the neighbours
-- of every cell, in the order (r+1,q-1), (r+1,q), (r,q+1), (r-1,q+1),
-- (r-1,q), (r,q-1), and the cells of each seat's edges.
local geometry = {}
local function geometry_of(n)
  local g = geometry[n]
  if g then return g end
  g = { near = {}, start = { [0] = {}, [1] = {} }, goal = { [0] = {}, [1] = {} } }
  local steps = { { 1, -1 }, { 1, 0 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { 0, -1 } }
  for r = 0, n - 1 do
    for q = 0, n - 1 do
      local list = {}
      for _, s in ipairs(steps) do
        local r2, q2 = r + s[1], q + s[2]
        if r2 >= 0 and r2 < n and q2 >= 0 and q2 < n then list[#list + 1] = r2 * n + q2 end
      end
      g.near[r * n + q] = list
    end
  end
  for k = 0, n - 1 do
    -- Red (seat 0) joins row 0 to row n-1, blue (seat 1) column 0 to n-1.
    g.start[0][#g.start[0] + 1] = k
    g.goal[0][(n - 1) * n + k] = true
    g.start[1][#g.start[1] + 1] = k * n
    g.goal[1][k * n + n - 1] = true
  end
  geometry[n] = g
  return g
end

-- distance is the fewest empty cells seat must still fill to join its
-- edges: a breadth-first search by levels in which own stones cost
-- nothing and opponent stones block.
local function distance(board, g, seat, n)
  local dist, cur, nxt, d = {}, {}, {}, 0
  for _, i in ipairs(g.start[seat]) do
    local v = board[i]
    if v == seat then
      dist[i] = 0; cur[#cur + 1] = i
    elseif v == -1 then
      dist[i] = 1; nxt[#nxt + 1] = i
    end
  end
  local goal, near = g.goal[seat], g.near
  while #cur > 0 or #nxt > 0 do
    local j = 1
    while j <= #cur do
      local i = cur[j]
      j = j + 1
      if dist[i] == d then
        if goal[i] then return d end
        local list = near[i]
        for k = 1, #list do
          local i2 = list[k]
          local v, old = board[i2], dist[i2]
          if v == seat then
            if old == nil or old > d then dist[i2] = d; cur[#cur + 1] = i2 end
          elseif v == -1 then
            if old == nil or old > d + 1 then dist[i2] = d + 1; nxt[#nxt + 1] = i2 end
          end
        end
      end
    end
    cur, nxt, d = nxt, {}, d + 1
  end
  return n * n
end

-- cells[r][q] is 0 (red), 1 (blue) or -1 (empty); row r = 0 is the bottom.
local function evaluate(state, me)
  local v = state:cells()
  local n, cells, board = v.size, v.cells, {}
  for r = 0, n - 1 do
    local row = cells[r]
    for q = 0, n - 1 do board[r * n + q] = row[q] end
  end
  local g = geometry_of(n)
  return distance(board, g, 1 - me, n) - distance(board, g, me, n)
end

function choose_move(state, clock)
  return (search.greedy(state, evaluate))
end
