-- wrk script for t/041-faults.t: every request carries a Host and a
-- crawler-like User-Agent never seen before ("FloodT<thread>R<round>N<n>Bot";
-- RA_FLOOD_ROUND tells one run of wrk from the next),
-- and one in four names one of the server block's 200 names, so that
-- sites and crawler records churn through a small zone.
tid = 0         -- set per thread by setup()
local counter = 0
threads = {}

setup = function(thread)
  counter = counter + 1
  thread:set("tid", counter)
  table.insert(threads, thread)
end

local n = 0
local round = os.getenv("RA_FLOOD_ROUND") or "0"
sent = 0
request = function()
  n = n + 1
  sent = sent + 1
  local host
  if n % 4 == 0 then
    host = string.format("s%d.test", n % 200 + 1)
  else
    host = string.format("h%dr%sn%d.flood.test", tid, round, n)
  end
  local ua = string.format("Mozilla/5.0 (compatible; FloodT%dR%sN%dBot/1.0; "
                           .. "+https://example.com/bot)", tid, round, n)
  local path = (n % 3 == 0) and "/private/x" or "/index.html"
  return wrk.format("GET", path, { ["Host"] = host, ["User-Agent"] = ua })
end

-- the summary line the tests read, shared with the other load script
done = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "done.lua")
