-- Fetch every page of a paginated API, 10 requests at a time, sending again the ones the server
-- answers 503 (it asks to retry), and keeping to 100 requests a second.
-- Run it with:  scripts/run scripts/examples/crawl.lua   (starts the local demo server)
local base = os.getenv("PEKIT_DEMO_URL") or error("run me with scripts/run, which starts the local demo server")
-- The demo API answers 503 to the first request for every third page of each "run".
local run = string.format("%.6f", pekit.time.now())
local per_page = 10

-- The first page says how many there are.
local first = pekit.http.get(base .. "/api/items", { params = { page = 1, per_page = per_page, run = run }, retry = true }):json()

-- The others at once, at most 10 in flight; the results come back in the order asked.
local list = {}
for page = 2, first.pages do
  list[#list + 1] = { url = base .. "/api/items", params = { page = page, per_page = per_page, run = run } }
end
local pages = pekit.http.all(list, {
  concurrency = 10,
  retry = { attempts = 3, on = { 503 } },  -- Retry-After is honoured
  rate = "100/s",
})

local items, retried, failed = {}, 0, {}
for _, item in ipairs(first.items) do items[#items + 1] = item end
for i, r in ipairs(pages) do
  if r.error then
    failed[#failed + 1] = r.error                        -- a failure stays in its slot
  elseif r.status ~= 200 then
    failed[#failed + 1] = string.format("page %d: %d", i + 1, r.status)
  else
    if r.attempts > 1 then retried = retried + 1 end
    for _, item in ipairs(r:json().items) do items[#items + 1] = item end
  end
end

-- Every id from 1 up, once, in order?
local complete = true
for i, item in ipairs(items) do complete = complete and item.id == i end
print(string.format("%d pages, %d items, ids 1 to %d in order: %s", first.pages, #items, #items, complete))
print(string.format("%d pages answered 503 first and were fetched again; %d failed", retried, #failed))
for _, why in ipairs(failed) do print("  " .. why) end
