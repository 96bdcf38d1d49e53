-- expect: work_jsonpath_regex.lua:5: instruction budget exceeded (an endless loop?)
-- sandbox: skip
-- match() runs in linear time, and each of its steps is charged.
local subjects = { ("a"):rep(1000000) }
pekit.json.query(subjects, '$[?match(@, "(a+)+b") || search(@, "(a|aa)*c") || match(@, "(a*)*(a*)*(a*)*(a*)*b")]')
return { kind = "policy" }
