# Runs Rack::Multipart.parse_multipart (Rack 2.2, what Rack::Request#POST calls for a multipart
# body) on [{content_type, body_hex}] from standard input; prints the canonical results (see
# make_multipart_vectors.py): a file is {"$file": {filename, type, name, head, content}}.
require 'json'
require 'rack'
require 'rack/multipart'
require 'rack/mock'

require_relative '../canon'

# A Rack upload hash as {"$file": {filename, type, name, head, content}}.
FILE = lambda do |v|
  v[:tempfile].rewind
  { '$file' => { '$map' => [['filename', canon(v[:filename])], ['type', canon(v[:type])], ['name', canon(v[:name])],
                              ['head', canon(v[:head])], ['content', canon(v[:tempfile].read)]] } }
end

$VERBOSE = nil
cases = JSON.parse($stdin.read)
out = cases.map do |c|
  body = [c['body_hex']].pack('H*')
  env = Rack::MockRequest.env_for('/', method: 'POST', input: body, 'CONTENT_TYPE' => c['content_type'])
  begin
    canon(Rack::Multipart.parse_multipart(env), &FILE)
  rescue StandardError => e
    { '$error' => e.class.name, 'message' => e.message }
  end
end
print JSON.generate(out)
