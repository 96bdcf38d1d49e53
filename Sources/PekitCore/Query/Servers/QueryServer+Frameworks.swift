/// The web frameworks people name instead of the parser they run: each reads a query with one of
/// the models, under the options it sets. `--server rails` is `rack`; `django` is `python` with
/// blank values kept.
extension QueryServer {
    /// A framework, the model whose parser it runs, the options it runs it with, and where
    /// that is written.
    public struct Framework: Sendable {
        /// The name `--server` and `server =` take (lower case).
        public let name: String
        /// The model's name (`QueryServer.models`).
        public let model: String
        /// The model's options as the framework sets them.
        public let options: [(name: String, value: PekitValue)]
        /// Why: the framework's code that calls the parser.
        public let source: String
    }

    /// Every framework name taken, in the order help lists them.
    public static let frameworks: [Framework] = [
        Framework(name: "rails", model: "rack", options: [],
                  source: "Rails: ActionDispatch::Request#query_parameters calls Rack::Utils.parse_nested_query"),
        Framework(name: "sinatra", model: "rack", options: [], source: "Sinatra: params are Rack::Request#params"),
        Framework(name: "laravel", model: "php", options: [], source: "Laravel: Illuminate\\Http\\Request reads PHP's $_GET, made by parse_str"),
        Framework(name: "symfony", model: "php", options: [], source: "Symfony: Request::createFromGlobals reads PHP's $_GET"),
        Framework(name: "express", model: "qs", options: [], source: "Express 4: the default \"query parser\" setting, \"extended\", is qs.parse"),
        Framework(name: "django", model: "python", options: [("keep_blank_values", .boolean(true))],
                  source: "Django: QueryDict uses limited_parse_qsl(keep_blank_values=True)"),
        Framework(name: "flask", model: "python", options: [("keep_blank_values", .boolean(true))],
                  source: "Flask (Werkzeug): url_decode keeps blank values, as parse_qsl(keep_blank_values=True)"),
        Framework(name: "fastapi", model: "python", options: [("keep_blank_values", .boolean(true))],
                  source: "FastAPI (Starlette): parse_qsl(query, keep_blank_values=True)"),
    ]

    /// The framework called `name` (any case), or nil.
    public static func framework(named name: String) -> Framework? {
        let lower = name.lowercased()
        return frameworks.first { $0.name == lower }
    }
}
