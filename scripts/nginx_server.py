"""Serves a directory with a real nginx on a free loopback port for Convoy's download tests.

Usage: nginx_server.py ROOT [--rate 2m] [--host 127.0.0.1]

  /files/<name>  the files under ROOT (sendfile, ETag, Range and If-Range as nginx does them)
  /slow/<name>   the same files, sent at --rate bytes per second (nginx's limit_rate syntax)

Prints "LISTENING <host> <port> <access-log-path>" once nginx answers. Each access-log line is
`METHOD URI STATUS "RANGE" "IF-RANGE" BODY_BYTES_SENT` ("-" for a header not sent), so tests can
check what the client asked for. Exits, stopping nginx and removing its temporary directory,
on SIGTERM, SIGINT, or when its parent process goes away. Runs as root or as a normal user.
"""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ATTEMPTS = 5  # a free port can be taken between choosing it and nginx binding it


def find_nginx() -> str:
    # /usr/sbin is not on a normal user's PATH on Debian.
    for candidate in (shutil.which("nginx"), "/usr/sbin/nginx"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    sys.exit("nginx is not installed: run scripts/test, which installs it (nginx-light)")


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def config(directory: str, root: str, host: str, port: int, rate: str) -> str:
    # As root, nginx would otherwise switch its worker to `nobody`, which may not read ROOT;
    # as a normal user the directive is ignored with a warning, so it is only written for root.
    user = "user root;\n" if os.geteuid() == 0 else ""
    root = root.rstrip("/") + "/"
    return f"""{user}daemon off;
master_process off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 512; }}
http {{
  default_type application/octet-stream;
  client_body_temp_path {directory}/client_body;
  proxy_temp_path {directory}/proxy;
  fastcgi_temp_path {directory}/fastcgi;
  uwsgi_temp_path {directory}/uwsgi;
  scgi_temp_path {directory}/scgi;
  log_format convoy '$request_method $uri $status "$http_range" "$http_if_range" $body_bytes_sent';
  access_log {directory}/access.log convoy;
  sendfile on;
  etag on;
  keepalive_requests 10000;
  server {{
    listen {host}:{port};
    server_name localhost;
    location /files/ {{ alias {root}; }}
    location /slow/ {{ alias {root}; limit_rate {rate}; }}
  }}
}}
"""


def answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


def start(nginx: str, directory: str, root: str, host: str, rate: str):
    """Starts nginx on a free port; returns the process and the port."""
    for _ in range(ATTEMPTS):
        port = free_port(host)
        path = os.path.join(directory, "nginx.conf")
        with open(path, "w") as file:
            file.write(config(directory, root, host, port, rate))
        # -e: errors before the config is read go to our directory, not /var/log/nginx.
        process = subprocess.Popen(
            [nginx, "-p", directory, "-c", path, "-e", os.path.join(directory, "error.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while process.poll() is None and time.monotonic() < deadline:
            if answers(host, port):
                return process, port
            time.sleep(0.05)
        if process.poll() is None:
            process.kill()
            process.wait()
    with open(os.path.join(directory, "error.log")) as log:
        sys.exit("nginx did not start:\n" + log.read()[-2000:])


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("root", help="the directory served under /files/ and /slow/")
    arguments.add_argument("--rate", default="2m", help="limit_rate of /slow/ (e.g. 512k, 2m)")
    arguments.add_argument("--host", default="127.0.0.1")
    options = arguments.parse_args()
    # A test process may start us with signals blocked (Foundation's Process passes its mask
    # on); nginx would inherit the mask and never see the SIGTERM that stops it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if not options.host.startswith("127."):
        sys.exit("refusing to listen on a non-loopback address: " + options.host)
    root = os.path.abspath(options.root)
    if not os.path.isdir(root):
        sys.exit("not a directory: " + root)
    parent = os.getppid()
    nginx = find_nginx()
    directory = tempfile.mkdtemp(prefix="convoy-nginx-")
    process = None
    stopping = False
    crashed = False

    def stop(*_) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        process, port = start(nginx, directory, root, options.host, options.rate)
        print("LISTENING", options.host, port, os.path.join(directory, "access.log"), flush=True)
        while not stopping and os.getppid() == parent and process.poll() is None:
            time.sleep(0.2)
        crashed = not stopping and process.poll() is not None
    finally:
        if process is not None and process.poll() is None:
            process.terminate()  # nginx: fast shutdown
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(directory, ignore_errors=True)
    if crashed:
        sys.exit("nginx stopped on its own")


if __name__ == "__main__":
    main()
