"""What the section_N scripts share: where things are, and running a benchmark that prints its
figures as the last JSON line of its output."""
import json, os, subprocess
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
tools = os.path.join(root, "scripts", "bench-tools")
release = os.path.join(root, ".build", "release")

def row(cmd):
    """Runs cmd and returns the last line of its output that is a JSON object, parsed."""
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
