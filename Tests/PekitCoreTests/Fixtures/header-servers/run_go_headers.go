// Serves on the port in os.Args[1] with net/http (Go 1.19): answers with the request's header
// fields as a Go handler sees them, r.Header with its names sorted (make_header_vectors.py); a
// value that is not UTF-8 as {"$bytes": hex}.
package main

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
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
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		names := []string{}
		for k := range r.Header {
			names = append(names, k)
		}
		sort.Strings(names)
		pairs := [][]interface{}{}
		for _, k := range names {
			values := []interface{}{}
			for _, v := range r.Header[k] {
				values = append(values, str(v))
			}
			pairs = append(pairs, []interface{}{k, values})
		}
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.Encode(map[string]interface{}{"$map": pairs})
	})
	http.ListenAndServe("127.0.0.1:"+os.Args[1], nil)
}
