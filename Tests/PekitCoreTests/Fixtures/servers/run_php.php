<?php
// Runs parse_str on [{query}] from standard input under the ini limits given with -d; prints the
// canonical results (see make_server_vectors.py).
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
$cases = json_decode(stream_get_contents(STDIN), true);
$out = [];
foreach ($cases as $c) { $r = []; @parse_str($c['query'], $r); $out[] = canon($r); }
echo json_encode($out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
