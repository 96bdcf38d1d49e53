<?php
// The canonical form the fixture generators compare (make_*_vectors.py): a list as a list, any
// other array as {"$map": [[key, value], ...]} in PHP's order, a string that is not UTF-8 as
// {"$bytes": hex}. Included by the PHP runners.
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
