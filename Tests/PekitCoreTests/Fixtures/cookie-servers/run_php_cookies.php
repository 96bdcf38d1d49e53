<?php
// The router of `php -S` (PHP 8.2's built-in server): answers each request with $_COOKIE as PHP
// read it from the request's Cookie header, in the canonical form of make_cookie_vectors.py.
function canon($v) {
    if (is_array($v)) {
        if (array_is_list($v)) return array_map('canon', $v);
        $pairs = [];
        foreach ($v as $k => $x) $pairs[] = [canon((string)$k), canon($x)];
        return ['$map' => $pairs];
    }
    if (is_string($v) && !preg_match('//u', $v)) return ['$bytes' => bin2hex($v)];
    return $v;
}
header('Content-Type: application/json');
echo json_encode(canon($_COOKIE), JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
