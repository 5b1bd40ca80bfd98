-- A deliberately broken agent for the console golden test: it loads and
-- initialises fine, then indexes nil at every move.
function choose_move(state, clock)
  local book = nil
  return book.opening
end
