-- wrk's done() for the load scripts: one "RA-LOAD ..." line with what was
-- sent (counted by each thread's request()) and what wrk completed.
return function(summary, latency, requests)
  local s = 0
  for _, t in ipairs(threads) do
    s = s + t:get("sent")
  end
  local e = summary.errors
  io.write(string.format(
    "RA-LOAD sent=%d completed=%d duration_us=%d connect=%d read=%d "
    .. "write=%d status=%d timeout=%d\n", s, summary.requests,
    summary.duration, e.connect, e.read, e.write, e.status, e.timeout))
end
