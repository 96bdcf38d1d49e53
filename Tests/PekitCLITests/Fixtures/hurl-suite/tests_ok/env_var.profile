HURL_name=Bob
