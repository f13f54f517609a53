"""The documentation's relative links and anchors resolve (scripts/check_links.py),
and the checker finds a broken file link and a broken anchor."""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHECK = os.path.join(ROOT, "scripts", "check_links.py")


def run(root):
    return subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)


def test_readme_and_docs_links_resolve():
    result = run(ROOT)
    assert result.returncode == 0, result.stdout
    assert " 0 broken" in result.stdout


def test_the_checker_finds_broken_links(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("# Title\n\n## Getting started\n\n[ok](#getting-started) [gone](docs/missing.md) "
                                        "[bad anchor](docs/a.md#nowhere) [fine](docs/a.md#a-heading) [web](https://example.org/x)\n")
    (tmp_path / "docs" / "a.md").write_text("# A heading\n\n```\n# not a heading\n```\n[back](../README.md#getting-started)\n")
    result = run(str(tmp_path))
    assert result.returncode == 1
    lines = [line for line in result.stdout.splitlines() if ": no " in line]
    assert len(lines) == 2, result.stdout
    assert "README.md:5: docs/missing.md: no file docs/missing.md" in lines[0]
    assert "no heading #nowhere in docs/a.md" in lines[1]
