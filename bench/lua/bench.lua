-- Shared by every scenario script: arguments, requests, the non-2xx count and the JSON summary.
-- Arguments (after `--` on wrk's command line): the target's dialect (see Dialect in bench/targets.ts),
-- that is the lookup URL with `{titulo}` for the title, the page URL with `{page}` (1 to 100) or
-- `{offset}` (0 to 9,900), and the name of the category field in bodies; then a file with the id of
-- each seeded movie, one per line, "Película 1" first; then the rest of the dialect: what comes before
-- `/peliculas` in the URLs of the full list, creates and updates, and the method of an update. Those
-- two are cartelera's (nothing, and PUT) when not given: bench/changes.ts and bench/scaling.ts load
-- cartelera only, and pass the first four.
local bench = {}

local threads = {}
local lookupBefore, lookupAfter, pageBefore, pageAfter, pageByOffset, categoryField, ids, movies, updateMethod, run
local created = 0
local json = { ["Content-Type"] = "application/json" }
local sipnosis = "Sinopsis revisada: la familia del barrio sur vuelve a la ciudad despues de un largo verano."

function bench.setup(thread)
  table.insert(threads, thread)
end

-- A template cut around its placeholder once, so that each request is a plain concatenation.
local function around(template, placeholder)
  local at = template:find(placeholder, 1, true)
  if at == nil then return nil end
  return template:sub(1, at - 1), template:sub(at + #placeholder)
end

function bench.init(args)
  lookupBefore, lookupAfter = around(args[1], "{titulo}")
  if lookupBefore == nil then error("the lookup URL has no {titulo}: " .. args[1]) end
  pageBefore, pageAfter = around(args[2], "{page}")
  pageByOffset = pageBefore == nil
  if pageByOffset then pageBefore, pageAfter = around(args[2], "{offset}") end
  if pageBefore == nil then error("the page URL has neither {page} nor {offset}: " .. args[2]) end
  categoryField = args[3]
  ids = {}
  for line in io.lines(args[4]) do ids[#ids + 1] = tonumber(line) end
  movies = (args[5] or "") .. "/peliculas"
  updateMethod = args[6] or "PUT"
  -- wrk does not seed, and a table's address tells threads apart.
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 1000003)
  run = string.format("%x%04x", os.time(), math.random(0, 0xffff))
  non2xx = 0 -- a global: done() reads it from each thread
end

function bench.response(status)
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
end

-- One line of JSON on stdout, read by bench/wrk.ts: latencies in microseconds, and wrk's own CPU
-- seconds (os.clock() counts every thread of the process), to tell when wrk was the limit.
function bench.done(summary, latency)
  local count = 0
  for _, thread in ipairs(threads) do count = count + thread:get("non2xx") end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"non2xx":%d,"socket_errors":%d,"timeouts":%d,"p50_us":%d,"p99_us":%d,"cpu_s":%.3f}\n',
    summary.requests, summary.duration, summary.bytes, count,
    e.connect + e.read + e.write, e.timeout, latency:percentile(50), latency:percentile(99), os.clock()))
end

-- GET one movie by a title picked at random among the seeded ones.
function bench.lookup()
  local title = "Pel%C3%ADcula%20" .. math.random(1, #ids)
  return wrk.format("GET", lookupBefore .. title .. lookupAfter)
end

-- GET one of the 100 pages of 100 movies.
function bench.page()
  local n = math.random(1, 100)
  return wrk.format("GET", pageBefore .. (pageByOffset and (n - 1) * 100 or n) .. pageAfter)
end

function bench.list()
  return wrk.format("GET", movies)
end

-- POST a movie whose title no run or thread has used.
function bench.create()
  created = created + 1
  local body = string.format('{"titulo":"Estreno %s-%d","sipnosis":"%s","duracion":%d,"%s":%d}',
    run, created, sipnosis, math.random(60, 180), categoryField, math.random(1, 20))
  return wrk.format("POST", movies, json, body)
end

-- PUT (or the target's update method) a whole seeded movie back under its own title, with another
-- synopsis length and duration.
function bench.update()
  local n = math.random(1, #ids)
  local body = string.format('{"titulo":"Película %d","sipnosis":"%s","duracion":%d,"%s":%d}',
    n, sipnosis, math.random(60, 180), categoryField, (n - 1) % 20 + 1)
  return wrk.format(updateMethod, movies .. "/" .. ids[n], json, body)
end

return bench
