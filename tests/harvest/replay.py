"""A local HTTP server replaying the services' recorded answers (tests/harvest/data), so the
harvest runs over real HTTP, with real timeouts, and never touches the network."""

import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DATA = Path(__file__).parent / "data"


class Replay:
    """Routes: {path: answer}, where an answer is a data file's name, a (status, body) pair
    or (status, body, headers) triple, or a function of the query ({name: value}) returning
    one of these. Anything else is a 404. `requests` lists the (path, query) pairs asked
    for; `delay` slows every answer; `drip` ({path: seconds}) sends that path's body one
    byte at a time, so slowly that no single read times out."""

    def __init__(self):
        self.routes = {}
        self.requests = []
        self.agents = []
        self.delay = 0.0
        self.drip = {}
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                replay.requests.append((url.path, query))
                replay.agents.append(self.headers.get("User-Agent", ""))
                answer = replay.routes.get(url.path)
                if callable(answer):
                    answer = answer(query)
                if answer is None:
                    answer = (404, b'{"message": "not found"}')
                if isinstance(answer, str):
                    answer = (200, (DATA / answer).read_bytes())
                status, body, headers = answer if len(answer) == 3 else (*answer, {})
                time.sleep(replay.delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(body)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    if url.path in replay.drip:
                        for byte in body:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                            time.sleep(replay.drip[url.path])
                    else:
                        self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout under test)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def asked(self, path):
        return [query for asked, query in self.requests if asked == path]
