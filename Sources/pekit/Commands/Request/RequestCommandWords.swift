/// `pekit request`'s command line as curl reads the words around its options: `-K FILE` /
/// `--config FILE` read in its place (curl's config format; `-K -` reads standard input), and
/// curl's `--next` (`-:`) ending one request's options and URLs, the next starting afresh.
/// - Returns: the words of each request, in order (one list when there is no `--next`).
/// - Throws: `UsageError` for a `-K` without a file; `CommandFailure` for a config file curl
///   would not read (exit 26, as curl).
func requestGroups(_ args: [[UInt8]]) throws -> [[[UInt8]]] {
    let takesValue = RequestOptions.takesValue
    // A long option by its full name or, as curl reads it, any start only one name has.
    let longNames = Array(takesValue.keys.filter { $0.hasPrefix("--") }) + ["--config", "--next"]
    func long(_ name: String) -> String {
        if longNames.contains(name) { return name }
        let starting = longNames.filter { $0.hasPrefix(name) }
        return starting.count == 1 ? starting[0] : name
    }
    var words = args, groups: [[[UInt8]]] = [[]], index = 0, valueNext = false
    func add(_ word: [UInt8]) { groups[groups.count - 1].append(word) }
    while index < words.count {
        let raw = words[index]
        index += 1
        if valueNext { add(raw); valueNext = false; continue }
        let word = String(decoding: raw, as: UTF8.self)
        if word == "--" {
            words[(index - 1)...].forEach(add)
            break
        }
        guard word.hasPrefix("-"), word != "-" else { add(raw); continue }
        let name = word.hasPrefix("--") ? long(String(word.split(separator: "=", maxSplits: 1)[0])) : String(word.prefix(2))
        if name == "--config" || name == "-K" {
            let attached = word.hasPrefix("--") ? (word.contains("=") ? String(word.drop { $0 != "=" }.dropFirst()) : nil)
                : (word.count > 2 ? String(word.dropFirst(2)) : nil)
            guard let path = attached ?? (index < words.count ? String(decoding: words[index], as: UTF8.self) : nil) else {
                throw UsageError(command: "request", message: "option '\(word)' needs a file (curl's config file)")
            }
            if attached == nil { index += 1 }
            words.insert(contentsOf: try curlConfigWords(path, takesValue: takesValue, depth: 0, command: "request"), at: index)
            continue
        }
        if name == "--next" || name == "-:" {
            if !groups[groups.count - 1].isEmpty { groups.append([]) }
            continue
        }
        if word.hasPrefix("--") {
            valueNext = takesValue[name] == true && !word.contains("=")
        } else {
            // Bundled short flags (-sSL, -XPOST): the first that takes a value takes the rest of
            // the word, or the next word when it ends the bundle.
            let letters = Array(word.dropFirst())
            if let at = letters.firstIndex(where: { takesValue["-\($0)"] == true }) { valueNext = at == letters.count - 1 }
        }
        add(raw)
    }
    return groups.last?.isEmpty == true && groups.count > 1 ? Array(groups.dropLast()) : groups
}

/// Several requests of one command (curl's --next), each in turn: a failure is reported and
/// the rest are still sent; the exit status is the last one's, as curl's.
/// - Parameter extra: words every request gets after its own.
func runInTurn(_ requests: [[[UInt8]]], extra: [[UInt8]] = []) throws -> Int32 {
    var status: Int32 = 0
    for request in requests {
        do { status = try runRequest(request + extra, built: nil) } catch let error as CommandFailure where requests.count > 1 {
            if !error.isQuiet { Output.stderr.line(error.message) }
            status = error.status
        } catch let error as UsageError where requests.count > 1 {
            Output.stderr.line("pekit request: \(error.message)")
            status = 2
        }
    }
    return status
}
