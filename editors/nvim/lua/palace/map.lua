-- :PalaceMap: the palace's wings and rooms with their sizes (the map of
-- palace/map) in a scratch buffer; <CR> on a room asks what to search for
-- and searches that room.
local panel = require('palace.panel')

local M = {
  rooms = {}, -- buffer line -> { wing =, room = }
  last = nil, -- the last map shown, for tests and statuslines
}

local function kinds(k)
  local names = vim.tbl_keys(k or {})
  table.sort(names)
  local parts = {}
  for _, n in ipairs(names) do
    table.insert(parts, n .. ' ' .. k[n])
  end
  return table.concat(parts, ', ')
end

local function span(c)
  local from, to = (c.oldest or ''):sub(1, 10), (c.newest or ''):sub(1, 10)
  return from == to and from or (from .. ' to ' .. to)
end

-- "1 wing", "3 wings".
local function plural(n, word)
  return string.format('%d %s%s', n, word, n == 1 and '' or 's')
end

-- The map as lines (a wing, then its rooms indented, in aligned columns:
-- name, drawers, drawers by kind, the days they span), then the tunnels,
-- and which line is which room.
function M.lines(map)
  local wings, tunnels = map.wings or {}, map.tunnels or {}
  local width, rooms_n, drawers = 0, 0, 0
  for _, w in ipairs(wings) do
    width = math.max(width, #w.name)
    drawers = drawers + (w.drawers or 0)
    for _, r in ipairs(w.rooms or {}) do
      width = math.max(width, #r.name + 2)
      rooms_n = rooms_n + 1
    end
  end
  local fmt = '%-' .. width .. 's  %6d  %s  %s'
  local lines, rooms = {}, {}
  if #wings == 0 then
    table.insert(lines, 'The palace holds no drawers yet.')
    return lines, rooms
  end
  table.insert(lines, string.format('Palace map: %s, %s, %s  (<CR> on a room searches it)', plural(#wings, 'wing'), plural(rooms_n, 'room'),
    plural(drawers, 'drawer')))
  table.insert(lines, '')
  for _, w in ipairs(wings) do
    table.insert(lines, string.format(fmt, w.name, w.drawers or 0, kinds(w.kinds), span(w)))
    for _, r in ipairs(w.rooms or {}) do
      table.insert(lines, string.format(fmt, '  ' .. r.name, r.drawers or 0, kinds(r.kinds), span(r)))
      rooms[#lines] = { wing = w.name, room = r.name }
    end
  end
  if #tunnels > 0 then
    table.insert(lines, '')
    table.insert(lines, 'Tunnels')
    for _, t in ipairs(tunnels) do
      table.insert(lines, string.format('  %s: %s', t.room or table.concat(t.keywords or {}, ', '), table.concat(t.wings or {}, ', ')))
    end
  end
  return lines, rooms
end

-- Searches the room under the cursor, for what the user types (the room's
-- name when they type nothing).
function M.search_at_cursor()
  local at = M.rooms[vim.api.nvim_win_get_cursor(0)[1]]
  if not at then
    return
  end
  vim.ui.input({ prompt = string.format('Search %s/%s: ', at.wing, at.room) }, function(query)
    if query == nil then
      return -- cancelled
    end
    if vim.trim(query) == '' then
      query = at.room
    end
    require('palace').search(query, { wing = at.wing, room = at.room })
  end)
end

function M.open(wing)
  local palace = require('palace')
  local params = vim.empty_dict()
  if wing and wing ~= '' then
    params = { wing = wing }
  end
  palace.request('palace/map', params, function(res)
    local lines, rooms = M.lines(res.map or {})
    local buf = panel.scratch('palace://map', lines)
    M.rooms, M.last = rooms, res.map
    vim.keymap.set('n', '<CR>', M.search_at_cursor, { buffer = buf, nowait = true, desc = 'Palace: search this room' })
    vim.api.nvim_exec_autocmds('User', { pattern = 'PalaceMap', modeline = false })
  end)
end

return M
