"""Serves a directory with a real nginx on free loopback ports: the one place Convoy writes an
nginx configuration, for the download tests and for both benchmark packages.

Usage: nginx_server.py ROOT [--rate 2m] [--host 127.0.0.1]
       nginx_server.py ROOT --benchmark [--sendfile] [--cert PEM --key PEM] [--host 127.0.0.1]

For the tests:

  /files/<name>  the files under ROOT (sendfile, ETag, Range and If-Range as nginx does them)
  /slow/<name>   the same files, sent at --rate bytes per second (nginx's limit_rate syntax)
  /uploads       POST: reads the whole body, drops it, answers 204; /uploads/limited refuses a
                 body over 1 MiB with 413. uploads.log, beside the access log, has one line per
                 upload, `URI STATUS REQUEST_LENGTH`: how much of the request arrived.

Prints "LISTENING <host> <port> <access-log-path>" once nginx answers. Each access-log line is
`METHOD URI STATUS "RANGE" "IF-RANGE" BODY_BYTES_SENT` ("-" for a header not sent), so tests can
check what the client asked for.

With --benchmark (LocalNginx in Sources/ConvoyBenchmarks, which Benchmarks/ links): the files
under ROOT at /<name> with keep-alive and nothing logged, on a port with keep-alive and a "cold"
port that closes every connection after one request; with --cert and --key the same two again
over HTTPS with HTTP/2 offered by ALPN. Every port answers /protocol with nginx's
`$server_protocol $connection $ssl_protocol`, and a POST of any size to /upload with 204 (the
body read to its end and discarded, for the upload benchmark). Prints
"LISTENING <host> <port> cold=<port> [tls=<port> coldtls=<port>]" once every port answers.

Exits, stopping nginx and removing its temporary directory, on SIGTERM, SIGINT, or when its
parent process goes away. Runs as root or as a normal user.
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


def frame(directory: str, error_level: str, connections: int, http: str) -> str:
    """A whole configuration around `http`: one process in the foreground, with its pid, log and
    temporary paths inside `directory`."""
    # As root, nginx would otherwise switch its worker to `nobody`, which may not read ROOT;
    # as a normal user the directive is ignored with a warning, so it is only written for root.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}daemon off;
master_process off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log {error_level};
events {{ worker_connections {connections}; }}
http {{
  client_body_temp_path {directory}/client_body;
  proxy_temp_path {directory}/proxy;
  fastcgi_temp_path {directory}/fastcgi;
  uwsgi_temp_path {directory}/uwsgi;
  scgi_temp_path {directory}/scgi;
{http}}}
"""


def config(directory: str, root: str, host: str, port: int, rate: str) -> str:
    root = root.rstrip("/") + "/"
    return frame(directory, "warn", 512, f"""  default_type application/octet-stream;
  log_format convoy '$request_method $uri $status "$http_range" "$http_if_range" $body_bytes_sent';
  access_log {directory}/access.log convoy;
  log_format uploads '$uri $status $request_length';
  sendfile on;
  etag on;
  keepalive_requests 10000;
  server {{
    listen {host}:{port};
    server_name localhost;
    location /files/ {{ alias {root}; }}
    location /slow/ {{ alias {root}; limit_rate {rate}; }}
    # Uploads: uploads.log says how much of each request arrived. A bare `return` answers
    # first and discards the body afterwards, leaving it out of $request_length, so the body is
    # read whole and handed to a location that answers 204.
    location = /uploads {{
      client_max_body_size 0; access_log {directory}/uploads.log uploads;
      proxy_pass http://{host}:{port}/uploads-sink;
    }}
    location = /uploads-sink {{ client_max_body_size 0; access_log off; return 204; }}
    location = /uploads/limited {{
      client_max_body_size 1m; access_log {directory}/uploads.log uploads; return 204;
    }}
  }}
""")


