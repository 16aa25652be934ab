-- :PalaceMap: the palace's wings (with the folder holding their files),
-- rooms and the rooms' parts (folders or files) with their sizes (the map
-- of palace/map) in a scratch buffer; <CR> on a room lists its drawers in
-- the panel, s asks what to search for and searches that room.
local panel = require('palace.panel')

local M = {
  rooms = {}, -- buffer line -> { wing =, room =, root =, drawers =, top = }
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

-- A part's description: its language, and how many files a folder holds.
local function part_about(p)
  local about = {}
  if p.language and p.language ~= '' then
    table.insert(about, p.language)
  end
  if p.name:sub(-1) == '/' and p.files then
    table.insert(about, plural(p.files, 'file'))
  end
  return table.concat(about, ', ')
end

-- The map as lines (a wing with the folder holding its files, then its
-- rooms indented, then each room's parts, its folders or files relative to
-- the wing's folder, indented once more, in aligned columns: name,
-- drawers, drawers by kind (a part: its language), the days they span),
-- then the tunnels, and which line is which room (a part's line and the
-- "+N more drawers" line are their room's too).
function M.lines(map)
  local wings, tunnels = map.wings or {}, map.tunnels or {}
  local width, rooms_n, drawers = 0, 0, 0
  for _, w in ipairs(wings) do
    width = math.max(width, #w.name)
    drawers = drawers + (w.drawers or 0)
    for _, r in ipairs(w.rooms or {}) do
      width = math.max(width, #r.name + 2)
      rooms_n = rooms_n + 1
      for _, p in ipairs(r.parts or {}) do
        width = math.max(width, #p.name + 4)
      end
    end
  end
  local fmt = '%-' .. width .. 's  %6d  %s  %s'
  local lines, rooms = {}, {}
  if #wings == 0 then
    table.insert(lines, 'The palace holds no drawers yet.')
    return lines, rooms
  end
  table.insert(lines, string.format('Palace map: %s, %s, %s  (<CR> on a room lists its drawers, s searches it)', plural(#wings, 'wing'),
    plural(rooms_n, 'room'), plural(drawers, 'drawer')))
  table.insert(lines, '')
  for _, w in ipairs(wings) do
    local line = string.format(fmt, w.name, w.drawers or 0, kinds(w.kinds), span(w)):gsub('%s+$', '')
    if w.root and w.root ~= '' then
      line = line .. '  (' .. w.root .. ')'
    end
    table.insert(lines, line)
    for _, r in ipairs(w.rooms or {}) do
      local at = { wing = w.name, room = r.name, root = w.root, drawers = r.drawers or 0, top = r.top or {} }
      table.insert(lines, (string.format(fmt, '  ' .. r.name, r.drawers or 0, kinds(r.kinds), span(r)):gsub('%s+$', '')))
      rooms[#lines] = at
      for _, p in ipairs(r.parts or {}) do
        table.insert(lines, (string.format('%-' .. width .. 's  %6d  %s', '    ' .. p.name, p.drawers or 0, part_about(p)):gsub('%s+$', '')))
        rooms[#lines] = at
      end
      if (r.rest or 0) > 0 then
        table.insert(lines, string.format('    +%d more %s', r.rest, r.rest == 1 and 'drawer' or 'drawers'))
        rooms[#lines] = at
      end
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

-- A drawer of palace/map's room listing (top) as a panel hit: a file's
-- drawer carries its file and lines (relative to the wing's root), so <CR>
-- opens the file there as a search hit's would; any other drawer (or a
-- file no longer on disk) is opened by id (palace/drawer).
function M.hit(at, d)
  local h = { id = d.id, kind = d.kind, citation = d.citation, wing = at.wing, room = at.room, roomRedundant = true, snippet = d.line or '' }
  if d.kind ~= 'file' or not d.citation or d.citation == '' then
    return h
  end
  local path, first, last = d.citation:match('^(.-):(%d+)-(%d+)$')
  path = path or d.citation
  if path:sub(1, 1) ~= '/' and at.root and at.root ~= '' then
    path = at.root .. '/' .. path
  end
  if vim.fn.filereadable(path) == 1 then
    first, last = tonumber(first) or 1, tonumber(last) or tonumber(first) or 1
    h.uri = vim.uri_from_fname(path)
    h.range = { start = { line = first - 1, character = 0 }, ['end'] = { line = last, character = 0 } }
    h.line_start, h.line_end = first, last
  end
  return h
end

-- Lists a room's drawers in the panel (palace/map's first drawers of the
-- room: nothing is searched, no scope is set) and moves the cursor there,
-- where <CR> opens one as it opens a search hit. A room holding more says
-- how many and that a search finds the others.
function M.list_room(at)
  local hits = {}
  for _, d in ipairs(at.top or {}) do
    table.insert(hits, M.hit(at, d))
  end
  local name = at.wing .. '/' .. at.room
  local note
  if at.drawers > #hits and #hits > 0 then
    note = string.format('%s in %s: the first %d listed; search to find the others (s on the room in the map).', plural(at.drawers, 'drawer'),
      name, #hits)
  end
  local empty = string.format('No drawer of %s to list: search it (s on the room in the map).', name)
  panel.mode = 'room'
  panel.open(require('palace').config.relevant.width)
  panel.render('Room: ' .. name, hits, empty, note)
  M.listed = { wing = at.wing, room = at.room, hits = hits, note = note }
  vim.api.nvim_set_current_win(panel.win)
  local first = 1
  for l, i in pairs(panel.line_hit) do
    if i == 1 and (first == 1 or l < first) then
      first = l
    end
  end
  vim.api.nvim_win_set_cursor(panel.win, { first, 0 })
end

-- Lists the room under the cursor (a room's line, a part's or its "+N
-- more drawers" line).
function M.list_at_cursor()
  local at = M.rooms[vim.api.nvim_win_get_cursor(0)[1]]
  if at then
    M.list_room(at)
  end
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
    vim.keymap.set('n', '<CR>', M.list_at_cursor, { buffer = buf, nowait = true, desc = "Palace: list this room's drawers" })
    vim.keymap.set('n', 's', M.search_at_cursor, { buffer = buf, nowait = true, desc = 'Palace: search this room' })
    vim.api.nvim_exec_autocmds('User', { pattern = 'PalaceMap', modeline = false })
  end)
end

return M
