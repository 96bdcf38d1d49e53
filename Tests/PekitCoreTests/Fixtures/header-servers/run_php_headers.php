<?php
// The router of `php -S` (PHP 8.2's built-in server): answers with the request's header fields as
// PHP's program sees them, the HTTP_* entries of $_SERVER in order (make_header_vectors.py); a
// value that is not UTF-8 as {"$bytes": hex}.
function canon($v) { return preg_match('//u', $v) ? $v : ['$bytes' => bin2hex($v)]; }
$pairs = [];
foreach ($_SERVER as $k => $v) if (strncmp($k, 'HTTP_', 5) === 0) $pairs[] = [$k, canon($v)];
header('Content-Type: application/json');
echo json_encode(['$map' => $pairs], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