def benchmark_config(
    directory: str, root: str, host: str, ports: dict, sendfile: bool, cert: str, key: str
) -> str:
    # Nothing logged, keep-alive without a request limit, sendfile only for large files: the
    # server spends as little as it can of the CPUs it shares with the clients.

    def server(port: int, tls: bool, cold: bool) -> str:
        lines = [f"listen {host}:{port}{' ssl http2' if tls else ''};", f"root {root};"]
        # `keepalive_requests` also ends HTTP/2 connections (a GOAWAY after the last stream)
        # since nginx 1.19.7.
        if cold:
            lines.append("keepalive_requests 1;")
        if tls:
            lines += [f"ssl_certificate {cert};", f"ssl_certificate_key {key};"]
            # nginx before 1.23.4 leaves TLS 1.3 out by default; current servers negotiate it.
            lines.append("ssl_protocols TLSv1.2 TLSv1.3;")
            if cold:
                lines += ["ssl_session_tickets off;", "ssl_session_cache off;"]
        lines.append(
            'location = /protocol { default_type text/plain; '
            'return 200 "$server_protocol $connection $ssl_protocol"; }'
        )
        # nginx answers at once and discards the body up to its announced length (or last
        # chunk) before it reads the connection's next request; `lingering_time` bounds that
        # discarding, 30 s by default, which a slow gigabyte upload outlasts.
        lines.append(
            "location = /upload { client_max_body_size 0; lingering_time 10m; return 204; }"
        )
        return "  server {\n" + "\n".join("    " + line for line in lines) + "\n  }\n"

    servers = [server(ports["port"], False, False), server(ports["cold"], False, True)]
    if "tls" in ports:
        servers += [server(ports["tls"], True, False), server(ports["coldtls"], True, True)]
    return frame(directory, "error", 1024, f"""  access_log off;
  open_file_cache max=16;
  tcp_nodelay on;
  sendfile {'on' if sendfile else 'off'};
  keepalive_requests 1000000;
  keepalive_timeout 60s;
  types {{ application/json json; text/event-stream sse; }}
""" + "".join(servers))


def answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


def start(nginx: str, directory: str, host: str, names: list, make_config):
    """Starts nginx on free ports, one per name; returns the process and the ports by name."""
    for _ in range(ATTEMPTS):
        ports = {name: free_port(host) for name in names}
        path = os.path.join(directory, "nginx.conf")
        with open(path, "w") as file:
            file.write(make_config(ports))
        # -e: errors before the config is read go to our directory, not /var/log/nginx.
        process = subprocess.Popen(
            [nginx, "-p", directory, "-c", path, "-e", os.path.join(directory, "error.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while process.poll() is None and time.monotonic() < deadline:
            if all(answers(host, port) for port in ports.values()):
                return process, ports
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
    arguments.add_argument("--benchmark", action="store_true", help="the benchmarks' server")
    arguments.add_argument("--sendfile", action="store_true", help="--benchmark: sendfile on")
    arguments.add_argument("--cert", help="--benchmark: the HTTPS ports' certificate (PEM)")
    arguments.add_argument("--key", help="--benchmark: the certificate's key (PEM)")
    options = arguments.parse_args()
    if bool(options.cert) != bool(options.key):
        sys.exit("--cert and --key go together")
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
        if options.benchmark:
            names = ["port", "cold"] + (["tls", "coldtls"] if options.cert else [])
            process, ports = start(
                nginx, directory, options.host, names,
                lambda ports: benchmark_config(
                    directory, root, options.host, ports, options.sendfile,
                    options.cert, options.key))
            details = [f"{name}={ports[name]}" for name in names[1:]]
            print("LISTENING", options.host, ports["port"], *details, flush=True)
        else:
            process, ports = start(
                nginx, directory, options.host, ["port"],
                lambda ports: config(directory, root, options.host, ports["port"], options.rate))
            print(
                "LISTENING", options.host, ports["port"], os.path.join(directory, "access.log"),
                flush=True)
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
