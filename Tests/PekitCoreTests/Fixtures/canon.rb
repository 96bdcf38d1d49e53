# The canonical form the fixture generators compare (make_*_vectors.py): a hash as
# {"$map": [[key, value], ...]} in Ruby's order, an array as a list, a string that is not UTF-8 as
# {"$bytes": hex}. Required by the Ruby runners; `file` says how a Rack upload hash is written.
def canon(v, &file)
  case v
  when Hash
    return file.call(v) if file && v.key?(:tempfile)
    { '$map' => v.map { |k, x| [canon(k.to_s, &file), canon(x, &file)] } }
  when Array then v.map { |x| canon(x, &file) }
  when String
    s = v.dup.force_encoding('UTF-8')
    s.valid_encoding? ? s : { '$bytes' => v.unpack1('H*') }
  else v
  end
end
