"""How the client is served: the same page at each of its addresses, its files with their
types, nothing from another origin, and every other path left to the API."""

from __future__ import annotations

import re
from pathlib import Path

import requests

from service.webclient import STATIC


def test_every_client_address_is_the_same_page(web_server: str) -> None:
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    for path in ("/", "/lobby", "/new", "/me", "/account", "/games/abc123", "/games/abc123/"):
        response = requests.get(web_server + path, timeout=10)
        assert response.status_code == 200, path
        assert response.headers["Content-Type"].startswith("text/html")
        assert response.text == index
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["Cache-Control"] == "no-cache" and response.headers["ETag"]


def test_files_are_served_with_their_types_and_revalidated(web_server: str) -> None:
    script = requests.get(web_server + "/static/app.js", timeout=10)
    assert script.status_code == 200 and script.headers["Content-Type"].startswith("text/javascript")
    again = requests.get(web_server + "/static/app.js", headers={"If-None-Match": script.headers["ETag"]}, timeout=10)
    assert again.status_code == 304
    assert requests.get(web_server + "/static/app.css", timeout=10).headers["Content-Type"].startswith("text/css")
    assert requests.head(web_server + "/static/games/coup.js", timeout=10).status_code == 200


def test_other_paths_stay_the_apis(web_server: str) -> None:
    for path in ("/static/../webclient.py", "/static/%2e%2e/webclient.py", "/static/nope.js", "/games/a/b",
                 "/lobby/x", "/favicon.ico"):
        response = requests.get(web_server + path, timeout=10)
        assert response.status_code == 404, path
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "not_found"
    posted = requests.post(web_server + "/lobby", json={}, timeout=10)
    assert posted.status_code in (404, 405) and posted.headers["Content-Type"] == "application/problem+json"
    assert requests.get(web_server + "/v1/openapi.json", timeout=10).json()["openapi"].startswith("3.")
    assert "/v1/games/{game_id}/actions" in requests.get(web_server + "/docs", timeout=10).text


def test_nothing_is_fetched_from_another_host() -> None:
    """Every reference in the client's files is to this origin: no CDN, no font, no script elsewhere."""
    for path in sorted(Path(STATIC).rglob("*")):
        if path.suffix not in (".html", ".js", ".css"):
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href|url)\s*[=(]\s*["']?(https?:)?//""", text), path
        assert not re.search(r"""(import|from)\s*\(?\s*["']https?:""", text), path


def test_each_game_serves_its_rules_summary_and_data_files(web_server: str) -> None:
    for game in ("coup", "revolution", "ideology", "pax"):
        rules = requests.get(f"{web_server}/rules/{game}.md", timeout=10)
        assert rules.status_code == 200 and rules.headers["Content-Type"].startswith("text/markdown")
        assert rules.text == (STATIC.parents[1] / "games" / game / "README.md").read_text(encoding="utf-8")
    cards = requests.get(f"{web_server}/rules/coup/cards.json", timeout=10)
    assert cards.headers["Content-Type"].startswith("application/json") and cards.json()["coup_cost"] == 7
    for path in ("/rules/chess.md", "/rules/coup/README.json", "/rules/coup/../rules.py", "/rules/coup/cards.py"):
        assert requests.get(web_server + path, timeout=10).status_code == 404, path
    for path in ("/rules/coup", "/players/abc123", "/leaderboards", "/leaderboards/pax"):
        assert requests.get(web_server + path, timeout=10).text == (STATIC / "index.html").read_text(encoding="utf-8")


def test_the_sdk_is_served_beside_the_client(web_server: str) -> None:
    """The client imports the JavaScript SDK (clients/js/src) from /static/sdk/, like its own files."""
    sdk = requests.get(web_server + "/static/sdk/index.js", timeout=10)
    assert sdk.status_code == 200 and sdk.headers["Content-Type"].startswith("text/javascript")
    assert "export {Client" in sdk.text
    assert 'from "./sdk/index.js"' in requests.get(web_server + "/static/api.js", timeout=10).text
    for path in ("/static/sdk/../../README.md", "/static/sdk/%2e%2e/package.json", "/static/sdk/nope.js",
                 "/static/sdk/api.d.ts"):
        assert requests.get(web_server + path, timeout=10).status_code == 404, path
