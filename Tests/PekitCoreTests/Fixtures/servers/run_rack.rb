# Runs Rack::Utils.parse_nested_query (Rack 2.2) on [{query, options}] from standard input; prints
# the canonical results (see make_server_vectors.py).
require 'json'
require 'rack'
require 'rack/query_parser'
require 'rack/utils'

require_relative '../canon'

$VERBOSE = nil
cases = JSON.parse($stdin.read)
out = cases.map do |c|
  o = c['options']
  parser = Rack::QueryParser.new(Rack::QueryParser::Params, o.fetch('key_space_limit', 65536),
                                 o.fetch('param_depth_limit', 100),
                                 bytesize_limit: o.fetch('bytesize_limit', 4194304), params_limit: o.fetch('params_limit', 4096))
  begin
    canon(parser.parse_nested_query(c['query'], o['separators']))
  rescue StandardError => e
    { '$error' => e.class.name, 'message' => e.message }
  end
end
$stderr.reopen(File::NULL)
print JSON.generate(out, max_nesting: false)
