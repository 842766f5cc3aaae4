-- Headless Neovim (0.7+) as an LSP client of the built server. The docs/editors.md recipe, loaded before this file,
-- starts the server when SKILL_FILE (a SKILL.md, or a file of a skill+ package) is opened; with
-- SKILLGRAPH_INIT_OPTIONS (JSON) this file starts a client by hand with those init_options instead, as a user
-- writing their own configuration would. It prints the diagnostics, a definition and a hover where the
-- DEFINITION_* and HOVER_* variables say, then, with SKILLGRAPH_SETTINGS (JSON), sets the client's settings and
-- notifies them as docs/editors.md says to, and prints the diagnostics that follow. Last, the warnings and errors of
-- Neovim's LSP log. One line per result, for neovim.test.ts.
local function print_diagnostics(bufnr, prefix)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    io.stdout:write(string.format('%s %d:%d %d %s %s\n', prefix, d.lnum, d.col, d.severity, d.code or '?', d.message))
  end
end

local function diagnostics_text(bufnr)
  return vim.inspect(vim.tbl_map(function(d) return { d.lnum, d.col, d.severity, d.message } end, vim.diagnostic.get(bufnr)))
end

local function main()
  local file = os.getenv('SKILL_FILE')
  local init_options = os.getenv('SKILLGRAPH_INIT_OPTIONS')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  if init_options then
    local client_id = vim.lsp.start_client({
      name = 'skillgraph',
      cmd = { 'skillgraph-server', '--stdio' },
      root_dir = vim.fn.fnamemodify(file, ':h:h'),
      init_options = vim.fn.json_decode(init_options),
    })
    assert(client_id, 'start_client failed')
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
  local client
  vim.wait(15000, function()
    for _, candidate in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if candidate.name == 'skillgraph' then client = candidate end
    end
    return client ~= nil
  end, 20)
  assert(client, 'no skillgraph client attached to ' .. file)
  local ready = vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  io.stdout:write('DIAGNOSTICS ' .. tostring(ready) .. '\n')
  print_diagnostics(bufnr, 'DIAG')
  local uri = vim.uri_from_bufnr(bufnr)
  local function position(name)
    return { line = tonumber(os.getenv(name .. '_LINE')), character = tonumber(os.getenv(name .. '_CHAR')) }
  end
  if os.getenv('DEFINITION_LINE') then
    local definition = client.request_sync('textDocument/definition', { textDocument = { uri = uri }, position = position('DEFINITION') }, 5000, bufnr)
    for _, location in ipairs(definition and definition.result or {}) do
      local range = location.range
      local target = vim.fn.fnamemodify(vim.uri_to_fname(location.uri), ':t')
      io.stdout:write(string.format('DEFINITION %s %d:%d-%d:%d\n', target, range.start.line, range.start.character, range['end'].line, range['end'].character))
    end
  end
  if os.getenv('HOVER_LINE') then
    local hover = client.request_sync('textDocument/hover', { textDocument = { uri = uri }, position = position('HOVER') }, 5000, bufnr)
    local contents = hover and hover.result and hover.result.contents
    io.stdout:write('HOVER ' .. (contents and contents.value or 'nil'):gsub('\n', '\\n') .. '\n')
  end
  local settings = os.getenv('SKILLGRAPH_SETTINGS')
  if settings then
    local before = diagnostics_text(bufnr)
    client.config.settings = vim.fn.json_decode(settings)
    client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
    local changed = vim.wait(15000, function() return diagnostics_text(bufnr) ~= before end, 20)
    io.stdout:write('CHANGED ' .. tostring(changed) .. '\n')
    print_diagnostics(bufnr, 'AFTER')
  end
  client.stop()
  vim.wait(3000, function() return client.is_stopped() end, 20)
  if vim.fn.filereadable(vim.lsp.get_log_path()) == 1 then
    for line in io.lines(vim.lsp.get_log_path()) do
      if line:match('^%[WARN%]') or line:match('^%[ERROR%]') then io.stdout:write('LSPLOG ' .. line .. '\n') end
    end
  end
  return true
end

-- SKILLGRAPH_ATTACH_FILES (one per line): open each and print whether the recipe gave it a skillgraph client. The
-- recipe decides while the file opens (it starts or attaches a client, or does not): that call is the event waited
-- on, recorded by wrapping the two functions it calls. A file it attached is then waited for until its client is
-- running, with a long ceiling (a loaded machine starts the server slowly); one it did not attach has no event.
local function attach_files(files)
  local attaching = {}
  local function record(bufnr) attaching[(bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr] = true end
  if vim.lsp.start then
    local start = vim.lsp.start
    vim.lsp.start = function(config, opts) record(opts and opts.bufnr); return start(config, opts) end
  end
  local attach = vim.lsp.buf_attach_client
  vim.lsp.buf_attach_client = function(bufnr, client_id) record(bufnr); return attach(bufnr, client_id) end
  for file in files:gmatch('[^\n]+') do
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local bufnr = vim.api.nvim_get_current_buf()
    local attached = attaching[bufnr] == true and vim.wait(60000, function()
      for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
        if client.name == 'skillgraph' then return true end
      end
      return false
    end, 20)
    io.stdout:write(string.format('ATTACHED %s %s\n', file, tostring(attached)))
  end
  return true
end

local files = os.getenv('SKILLGRAPH_ATTACH_FILES')
local ok, result = xpcall(files and function() return attach_files(files) end or main, debug.traceback)
if not ok then io.stdout:write('ERROR ' .. tostring(result) .. '\n') end
-- A Lua error would leave headless Neovim waiting forever: always quit.
vim.cmd((ok and result) and 'qall!' or 'cquit 1')
