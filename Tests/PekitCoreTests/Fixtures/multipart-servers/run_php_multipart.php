<?php
// The router of `php -S` (PHP 8.2's built-in server): answers each request with $_POST and
// $_FILES as PHP read them from its multipart/form-data body (each file's tmp_name, a random
// path, replaced by its content), in the canonical form of make_multipart_vectors.py.
require __DIR__ . '/../canon.php';
function contents($files, $temporary = false) {
    foreach ($files as $k => $v) {
        $inside = $temporary || $k === 'tmp_name';
        if (is_array($v)) { $files[$k] = contents($v, $inside); continue; }
        if ($inside) { $files[$k] = $v === '' ? '' : file_get_contents($v); }
    }
    return $files;
}
header('Content-Type: application/json');
echo json_encode(['$map' => [['post', canon($_POST)], ['files', canon(contents($_FILES))]]], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
