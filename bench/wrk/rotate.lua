-- Requests taken in turn from a list: PATHS names a file of paths (one a line) for GETs;
-- with BODIES (a file of request bodies, one a line) each request POSTs the next body to
-- the first path instead. With UNIQUE set, each GET gets a query parameter of its own, so
-- no cache can answer it; each body likewise.
local paths, bodies = {}, {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
if os.getenv("BODIES") then
  for line in io.lines(os.getenv("BODIES")) do bodies[#bodies + 1] = line end
end
-- With WORDS (a file of words, one a line), each body gets two of them at its end instead:
-- a paste whose words are new as well, which no memory of earlier words can answer (taken
-- by strides prime to the lists' lengths, no two runs send the same paste).
local words = {}
if os.getenv("WORDS") then
  for line in io.lines(os.getenv("WORDS")) do words[#words + 1] = line end
end
-- Counting from a random start, so that no run repeats an earlier run's URLs or bodies.
math.randomseed(os.time() + math.floor(os.clock() * 1e6))
local i = math.random(1, 2 ^ 30) * 1000
-- Requests that are the same each time round are formatted once: wrk shares the machine's
-- CPUs with the servers, and formatting each anew cost it a tenth of its CPU a request.
-- Formatted in init, which wrk calls once it has set the Host header.
local function post(body)
  return wrk.format("POST", paths[1], {["Content-Type"] = "application/json"}, body)
end
local formatted = {}
init = function(args)
  if os.getenv("UNIQUE") or #words > 0 then return end
  if #bodies > 0 then
    for n, body in ipairs(bodies) do formatted[n] = post(body) end
  else
    for n, path in ipairs(paths) do formatted[n] = wrk.format("GET", path) end
  end
end
request = function()
  i = i + 1
  if #formatted > 0 then return formatted[(i % #formatted) + 1] end
  if #bodies > 0 then
    local body = bodies[(i % #bodies) + 1]
    -- A JSON body {"text": "..."}: a number at the end of the text makes it new, and changes
    -- nothing else (lookups blank out numbers).
    if #words > 0 then
      local n = i % #words  -- first: i times a stride would be past what a double holds exactly
      body = body:sub(1, -3) .. " " .. words[(n * 7919) % #words + 1] .. " " .. words[(n * 104729) % #words + 1] .. '"}'
    elseif os.getenv("UNIQUE") then
      body = body:sub(1, -3) .. " " .. i .. '"}'
    end
    return post(body)
  end
  local path = paths[(i % #paths) + 1]
  if os.getenv("UNIQUE") then
    -- Its own parameter, after the path's query or as the query: an entry's path has none.
    path = path .. (path:find("?", 1, true) and "&" or "?") .. "bench=" .. i
  end
  return wrk.format("GET", path)
end
