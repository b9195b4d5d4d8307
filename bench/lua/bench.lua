-- Shared by every scenario script: arguments, requests, the non-2xx count and the JSON summary.
-- Arguments (after `--` on wrk's command line): the lookup style (`path` or `query`) and a file
-- with the id of each seeded movie, one per line, "Película 1" first.
local bench = {}

local threads = {}
local lookupStyle, ids, run
local created = 0
local json = { ["Content-Type"] = "application/json" }
local sipnosis = "Sinopsis revisada: la familia del barrio sur vuelve a la ciudad despues de un largo verano."

function bench.setup(thread)
  table.insert(threads, thread)
end

function bench.init(args)
  lookupStyle = args[1]
  ids = {}
  for line in io.lines(args[2]) do ids[#ids + 1] = tonumber(line) end
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
  if lookupStyle == "query" then return wrk.format("GET", "/peliculas?titulo=" .. title) end
  return wrk.format("GET", "/peliculas/" .. title)
end

-- GET one of the 100 pages of 100 movies.
function bench.page()
  return wrk.format("GET", "/peliculas?_page=" .. math.random(1, 100) .. "&_limit=100")
end

function bench.list()
  return wrk.format("GET", "/peliculas")
end

-- POST a movie whose title no run or thread has used.
function bench.create()
  created = created + 1
  local body = string.format('{"titulo":"Estreno %s-%d","sipnosis":"%s","duracion":%d,"categoria_id":%d}',
    run, created, sipnosis, math.random(60, 180), math.random(1, 20))
  return wrk.format("POST", "/peliculas", json, body)
end

-- PUT a whole seeded movie back under its own title, with another synopsis length and duration.
function bench.update()
  local n = math.random(1, #ids)
  local body = string.format('{"titulo":"Película %d","sipnosis":"%s","duracion":%d,"categoria_id":%d}',
    n, sipnosis, math.random(60, 180), (n - 1) % 20 + 1)
  return wrk.format("PUT", "/peliculas/" .. ids[n], json, body)
end

return bench
