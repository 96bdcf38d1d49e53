# Serves a Rack app on WEBrick (Rack 2.2's handler, what `rackup` starts by default) on the port in
# ARGV[0]: answers with the request's header fields as a Rack app sees them, the HTTP_* entries of
# its env in order (make_header_vectors.py); a value that is not UTF-8 as {"$bytes": hex}.
require 'json'
require 'rack'
require 'rack/handler/webrick'
def canon(v)
  s = v.dup.force_encoding('UTF-8')
  s.valid_encoding? ? s : { '$bytes' => v.unpack1('H*') }
end
app = lambda do |env|
  pairs = env.select { |k, _| k.start_with?('HTTP_') }.map { |k, v| [k, canon(v)] }
  [200, { 'Content-Type' => 'application/json' }, [JSON.generate({ '$map' => pairs })]]
end
Rack::Handler::WEBrick.run(app, Host: '127.0.0.1', Port: ARGV[0].to_i, AccessLog: [], Logger: WEBrick::Log.new(File::NULL))
