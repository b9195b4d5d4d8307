-- 90% lookups by title, 10% updates.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local bench = require("bench")

setup, init, response, done = bench.setup, bench.init, bench.response, bench.done
function request()
  if math.random() < 0.1 then return bench.update() end
  return bench.lookup()
end
