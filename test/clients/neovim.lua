-- Headless Neovim (0.7+) as an LSP client of the built server: diagnostics,
-- a definition and a hover in the file SKILL_FILE (a SKILL.md, or a file of a
-- skill+ package). Prints one line per result for neovim.test.ts.
local function main()
  local file = os.getenv('SKILL_FILE')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'skillgraph',
    cmd = { 'node', os.getenv('SKILLGRAPH_SERVER'), '--stdio' },
    root_dir = vim.fn.fnamemodify(file, ':h:h'),
  })
  assert(client_id, 'start_client failed')
  vim.lsp.buf_attach_client(bufnr, client_id)
  local ready = vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  io.stdout:write('DIAGNOSTICS ' .. tostring(ready) .. '\n')
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    io.stdout:write(string.format('DIAG %d:%d %d %s %s\n', d.lnum, d.col, d.severity, d.code or '?', d.message))
  end
  local client = vim.lsp.get_client_by_id(client_id)
  local uri = vim.uri_from_bufnr(bufnr)
  local function position(name)
    return { line = tonumber(os.getenv(name .. '_LINE')), character = tonumber(os.getenv(name .. '_CHAR')) }
  end
  local definition = client.request_sync('textDocument/definition', { textDocument = { uri = uri }, position = position('DEFINITION') }, 5000, bufnr)
  for _, location in ipairs(definition and definition.result or {}) do
    local range = location.range
    local target = vim.fn.fnamemodify(vim.uri_to_fname(location.uri), ':t')
    io.stdout:write(string.format('DEFINITION %s %d:%d-%d:%d\n', target, range.start.line, range.start.character, range['end'].line, range['end'].character))
  end
  local hover = client.request_sync('textDocument/hover', { textDocument = { uri = uri }, position = position('HOVER') }, 5000, bufnr)
  local contents = hover and hover.result and hover.result.contents
  io.stdout:write('HOVER ' .. (contents and contents.value or 'nil'):gsub('\n', '\\n') .. '\n')
  client.stop()
  vim.wait(3000, function() return client.is_stopped() end, 20)
  return true
end

local ok, result = xpcall(main, debug.traceback)
if not ok then io.stdout:write('ERROR ' .. tostring(result) .. '\n') end
-- A Lua error would leave headless Neovim waiting forever: always quit.
vim.cmd((ok and result) and 'qall!' or 'cquit 1')
