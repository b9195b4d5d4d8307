-- What's on: GET one of the URLs in the file given after the four dialect arguments (bench/whatsOn.ts), at random,
-- taking gzip as browsers, calendar apps and search engines do.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
local bench = require("bench")

local urls = {}
setup, response, done = bench.setup, bench.response, bench.done
function init(args)
  bench.init(args)
  for line in io.lines(args[7]) do urls[#urls + 1] = line end
end
function request()
  return wrk.format("GET", urls[math.random(1, #urls)], { ["Accept-Encoding"] = "gzip" })
end
