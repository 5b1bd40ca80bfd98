-- Dots and Boxes: take every box on offer; never draw a box's third side
-- unless forced, and when forced give away as few boxes as possible.

-- The boxes beside a line, as {x, y} pairs. A line [[a,b],[a,b+1]] is a
-- side of boxes (a-1, b) and (a, b); a line [[a,b],[a+1,b]] of boxes
-- (a, b-1) and (a, b).
local function boxes_beside(v, l)
  local out = {}
  local function add(x, y)
    if x >= 0 and y >= 0 and x < v.rows - 1 and y < v.cols - 1 then
      out[#out + 1] = { x, y }
    end
  end
  if l.a == l.c then
    add(l.a - 1, l.b); add(l.a, l.b)
  else
    add(l.a, l.b - 1); add(l.a, l.b)
  end
  return out
end

-- Most sides already drawn around the boxes beside line l.
local function most_sides(v, l)
  local most = 0
  for _, b in ipairs(boxes_beside(v, l)) do
    most = math.max(most, v.sides[b[1]][b[2]])
  end
  return most
end

-- A move completing a box, or nil.
local function completing(v)
  for _, l in ipairs(v.lines) do
    if l.owner == -1 and most_sides(v, l) == 3 then return l.move end
  end
  return nil
end

-- How many boxes the opponent takes in a row after move.
local function given_away(state, move)
  local s = state:apply(move)
  local n = 0
  while not s:is_terminal() do
    local m = completing(s:cells())
    if not m then break end
    s = s:apply(m)
    n = n + 1
  end
  return n
end

function choose_move(state, clock)
  local v = state:cells()
  local take = completing(v)
  if take then return take end
  local safe, rest = {}, {}
  for _, l in ipairs(v.lines) do
    if l.owner == -1 then
      if most_sides(v, l) < 2 then safe[#safe + 1] = l.move else rest[#rest + 1] = l.move end
    end
  end
  if #safe > 0 then return safe[math.random(#safe)] end
  local best, fewest = rest[1], math.huge
  for _, m in ipairs(rest) do
    local n = given_away(state, m)
    if n < fewest then best, fewest = m, n end
  end
  return best
end
