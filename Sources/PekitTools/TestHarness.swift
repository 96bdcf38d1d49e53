import PekitLua
/// The Lua side of `pekit test` (TestRunner runs it): `test`, `before_each`, `after_each`, `skip` and `expect` as
/// globals, and the loop that runs one file's tests (hooks, a fresh jar a test, captured
/// output, failures with the line they come from). Trusted code, run once a file in the file's
/// own runtime; what it reports is read by `TestRunner.run`.
///
/// The Lua is in `Sources/PekitLua/Lua/test_harness.lua` (read, linted and diffed as Lua), compiled into
/// the module as bytes (SwiftPM's `embedInCode`): no file is read at run time.
let testHarnessSource = String(decoding: PackageResources.test_harness_lua, as: UTF8.self)

