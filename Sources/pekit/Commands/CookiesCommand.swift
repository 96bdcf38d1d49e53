import PekitCore
import PekitLua

let cookiesCommand = Command(
    name: "cookies",
    summary: "a cookie jar file: receive Set-Cookie headers, get the Cookie header, list, explain, delete",
    help: """
    usage: pekit cookies receive JAR URL SET-COOKIE...
           pekit cookies header  JAR URL
           pekit cookies list    JAR [URL]
           pekit cookies explain JAR URL
           pekit cookies delete  JAR URL [NAME]
       options: [--filter NAME]... [--now SECONDS] [--plugins DIR]

    JAR is a cookie file: Netscape cookies.txt (as curl -c writes it), or JSON when it ends in
    .json. It is created when missing and rewritten atomically (session cookies included, so a
    jar carries a session across commands). Cookies follow RFC 6265 with the public suffix list.

      receive   store each Set-Cookie value as received from URL; prints what was stored or why not
      header    print the Cookie header to send to URL (nothing when no cookie matches)
      list      print the cookies (those sent to URL, when given)
      explain   for each cookie, whether it is sent to URL and why
      delete    delete the cookies sent to URL (only NAME, when given); prints how many

    options:
      --filter NAME   a cookie-filter plugin (rfc6265, host-contains, deny, httpdns, or your own);
                      repeat to stack them
      --now SECONDS   the clock, in seconds since 1970, to replay old traffic
      --plugins DIR   search DIR for plugins first
      -h, --help      show this help
    """,
    run: runCookies
)

/// The command is written in Lua against pekit.cookies, so the CLI and scripts share one surface.
private let cookiesScript = #"""
-- Arguments: the number of filters, the filters, the clock ("" for the system's), the action,
-- the jar file, the URL (absent for "list" without one), and the rest.
local args = { ... }
local nfilters = tonumber(args[1])
local filters = { table.unpack(args, 2, 1 + nfilters) }
local now = tonumber(args[nfilters + 2])
local action, jarPath, url = args[nfilters + 3], args[nfilters + 4], args[nfilters + 5]
local rest = { table.unpack(args, nfilters + 6) }
local options = { filter = #filters > 0 and filters or nil, now = now }
local jar = pekit.cookies.jar(options)
local f = io.open(jarPath, "rb")
if f then
  f:close()
  local _, warnings = jar:load(jarPath)
  for _, w in ipairs(warnings) do io.stderr:write("pekit cookies: warning: ", w, "\n") end
end
local function describe(c)
  local flags = {}
  if c.host_only then flags[#flags + 1] = "host-only" end
  if c.secure then flags[#flags + 1] = "Secure" end
  if c.http_only then flags[#flags + 1] = "HttpOnly" end
  if c.same_site then flags[#flags + 1] = "SameSite=" .. c.same_site end
  if c.partitioned then flags[#flags + 1] = "Partitioned" end
  flags[#flags + 1] = c.expires and ("expires " .. os.date("!%Y-%m-%dT%H:%M:%SZ", math.floor(c.expires))) or "session"
  return ("%s=%s  domain=%s path=%s  %s"):format(c.name, c.value, c.domain, c.path, table.concat(flags, " "))
end
if action == "receive" then
  if #rest == 0 then error("pekit cookies receive: give at least one Set-Cookie value", 0) end
  local result = jar:receive(url, rest)
  for _, c in ipairs(result.stored) do print("stored   " .. describe(c)) end
  for _, r in ipairs(result.rejected) do print("rejected " .. r.name .. ": " .. r.reason) end
  if result.removed > 0 then print("removed  " .. result.removed .. " (expired)") end
  jar:save(jarPath, { sessions = true })
elseif action == "header" then
  local h = jar:header(url)
  if h then print(h) end
elseif action == "list" then
  for _, c in ipairs(url and jar:cookies(url) or jar:all()) do print(describe(c)) end
elseif action == "explain" then
  for _, v in ipairs(jar:explain(url)) do
    print(("%-8s %s=%s  %s"):format(v.sent and "sent" or "not sent", v.cookie.name, v.cookie.value, v.reason))
  end
elseif action == "delete" then
  print(jar:delete(url, rest[1]))
  jar:save(jarPath, { sessions = true })
end
"""#

private func runCookies(_ args: [String]) throws -> Int32 {
    let parsed = try Arguments(args, command: "cookies", options: [
        .init(name: "filter", short: nil, takesValue: true), .init(name: "now", short: nil, takesValue: true),
        pluginsOption, .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(cookiesCommand.help); return 0 }
    let words = parsed.positionals
    guard let action = words.first else { throw UsageError(command: "cookies", message: "give an action: receive, header, list, explain or delete") }
    let limits: [String: (least: Int, most: Int)] = ["receive": (4, Int.max), "header": (3, 3), "list": (2, 3), "explain": (3, 3), "delete": (3, 4)]
    guard let (least, most) = limits[action] else {
        throw UsageError(command: "cookies", message: "unknown action '\(action)' (receive, header, list, explain, delete)")
    }
    guard words.count >= least else {
        let what = ["receive": "JAR URL SET-COOKIE...", "list": "JAR [URL]", "delete": "JAR URL [NAME]"][action] ?? "JAR URL"
        throw UsageError(command: "cookies", message: "\(action) needs \(what)")
    }
    guard words.count <= most else { throw UsageError(command: "cookies", message: "too many arguments for \(action)") }
    if let now = parsed.value("now"), Double(now) == nil {
        throw UsageError(command: "cookies", message: "--now takes seconds since 1970, not '\(now)'")
    }
    if words.count >= 3 {
        do { _ = try RequestURL(words[2]) } catch { throw CommandFailure(message: "pekit cookies: \(error)") }
    }
    let runtime = try makeRuntime(extraPluginDirectories: parsed.all("plugins"))
    let filters = parsed.all("filter")
    let arguments = [String(filters.count)] + filters + [parsed.value("now") ?? ""] + words
    return runLua { try runtime.runChunk(Array(cookiesScript.utf8), name: "=pekit cookies", arguments: arguments) }
}
