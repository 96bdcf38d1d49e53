// Runs net/url.ParseQuery on [{query}] from standard input; prints the canonical results (see
// make_server_vectors.py). Go's map has no order: keys are sorted.
package main

import (
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"sort"
	"unicode/utf8"
)

func str(s string) interface{} {
	if utf8.ValidString(s) {
		return s
	}
	return map[string]string{"$bytes": hex.EncodeToString([]byte(s))}
}

func main() {
	var cases []struct{ Query string }
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	out := []interface{}{}
	for _, c := range cases {
		values, err := url.ParseQuery(c.Query)
		keys := make([]string, 0, len(values))
		for k := range values {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pairs := [][]interface{}{}
		for _, k := range keys {
			list := []interface{}{}
			for _, v := range values[k] {
				list = append(list, str(v))
			}
			pairs = append(pairs, []interface{}{str(k), list})
		}
		var e interface{}
		if err != nil {
			e = err.Error()
		}
		out = append(out, map[string]interface{}{"values": map[string]interface{}{"$map": pairs}, "error": e})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}
