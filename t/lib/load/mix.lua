-- wrk script for t/040-load.t: rotates User-Agents (crawlers, browsers,
-- generic bots) and paths (robots.txt fetches, allowed and disallowed
-- pages) and counts the requests it writes, so that the test can compare
-- the module's counters with what was sent, not only with what completed.
local uas = {
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  "LoadSurveyBot/1.0 (+https://example.com/bot)",
}
local paths = { "/", "/index.html", "/private/x", "/robots.txt",
                "/a.html?q=1", "/private/y?z" }
local n = 0
sent = 0
threads = {}

setup = function(thread)
  table.insert(threads, thread)
end

request = function()
  n = n + 1
  sent = sent + 1
  local ua = uas[(n % #uas) + 1]
  local p = paths[(math.floor(n / #uas) % #paths) + 1]
  return wrk.format("GET", p, { ["User-Agent"] = ua })
end

-- the summary line the tests read, shared with the other load script
done = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "done.lua")
