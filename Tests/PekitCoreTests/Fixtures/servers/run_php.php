<?php
// Runs parse_str on [{query}] from standard input under the ini limits given with -d; prints the
// canonical results (see make_server_vectors.py).
require __DIR__ . '/../canon.php';
$cases = json_decode(stream_get_contents(STDIN), true);
$out = [];
foreach ($cases as $c) { $r = []; @parse_str($c['query'], $r); $out[] = canon($r); }
echo json_encode($out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
