"""What the section_N scripts share: where things are, and running a benchmark that prints its
figures as the last JSON line of its output."""
import json, os, shutil, socket, subprocess, time
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
tools = os.path.join(root, "scripts", "bench-tools")
release = os.path.join(root, ".build", "release")

def row(cmd):
    """Runs cmd and returns the last line of its output that is a JSON object, parsed."""
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads([l for l in out.splitlines() if l.startswith("{")][-1])

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def start_nginx(work, locations="", cpu=None):
    """nginx on loopback in `work` (a server that costs almost nothing, so a figure against it is
    the client's): `/ok` answers "ok\\n", and `locations` adds more; its worker on core `cpu`
    where one is given. Returns (process, port) once it answers."""
    nginx_bin = shutil.which("nginx") or "/usr/sbin/nginx"
    os.chmod(work, 0o755)  # nginx's workers run as nobody when started by root
    port = free_port()
    temp = os.path.join(work, "temp")
    os.makedirs(temp, exist_ok=True)
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        affinity = "" if cpu is None else f"worker_cpu_affinity {1 << cpu:b};\n"
        f.write(f"""worker_processes 1;
{affinity}worker_rlimit_nofile 16384;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 8192; }}
http {{
  access_log off;
  keepalive_requests 1000000;
  keepalive_timeout 60;
  client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy; fastcgi_temp_path {temp}/fastcgi;
  uwsgi_temp_path {temp}/uwsgi; scgi_temp_path {temp}/scgi;
  server {{
    listen 127.0.0.1:{port} backlog=4096;
    location = /ok {{ default_type text/plain; return 200 "ok\\n"; }}
{locations}  }}
}}
""")
    process = subprocess.Popen([nginx_bin, "-c", conf, "-p", work], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            subprocess.run(["curl", "-sf", "-o", "/dev/null", f"http://127.0.0.1:{port}/ok"], check=True)
            break
        except subprocess.CalledProcessError:
            time.sleep(0.05)
    return process, port
