-- Palace for Neovim: runs `palace serve --lsp` as a language client for file
-- buffers and shows what the palace holds (server/lsp/README.md).
--
-- Supports Neovim 0.7.2 (Debian's) and newer. Every API that changed between
-- versions is chosen by feature test, so 0.11+ sees no deprecated call.
local panel = require('palace.panel')

local M = {}

local uv = vim.uv or vim.loop -- vim.uv arrived in 0.10, vim.loop is deprecated there
local has08 = vim.fn.has('nvim-0.8') == 1
local has011 = vim.fn.has('nvim-0.11') == 1

local defaults = {
  cmd = { 'palace', 'serve', '--lsp' },
  filetypes = nil, -- nil: every file buffer
  root_markers = { '.git', 'palace.yaml' },
  wing = nil, -- the wing of the workspace folder (server default: palace.yaml's, else the folder's name)
  mine_on_save = true,
  init_options = {}, -- more initializationOptions: hover, wings, vectors, relevantMode, ...
  relevant = { auto = true, limit = 10, width = 60, debounce = 300 },
  search = { limit = 20 },
  progress = true, -- show $/progress of mines in the command line
}

M.config = vim.deepcopy(defaults)
-- M.last_index, last_progress, last_changed, last_relevant, last_search,
-- last_remember and last_forget hold the last notifications and answers, for statuslines and
-- tests: User autocommands carry them as data only from 0.8 on.
local started = {} -- root -> client id, for 0.7 (vim.lsp.start finds clients itself on 0.8+)
local progress_titles = {} -- token -> title of a running mine
local follow = { timer = nil, force = false } -- the panel's debounce: one timer, restarted by each move

-- The relevant panel is open: mines and changes refresh it.
local function showing()
  return panel.mode == 'relevant' and panel.is_open()
end

-- ... and follows the cursor (relevant.auto).
local function following()
  return M.config.relevant.auto and showing()
end

-- Asks palace/relevant once things have been quiet for ms (default: the
-- relevant.debounce option), so a burst of cursor moves or of palace/changed
-- costs one question. A forced ask stays forced when a move restarts the wait.
function M.refresh_soon(force, ms)
  follow.force = follow.force or force == true
  if not follow.timer then
    follow.timer = uv.new_timer()
  end
  follow.timer:stop()
  follow.timer:start(ms or M.config.relevant.debounce, 0, vim.schedule_wrap(function()
    local f = follow.force
    follow.force = false
    if showing() then
      M.refresh_relevant(f)
    end
  end))
end

-- 0.11 made client methods colon calls and deprecated the dot form.
local function call(client, method, ...)
  if has011 then
    return client[method](client, ...)
  end
  return client[method](...)
end

-- User autocommands let statuslines and tests follow the server; `data` only
-- exists from 0.8 on.
local function fire(pattern, data)
  local opts = { pattern = pattern, modeline = false }
  if has08 then
    opts.data = data
  end
  vim.api.nvim_exec_autocmds('User', opts)
end

function M.clients()
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'palace' }) or vim.lsp.get_active_clients()
  return vim.tbl_filter(function(c)
    return c.name == 'palace'
  end, all)
end

-- The client attached to bufnr, else any Palace client.
function M.client(bufnr)
  local clients = M.clients()
  for _, c in ipairs(clients) do
    if vim.lsp.buf_is_attached(bufnr or 0, c.id) then
      return c
    end
  end
  return clients[1]
end

-- The working directory as a root, unless it is the home directory or /:
-- a server there would mine every file the user has.
local function cwd_root()
  local cwd = vim.fn.getcwd()
  if cwd == '/' or cwd == vim.fn.expand('~') then
    return nil
  end
  return cwd
end

-- The workspace root of a buffer: the nearest folder holding a root marker,
-- else the working directory. Walked by hand because vim.fs is 0.8+.
function M.root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr or 0)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or nil
  while dir do
    for _, marker in ipairs(M.config.root_markers) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    dir = parent ~= dir and parent or nil
  end
  return cwd_root()
end

