<?php
// The router of `php -S` (PHP 8.2's built-in server): answers each request with $_COOKIE as PHP
// read it from the request's Cookie header, in the canonical form of make_cookie_vectors.py.
require __DIR__ . '/../canon.php';
header('Content-Type: application/json');
echo json_encode(canon($_COOKIE), JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
