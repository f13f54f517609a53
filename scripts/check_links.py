#!/usr/bin/env python3
"""Checks the relative links of README.md and docs/*.md: every file a link
names exists, and every #anchor is a heading of the page it names (GitHub's
rule: lower case, punctuation dropped, spaces to hyphens). Web addresses are
not fetched. Prints each broken link with its file and line; exit 1 if any.

usage: scripts/check_links.py [ROOT]
"""
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def anchor(heading):
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            if in_code or not line.startswith("#"):
                continue
            base = anchor(line.lstrip("#"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def check(root):
    pages = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", name) for name in os.listdir(os.path.join(root, "docs")) if name.endswith(".md"))
    broken, count = [], 0
    for page in pages:
        in_code = False
        with open(page, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.startswith("```"):
                    in_code = not in_code
                if in_code:
                    continue
                for target in LINK.findall(line):
                    if re.match(r"^[a-z]+:", target):
                        continue   # https:, mailto:: not fetched
                    count += 1
                    path, _, fragment = target.partition("#")
                    named = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                    where = f"{os.path.relpath(page, root)}:{number}: {target}"
                    if not os.path.exists(named):
                        broken.append(f"{where}: no file {os.path.relpath(named, root)}")
                    elif fragment and named.endswith(".md") and fragment not in anchors(named):
                        broken.append(f"{where}: no heading #{fragment} in {os.path.relpath(named, root)}")
    return broken, count, len(pages)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    broken, count, pages = check(root)
    for line in broken:
        print(line)
    print(f"{count} relative links in {pages} pages checked, {len(broken)} broken")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