local function on_progress(result)
  local v = type(result) == 'table' and result.value
  if type(v) ~= 'table' then
    return
  end
  M.last_progress = result
  local title = progress_titles[result.token] or v.title or 'Palace'
  if M.config.progress then
    if v.kind == 'begin' then
      progress_titles[result.token] = v.title
      vim.api.nvim_echo({ { title .. (v.message and (' (' .. v.message .. ')') or '') } }, false, {})
    elseif v.kind == 'report' then
      vim.api.nvim_echo({ { string.format('%s: %s (%d%%)', title, v.message or '', v.percentage or 0) } }, false, {})
    elseif v.kind == 'end' then
      -- The end goes through vim.notify so it stays in :messages (or in a notifier plugin).
      vim.notify(title .. ': ' .. (v.message or 'done'), vim.log.levels.INFO)
    end
  end
  if v.kind == 'end' then
    progress_titles[result.token] = nil
  end
  fire('PalaceProgress', result)
  -- A mine ended (the first one included): the answer on screen may have
  -- been made from a half-mined palace, so ask again now.
  if v.kind == 'end' and showing() then
    M.refresh_relevant(true)
  end
end

local handlers = {
  ['$/progress'] = function(err, result, ctx, config)
    -- Keep the built-in handler: it feeds LspProgress / statusline plugins.
    local default = vim.lsp.handlers['$/progress']
    if default then
      default(err, result, ctx, config)
    end
    on_progress(result)
  end,
  ['palace/didIndex'] = function(_, result)
    M.last_index = result
    fire('PalaceDidIndex', result)
    -- The file on screen may hold new drawers: show them.
    if panel.mode == 'relevant' and panel.is_open() then
      M.refresh_relevant(true)
    end
  end,
  -- {drawers, at}: someone (a mine, the CLI, an agent) wrote the palace.
  -- It names no files, so a change of the drawer count stands for "the
  -- drawers under the open file may have changed"; writes that keep the
  -- count (vectors filled, access times) would only ask the same question
  -- again. Debounced: a mine sends one every 500 ms.
  ['palace/changed'] = function(_, result)
    local before = M.last_changed
    M.last_changed = result
    fire('PalaceChanged', result)
    if type(result) == 'table' and (before == nil or before.drawers ~= result.drawers) and showing() then
      M.refresh_soon(true)
    end
  end,
}

local function client_config(root)
  local init = vim.tbl_extend('force', { mineOnSave = M.config.mine_on_save, wing = M.config.wing }, M.config.init_options or {})
  return {
    name = 'palace',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } },
    init_options = init,
    handlers = handlers,
    -- A panel opened before the server was up shows the file once it is.
    -- (refresh_relevant asks for the code window's buffer, whichever attached.)
    on_attach = function()
      if showing() then
        M.refresh_relevant(true)
      end
    end,
  }
end

-- One client per root. Not vim.lsp.start's default test: on 0.10 it compares
-- root_dir with the workspace folders' names, and ours is the folder's base
-- name (the server titles its progress with it), so every buffer would start
-- a server.
local function same_root(client, config)
  return client.name == config.name and client.config.root_dir == config.root_dir
end

