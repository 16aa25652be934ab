-- The only init file of the test Neovim: puts this plugin first on the
-- runtimepath. run.sh points XDG_CONFIG_HOME/XDG_DATA_HOME at empty temp
-- folders, so no user config or installed packages load.
local plugin = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
vim.opt.runtimepath:prepend(plugin)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
