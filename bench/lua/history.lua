-- One movie's history (GET /cambios?recurso=peliculas&clave=N), N picked at random among the keys
-- bench/changes.ts gave changes to. Argument (after `--`): how many keys there are.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local bench = require("bench")

setup, response, done = bench.setup, bench.response, bench.done
local keys

function init(args)
  keys = tonumber(args[1])
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 1000003)
  non2xx = 0 -- a global: bench.done() reads it from each thread
end

function request()
  return wrk.format("GET", "/cambios?recurso=peliculas&clave=" .. math.random(1, keys))
end
