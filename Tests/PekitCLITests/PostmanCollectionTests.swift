import Foundation
import PekitTestSupport
import XCTest

/// Issue 72 (the Postman slice): `pekit test COLLECTION.json` and `pekit import postman` send what
/// Postman's own curl code generator's command sends for each request of Postman's own
/// collections (Fixtures/postman, made by scripts/postman-fixtures from postman-code-generators
/// and postman-collection at the commits curl.json names), compared as they arrive at a loopback
/// recorder (Tests/Server/postman_bytes.py); the rest of the format (variables and their
/// precedence, auth, scripts, errors) as Postman's documentation and SDK define it.
final class PostmanCollectionTests: XCTestCase {
    static let fixtures = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCLITests/Fixtures")

    private func compare(imported: Bool) throws -> [String: String] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("postman-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/postman_bytes.py").path
        let run = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/python3"),
                                       [script, "--pekit", PekitProcess.binary.path, "--json", output.path] + (imported ? ["--import"] : []))
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: output))
    }

    func testPostmansOwnCollectionsSendWhatItsCurlCodeGeneratorSends() throws {
        let known = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("postman-differences.json")))
        for imported in [false, true] {
            let results = try compare(imported: imported)
            let mode = imported ? "as pekit import postman prints it" : "as the collection"
            XCTAssertEqual(results.count, 52, mode)
            XCTAssertEqual(results.values.filter { $0 == "same" }.count, 51, mode)
            for (name, difference) in results.sorted(by: { $0.key < $1.key }) where difference != "same" && known[name] == nil {
                XCTFail("\(name), \(mode): \(difference)")
            }
            for name in known.keys.sorted() where results[name] == "same" {
                XCTFail("\(name) now sends what the generator's command sends (\(mode)): take it off postman-differences.json")
            }
        }
    }

    /// A collection that uses what the newman corpus does not: variables at every scope, auth
    /// inherited and overridden, path variables, an API key in the query, a translated test
    /// script and one that is not. What the echo server read is the expectation, from Postman's
    /// documented rules: a narrower scope wins (local/--var, then environment, then collection,
    /// then globals: learning.postman.com, "Variables", scopes), a request inherits its folder's
    /// auth, `noauth` stops it, `:name` segments take the URL's variables.
    func testVariablesAuthAndScriptsAsPostmanDefinesThem() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-postman")
        let collection = #"""
        {"info": {"name": "Scopes", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "variable": [{"key": "base", "value": "{{origin}}/echo"}, {"key": "who", "value": "collection"}, {"key": "id", "value": "7"}],
         "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
         "item": [
          {"name": "Folder", "auth": {"type": "basic", "basic": [{"key": "username", "value": "ada"}, {"key": "password", "value": "{{pw}}"}]},
           "item": [
            {"name": "basic from the folder", "request": {"method": "get", "url": {"raw": "{{base}}/users/:id?who={{who}}&flag", "host": ["{{base}}"],
               "path": ["users", ":id"], "query": [{"key": "who", "value": "{{who}}"}, {"key": "flag", "value": null}], "variable": [{"key": "id", "value": "{{id}}"}]},
               "header": [{"key": "X-Env", "value": "{{envonly}}"}, {"key": "X-Off", "value": "1", "disabled": true}]},
             "event": [{"listen": "test", "script": {"exec": ["pm.test(\"ok\", function () {", "    pm.response.to.have.status(200);",
                                                              "    pm.expect(pm.response.json().method).to.eql(\"GET\");", "});"]}}]},
            {"name": "none", "request": {"auth": {"type": "noauth"}, "method": "GET",
               "url": {"raw": "{{base}}/plain", "host": ["{{base}}"], "path": ["plain"], "query": [{"key": "k", "value": "{{global}}"}]}}}
           ]},
          {"name": "bearer from the collection", "request": {"method": "POST", "url": "{{base}}/b",
             "body": {"mode": "urlencoded", "urlencoded": [{"key": "a b", "value": "c d&e"}, {"key": "off", "value": "x", "disabled": true}]}},
           "event": [{"listen": "test", "script": {"exec": ["if (pm.response.code === 200) { console.log('fine'); }"]}}]},
          {"name": "api key", "request": {"auth": {"type": "apikey", "apikey": [{"key": "key", "value": "api_key"}, {"key": "value", "value": "s3"}, {"key": "in", "value": "query"}]},
             "method": "GET", "url": "{{base}}/k"}}
         ]}
        """#
        try Data(collection.utf8).write(to: dir.appendingPathComponent("scopes.postman_collection.json"))
        let environment = #"{"name": "local", "values": [{"key": "who", "value": "environment", "enabled": true}, {"key": "envonly", "value": "E"}, {"key": "token", "value": "T0K"}, {"key": "pw", "value": "off", "enabled": false}]}"#
        try Data(environment.utf8).write(to: dir.appendingPathComponent("local.postman_environment.json"))
        try Data(#"{"values": [{"key": "global", "value": "G"}, {"key": "pw", "value": "secret"}, {"key": "who", "value": "global"}]}"#.utf8)
            .write(to: dir.appendingPathComponent("globals.json"))
        let har = dir.appendingPathComponent("run.har")
        let r = try PekitProcess.run(["test", "--var", "origin=\(server.base)", "--environment", "local.postman_environment.json",
                                      "--globals", "globals.json", "--har", har.path, "scopes.postman_collection.json"], directory: dir)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("4 passed, 0 failed"), r.stdout)
        // The script that is not only checks is named, not run; the other is translated.
        XCTAssertTrue(r.stdout.contains("scopes.postman_collection.json: bearer from the collection: not run: its test script (JavaScript"), r.stdout)
        XCTAssertTrue(r.stdout.contains("scopes.postman_collection.json: Folder / basic from the folder: translated: its test script as expect(r):status(200); expect(r):json(\"$.method\", \"GET\")"), r.stdout)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any])
        let entries = try XCTUnwrap((log["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let echoes = try entries.map { entry -> [String: Any] in
            let text = ((entry["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String ?? "{}"
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        func field(_ echo: [String: Any], _ name: String) -> String? {
            (echo["headers"] as? [[String]])?.first { $0[0].lowercased() == name.lowercased() }?[1]
        }
        XCTAssertEqual(echoes.count, 4)
        // The environment over the collection; a disabled environment value does not hide the globals'.
        XCTAssertEqual(echoes[0]["target"] as? String, "/echo/users/7?who=environment&flag")
        XCTAssertEqual(field(echoes[0], "Authorization"), "Basic " + Data("ada:secret".utf8).base64EncodedString())
        XCTAssertEqual(field(echoes[0], "X-Env"), "E")
        XCTAssertNil(field(echoes[0], "X-Off"))
        XCTAssertEqual(echoes[1]["target"] as? String, "/echo/plain?k=G")
        XCTAssertNil(field(echoes[1], "Authorization"))
        XCTAssertEqual(field(echoes[2], "Authorization"), "Bearer T0K")
        XCTAssertEqual(echoes[2]["body"] as? String, "a%20b=c+d%26e")
        XCTAssertEqual(echoes[3]["target"] as? String, "/echo/k?api_key=s3")
    }

    func testErrorsNameTheFileThePlaceAndTheCause() throws {
        let dir = try makeTemporaryDirectory("pekit-postman-errors")
        func importing(_ text: String) throws -> PekitResult {
            try Data(text.utf8).write(to: dir.appendingPathComponent("c.json"))
            return try PekitProcess.run(["import", "postman", "c.json"], directory: dir)
        }
        // Where Python's json module says: "Expecting property name enclosed in double quotes: line 3 column 3".
        var r = try importing("{\n  \"info\": {\"name\": \"x\",\n  }\n}")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "pekit import: c.json:3:3: not JSON: expected a string key\n")
        r = try importing(#"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "item": []}"#)
        XCTAssertEqual(r.stderr, "pekit import: c.json:1:34: $.info.schema: the collection format https://schema.getpostman.com/json/collection/v1.0.0/collection.json is not read (v2.0.0 and v2.1.0 are: export it from Postman as Collection v2.1)\n")
        r = try importing("{\"info\": {\"name\": \"x\", \"schema\": \"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},\n \"item\": [{\"name\": \"a\", \"request\": {\"url\": \"http://h/\",\n   \"body\": {\"mode\": \"soap\"}}}]}")
        XCTAssertEqual(r.stderr, "pekit import: c.json:3:21: $.item[0].request.body.mode: the body mode 'soap' is not one of raw, urlencoded, formdata, file, graphql\n")
        r = try importing(#"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"}, "item": [{"name": "a", "request": {"url": "http://h/", "auth": {"type": "hawk", "hawk": {"authId": "u"}}}}]}"#)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "pekit import: c.json: $.item[0].request.auth: not sent: hawk auth (pekit sends basic, digest, bearer, API key, AWS Signature v4, OAuth 1.0 and an OAuth 2.0 token)\n")
        // A variable that nothing sets fails its request, naming it and the request's place.
        let t = try PekitProcess.run(["test", "c.json"], directory: dir)
        XCTAssertEqual(t.status, 1)
        XCTAssertTrue(t.stdout.contains("c.json: $.item[0].request.auth: not sent: hawk auth"), t.stdout)
        try Data(#"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "a", "request": {"url": "{{nowhere}}/x"}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("v.json"))
        let v = try PekitProcess.run(["test", "v.json"], directory: dir)
        XCTAssertEqual(v.status, 1)
        XCTAssertTrue(v.stdout.contains("v.json: $.item[0]: the variable {{nowhere}} is not set (--var nowhere=…, --environment FILE, or the collection's variables)"), v.stdout)
    }
}

extension PostmanCollectionTests {
    /// OAuth 1.0 and AWS Signature v4 through pekit's signers, with the collection's fields.
    /// OAuth 1.0's signature is held to Python's oauthlib (Debian's python3-oauthlib) signing
    /// the same request with the same consumer, token, nonce and timestamp.
    func testSignedAuthUsesTheCollectionsFields() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-postman-sign")
        let collection = #"""
        {"info": {"name": "Signed", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [
          {"name": "oauth1", "request": {"method": "GET", "url": "{{origin}}/echo/o?a=1&b=x%20y",
            "auth": {"type": "oauth1", "oauth1": [{"key": "consumerKey", "value": "ck"}, {"key": "consumerSecret", "value": "cs"},
              {"key": "token", "value": "tk"}, {"key": "tokenSecret", "value": "ts"}, {"key": "signatureMethod", "value": "HMAC-SHA1"},
              {"key": "timestamp", "value": "1700000000"}, {"key": "nonce", "value": "abc"}, {"key": "version", "value": "1.0"},
              {"key": "addParamsToHeader", "value": true}]}}},
          {"name": "aws", "request": {"method": "GET", "url": "{{origin}}/echo/a",
            "auth": {"type": "awsv4", "awsv4": [{"key": "accessKey", "value": "AKID"}, {"key": "secretKey", "value": "SECRET"},
              {"key": "region", "value": "eu-west-1"}, {"key": "service", "value": "execute-api"}]}}},
          {"name": "binary", "request": {"method": "PUT", "url": "{{origin}}/echo/f", "body": {"mode": "file", "file": {"src": "payload.bin"}}}},
          {"name": "digest", "request": {"method": "GET", "url": "{{origin}}/digest/SHA-256?qop=auth",
            "auth": {"type": "digest", "digest": [{"key": "username", "value": "ada"}, {"key": "password", "value": "pa:ss w0rd"}]}}}
         ]}
        """#
        try Data(collection.utf8).write(to: dir.appendingPathComponent("signed.json"))
        try Data([0x00, 0xFF, 0x41]).write(to: dir.appendingPathComponent("payload.bin"))
        let har = dir.appendingPathComponent("run.har")
        let r = try PekitProcess.run(["test", "--var", "origin=\(server.base)", "--har", har.path, "signed.json"], directory: dir)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any])
        let entries = try XCTUnwrap((log["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let echoes = try entries.map { entry -> [String: Any] in
            // (The digest's 401 is answered: its body is not kept.)
            let text = ((entry["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String ?? ""
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data((text.isEmpty ? "{}" : text).utf8)) as? [String: Any])
        }
        func field(_ echo: [String: Any], _ name: String) -> String? {
            (echo["headers"] as? [[String]])?.first { $0[0].lowercased() == name.lowercased() }?[1]
        }
        let oauth = try XCTUnwrap(field(echoes[0], "Authorization"))
        let peer = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/python3"), ["-c", """
            from oauthlib.oauth1 import Client
            c = Client('ck', client_secret='cs', resource_owner_key='tk', resource_owner_secret='ts', nonce='abc', timestamp='1700000000')
            print(c.sign('\(server.base)/echo/o?a=1&b=x%20y', 'GET')[1]['Authorization'])
            """])
        XCTAssertEqual(peer.status, 0, peer.stderr)
        func parameters(_ header: String) -> [String: String] {
            var out: [String: String] = [:]
            for part in header.dropFirst(6).split(separator: ",") {
                let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if pair.count == 2 { out[String(pair[0])] = String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            }
            return out
        }
        XCTAssertTrue(oauth.hasPrefix("OAuth "), oauth)
        XCTAssertEqual(parameters(oauth)["oauth_signature"], parameters(peer.stdout.trimmingCharacters(in: .newlines))["oauth_signature"], "\(oauth)\n\(peer.stdout)")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let aws = try XCTUnwrap(field(echoes[1], "Authorization"))
        XCTAssertTrue(aws.hasPrefix("AWS4-HMAC-SHA256 Credential=AKID/\(formatter.string(from: Date()))/eu-west-1/execute-api/aws4_request, SignedHeaders="), aws)
        XCTAssertNotNil(field(echoes[1], "X-Amz-Date"))
        // A binary body from its file, text/plain as the generator's command sends it.
        XCTAssertEqual(field(echoes[2], "Content-Type"), "text/plain")
        XCTAssertEqual(echoes[2]["method"] as? String, "PUT")
        XCTAssertEqual(field(echoes[2], "Content-Length"), "3")
        // Digest answered as the challenge asks (the test server checks it with hashlib).
        XCTAssertEqual(echoes.count, 5)
        XCTAssertEqual(echoes[4]["ok"] as? Bool, true)
    }

    /// Each refusal of the reader and the runner, with its place.
    func testEachRefusalNamesItsPlace() throws {
        let dir = try makeTemporaryDirectory("pekit-postman-refusals")
        let head = #"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": "#
        func importing(_ items: String) throws -> PekitResult {
            try Data((head + items + "}").utf8).write(to: dir.appendingPathComponent("c.json"))
            return try PekitProcess.run(["import", "postman", "c.json"], directory: dir)
        }
        XCTAssertEqual(try importing(#"[{"name": "a"}]"#).stderr, "pekit import: c.json:1:116: $.item[0]: an item with neither request nor item (a request or a folder)\n")
        XCTAssertEqual(try importing(#"[{"name": "a", "request": {"method": "GE T", "url": "http://h/"}}]"#).stderr,
                       "pekit import: c.json:1:152: $.item[0].request.method: 'GE T' is not a method (letters, digits and !#$%&'*+-.^_`|~)\n")
        XCTAssertEqual(try importing(#"{"name": "a"}"#).stderr, "pekit import: c.json:1:115: $.item: expected a list, found an object\n")
        let oauth = try importing(#"[{"name": "a", "request": {"url": "http://h/", "auth": {"type": "oauth1", "oauth1": [{"key": "consumerKey", "value": "k"}]}}}]"#)
        XCTAssertEqual(oauth.stderr, "pekit import: c.json: $.item[0].request.auth: not sent: oauth1 auth with its parameters in the URL or body (pekit signs into the Authorization field: choose \"Request Headers\" in Postman)\n")
        try Data((head + #"[{"name": "a", "request": {"url": "http://h/{{$randomCity}}"}}]}"#).utf8).write(to: dir.appendingPathComponent("d.json"))
        let dynamic = try PekitProcess.run(["test", "d.json"], directory: dir)
        XCTAssertEqual(dynamic.status, 1)
        XCTAssertTrue(dynamic.stdout.contains("d.json: $.item[0]: Postman's dynamic variable {{$randomCity}} is not one pekit makes ($guid, $randomUUID, $timestamp, $isoTimestamp, $randomInt): give it with --var '$randomCity=…'"), dynamic.stdout)
        let missing = try PekitProcess.run(["test", "--environment", "nowhere.json", "d.json"], directory: dir)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "pekit test: --environment: nowhere.json: no such file (see 'pekit test --help')\n")
    }

    /// A request's test is named by its folders, its name and its description's first sentence.
    func testTheDescriptionNamesTheTest() throws {
        let r = try PekitProcess.run(["import", "postman", "basicCollection.json"], directory: Self.fixtures.appendingPathComponent("postman"))
        let names = r.stdout.split(separator: "\n").filter { $0.hasPrefix("test(") }
        XCTAssertEqual(names.count, 14)
        XCTAssertEqual(names[3], #"test("GET Request with disabled query — The HTTP `GET` request method is meant to retrieve data from a server (basicCollection.json $.item[3])", { jar = jar }, function(t)"#)
        XCTAssertTrue(names[0].hasPrefix(#"test("Request Headers (With special Characters) — A `GET` request to this endpoint returns the list of all request headers as par… ("#), String(names[0]))
    }
}
