"""Cold page builds (CACHE_URL=dummycache://) of this checkout against an earlier revision,
each page served by both from one database, alternating with its static copy: what a
change to the build gains, measured in one run on a shared, noisy machine.

    .venv/bin/python bench/cold_against.py REVISION [--seconds=4]

REVISION (a commit, tag or branch) is checked out in a temporary git worktree; the
database is migrated by this checkout, so REVISION must be one whose code reads this
schema (an earlier one of the same release line). Needs wrk, like bench/serve.py.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _setup import ROOT, django_on_scratch_database
from serve import PYTHON, STATIC_APP, get, make_lab, start, wrk

PAGES = [
    "/people/teng-ma/",
    "/zh-hans/people/teng-ma/",
    "/people/three-hundred/",
    "/",
    "/publications/",
]


def main(revision, seconds=4):
    scratch = django_on_scratch_database(debug=False)
    make_lab()
    env = {
        **os.environ,
        "STATIC_ROOT": str(scratch / "static"),
        "SECURE_SSL_REDIRECT": "off",
        "ALLOWED_HOSTS": "127.0.0.1",
        "CACHE_URL": "dummycache://",
    }
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    earlier = Path(tempfile.mkdtemp(prefix="labsite-earlier-"))
    git = ["git", "-C", str(ROOT), "worktree"]
    subprocess.run([*git, "add", "--detach", str(earlier), revision], check=True)
    processes = []
    try:
        if (earlier / "labsite" / "catalogs.py").exists():
            compile_catalogs = [PYTHON, "manage.py", "catalogs", "compile"]
            subprocess.run(compile_catalogs, cwd=earlier, env=env, check=True, capture_output=True)
        now, now_port = start("labsite.wsgi", env, ROOT)
        before, before_port = start("labsite.wsgi", env, earlier)
        processes += [now, before]
        copy = Path(tempfile.mkdtemp(prefix="labsite-static-copy-"))
        for number, path in enumerate(PAGES):
            get(before_port, path)
            status, body = get(now_port, path)  # also stores what this checkout stores
            assert status == 200, (path, status)
            (copy / f"{number}.html").write_bytes(body)
        (copy / "health").mkdir()
        (copy / "health" / "index.html").write_text("ok")
        (copy / "static_app.py").write_text(STATIC_APP.format(root=str(copy)))
        static, static_port = start("static_app", env, copy)
        processes.append(static)

        print(f"cold builds, {revision} (before) against this checkout (after), req/s:")
        print(f"{'page':28} {'static':>7} {'before':>7} {'after':>7} {'ratio':>7} {'ratio':>7}")
        for number, path in enumerate(PAGES):
            copy_rps = before_rps = after_rps = 0.0
            for _ in range(3):  # alternating, best of three each
                copy_rps = max(copy_rps, wrk(static_port, f"/{number}.html", seconds))
                before_rps = max(before_rps, wrk(before_port, path, seconds))
                after_rps = max(after_rps, wrk(now_port, path, seconds))
            print(
                f"{path:28} {copy_rps:7,.0f} {before_rps:7,.1f} {after_rps:7,.1f}"
                f" {before_rps / copy_rps:7.4f} {after_rps / copy_rps:7.4f}"
                f"  ({after_rps / before_rps:.1f}x)"
            )
    finally:
        for process in processes:
            process.terminate()
        subprocess.run([*git, "remove", "--force", str(earlier)], check=True)


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    options = dict(a[2:].partition("=")[::2] for a in sys.argv[1:] if a.startswith("--"))
    if len(arguments) != 1:
        sys.exit(__doc__)
    main(arguments[0], seconds=int(options.get("seconds") or 4))
