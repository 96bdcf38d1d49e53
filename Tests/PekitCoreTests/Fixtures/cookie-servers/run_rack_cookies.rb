# Runs Rack::Utils.parse_cookies_header (Rack 2.2, what Rack::Request#cookies calls) on
# [{header_hex}] from standard input; prints the canonical results (see make_cookie_vectors.py).
require 'json'
require 'rack'
require 'rack/utils'

require_relative '../canon'

$VERBOSE = nil
cases = JSON.parse($stdin.read)
out = cases.map do |c|
  header = [c['header_hex']].pack('H*').force_encoding('BINARY')
  begin
    canon(Rack::Utils.parse_cookies_header(header))
  rescue StandardError => e
    { '$error' => e.class.name, 'message' => e.message }
  end
end
print JSON.generate(out)
