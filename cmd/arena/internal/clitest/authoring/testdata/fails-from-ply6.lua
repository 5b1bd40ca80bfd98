-- A deliberately broken agent for the check report test: it plays its
-- first legal move until ply 6, then a move that does not exist at every
-- turn, saying so on stderr.
function choose_move(state, clock)
  if state:ply() >= 6 then
    print("giving up at ply " .. state:ply())
    return "NOTHING"
  end
  return state:legal_moves()[1]
end
