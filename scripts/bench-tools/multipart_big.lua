-- Streams a multipart body with a large file part to a file; prints the bytes and the rate.
local path, out = arg[1], arg[2]
local req = pekit.request{ method = "POST", url = "http://upload.example/", multipart = {
  { name = "note", value = "big upload" }, { name = "file", path = path, type = "application/octet-stream" } } }
local t = os.clock()
local written = req:write_body(out)
local elapsed = os.clock() - t
print(string.format('{"bytes":%d,"content_length":%s,"mbps":%.0f}', written, req.headers["content-length"], written / 1e6 / elapsed))
