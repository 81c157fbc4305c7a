"""README's `make run`, checked as a newcomer would: waits for the site it serves, reads
the four pages a first visit opens, and signs in to the admin with the password the command
printed. Standard library only: it runs before anything else is installed.

    python3 .ci/first_hour.py LOG [BASE]   (BASE: http://127.0.0.1:8000)"""

import http.cookiejar
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

LOG = sys.argv[1]
BASE = sys.argv[2] if len(sys.argv) > 2 else "http://127.0.0.1:8000"
WAIT = 1200  # seconds: a fresh machine installs Pango and the fonts first


def fail(message):
    print(f"first hour: {message}", file=sys.stderr)
    print(Path(LOG).read_text(encoding="utf-8", errors="replace")[-4000:], file=sys.stderr)
    sys.exit(1)


opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def get(path, data=None):
    with opener.open(BASE + path, data=data, timeout=30) as response:
        return response.status, response.geturl(), response.read().decode()


deadline = time.monotonic() + WAIT
while True:
    try:
        get("/")
        break
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        if time.monotonic() > deadline:
            fail(f"nothing served at {BASE}/ after {WAIT} s")
        time.sleep(2)
print(f"served after {round(WAIT - (deadline - time.monotonic()))} s")

for path in ["/", "/people/", "/publications/", "/admin/login/"]:
    status, _, _ = get(path)
    if status != 200:
        fail(f"{path} answered {status}")
    print(f"{path}: 200")

found = re.search(r"shown only this once:\s+(\S+)", Path(LOG).read_text(encoding="utf-8"))
if not found:
    fail("no admin password was printed")
_, _, form = get("/admin/login/")
token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
if not token:
    fail("the admin login form has no CSRF token")
body = urllib.parse.urlencode(
    {
        "csrfmiddlewaretoken": token.group(1),
        "username": "admin",
        "password": found.group(1),
        "next": "/admin/",
    }
).encode()
request = urllib.request.Request(BASE + "/admin/login/?next=/admin/", data=body)
request.add_header("Referer", BASE + "/admin/login/")
with opener.open(request, timeout=30) as response:
    page = response.read().decode()
    if not response.geturl().rstrip("/").endswith("/admin") or "logout" not in page.lower():
        fail(f"the printed password did not sign in (ended at {response.geturl()})")
print("the printed password signs in to /admin/")
