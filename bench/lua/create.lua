-- Create movies with titles never used before.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local bench = require("bench")

setup, init, response, done = bench.setup, bench.init, bench.response, bench.done
request = bench.create
