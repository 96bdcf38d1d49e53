extension MultipartBody {
    /// The type curl 7.88 gives a file part it is not told the type of, from the file's name
    /// (tool_formparse.c's table), else application/octet-stream: what `-F name=@file` sends,
    /// and what a Postman collection's file field sends through Postman's curl code generator.
    package static func curlGuessedType(ofFile path: String) -> String {
        let guessed = ["gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "svg": "image/svg+xml",
                       "txt": "text/plain", "htm": "text/html", "html": "text/html", "pdf": "application/pdf", "xml": "application/xml"]
        let base = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = base.lastIndex(of: ".") else { return "application/octet-stream" }
        return guessed[base[base.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
