-- End-to-end test of the plugin: headless Neovim driving the real
-- `palace serve --lsp` on a fixture workspace. Run by test/run.sh, which sets
-- PALACE_TEST_BIN (the binary) and PALACE_TEST_TMP (an empty temp folder).
-- Prints one line per check and closes with "N passed, N failed".
local bin = assert(os.getenv('PALACE_TEST_BIN'), 'PALACE_TEST_BIN is not set')
local tmp = assert(os.getenv('PALACE_TEST_TMP'), 'PALACE_TEST_TMP is not set')
local ws, home = tmp .. '/ws', tmp .. '/home'
local plugin = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
local passed, failed = 0, 0
local uv = vim.uv or vim.loop -- vim.loop is deprecated from 0.10 on

local function out(s)
  io.stdout:write(s .. '\n') -- print() is awkward in headless mode
  io.stdout:flush()
end

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    out('ok   ' .. name)
  else
    failed = failed + 1
    out('FAIL ' .. name .. (detail and (': ' .. tostring(detail)) or ''))
  end
  return ok
end

-- Headless Neovim runs the event loop (LSP traffic) only while waiting.
local function wait(ms, cond)
  return vim.wait(ms, cond, 20)
end

local function write(rel, text, root)
  local path = (root or ws) .. '/' .. rel
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f = assert(io.open(path, 'w'))
  f:write(text)
  f:close()
  return path
end

-- The fixture of server/lsp/test/fixture.mjs: the cursor on computeChecksum
-- inside verifyUpload should bring its definition in src/checksum.go first,
-- then docs/decisions.md, which names it and the enclosing function.
local function fixture(root)
  vim.fn.mkdir((root or ws) .. '/.git', 'p') -- the root marker
  write('src/upload.go', [[
package upload

import "errors"

// verifyUpload checks a finished upload against the checksum the client sent.
func verifyUpload(data []byte, want uint32) error {
	got := computeChecksum(data)
	if got != want {
		return errors.New("upload corrupted")
	}
	return nil
}
]], root)
  write('src/checksum.go', [[
package upload

import "hash/crc32"

var table = crc32.MakeTable(crc32.Castagnoli)

// computeChecksum returns the CRC-32C of b.
func computeChecksum(b []byte) uint32 {
	return crc32.Checksum(b, table)
}
]], root)
  write('docs/decisions.md', [[
# Decisions

## Upload integrity

verifyUpload compares the checksum the client sent with computeChecksum, which
uses CRC-32C rather than SHA-256: every upload is checked on the request path
and CRC-32C is hardware accelerated. Revisit if uploads cross untrusted networks.

## Logging

Logs go to stderr as JSON lines.
]], root)
  write('.gitignore', 'build/\n*.tmp\n', root)
  write('build/out.go', 'package build // generated, ignored\n', root)
end

local function panel_text()
  local p = require('palace.panel')
  if not (p.buf and vim.api.nvim_buf_is_valid(p.buf)) then
    return ''
  end
  return table.concat(vim.api.nvim_buf_get_lines(p.buf, 0, -1, false), '\n')
end

-- The first panel line of the i-th hit.
local function hit_line(i)
  local first
  for l, h in pairs(require('palace.panel').line_hit) do
    if h == i and (not first or l < first) then
      first = l
    end
  end
  return first
end

local function count(event)
  local n = { value = 0 }
  vim.api.nvim_create_autocmd('User', {
    pattern = event,
    callback = function()
      n.value = n.value + 1
    end,
  })
  return n
end

local function search(query)
  local palace = require('palace')
  palace.last_search = nil
  vim.cmd('PalaceSearch ' .. query)
  wait(10000, function()
    return palace.last_search ~= nil
  end)
  return palace.last_search
end

-- Soft deprecations (0.11+) print nothing, so record every vim.deprecate call.
local deprecated = {}
local deprecate = vim.deprecate
vim.deprecate = function(name, ...)
  table.insert(deprecated, name)
  return deprecate(name, ...)
end

