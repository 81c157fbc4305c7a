"""A page with ten images against the budget (../shared/DESIGN.md, "Performance budget"):
warm, served from the page cache, against WhiteNoise serving the same bytes (≥ 0.9×); cold
(CACHE_URL=dummycache://), its build against the team page's (the 10× a 40-paper profile
may take, the strictest cold budget a page has). The same page with one image beside it,
and one of the image files, to show what the images add. One sync worker, DEBUG off; each
measured in alternation, best of three, as this machine is shared and noisy.

    .venv/bin/python bench/ten_images.py [--seconds=3]

The page's text holds five figures and a gallery of five (media library images of 1,600 ×
1,000 pixels, each with its WebP and JPEG sizes); the lab is the demo lab. Needs wrk, like
bench/serve.py.
"""

import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _setup import ROOT, django_on_scratch_database
from serve import PYTHON, STATIC_APP, get, start, wrk

PAGES = {"/ten-images/": 10, "/one-image/": 1}


def photo(number):
    """A photo-like image (gradients, so that the encoders have work to do), as a file."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    size = (1600, 1000)
    image = Image.merge(
        "RGB",
        (
            Image.linear_gradient("L").rotate(number * 30).resize(size),
            Image.radial_gradient("L").resize(size),
            Image.linear_gradient("L").rotate(90).resize(size),
        ),
    )
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90)
    return SimpleUploadedFile(f"photo-{number}.jpg", buffer.getvalue())


def make_pages():
    """The pages: ten images (five figures, a gallery of five) and one; returns the URL of
    one stored rendition, as a page names it."""
    from media.models import Gallery, GalleryItem, MediaItem
    from website.models import Page

    items = [
        MediaItem.objects.create(
            name=f"photo-{n}",
            image=photo(n),
            alt_en=f"Photo {n} of the lab",
            alt_zh_hans=f"实验室照片 {n}",
            caption_en=f"The lab, view {n}",
        )
        for n in range(10)
    ]
    gallery = Gallery.objects.create(name="retreat", title_en="Our retreat")
    for position, item in enumerate(items[5:], start=1):
        GalleryItem.objects.create(gallery=gallery, item=item, position=position)
    prose = "The lab in pictures: where we work, and the retreat.\n\n"
    figures = "\n\n".join(f"![Photo {n}](media:{item.name})" for n, item in enumerate(items[:5]))
    Page.objects.create(
        slug="ten-images",
        title_en="Ten images",
        body_en=f"{prose}{figures}\n\n![Our retreat](media:gallery/retreat)",
        is_published=True,
    )
    Page.objects.create(
        slug="one-image",
        title_en="One image",
        body_en=f"{prose}![Photo 0](media:{items[0].name})",
        is_published=True,
    )
    return items[0].fallback(960).url


def main(seconds=3):
    scratch = django_on_scratch_database(debug=False)
    from django.core.management import call_command

    call_command("load_demo", verbosity=0)
    image_url = make_pages()
    env = {
        **os.environ,
        "STATIC_ROOT": str(scratch / "static"),
        "SECURE_SSL_REDIRECT": "off",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    site, port = start("labsite.wsgi", env, ROOT)
    cold, cold_port = start("labsite.wsgi", {**env, "CACHE_URL": "dummycache://"}, ROOT)
    copy = Path(tempfile.mkdtemp(prefix="labsite-static-copy-"))
    files = {}
    for number, path in enumerate([*PAGES, "/people/"]):
        status, body = get(port, path)  # also fills the page cache
        assert status == 200, (path, status)
        assert path == "/people/" or body.count(b"<picture>") == PAGES[path], path
        files[path] = (f"/{number}.html", len(body))
        (copy / f"{number}.html").write_bytes(body)
    # one image as a static file: what the site's web server or bucket serves for a figure
    media = Path(os.environ.get("MEDIA_ROOT", scratch / "media"))
    (copy / "image.jpg").write_bytes((media / image_url.removeprefix("/media/")).read_bytes())
    (copy / "health").mkdir()
    (copy / "health" / "index.html").write_text("ok")
    (copy / "static_app.py").write_text(STATIC_APP.format(root=str(copy)))
    static, static_port = start("static_app", env, copy)
    try:
        print(
            f"{'page (warm: the page cache)':30} {'KB':>5} {'req/s':>7} {'static':>7} {'ratio':>6}"
        )
        for path in (*PAGES, "/people/"):  # the team page: a page of no images, beside them
            copy_path, size = files[path]
            rps = static_rps = 0.0
            for _ in range(3):
                static_rps = max(static_rps, wrk(static_port, copy_path, seconds))
                rps = max(rps, wrk(port, path, seconds))
            ratio = rps / static_rps
            print(f"{path:30} {size / 1024:5.0f} {rps:7,.0f} {static_rps:7,.0f} {ratio:6.3f}")
        image_rps = max(wrk(static_port, "/image.jpg", seconds) for _ in range(3))
        image_kb = (copy / "image.jpg").stat().st_size / 1024
        print(f"{'an image (960 px JPEG), static':30} {image_kb:5.0f} {image_rps:7,.0f}")
        print()
        print(f"{'page (cold: dummycache)':30} {'KB':>5} {'req/s':>7} {'× team':>7} {'budget':>7}")
        rates = {path: 0.0 for path in ("/people/", *PAGES)}
        for _ in range(3):
            for path in rates:
                rates[path] = max(rates[path], wrk(cold_port, path, seconds))
        team = rates["/people/"]
        for path, rps in rates.items():
            budget = "" if path == "/people/" else "≤ 10"
            print(
                f"{path:30} {files[path][1] / 1024:5.0f} {rps:7,.1f} {team / rps:7.2f} {budget:>7}"
            )
    finally:
        for process in (site, cold, static):
            process.terminate()


if __name__ == "__main__":
    options = dict(arg[2:].partition("=")[::2] for arg in sys.argv[1:])
    main(seconds=int(options.get("seconds") or 3))
