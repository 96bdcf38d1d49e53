/// Lua code the host runs once at start-up, with the full standard library, before any user
/// code: the value markers (`pekit.null`, `ordered`, `set`, `array`), the pretty printer, and the
/// sandbox environment builder. Trusted code; it captures what it needs so that user code
/// changing globals later cannot affect it.
///
/// The Lua is in `Sources/PekitLua/Lua/prelude.lua` (read, linted and diffed as Lua), compiled into
/// the module as bytes (SwiftPM's `embedInCode`): no file is read at run time.
let preludeSource = String(decoding: PackageResources.prelude_lua, as: UTF8.self)