local function main()
  fixture()
  local palace = require('palace')
  local panel = require('palace.panel')
  palace.setup({ cmd = { bin, '--home', home, 'serve', '--lsp' }, wing = 'proj', relevant = { limit = 5 } })

  local kinds = {}
  vim.api.nvim_create_autocmd('User', {
    pattern = 'PalaceProgress',
    callback = function()
      table.insert(kinds, palace.last_progress.value.kind)
    end,
  })
  local relevant_n = count('PalaceRelevant')

  -- A command with no file open starts the server for the working directory.
  vim.cmd('cd ' .. vim.fn.fnameescape(ws))
  vim.cmd('PalaceStatus')
  local status = function()
    local b = vim.fn.bufnr('palace://status')
    return b ~= -1 and table.concat(vim.fn.getbufline(b, 1, '$'), '\n') or ''
  end
  wait(10000, function()
    return status() ~= ''
  end)
  check(':PalaceStatus without a file starts the server for the cwd', status():find('-> wing proj', 1, true) ~= nil, status())
  check('the status is shown in a scratch buffer', vim.api.nvim_buf_get_name(0) == 'palace://status' and vim.bo.buftype == 'nofile')
  vim.cmd('only')
  vim.cmd('cd ' .. vim.fn.fnameescape(tmp)) -- from here the root must come from the marker, not the cwd

  -- The client attaches and the first mine completes.
  vim.cmd('edit ' .. ws .. '/src/upload.go')
  local code_win, upload = vim.api.nvim_get_current_win(), vim.api.nvim_get_current_buf()
  local client
  wait(10000, function()
    client = palace.client(upload)
    return client ~= nil and vim.lsp.buf_is_attached(upload, client.id)
  end)
  if not check('client attaches to a file buffer', client and vim.lsp.buf_is_attached(upload, client.id)) then
    return
  end
  check('root found from the .git marker', client.config.root_dir == ws, client.config.root_dir)
  check('the file reuses the running client', #palace.clients() == 1, #palace.clients())
  wait(30000, function()
    return kinds[#kinds] == 'end'
  end)
  check('initial mine reports $/progress begin .. end', kinds[1] == 'begin' and kinds[#kinds] == 'end', table.concat(kinds, ','))
  check('one server, one initial mine', #vim.tbl_filter(function(k)
    return k == 'begin'
  end, kinds) == 1, table.concat(kinds, ','))
  check('mine end is shown in :messages', vim.fn.execute('messages'):find('Palace: mining ws', 1, true) ~= nil)

  -- :PalaceSearch fills the quickfix list and the panel.
  local res = search('hardware accelerated')
  local qf = vim.fn.getqflist()
  local first = qf[1] and vim.api.nvim_buf_get_name(qf[1].bufnr) or ''
  check(':PalaceSearch answers', res and #res.hits >= 1, res and vim.inspect(res))
  check(':PalaceSearch fills the quickfix list with docs/decisions.md', first == ws .. '/docs/decisions.md', first)
  check('the quickfix entry is at the drawer lines', qf[1] and res.hits[1] and qf[1].lnum == res.hits[1].line_start, qf[1] and qf[1].lnum)
  check('the quickfix list is titled', vim.fn.getqflist({ title = 1 }).title == 'Palace: hardware accelerated')
  check('the panel shows the hit', panel.is_open() and panel_text():find('docs/decisions.md:', 1, true) ~= nil, panel_text())

  -- :PalaceRelevant at computeChecksum inside verifyUpload.
  vim.api.nvim_set_current_win(code_win)
  vim.api.nvim_win_set_cursor(code_win, { 7, 12 })
  vim.cmd('PalaceRelevant')
  wait(10000, function()
    return relevant_n.value >= 1
  end)
  local rel = palace.last_relevant
  local hit = rel and rel.hits[1]
  check(':PalaceRelevant answers for the cursor', rel and rel.clues.identifier == 'computeChecksum', rel and vim.inspect(rel.clues))
  check(':PalaceRelevant puts the definition first', hit and hit.source == ws .. '/src/checksum.go', hit and hit.citation)
  local second = rel and rel.hits[2]
  check(':PalaceRelevant puts docs/decisions.md second', second and second.source == ws .. '/docs/decisions.md', second and second.citation)
  local lines, l = vim.api.nvim_buf_get_lines(panel.buf, 0, -1, false), hit_line(1) or 1
  check('the panel shows the drawer and why', lines[1]:find('Relevant: computeChecksum', 1, true) and (lines[l] or ''):find('src/checksum.go:', 1, true)
    and (lines[l + 1] or ''):find('definition of computeChecksum', 1, true), table.concat(lines, '\n'))
  check('the cursor stays in the code window', vim.api.nvim_get_current_win() == code_win)
  if os.getenv('PALACE_TEST_VERBOSE') then
    out(table.concat(lines, '\n'))
  end
  -- Matches are highlighted, not shown as the server's ** markers.
  local text = panel_text()
  local marks = vim.api.nvim_buf_get_extmarks(panel.buf, vim.api.nvim_create_namespace('palace_panel'), 0, -1, { details = true })
  check('the panel shows no ** markers', rel and rel.hits[2] and rel.hits[2].snippet:find('**', 1, true) and not text:find('**', 1, true), text)
  local marked = {}
  for _, m in ipairs(marks) do
    local line = vim.api.nvim_buf_get_lines(panel.buf, m[2], m[2] + 1, false)[1] or ''
    marked[line:sub(m[3] + 1, m[4].end_col)] = true
  end
  check('the panel highlights the matches instead', marked['computeChecksum'] == true, vim.inspect(vim.tbl_keys(marked)))
  -- A room that only repeats the path's first folder (src, docs) is not shown.
  check('the panel leaves out rooms that repeat the path', (lines[l] or ''):find('[proj]', 1, true) ~= nil
    and not text:find('[proj/src]', 1, true), lines[l])

  -- On a keyword inside verifyUpload, the panel is titled by the function.
  vim.api.nvim_win_set_cursor(code_win, { 8, 1 })
  vim.cmd('doautocmd CursorMoved')
  wait(10000, function()
    return relevant_n.value >= 2
  end)
  check('the panel is titled by what the server says it is about', palace.last_relevant.about == 'verifyUpload'
    and vim.api.nvim_buf_get_lines(panel.buf, 0, 1, false)[1]:match('^Relevant: verifyUpload  %(%d+%)$') ~= nil,
    vim.api.nvim_buf_get_lines(panel.buf, 0, 1, false)[1])
  relevant_n.value = 1

  -- CursorMoved refreshes the panel for the new cursor position once the
  -- cursor rests (relevant.debounce), not on CursorHold ('updatetime', 4 s
  -- by default): a burst of moves asks once, for where the cursor stopped.
  local moved_at = uv.hrtime()
  for _, pos in ipairs({ { 7, 2 }, { 8, 4 }, { 9, 20 } }) do -- got, got, then the errors.New line
    vim.api.nvim_win_set_cursor(code_win, pos)
    vim.cmd('doautocmd CursorMoved')
  end
  local followed = relevant_n.value >= 2
  wait(10000, function()
    return relevant_n.value >= 2
  end)
  local follow_ms = (uv.hrtime() - moved_at) / 1e6
  wait(palace.config.relevant.debounce * 2, function()
    return relevant_n.value > 2
  end)
  check('CursorMoved refreshes the panel once the cursor rests', not followed and relevant_n.value == 2
    and not vim.tbl_contains({ 'computeChecksum', 'got' }, palace.last_relevant.clues.identifier),
    relevant_n.value .. ' ' .. vim.inspect(palace.last_relevant and palace.last_relevant.clues))
  if os.getenv('PALACE_TEST_VERBOSE') then
    out(string.format('measured: cursor move to new rows %.0f ms (debounce %d ms)', follow_ms, palace.config.relevant.debounce))
  end
  vim.cmd('doautocmd CursorMoved')
  wait(palace.config.relevant.debounce * 3, function()
    return relevant_n.value > 2
  end)
  check('an unmoved cursor asks nothing', relevant_n.value == 2)

  -- <CR> in the panel opens the source at its lines; q closes the panel.
  vim.api.nvim_win_set_cursor(code_win, { 7, 12 })
  vim.cmd('doautocmd CursorMoved')
  wait(10000, function()
    return relevant_n.value >= 3
  end)
  vim.api.nvim_set_current_win(panel.win)
  vim.api.nvim_win_set_cursor(panel.win, { hit_line(1) or 1, 0 })
  vim.cmd('execute "normal \\<CR>"')
  check('<CR> opens the source', vim.api.nvim_buf_get_name(0) == ws .. '/src/checksum.go', vim.api.nvim_buf_get_name(0))
  check('<CR> opens it by its path relative to the working directory', vim.fn.bufname('%') == 'ws/src/checksum.go', vim.fn.bufname('%'))
  check('<CR> opens it at its lines', vim.api.nvim_win_get_cursor(0)[1] == palace.last_relevant.hits[1].line_start)
  check('<CR> opens it in the code window', vim.api.nvim_get_current_win() == code_win)
  vim.api.nvim_set_current_win(panel.win)
  vim.cmd('normal q')
  check('q closes the panel', not panel.is_open())
  vim.cmd('PalaceRelevant')
  check(':PalaceRelevant opens the panel again', panel.is_open())
  vim.cmd('PalaceRelevant')
  check(':PalaceRelevant toggles it closed', not panel.is_open())

  -- A place nothing else mentions: the panel says why it is empty.
  local fresh = write('src/fresh.go', 'quuxfrobnicate()\n')
  vim.cmd('edit ' .. fresh)
  local fresh_buf = vim.api.nvim_get_current_buf()
  wait(5000, function()
    return vim.lsp.buf_is_attached(fresh_buf, client.id)
  end)
  vim.api.nvim_win_set_cursor(0, { 1, 3 })
  local before = relevant_n.value
  vim.cmd('PalaceRelevant')
  wait(10000, function()
    return relevant_n.value > before
  end)
  local empty = palace.last_relevant and palace.last_relevant.empty or ''
  check('an empty panel says why', empty:find('Nothing in the palace mentions quuxfrobnicate', 1, true) == 1
    and panel_text():find(empty, 1, true) ~= nil, panel_text())
  vim.cmd('PalaceRelevant')

  -- An error variable under the cursor is noise: the server skips it and
  -- says so in the answer's note, which the panel shows under its title.
  local retry = write('src/retry.go', [[
package upload

// retryUpload verifies an upload once more before giving up.
func retryUpload(data []byte, want uint32) error {
	err := verifyUpload(data, want)
	if err != nil {
		return err
	}
	return nil
}
]])
  vim.cmd('edit ' .. retry)
  local retry_buf = vim.api.nvim_get_current_buf()
  wait(5000, function()
    return vim.lsp.buf_is_attached(retry_buf, client.id)
  end)
  vim.api.nvim_win_set_cursor(0, { 6, 4 }) -- err of "if err != nil"
  before = relevant_n.value
  vim.cmd('PalaceRelevant')
  wait(10000, function()
    return relevant_n.value > before
  end)
  local note = palace.last_relevant and palace.last_relevant.note or ''
  local top2 = vim.api.nvim_buf_get_lines(panel.buf, 0, 3, false)
  check('the note on an error variable shows under the title', note:find('Skipped err under the cursor', 1, true) == 1
    and (top2[1] or ''):match('^Relevant: retryUpload  %(%d+%)$') ~= nil and top2[2] == (panel.uncode(panel.one_line(note))) and top2[3] == '',
    note .. '\n' .. panel_text())
  if os.getenv('PALACE_TEST_VERBOSE') then
    out(panel_text())
  end
  vim.cmd('PalaceRelevant')

  -- A save re-mines the file (palace/didIndex), then its new text is found.
  vim.cmd('edit ' .. ws .. '/src/checksum.go')
  local checksum = vim.api.nvim_get_current_buf()
  wait(5000, function()
    return vim.lsp.buf_is_attached(checksum, client.id)
  end)
  local uri = vim.uri_from_bufnr(checksum)
  vim.api.nvim_buf_set_lines(checksum, -1, -1, false, { '// quokkaflange: text added by the save.' })
  palace.last_index = nil
  vim.cmd('write')
  wait(10000, function()
    return palace.last_index ~= nil and palace.last_index.uri == uri
  end)
  local idx = palace.last_index
  check('a save is re-mined (palace/didIndex)', idx and idx.uri == uri and (idx.drawers or 0) >= 1 and idx.wing == 'proj', idx and vim.inspect(idx))
  res = search('quokkaflange')
  qf = vim.fn.getqflist()
  check('the saved text is found', res and #res.hits == 1 and #qf == 1 and vim.api.nvim_buf_get_name(qf[1].bufnr) == ws .. '/src/checksum.go',
    res and vim.inspect(res.hits))

  -- :PalaceRemember on a visual range, with the room prompt answered.
  local prompt
  local input = vim.ui.input
  vim.ui.input = function(opts, on_confirm)
    prompt = opts.prompt
    on_confirm('integrity')
  end
  vim.cmd('normal! 7GVj\27')
  vim.cmd("'<,'>PalaceRemember")
  vim.ui.input = input
  wait(10000, function()
    return palace.last_remember ~= nil
  end)
  local rem = palace.last_remember or {}
  check(':PalaceRemember asks for the room', prompt == 'Palace room: ')
  check(':PalaceRemember creates a drawer', rem.added == true and rem.id ~= nil, vim.inspect(rem))
  check('the drawer has the room and the lines', rem.room == 'integrity' and rem.source == ws .. '/src/checksum.go:7-8', rem.room .. ' ' .. tostring(rem.source))
  res = search('computeChecksum returns')
  local found
  for i, h in ipairs(res and res.hits or {}) do
    if h.id == rem.id then
      found = i
    end
  end
  check(':PalaceSearch finds the remembered drawer', found ~= nil, res and vim.inspect(res.hits))
  check('the panel lists it by id', panel_text():find(rem.id, 1, true) ~= nil, panel_text())
  -- <CR> on a drawer without a file shows it in a scratch buffer.
  vim.api.nvim_set_current_win(panel.win)
  vim.api.nvim_win_set_cursor(panel.win, { found and hit_line(found) or 1, 0 })
  vim.cmd('execute "normal \\<CR>"')
  local name = 'palace://drawer/' .. tostring(rem.id)
  wait(5000, function()
    return vim.api.nvim_buf_get_name(0) == name
  end)
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check('<CR> on a note shows the drawer', vim.api.nvim_buf_get_name(0) == name and text:find('computeChecksum returns the CRC-32C', 1, true) ~= nil, text)
  check('the drawer buffer is a scratch buffer', vim.bo.buftype == 'nofile' and not vim.bo.modifiable)

  -- :PalaceForget, then the drawer is gone.
  vim.cmd('PalaceForget ' .. rem.id)
  wait(10000, function()
    return palace.last_forget ~= nil
  end)
  check(':PalaceForget deletes the drawer', palace.last_forget and palace.last_forget.deleted == true, vim.inspect(palace.last_forget))
  res = search('computeChecksum returns')
  local gone = true
  for _, h in ipairs(res and res.hits or {}) do
    gone = gone and h.id ~= rem.id
  end
  check('a forgotten drawer is not found', res and gone)

  -- :PalaceStatus and :PalaceWakeUp show scratch buffers.
  vim.cmd('PalaceStatus')
  wait(10000, function()
    return status():find('last mine (save)', 1, true) ~= nil
  end)
  check(':PalaceStatus shows the status', status():find('last mine (save)', 1, true) ~= nil, status())
  -- Without a model no drawer is pending: nothing would ever embed it.
  check('without a model the status says so, not "pending"', not status():find('embedding: none', 1, true)
    or (status():find('no vectors (no embedding model: searching lexically)', 1, true) ~= nil and not status():find('pending', 1, true)
      and not status():find('`', 1, true)), status())
  if os.getenv('PALACE_TEST_VERBOSE') then
    out(status())
  end
  vim.cmd('PalaceWakeUp')
  wait(10000, function()
    return vim.fn.bufnr('palace://wake-up') ~= -1
  end)
  text = table.concat(vim.fn.getbufline(vim.fn.bufnr('palace://wake-up'), 1, '$'), '\n')
  check(':PalaceWakeUp shows the wake-up text', #text > 0, text)
  -- The same handoff an agent gets at SessionStart: the CLI's text for the wing.
  local cli_wake = vim.fn.system({ bin, '--home', home, 'wake-up', '--wing', 'proj' })
  check(':PalaceWakeUp shows what `palace wake-up --wing proj` prints', vim.v.shell_error == 0
    and text == (cli_wake:gsub('\n+$', '')), 'editor:\n' .. text .. '\ncli:\n' .. cli_wake)
  if os.getenv('PALACE_TEST_VERBOSE') then
    out(text)
  end

  -- :PalaceMap shows the wings (with the folder holding their files), the
  -- rooms and each room's parts (its files here: src is a flat room) with
  -- their sizes; <CR> on a room lists its drawers (palace/map's: nothing
  -- is asked or searched), s searches that room for what is typed.
  local maps = count('PalaceMap')
  vim.cmd('PalaceMap')
  wait(10000, function()
    return maps.value >= 1
  end)
  local mapbuf = vim.fn.bufnr('palace://map')
  local maplines = mapbuf ~= -1 and vim.fn.getbufline(mapbuf, 1, '$') or {}
  text = table.concat(maplines, '\n')
  local srcline, partlines
  for i, l in ipairs(maplines) do
    if l:match('^  src%s+%d+%s+file %d+') then
      srcline = i
    end
  end
  partlines = {}
  for i = (srcline or #maplines) + 1, #maplines do
    if not maplines[i]:match('^    %S') then
      break
    end
    table.insert(partlines, maplines[i])
  end
  check(':PalaceMap shows the wing and its rooms with sizes', text:find('\nproj%s+%d+%s+file %d+') ~= nil and srcline ~= nil
    and text:find('\n  docs%s+1%s+file 1') ~= nil, text)
  check('the map counts in words that agree', text:find('Palace map: 1 wing, 3 rooms, ', 1, true) == 1, maplines[1])
  check("the map's header says both keys", maplines[1]:find('<CR> on a room lists its drawers, s searches it', 1, true) ~= nil, maplines[1])
  check('the wing line ends with its root', text:find('\nproj%s+%d+%s+file %d+[^\n]-  %(' .. vim.pesc(ws) .. '%)\n') ~= nil, text)
  -- The counts' last digits share a column on wing, room and part lines.
  local count_end = function(l)
    local _, e = l:find('^%s*%S+%s+%d+')
    return e
  end
  local aligned = #partlines > 0 and count_end(maplines[srcline]) ~= nil
  for _, l in ipairs(partlines) do
    aligned = aligned and count_end(l) == count_end(maplines[srcline])
  end
  check("the flat room src shows its files as parts, one level deeper, aligned",
    #partlines >= 2 and partlines[1]:match('^    src/%S+%.go%s+%d+%s+go$') ~= nil and table.concat(partlines, '\n'):find('src/upload.go', 1, true) ~= nil
    and table.concat(partlines, '\n'):find('src/checksum.go', 1, true) ~= nil and aligned, text)
  check('the map is a scratch buffer', vim.api.nvim_get_current_buf() == mapbuf and vim.bo.buftype == 'nofile' and not vim.bo.modifiable)
  -- A room holding more files than its parts name counts the rest.
  local more = require('palace.map').lines({ wings = { { name = 'cobra', drawers = 30, kinds = { file = 30 }, root = '/tmp/cobra', rooms = {
    { name = 'general', drawers = 30, kinds = { file = 30 }, parts = { { name = 'command.go', drawers = 12, files = 1, language = 'go' },
      { name = 'doc/', drawers = 9, files = 4, language = 'markdown' } }, rest = 9 } } } } })
  check('a room says how many drawers its parts leave out', more[3]:find('(/tmp/cobra)', 1, true) ~= nil and more[5]:match('^    command%.go%s+12%s+go$') ~= nil
    and more[6]:match('^    doc/%s+9%s+markdown, 4 files$') ~= nil and more[7] == '    +9 more drawers', table.concat(more, '\n'))
  if os.getenv('PALACE_TEST_VERBOSE') then
    out(text)
    out(table.concat(more, '\n'))
  end
  local asked
  vim.ui.input = function(opts, on_confirm)
    asked = opts.prompt
    on_confirm('checksum')
  end
  palace.last_search = nil
  vim.api.nvim_win_set_cursor(0, { srcline or 1, 0 })
  vim.cmd('execute "normal \\<CR>"')
  local listed = panel_text()
  local src_top = {}
  for _, w in ipairs(require('palace.map').last.wings or {}) do
    for _, r in ipairs(w.rooms or {}) do
      if r.name == 'src' then
        src_top = r.top or {}
      end
    end
  end
  check("<CR> on a room lists its drawers without asking anything", asked == nil and palace.last_search == nil and panel.mode == 'room'
    and #src_top >= 2 and #panel.hits == #src_top and listed:match('^Room: proj/src  %(' .. #src_top .. '%)') ~= nil
    and listed:find('src/checksum.go:', 1, true) ~= nil and listed:find('src/upload.go:', 1, true) ~= nil, tostring(asked) .. '\n' .. listed)
  check('the listing puts the cursor on its first drawer', vim.api.nvim_get_current_win() == panel.win and hit_line(1) ~= nil
    and vim.api.nvim_win_get_cursor(panel.win)[1] == hit_line(1))
  local first_hit = panel.hits[1] or {}
  vim.cmd('execute "normal \\<CR>"')
  check("<CR> on a listed drawer opens its file at its lines", first_hit.uri ~= nil
    and vim.api.nvim_buf_get_name(0) == vim.uri_to_fname(first_hit.uri) and vim.api.nvim_win_get_cursor(0)[1] == first_hit.line_start,
    vim.api.nvim_buf_get_name(0) .. ' ' .. vim.inspect(first_hit))
  -- A room holding more than palace/map lists says so.
  require('palace.map').list_room({ wing = 'proj', room = 'src', root = ws, drawers = 9, top = src_top })
  check('a room holding more says the first ones are listed', vim.api.nvim_buf_get_lines(panel.buf, 1, 2, false)[1]
    == string.format('9 drawers in proj/src: the first %d listed; search to find the others (s on the room in the map).', #src_top), panel_text())
  vim.cmd('PalaceMap')
  wait(10000, function()
    return maps.value >= 2
  end)
  mapbuf = vim.fn.bufnr('palace://map')
  if vim.fn.bufwinid(mapbuf) ~= -1 then
    vim.api.nvim_set_current_win(vim.fn.bufwinid(mapbuf))
  end
  vim.api.nvim_win_set_cursor(0, { srcline or 1, 0 })
  vim.cmd('normal s')
  vim.ui.input = input
  wait(10000, function()
    return palace.last_search ~= nil
  end)
  local inroom = palace.last_search and #palace.last_search.hits > 0
  for _, h in ipairs(palace.last_search and palace.last_search.hits or {}) do
    inroom = inroom and h.wing == 'proj' and h.room == 'src'
  end
  check('s on a room asks what to search for there', asked == 'Search proj/src: ', asked)
  check('s on a room searches only that room', inroom, palace.last_search and vim.inspect(palace.last_search.hits))
  check('the panel title shows the scope', vim.api.nvim_buf_get_lines(panel.buf, 0, 1, false)[1]:match('^Search: checksum in proj/src  %(%d+%)$') ~= nil,
    panel_text())

  -- A scoped search that finds nothing names its scope; x in the panel
  -- drops the scope and searches the whole palace.
  palace.last_search = nil
  palace.search('hardware accelerated', { wing = 'proj', room = 'src' })
  wait(10000, function()
    return palace.last_search ~= nil
  end)
  check('an empty scoped search names the scope', palace.last_search and #palace.last_search.hits == 0
    and panel_text():find('Nothing in proj/src matches hardware accelerated. Press x', 1, true) ~= nil, panel_text())
  palace.last_search = nil
  vim.api.nvim_set_current_win(panel.win)
  vim.cmd('normal x')
  wait(10000, function()
    return palace.last_search ~= nil
  end)
  check('x in the panel searches the whole palace', palace.last_search and #palace.last_search.hits >= 1
    and vim.api.nvim_buf_get_lines(panel.buf, 0, 1, false)[1]:match('^Search: hardware accelerated  %(%d+%)$') ~= nil
    and panel_text():find('docs/decisions.md:', 1, true) ~= nil, panel_text())
  local said = {}
  local notify = vim.notify
  vim.notify = function(msg)
    table.insert(said, msg)
  end
  vim.cmd('PalaceScope')
  vim.cmd('PalaceScope clear')
  vim.notify = notify
  check(':PalaceScope says the search covers the whole palace', said[1] == 'Palace: searches cover the whole palace'
    and (said[2] or ''):find('already covers the whole palace', 1, true) ~= nil, vim.inspect(said))

  -- :PalaceGraph shows the facts around an entity, by default the word
  -- under the cursor; an unknown one offers the known entities.
  local added = vim.fn.system({ bin, '--home', home, 'kg', 'add', 'verifyUpload', 'uses', 'computeChecksum', '--from', '2024-01-01' })
  check('the CLI adds a fact', vim.v.shell_error == 0, added)
  local graphs = count('PalaceGraph')
  local graph_text = function()
    local b = vim.fn.bufnr('palace://graph')
    return b ~= -1 and table.concat(vim.fn.getbufline(b, 1, '$'), '\n') or ''
  end
  vim.cmd('edit ' .. ws .. '/src/upload.go')
  vim.api.nvim_win_set_cursor(0, { 7, 12 }) -- computeChecksum
  vim.cmd('PalaceGraph')
  wait(10000, function()
    return graphs.value >= 1
  end)
  check(':PalaceGraph shows the graph of the word under the cursor', graph_text():find('Knowledge graph: computeChecksum', 1, true) == 1
    and graph_text():find('verifyUpload uses computeChecksum  (since 2024-01-01)', 1, true) ~= nil, graph_text())
  local offered
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    offered = { items = items, prompt = opts.prompt }
    on_choice(items[1])
  end
  vim.cmd('PalaceGraph zorgquux')
  wait(10000, function()
    return graphs.value >= 2
  end)
  vim.ui.select = select
  check('an unknown entity offers the known ones', offered and offered.prompt == 'No fact mentions zorgquux; show which entity?'
    and vim.tbl_contains(offered.items, 'verifyUpload') and vim.tbl_contains(offered.items, 'computeChecksum'), vim.inspect(offered))
  check('the chosen entity is shown', graphs.value >= 2 and graph_text():find('verifyUpload uses computeChecksum', 1, true) ~= nil, graph_text())

  -- :help palace works (helptags on a copy: the plugin folder stays clean).
  local doc = tmp .. '/help/doc'
  vim.fn.mkdir(doc, 'p')
  vim.fn.writefile(vim.fn.readfile(plugin .. '/doc/palace.txt'), doc .. '/palace.txt')
  local helped = pcall(function()
    vim.cmd('helptags ' .. vim.fn.fnameescape(doc))
    vim.opt.runtimepath:prepend(tmp .. '/help')
    vim.cmd('help palace')
    vim.cmd('help :PalaceRemember')
  end)
  check(':help palace and the command tags work',
    helped and vim.bo.buftype == 'help' and vim.fn.getline('.'):find('*:PalaceRemember*', 1, true) ~= nil, vim.fn.getline('.'))
  vim.cmd('helpclose')

  -- The server's sentences are markdown: inline code is shown without its
  -- backticks, highlighted instead.
  panel.render('Relevant: x', {}, 'The palace holds no drawers yet: mine this folder first (`palace mine DIR`, or wait).')
  local msg = vim.api.nvim_buf_get_lines(panel.buf, 2, 3, false)[1] or ''
  local code = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(panel.buf, vim.api.nvim_create_namespace('palace_panel'), 0, -1, { details = true })) do
    if m[4].hl_group == 'PalaceCode' then
      table.insert(code, msg:sub(m[3] + 1, m[4].end_col))
    end
  end
  check('a message shows inline code without backticks', msg == 'The palace holds no drawers yet: mine this folder first (palace mine DIR, or wait).'
    and code[1] == 'palace mine DIR', msg .. ' ' .. vim.inspect(code))

  -- Opened before the first mine of a new workspace ends, the panel keeps
  -- up by itself: it says the server is starting, then shows the
  -- definition, without the cursor moving. A palace of its own, so its
  -- first mine starts from nothing.
  local ws2 = tmp .. '/ws2'
  fixture(ws2)
  palace.setup({ cmd = { bin, '--home', tmp .. '/home2', 'serve', '--lsp' }, wing = 'fresh', relevant = { limit = 5 } })
  local ends = {} -- the relevant answers seen when each mine of ws2 ended
  vim.api.nvim_create_autocmd('User', {
    pattern = 'PalaceProgress',
    callback = function()
      local v = palace.last_progress.value
      if v.kind == 'end' and (v.message or ''):find('files mined') then
        table.insert(ends, relevant_n.value)
      end
    end,
  })
  local was_ended = #vim.tbl_filter(function(k)
    return k == 'end'
  end, kinds)
  if panel.is_open() then
    panel.close()
  end
  vim.cmd('only')
  vim.cmd('edit ' .. ws2 .. '/src/upload.go')
  vim.api.nvim_win_set_cursor(0, { 7, 12 }) -- computeChecksum, as above
  relevant_n.value = 0
  local opened_at = uv.hrtime()
  vim.cmd('PalaceRelevant')
  check('opened before its server is up, the panel says it is starting', panel.is_open()
    and panel_text():find('Starting the Palace server', 1, true) ~= nil, panel_text())
  local def2 = ws2 .. '/src/checksum.go'
  local shown = wait(30000, function()
    local r = palace.last_relevant
    return #ends > 0 and r and r.hits[1] and r.hits[1].source == def2 and panel_text():find('src/checksum.go:', 1, true) ~= nil
  end)
  local first_ms = (uv.hrtime() - opened_at) / 1e6
  check('the definition appears without the cursor moving', shown and vim.api.nvim_win_get_cursor(0)[1] == 7
    and panel_text():find('definition of computeChecksum', 1, true) ~= nil, panel_text())
  check('the first mine of the workspace ended meanwhile', #ends >= 1 and #vim.tbl_filter(function(k)
    return k == 'end'
  end, kinds) > was_ended, vim.inspect(ends))
  wait(10000, function()
    return ends[1] and relevant_n.value > ends[1]
  end)
  check('the end of the mine asks again', ends[1] and relevant_n.value > ends[1], vim.inspect({ ends, relevant_n.value }))
  if os.getenv('PALACE_TEST_VERBOSE') then
    out(string.format('measured: first Relevant with the definition %.0f ms after opening the file and the panel', first_ms))
  end

  -- Another writer (the CLI here) adds drawers: palace/changed brings them
  -- into the panel, the cursor still unmoved.
  write('docs/integrity.md', 'computeChecksum guards the zorblatt uploads against torn writes.\n', ws2)
  local before_changed = palace.last_changed and palace.last_changed.drawers or 0
  local mined = vim.fn.system({ bin, '--home', tmp .. '/home2', 'mine', ws2, '--wing', 'fresh', '--no-vectors' })
  check('the CLI mines the new file', vim.v.shell_error == 0, mined)
  local changed_in = wait(10000, function()
    return panel_text():find('zorblatt', 1, true) ~= nil
  end)
  check('palace/changed refreshes the panel', changed_in and palace.last_changed.drawers > before_changed
    and vim.api.nvim_win_get_cursor(0)[1] == 7, panel_text())
  panel.close()

  -- The server ends cleanly when the client stops (a non-zero exit would be
  -- reported in :messages, "Client N quit with exit code ...").
  for _, c in ipairs(palace.clients()) do
    if vim.fn.has('nvim-0.11') == 1 then
      c:stop()
    else
      c.stop()
    end
  end
  check('the server stops when asked', wait(10000, function()
    return #palace.clients() == 0
  end))
  vim.wait(200) -- the exit is reported from a scheduled callback

  -- Nothing went wrong on the way.
  local messages = vim.fn.execute('messages')
  local bad = messages:match('E%d+:[^\n]*') or messages:match('[^\n]*[Ee]rror[^\n]*') or messages:match('[^\n]*deprecated[^\n]*')
    or messages:match('[^\n]*failed[^\n]*') or messages:match('[^\n]*[Ww]arning[^\n]*') or messages:match('[^\n]*quit with[^\n]*')
  check('no errors in :messages', bad == nil, bad)
  check('no deprecated API was called', #deprecated == 0, table.concat(deprecated, ', '))
end

local ok, err = xpcall(main, debug.traceback)
check('the spec ran to its end', ok, err)
if os.getenv('PALACE_TEST_VERBOSE') then
  out('--- :messages\n' .. vim.fn.execute('messages'))
end
out(string.format('%d passed, %d failed', passed, failed))
if failed == 0 then
  vim.cmd('qall!')
else
  vim.cmd('cquit! 1')
end
