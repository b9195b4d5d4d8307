-- A page of 100 movies (?_page=N&_limit=100, N from 1 to 100).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local bench = require("bench")

setup, init, response, done = bench.setup, bench.init, bench.response, bench.done
request = bench.page
