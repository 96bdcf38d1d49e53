// Reads each [{header_hex}] from standard input as the Cookie field of a request, through
// net/http.ReadRequest and Request.Cookies (Go 1.19's readCookies); prints the canonical results
// (see make_cookie_vectors.py): the cookies in order, as [name, value] pairs.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"unicode/utf8"
)

func str(s string) interface{} {
	if utf8.ValidString(s) {
		return s
	}
	return map[string]string{"$bytes": hex.EncodeToString([]byte(s))}
}

func main() {
	var cases []struct {
		HeaderHex string `json:"header_hex"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	out := []interface{}{}
	for _, c := range cases {
		header, err := hex.DecodeString(c.HeaderHex)
		if err != nil {
			panic(err)
		}
		raw := "GET / HTTP/1.1\r\nHost: x\r\nCookie: " + string(header) + "\r\n\r\n"
		request, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			out = append(out, map[string]interface{}{"$error": "ReadRequest", "message": err.Error()})
			continue
		}
		pairs := []interface{}{}
		for _, cookie := range request.Cookies() {
			pairs = append(pairs, []interface{}{str(cookie.Name), str(cookie.Value)})
		}
		out = append(out, pairs)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}
