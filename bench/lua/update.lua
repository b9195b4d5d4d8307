-- Update a random seeded movie by id (PUT, or the target's update method; a full valid body).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local bench = require("bench")

setup, init, response, done = bench.setup, bench.init, bench.response, bench.done
request = bench.update
