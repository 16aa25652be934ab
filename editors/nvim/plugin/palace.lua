-- Commands only: lua/palace is loaded on first use, so installing the plugin
-- costs nothing at startup. Buffers are attached once setup() has run (a
-- command runs it with the defaults when the user config did not).
if vim.g.loaded_palace then
  return
end
vim.g.loaded_palace = 1

local function palace()
  local p = require('palace')
  if not p._setup then
    p.setup()
  end
  return p
end

local command = vim.api.nvim_create_user_command

command('PalaceRelevant', function()
  palace().toggle_relevant()
end, { desc = 'Palace: toggle the panel of drawers relevant to the cursor' })

command('PalaceSearch', function(o)
  palace().search(o.args)
end, { nargs = '+', desc = 'Palace: search, results in the panel and the quickfix list' })

command('PalaceRemember', function(o)
  palace().remember(o.line1, o.line2, o.args)
end, { range = true, nargs = '?', desc = 'Palace: remember the lines of the range, in room [arg] (asked when missing)' })

command('PalaceForget', function(o)
  palace().forget(o.args)
end, { nargs = '?', desc = 'Palace: forget a drawer by id (default: the panel line under the cursor)' })

command('PalaceStatus', function()
  palace().status()
end, { desc = 'Palace: show the status of the palace and the server' })

command('PalaceWakeUp', function()
  palace().wake_up()
end, { desc = 'Palace: show the wake-up context in a scratch buffer' })

command('PalaceMap', function(o)
  palace()
  require('palace.map').open(o.args)
end, { nargs = '?', desc = 'Palace: the wings and rooms with their sizes in a scratch buffer; <CR> on a room searches it' })

command('PalaceScope', function(o)
  if o.args == 'clear' then
    palace().clear_scope()
    return
  end
  local s = palace().search_scope
  vim.notify('Palace: searches cover ' .. ((s and s.name) or 'the whole palace'), vim.log.levels.INFO)
end, { nargs = '?', complete = function()
  return { 'clear' }
end, desc = 'Palace: the scope of the last search; "clear" searches the whole palace again' })

command('PalaceGraph', function(o)
  palace().graph(o.args)
end, { nargs = '?', desc = 'Palace: the knowledge graph around [entity] (default: the word under the cursor) in a scratch buffer' })
