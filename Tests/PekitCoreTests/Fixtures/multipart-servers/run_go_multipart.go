// Reads each [{content_type, body_hex}] from standard input as the body of a POST request,
// through net/http.ReadRequest and Request.ParseMultipartForm (Go 1.19); prints the canonical
// results (see make_multipart_vectors.py): the values and the files by name (names sorted: Go's
// maps have no order), each file {filename, header, size, content}; an error as {"$error"}.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
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
		ContentType string `json:"content_type"`
		BodyHex     string `json:"body_hex"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	out := []interface{}{}
	for _, c := range cases {
		body, err := hex.DecodeString(c.BodyHex)
		if err != nil {
			panic(err)
		}
		raw := "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: " + c.ContentType + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + string(body)
		request, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			out = append(out, map[string]interface{}{"$error": "ReadRequest", "message": err.Error()})
			continue
		}
		if err := request.ParseMultipartForm(32 << 20); err != nil {
			out = append(out, map[string]interface{}{"$error": "ParseMultipartForm", "message": err.Error()})
			continue
		}
		form := request.MultipartForm
		names := []string{}
		for k := range form.Value {
			names = append(names, k)
		}
		sort.Strings(names)
		values := [][]interface{}{}
		for _, k := range names {
			list := []interface{}{}
			for _, v := range form.Value[k] {
				list = append(list, str(v))
			}
			values = append(values, []interface{}{str(k), list})
		}
		names = names[:0]
		for k := range form.File {
			names = append(names, k)
		}
		sort.Strings(names)
		files := [][]interface{}{}
		for _, k := range names {
			list := []interface{}{}
			for _, f := range form.File[k] {
				opened, err := f.Open()
				if err != nil {
					panic(err)
				}
				content, _ := io.ReadAll(opened)
				opened.Close()
				list = append(list, map[string]interface{}{"$map": [][]interface{}{{"filename", str(f.Filename)},
					{"content_type", str(f.Header.Get("Content-Type"))}, {"size", f.Size}, {"content", str(string(content))}}})
			}
			files = append(files, []interface{}{str(k), list})
		}
		out = append(out, map[string]interface{}{"$map": [][]interface{}{{"values", map[string]interface{}{"$map": values}},
			{"files", map[string]interface{}{"$map": files}}}})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}
