-- A page of 100 movies, one of the first 100 pages (?_page=N&_limit=100, or the target's own spelling).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local bench = require("bench")

setup, init, response, done = bench.setup, bench.init, bench.response, bench.done
request = bench.page
