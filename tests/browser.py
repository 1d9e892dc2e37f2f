"""Headless Chromium for the tests that look at a report the way a reader does: a
screenshot to read pixels from, or the page's text after the browser has built it."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

_HEADLESS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run")


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def screenshot(html_path: Path, png: Path, profile: Path, size: str = "1200,2000") -> bytes:
    """A PNG of `html_path` at `size`; skips the test without Chromium."""
    browser = chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    command = [
        browser, *_HEADLESS, "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size={size}",
        html_path.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, timeout=120)
    assert png.exists(), done.stderr.decode(errors="replace")[-2000:]
    return png.read_bytes()


def page_text(html_path: Path, profile: Path) -> str:
    """The DOM of `html_path` once Chromium has run its scripts (`--dump-dom`), with
    '<', '>' and '&' unescaped so that drawn text can be searched as printed; fails the
    test without Chromium."""
    browser = chromium()
    assert browser is not None, "chromium is needed (apt-get install chromium)"
    dom = subprocess.run([browser, *_HEADLESS, f"--user-data-dir={profile}", "--dump-dom",
                          html_path.resolve().as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    return dom.stdout.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
