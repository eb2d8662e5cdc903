"""Every relative link in the README and the docs points at a file that
exists, every #anchor at a heading of its page, and every file of the
repository the text names exists (issue 24.14: the docs cited
docs/game-face.md, which never existed; 24.9: the README's sections per
game are reached by anchors)."""
import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = sorted(["README.md"] + [os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))]
               + [os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "hardware", "*.md"))])

# [text](target) and <img src="target">; code spans and fenced blocks are
# left out first (a link shown as code is an example, not a link).
_LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_CODE = re.compile(r"`[^`\n]*`")


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped (not -
    and _), spaces to hyphens."""
    text = _CODE.sub(lambda m: m.group(0)[1:-1], heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text):
    """The anchors of a page's headings (a repeated one gets -1, -2, ...)."""
    seen = {}
    out = set()
    for line in _FENCE.sub("", text).splitlines():
        m = re.match(r"#{1,6} (.+)", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def links(text):
    text = _CODE.sub("", _FENCE.sub("", text))
    return [m.group(1) or m.group(2) for m in _LINK.finditer(text)]


def broken(page, text):
    """The links of `text` (the page `page`, relative to ROOT) that lead nowhere."""
    bad = []
    for link in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", link):
            continue  # http:, mailto: ...: not this repository's
        path, _, anchor = link.partition("#")
        if not path:
            if anchor not in anchors(text):
                bad.append(link)
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(page), path))
        full = os.path.join(ROOT, target)
        if not os.path.exists(full):
            bad.append(link)
        elif anchor and target.endswith(".md"):
            with open(full, encoding="utf-8") as f:
                if anchor not in anchors(f.read()):
                    bad.append(link)
    return bad


# A path of this repository named in the text ("see docs/architecture.md",
# `tests/scripts/browne/07`): the file exists, or (a short form) a file of
# its folder begins with its last part. Placeholders (<board>, *, ...) and
# build outputs are not files to find.
_CITED = re.compile(r"(?<![\w/.<>-])((?:docs|hardware|firmware|tests|simulator|host_tools|bench|manifests)/[\w./<>*{}-]*)")
# Another project's file, named as such ("rp2040py's docs/mpremote.md").
ELSEWHERE = {("docs/flashing.md", "docs/mpremote.md")}


def missing_citations(page, text):
    bad = []
    for m in _CITED.finditer(text):
        path = m.group(1).rstrip(".,:;")
        if any(c in path for c in "<>*{}") or "..." in path or (page, path) in ELSEWHERE:
            continue
        found = False
        for base in (ROOT, os.path.join(ROOT, os.path.dirname(page))):
            full = os.path.join(base, path)
            folder, stem = os.path.split(full.rstrip("/"))
            if os.path.exists(full) or (os.path.isdir(folder) and any(n.startswith(stem) for n in os.listdir(folder))):
                found = True
        if not found:
            bad.append(path)
    return bad


@pytest.mark.parametrize("page", PAGES)
def test_every_file_the_text_names_exists(page):
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    assert missing_citations(page, text) == []


def test_the_citation_check_sees_a_file_that_is_not_there():
    text = "as docs/game-face.md says; `tests/scripts/browne/07` (a short form); hardware/<board>/bom.csv\n"
    assert missing_citations("README.md", text) == ["docs/game-face.md"]


@pytest.mark.parametrize("page", PAGES)
def test_every_relative_link_leads_somewhere(page):
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    assert broken(page, text) == []


def test_the_check_sees_a_missing_file_and_a_missing_anchor():
    text = ("# Top\n[a](docs/game-face.md) [b](README.md#no-such-section) [c](#top) "
            "`[d](nowhere.md)` [e](https://example.org/x.md) <img src=\"docs/none.png\">\n")
    assert broken("README.md", text) == ["docs/game-face.md", "README.md#no-such-section", "docs/none.png"]


def test_slugs_follow_githubs():
    assert slug("Nehren's Triad (board `pico_v1`)") == "nehrens-triad-board-pico_v1"
    assert slug("Files to build from (generated: `make hardware`)") == "files-to-build-from-generated-make-hardware"
    assert anchors("## Lessons\n## Lessons\n```\n# not a heading\n```\n") == {"lessons", "lessons-1"}
