-- Neovim's built-in LSP client (0.7+) on `mcpdeps lsp`: open the files, wait for the
-- diagnostics to settle, ask one hover and one definition, write what it received as JSON.
-- Driven by tests/test_lsp_neovim.py through environment variables.
local env = vim.env
local root, out = env.MCPDEPS_ROOT, env.MCPDEPS_OUT
local expected = tonumber(env.MCPDEPS_EXPECTED)
local result = { diagnostics = {}, hover = nil, definition = nil, error = nil }

-- Remember which files got diagnostics at all (an empty list counts).
local published = {}
local default_publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
  published[params.uri] = true
  return default_publish(err, params, ctx, config)
end

local client_id = vim.lsp.start_client({
  name = "mcpdeps",
  cmd = { env.MCPDEPS_PYTHON, "-m", "mcpdeps", "lsp" },
  root_dir = root,
  init_options = { debounceMs = 20 },
})

local buffers = {}
for _, file in ipairs(vim.split(env.MCPDEPS_FILES, ",", { plain = true })) do
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. file))
  buffers[file] = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buffers[file], client_id)
end

local function received()
  local all = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(all, {
      file = vim.api.nvim_buf_get_name(d.bufnr),
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, lsp = lsp,
    })
  end
  return all
end

-- Settled: every open file published, the expected count, unchanged for a second.
local last, stable_since = -1, vim.loop.now()
vim.wait(90000, function()
  for _, buf in pairs(buffers) do
    if not published[vim.uri_from_bufnr(buf)] then return false end
  end
  local n = #received()
  if n ~= last then last, stable_since = n, vim.loop.now() end
  return n == expected and vim.loop.now() - stable_since > 1000
end, 100)
result.diagnostics = received()

local function ask(method, file, line, character)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buffers[file]) },
    position = { line = line, character = character },
  }
  local replies = vim.lsp.buf_request_sync(buffers[file], method, params, 20000)
  for _, reply in pairs(replies or {}) do
    if reply.error then result.error = reply.error end
    return reply.result
  end
end

local h = vim.split(env.MCPDEPS_HOVER, ":", { plain = true })
result.hover = ask("textDocument/hover", h[1], tonumber(h[2]), tonumber(h[3]))
local g = vim.split(env.MCPDEPS_DEFINITION, ":", { plain = true })
result.definition = ask("textDocument/definition", g[1], tonumber(g[2]), tonumber(g[3]))

local f = io.open(out, "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd("qa!")
