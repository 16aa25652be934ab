-- The side panel (relevant drawers or search hits) and the scratch buffers
-- drawers, status and wake-up are shown in. Plain buffers and windows, so it
-- works the same from 0.7 on.
local P = {
  buf = nil, -- the panel buffer, kept while hidden
  win = nil,
  src_win = nil, -- the code window the panel belongs to
  mode = nil, -- 'relevant', 'search' or 'room' (a room's drawers, from :PalaceMap)
  title = '',
  hits = {},
  note = nil, -- the sentence under the title, if any
  line_hit = {}, -- panel line -> index in hits
  on_open = nil, -- set by init.lua: function(hit, win)
  on_clear = nil, -- set by init.lua: drops the search's scope (x)
}

local scratch_bufs = {} -- name -> buffer
local ns = vim.api.nvim_create_namespace('palace_panel')

function P.one_line(s)
  return (s:gsub('%s+', ' '):gsub('^ ', ''))
end

-- Strips the **match** markers the server puts in snippets, returning the
-- plain text and the byte ranges ({first, last}, 0-based, last exclusive)
-- the markers wrapped, so the panel can highlight them instead.
function P.unmark(s)
  local parts, marks, i, len, open = {}, {}, 1, 0, nil
  while true do
    local j = s:find('**', i, true)
    if not j then
      break
    end
    local piece = s:sub(i, j - 1)
    table.insert(parts, piece)
    len = len + #piece
    if open then
      table.insert(marks, { open, len })
      open = nil
    else
      open = len
    end
    i = j + 2
  end
  table.insert(parts, s:sub(i))
  return table.concat(parts), marks
end

-- Renders the inline code of the server's sentences (the empty panel's
-- reason, a hit's why), which are markdown: returns the text without the
-- backticks and the byte ranges ({first, last}, 0-based, last exclusive)
-- of the code spans, so the panel can highlight them instead. Snippets are
-- not passed here: a backtick in code or prose is the text itself.
function P.uncode(s)
  local parts, spans, i, len = {}, {}, 1, 0
  while true do
    local j = s:find('`', i, true)
    local k = j and s:find('`', j + 1, true)
    if not k then
      break
    end
    local before, code = s:sub(i, j - 1), s:sub(j + 1, k - 1)
    table.insert(parts, before)
    table.insert(parts, code)
    len = len + #before
    table.insert(spans, { len, len + #code })
    len = len + #code
    i = k + 1
  end
  table.insert(parts, s:sub(i))
  return table.concat(parts), spans
end

function P.is_open()
  return P.win ~= nil and vim.api.nvim_win_is_valid(P.win) and vim.api.nvim_win_get_buf(P.win) == P.buf
end

function P.hit_at_cursor()
  if not P.is_open() or vim.api.nvim_get_current_win() ~= P.win then
    return nil
  end
  return P.hits[P.line_hit[vim.api.nvim_win_get_cursor(P.win)[1]]]
end

-- The window to open things in: the code window, else another window, else a new split.
local function target_window()
  if P.src_win and P.src_win ~= P.win and vim.api.nvim_win_is_valid(P.src_win) then
    return P.src_win
  end
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if w ~= P.win and vim.api.nvim_win_get_config(w).relative == '' then
      return w
    end
  end
  vim.cmd('topleft vsplit')
  return vim.api.nvim_get_current_win()
end

local function buffer()
  if P.buf and vim.api.nvim_buf_is_valid(P.buf) then
    return P.buf
  end
  P.buf = vim.api.nvim_create_buf(false, true) -- unlisted scratch: nofile, noswapfile
  vim.api.nvim_buf_set_name(P.buf, 'palace://panel')
  vim.bo[P.buf].bufhidden = 'hide'
  vim.bo[P.buf].filetype = 'palace'
  vim.bo[P.buf].modifiable = false
  local map = function(lhs, fn)
    vim.keymap.set('n', lhs, fn, { buffer = P.buf, nowait = true, silent = true })
  end
  map('<CR>', function()
    local h = P.hit_at_cursor()
    if h and P.on_open then
      P.on_open(h, target_window())
    end
  end)
  map('q', P.close)
  map('x', function()
    if P.mode == 'search' and P.on_clear then
      P.on_clear()
    end
  end)
  vim.api.nvim_buf_call(P.buf, function()
    vim.cmd([=[
      syntax match PalaceLocation /^\S.*$/ contains=PalaceWingRoom
      syntax match PalaceTitle /\%1l.*/
      syntax match PalaceWingRoom /\[[^]]*\]/ contained
      highlight default link PalaceTitle Title
      highlight default link PalaceEmpty Comment
      highlight default link PalaceNote Comment
      highlight default link PalaceLocation Directory
      highlight default link PalaceWingRoom Comment
      highlight default link PalaceMatch Search
      highlight default link PalaceCode Special
    ]=])
  end)
  return P.buf
end

-- Opens the panel at the right, leaving the cursor in the code window (its
-- CursorMoved is what refreshes the panel).
function P.open(width)
  local cur = vim.api.nvim_get_current_win()
  if P.is_open() then
    return
  end
  if cur ~= P.win then
    P.src_win = cur
  end
  vim.cmd('botright vertical ' .. (width or 60) .. 'split')
  P.win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(P.win, buffer())
  for k, v in pairs({ number = false, relativenumber = false, signcolumn = 'no', wrap = true, linebreak = true,
    winfixwidth = true, cursorline = true, list = false, spell = false, foldenable = false }) do
    vim.wo[P.win][k] = v
  end
  vim.api.nvim_set_current_win(cur)
end

function P.close()
  if not P.is_open() then
    return
  end
  if #vim.api.nvim_tabpage_list_wins(0) == 1 then
    vim.cmd('enew') -- the last window cannot be closed
  else
    vim.api.nvim_win_close(P.win, true)
  end
  P.win = nil
end

-- where names a hit: its file relative to the working directory (else
-- under ~) with its lines, else the drawer's id and citation; then its
-- wing, and its room unless the room only repeats the path's first folder.
local function where(h)
  local at
  if h.uri and h.range then
    at = string.format('%s:%d-%d', vim.fn.fnamemodify(vim.uri_to_fname(h.uri), ':~:.'), h.line_start, h.line_end)
  else
    at = h.id .. '  ' .. (h.citation or h.source or '')
  end
  if h.roomRedundant or not h.room or h.room == '' then
    return string.format('%s  [%s]', at, h.wing or '')
  end
  return string.format('%s  [%s/%s]', at, h.wing or '', h.room)
end

-- empty: the server's sentence saying why there are no hits, if any.
-- note: a sentence shown under the title whatever the hits (Relevant's
-- note on what under the cursor was skipped as noise, a room listing's
-- "the first 5 listed"), markdown like the others.
function P.render(title, hits, empty, note)
  P.title, P.hits, P.empty, P.note, P.line_hit = title, hits, empty, note, {}
  local lines = { string.format('%s  (%d)', title, #hits) }
  local highlights = {} -- {line (0-based), group, first, last}
  if note and note ~= '' then
    local text, spans = P.uncode(P.one_line(note))
    table.insert(lines, text)
    table.insert(highlights, { #lines - 1, 'PalaceNote', 0, -1 })
    for _, c in ipairs(spans) do
      table.insert(highlights, { #lines - 1, 'PalaceCode', c[1], c[2] })
    end
  end
  table.insert(lines, '')
  for i, h in ipairs(hits) do
    table.insert(lines, where(h))
    P.line_hit[#lines] = i
    if h.why and h.why ~= '' then
      local why, spans = P.uncode(P.one_line(h.why))
      table.insert(lines, '  ' .. why)
      P.line_hit[#lines] = i
      for _, c in ipairs(spans) do
        table.insert(highlights, { #lines - 1, 'PalaceCode', c[1] + 2, c[2] + 2 })
      end
    end
    local text, marks = P.unmark(P.one_line(h.snippet or h.content or ''))
    table.insert(lines, '  ' .. text)
    P.line_hit[#lines] = i
    for _, m in ipairs(marks) do
      table.insert(highlights, { #lines - 1, 'PalaceMatch', m[1] + 2, m[2] + 2 })
    end
    table.insert(lines, '')
  end
  if #hits == 0 then
    local text, spans = P.uncode(P.one_line((empty and empty ~= '') and empty or 'Nothing found.'))
    table.insert(lines, text)
    table.insert(highlights, { #lines - 1, 'PalaceEmpty', 0, -1 })
    for _, c in ipairs(spans) do
      table.insert(highlights, { #lines - 1, 'PalaceCode', c[1], c[2] })
    end
  end
  local buf = buffer()
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  for _, hl in ipairs(highlights) do
    vim.api.nvim_buf_add_highlight(buf, ns, hl[2], hl[1], hl[3], hl[4])
  end
end

-- Leaves a forgotten drawer out of what the panel shows.
function P.drop(id)
  local kept = vim.tbl_filter(function(h)
    return h.id ~= id
  end, P.hits)
  if #kept ~= #P.hits then
    P.render(P.title, kept, P.empty, P.note)
  end
end

-- Shows lines in a read-only scratch buffer named name: in win, else in a
-- new split. Drawer buffers are wiped when hidden so they do not pile up.
function P.scratch(name, lines, win)
  local buf = scratch_bufs[name]
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].bufhidden = 'wipe'
    scratch_bufs[name] = buf
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  if win and vim.api.nvim_win_is_valid(win) then
    vim.api.nvim_win_set_buf(win, buf)
    vim.api.nvim_set_current_win(win)
  elseif vim.fn.bufwinid(buf) == -1 then
    vim.cmd('botright sbuffer ' .. buf)
  end
  return buf
end

-- palace/status as text. Every field is optional: an older or newer server
-- may answer with fewer or more.
function P.status_lines(st)
  -- embedding: the palace's backend and vector counts (older servers sent
  -- the counts as vectors); server.embedding: the last background fill.
  local sv, vec = st.server or {}, st.embedding or st.vectors or {}
  local emb = sv.embedding or st.embedding or {}
  -- Without a model nothing will ever embed the pending drawers: say so
  -- rather than count them as pending.
  local vectors = string.format('vectors %s (%s pending)', tostring(vec.vectors or 0), tostring(vec.pending or 0))
  if emb.backend == 'none' and (vec.vectors or 0) == 0 then
    vectors = 'no vectors (no embedding model: searching lexically)'
  end
  local lines = {
    string.format('Palace %s  (%d KB, schema %s)', st.database or st.home or '?', math.floor((st.db_bytes or 0) / 1024), tostring(st.schema_version or '?')),
    string.format('drawers %s (%s deleted), sources %s, %s', tostring(st.drawers or '?'),
      tostring(st.deleted_drawers or 0), tostring(st.sources or '?'), vectors),
    string.format('server %s, client %s, mine on save: %s, embedding: %s%s', tostring(sv.version or '?'), tostring(sv.client or '?'),
      tostring(sv.mine_on_save), tostring(emb.backend or '?'), emb.reason and (' (' .. (P.uncode(emb.reason)) .. ')') or ''),
    '',
    'Folders',
  }
  for _, f in ipairs(sv.folders or {}) do
    local last = f.last and string.format(', last mine (%s): %s files in %.3fs', tostring(f.last.why), tostring(f.last.files_mined), f.last.seconds or 0) or ''
    table.insert(lines, string.format('  %s -> wing %s, %s, %s mines%s', f.path or f.uri or '?', tostring(f.wing), tostring(f.state), tostring(f.mines or 0), last))
  end
  table.insert(lines, '')
  table.insert(lines, 'Rooms')
  for _, r in ipairs(st.rooms or {}) do
    table.insert(lines, string.format('  %-30s %6d', r.wing .. '/' .. r.room, r.drawers or 0))
  end
  return lines
end

return P
