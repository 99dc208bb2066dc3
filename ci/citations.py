#!/usr/bin/env python3
"""Every `BENCHMARKS.md, "<section>"` citation names a section that exists.

Code comments, scripts and the Markdown files cite the studies behind a
choice as `benches/NOTEBOOK.md, "<section>"`, and BENCHMARKS.md's own
sections (the per-CPU results, "Method", "How to reproduce") as
`BENCHMARKS.md, "<section>"`, often across a line break inside a comment.
A cited name must begin the title of a `##` or `###` heading of the file
it names; a name ending in "..." must begin one up to the dots. Run from
the repository root; exits 1 and lists each citation that names no
section of its file.
"""
import pathlib
import re
import subprocess
import sys

# A citation: the file name, a comma, then the quoted name, which may run
# across comment line breaks ("\n    /// ", "\n# ").
CITE = re.compile(r'(BENCHMARKS|NOTEBOOK)\.md[,:]\s+"((?:[^"\\]|\n)+?)"')
LEADER = re.compile(r"\n[+ -]?\s*(?://!|///?|#|\*)?\s*")


def headings(doc):
    titles = []
    for line in pathlib.Path(doc).read_text().splitlines():
        m = re.match(r"#{2,3} (.+)", line)
        if m:
            titles.append(m.group(1).strip())
    return titles


def main():
    titles = {"BENCHMARKS": headings("BENCHMARKS.md"), "NOTEBOOK": headings("benches/NOTEBOOK.md")}
    files = subprocess.run(
        ["git", "ls-files", "*.rs", "*.sh", "*.md", "*.py", "*.toml", "*.c", "*.patch"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    bad, count = [], 0
    for f in files:
        text = pathlib.Path(f).read_text(errors="replace")
        for m in CITE.finditer(text):
            doc, name = m.group(1), LEADER.sub(" ", m.group(2)).strip()
            # The opening of a quoted list, `BENCHMARKS.md: "a", "b"`, or
            # a generic placeholder.
            if name.startswith("<") or len(name) < 4:
                continue
            count += 1
            stem = name[:-3].rstrip() if name.endswith("...") else name
            if not any(t.startswith(stem) for t in titles[doc]):
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{f}:{line}: no section \"{name}\" in {doc}")
    for b in bad:
        print(b)
    print(f"citations: {count} checked, {len(bad)} naming no section")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