local function covers(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  -- Unnamed buffers and URL-like ones (palace://, fugitive://) are no files.
  if name == '' or name:match('^%a[%w+.-]*://') then
    return false
  end
  local fts = M.config.filetypes
  return fts == nil or vim.tbl_contains(fts, vim.bo[bufnr].filetype)
end

-- Starts (or reuses) the client of the buffer's root and attaches it.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not covers(bufnr) then
    return
  end
  for _, c in ipairs(M.clients()) do
    if vim.lsp.buf_is_attached(bufnr, c.id) then
      return c.id
    end
  end
  local root = M.root(bufnr)
  if not root then
    return
  end
  if vim.lsp.start then
    return vim.lsp.start(client_config(root), { bufnr = bufnr, reuse_client = same_root })
  end
  local id = started[root]
  if not (id and vim.lsp.get_client_by_id(id)) then
    id = vim.lsp.start_client(client_config(root))
    started[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

-- A client for commands run where no file is attached: the working directory's.
local function start_detached()
  local root = cwd_root()
  if not root then
    return nil
  end
  local id
  if has011 then
    id = vim.lsp.start(client_config(root), { attach = false, reuse_client = same_root })
  else
    id = started[root]
    if not (id and vim.lsp.get_client_by_id(id)) then
      id = vim.lsp.start_client(client_config(root)) -- not deprecated before 0.11
      started[root] = id
    end
  end
  return id and vim.lsp.get_client_by_id(id)
end

-- Sends a palace/* request for bufnr's client; cb gets the result. Errors are
-- reported once, here, unless on_err takes them (an answer the caller can
-- turn into a choice, as :PalaceGraph does with an unknown entity).
function M.request(method, params, cb, bufnr, on_err)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if not M._setup then
    M.setup()
  end
  local client = M.client(bufnr) or start_detached()
  if not client then
    vim.notify('Palace: no server: open a file of a workspace (a folder with .git or palace.yaml), or :cd into one',
      vim.log.levels.WARN)
    return
  end
  call(client, 'request', method, params, function(err, result)
    if err and on_err then
      on_err(err)
    elseif err then
      vim.notify(string.format('Palace: %s failed: %s', method, err.message or vim.inspect(err)), vim.log.levels.WARN)
    elseif cb then
      cb(result)
    end
  end, bufnr)
end

-- The window whose cursor the panel follows: the current one, unless that
-- is the panel itself.
local function code_window()
  local win = vim.api.nvim_get_current_win()
  if win == panel.win and panel.src_win and vim.api.nvim_win_is_valid(panel.src_win) then
    return panel.src_win
  end
  return win
end

local relevant_seq, relevant_key = 0, nil

-- Asks palace/relevant at the cursor and shows the hits in the panel. Unless
-- forced, nothing is asked when the cursor has not moved since the last ask.
function M.refresh_relevant(force)
  local win = code_window()
  local buf = vim.api.nvim_win_get_buf(win)
  local client = M.client(buf)
  if buf == panel.buf then
    return
  end
  -- (Newer versions list a client before its initialize answer; it would
  -- refuse requests until then.)
  if not client or not client.initialized or not vim.lsp.buf_is_attached(buf, client.id) then
    -- Not the last file's answer next to this one: say what is awaited
    -- (on_attach asks once the server is up).
    relevant_key = nil
    if covers(buf) and M.root(buf) then
      panel.render('Relevant', {}, 'Starting the Palace server for this workspace: the panel fills in by itself.')
    elseif panel.title == '' then
      panel.render('Relevant', {}, 'No Palace server for this buffer: one starts for a file of a workspace (a folder with .git or palace.yaml).')
    end
    return
  end
  local params = vim.lsp.util.make_position_params(win, client.offset_encoding)
  local key = table.concat({ buf, params.position.line, params.position.character, vim.api.nvim_buf_get_changedtick(buf) }, ':')
  if key == relevant_key and not force then
    return
  end
  relevant_key = key
  params.limit = M.config.relevant.limit
  params.visibleRange = {
    start = { line = vim.fn.line('w0', win) - 1, character = 0 },
    ['end'] = { line = vim.fn.line('w$', win), character = 0 },
  }
  relevant_seq = relevant_seq + 1
  local seq = relevant_seq
  panel.src_win = win
  M.request('palace/relevant', params, function(res)
    if seq ~= relevant_seq or panel.mode ~= 'relevant' then
      return -- an answer overtaken by a newer question
    end
    -- about names the identifier, function or place the hits are for
    -- (servers before it: the identifier, else the query).
    local what = res.about
    if not what or what == '' then
      what = (res.clues and res.clues.identifier ~= '' and res.clues.identifier) or res.query or ''
    end
    -- note: what under the cursor was skipped as noise (an error
    -- variable, a receiver, a package line ...), shown under the title.
    panel.render('Relevant: ' .. what, res.hits or {}, res.empty, res.note)
    M.last_relevant = res
    fire('PalaceRelevant', res)
  end, buf)
end

function M.toggle_relevant()
  if panel.is_open() and panel.mode == 'relevant' then
    panel.close()
    return
  end
  panel.mode = 'relevant'
  panel.open(M.config.relevant.width)
  M.refresh_relevant(true)
end

-- "proj/src", "proj", or nil for the whole palace.
local function scope_name(filters)
  if not filters.wing then
    return nil
  end
  return filters.room and (filters.wing .. '/' .. filters.room) or filters.wing
end

-- Searches for query, within filters.wing and filters.room when given
-- (:PalaceMap searches a room so). A scope is shown in the panel's title
-- ("in proj/src"), named when nothing matches, and cleared by x in the
-- panel or :PalaceScope clear, which search the whole palace again: a
-- scope never hides matches without saying so.
function M.search(query, filters)
  if not query or vim.trim(query) == '' then
    vim.notify('Palace: :PalaceSearch needs a query', vim.log.levels.WARN)
    return
  end
  filters = filters or {}
  local scope = scope_name(filters)
  local title = scope and string.format('%s in %s', query, scope) or query
  M.request('palace/search', { query = query, limit = M.config.search.limit, wing = filters.wing, room = filters.room }, function(res)
    local items = {}
    for _, h in ipairs(res.hits or {}) do
      local text = string.format('[%s/%s] %s', h.wing, h.room, (panel.unmark(panel.one_line(h.snippet or h.content or ''))))
      if h.uri and h.range then
        table.insert(items, { filename = vim.uri_to_fname(h.uri), lnum = h.range.start.line + 1, end_lnum = h.line_end, text = text })
      else
        table.insert(items, { text = h.id .. ' ' .. h.citation .. ' ' .. text, valid = 0 })
      end
    end
    vim.fn.setqflist({}, ' ', { title = 'Palace: ' .. title, items = items })
    panel.mode = 'search'
    panel.open(M.config.relevant.width)
    M.last_search = res
    M.search_scope = { query = query, wing = filters.wing, room = filters.room, name = scope }
    local empty = 'Nothing in the palace matches ' .. query .. '.'
    if scope then
      empty = string.format('Nothing in %s matches %s. Press x (or :PalaceScope clear) to search the whole palace.', scope, query)
    end
    panel.render('Search: ' .. title, res.hits or {}, empty)
    fire('PalaceSearch', res)
  end)
end

-- Drops the scope of the last search and runs it again over the whole
-- palace (x in the panel, :PalaceScope clear).
function M.clear_scope()
  local s = M.search_scope
  if not (s and s.name) then
    vim.notify('Palace: the search has no scope: it already covers the whole palace', vim.log.levels.INFO)
    return
  end
  M.search(s.query)
end

-- The fact's dates: "since 2020-01-01", "2020-01-01 to 2023-06-01", or
-- "always" (null and missing dates are both "open").
local function interval(f)
  local from = type(f.validFrom) == 'string' and f.validFrom:sub(1, 10) or nil
  local to = type(f.validTo) == 'string' and f.validTo:sub(1, 10) or nil
  if from and to then
    return from .. ' to ' .. to
  elseif from then
    return 'since ' .. from
  elseif to then
    return 'until ' .. to
  end
  return 'always'
end

-- palace/graph's answer as text: the entity, then each fact around it.
function M.graph_lines(g)
  local facts = g.facts or {}
  local lines = { string.format('Knowledge graph: %s  (%d fact%s within two hops)', g.entity or '?', #facts, #facts == 1 and '' or 's'), '' }
  for _, f in ipairs(facts) do
    table.insert(lines, string.format('%s %s %s  (%s%s)', f.subject, f.predicate, f.object, interval(f), f.current and '' or ', ended'))
  end
  if #facts == 0 then
    table.insert(lines, 'No fact mentions it.')
  end
  return lines
end

-- Shows the knowledge graph around entity (default: the word under the
-- cursor) in a scratch buffer. An entity no fact mentions is no dead end:
-- the user picks among the graph's most connected entities (palace/map's).
function M.graph(entity)
  if not entity or vim.trim(entity) == '' then
    entity = vim.fn.expand('<cword>')
  end
  entity = vim.trim(entity)
  local function show(name, on_err)
    M.request('palace/graph', { entity = name }, function(g)
      M.last_graph = g
      panel.scratch('palace://graph', M.graph_lines(g))
      fire('PalaceGraph', g)
    end, nil, on_err)
  end
  local function choose(why)
    M.request('palace/map', vim.empty_dict(), function(res)
      local names = {}
      for _, e in ipairs((res.map or {}).entities or {}) do
        table.insert(names, e.name)
      end
      if #names == 0 then
        vim.notify(string.format('Palace: %s; the knowledge graph holds no entities yet (palace kg add SUBJECT PREDICATE OBJECT)', why),
          vim.log.levels.INFO)
        return
      end
      vim.ui.select(names, { prompt = why .. '; show which entity?' }, function(name)
        if name then
          show(name)
        end
      end)
    end)
  end
  if entity == '' then
    return choose('No word under the cursor')
  end
  -- -32602 (invalid params) is the server's "no fact mentions it"; any
  -- other error is reported as usual.
  show(entity, function(err)
    if err.code == -32602 then
      return choose(string.format('No fact mentions %s', entity))
    end
    vim.notify('Palace: palace/graph failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.WARN)
  end)
end

-- Remembers lines line1..line2 of the current buffer. The text is sent from
-- the buffer (unsaved edits included), with the uri and range so the note
-- cites path:lines. Without a room the user is asked.
function M.remember(line1, line2, room)
  local buf = vim.api.nvim_get_current_buf()
  local lines = vim.api.nvim_buf_get_lines(buf, line1 - 1, line2, false)
  local function send(r)
    local params = { text = table.concat(lines, '\n'), wing = M.config.wing }
    if vim.bo[buf].buftype == '' and vim.api.nvim_buf_get_name(buf) ~= '' then
      params.uri = vim.uri_from_bufnr(buf)
      params.range = { start = { line = line1 - 1, character = 0 }, ['end'] = { line = line2, character = 0 } }
    end
    if r ~= '' then
      params.room = r
    end
    M.request('palace/remember', params, function(res)
      if res.added then
        vim.notify(string.format('Palace: remembered %s in %s/%s', res.id, res.wing, res.room), vim.log.levels.INFO)
      else
        vim.notify('Palace: not remembered: ' .. (res.reason or 'a duplicate'), vim.log.levels.INFO)
      end
      M.last_remember = res
      fire('PalaceRemember', res)
    end, buf)
  end
  if room and room ~= '' then
    return send(room)
  end
  -- The prompt is prefilled, so <Esc> (nil) cancels on every version; 0.7's
  -- vim.ui.input also answers nil for an empty line.
  vim.ui.input({ prompt = 'Palace room: ', default = M._last_room or 'notes' }, function(r)
    if r then
      M._last_room = r
      send(vim.trim(r))
    end
  end)
end

function M.forget(id)
  if not id or id == '' then
    local h = panel.hit_at_cursor()
    id = h and h.id
  end
  if not id then
    vim.notify('Palace: :PalaceForget needs a drawer id (or a panel line)', vim.log.levels.WARN)
    return
  end
  M.request('palace/forget', { id = id }, function(res)
    vim.notify(string.format('Palace: %s %s', res.id, res.deleted and 'forgotten' or (res.already_deleted and 'was already forgotten; nothing changed' or 'not forgotten')), vim.log.levels.INFO)
    panel.drop(res.id)
    M.last_forget = res
    fire('PalaceForget', res)
  end)
end

function M.status()
  M.request('palace/status', vim.empty_dict(), function(res)
    panel.scratch('palace://status', panel.status_lines(res))
  end)
end

function M.wake_up()
  M.request('palace/wakeUp', vim.empty_dict(), function(res)
    local text = (res.text or '') ~= '' and res.text or '(nothing to wake up with yet: the palace is empty or nothing fits the budget)'
    panel.scratch('palace://wake-up', vim.split(text, '\n', { plain = true }))
  end)
end

function M.show_drawer(id, win)
  M.request('palace/drawer', { id = id }, function(d)
    local lines = {
      string.format('%s  %s/%s  %s', d.id, d.wing, d.room, d.kind),
      d.citation,
      '',
    }
    vim.list_extend(lines, vim.split(d.content or '', '\n', { plain = true }))
    panel.scratch('palace://drawer/' .. d.id, lines, win)
  end)
end

-- A file is opened by its path relative to the working directory (when it
-- is below it), so its buffer is named as the user's own :edit would name it.
panel.on_open = function(h, win)
  if h.uri and h.range then
    vim.api.nvim_set_current_win(win)
    vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.fnamemodify(vim.uri_to_fname(h.uri), ':.')))
    vim.api.nvim_win_set_cursor(win, { h.range.start.line + 1, 0 })
  else
    M.show_drawer(h.id, win)
  end
end

panel.on_clear = function()
  M.clear_scope()
end

function M.setup(opts)
  opts = opts or {}
  -- Not tbl_deep_extend: it would merge lists index by index, so
  -- root_markers = { 'go.mod' } would keep 'palace.yaml'.
  M.config = vim.tbl_extend('force', vim.deepcopy(defaults), opts)
  M.config.relevant = vim.tbl_extend('force', defaults.relevant, opts.relevant or {})
  M.config.search = vim.tbl_extend('force', defaults.search, opts.search or {})
  M._setup = true
  local group = vim.api.nvim_create_augroup('palace', { clear = true })
  -- FileType as well, because with `filetypes` set the type may be known
  -- only after BufReadPost; attach() ignores buffers already attached.
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile', 'FileType' }, {
    group = group,
    callback = function(ev)
      M.attach(ev.buf)
    end,
  })
  -- The panel follows the cursor a debounce after it stops, not on
  -- CursorHold: 'updatetime' is 4 s by default and is shared with swap
  -- files and other plugins. BufEnter: another buffer in the code window.
  vim.api.nvim_create_autocmd({ 'CursorMoved', 'BufEnter' }, {
    group = group,
    callback = function()
      if following() then
        M.refresh_soon(false)
      end
    end,
  })
  -- Buffers loaded before setup (lazy loading) are covered too.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      M.attach(b)
    end
  end
end

return M
