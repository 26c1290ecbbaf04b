#!/usr/bin/env python3
"""Keeps the documentation plain: short sentences and links that resolve.

For every Markdown page it checks two things:
- the median sentence is shorter than --max-median words (default 25);
- every relative link ([text](path)) names a file or folder that exists.

A sentence ends at '.', '!' or '?' followed by a space or the end of its
paragraph. A list item is a paragraph of its own. Fenced code, tables,
headings and HTML comments are not prose and are skipped; inline code
counts as one word.

Usage: lint-docs.py [--max-median N] [--exclude PATH]... PATH...
A PATH that is a folder stands for every *.md under it. An excluded PATH
(a file or a folder, matched as given or as the end of a page's path) is
skipped. Exits 1 and lists every page that fails, with its longest
sentences, when one does.
"""

import argparse
import pathlib
import re
import statistics
import sys

ABBREVIATIONS = re.compile(r"\b(e\.g|i\.e|etc|vs|cf)\.")
LIST_ITEM = re.compile(r"^(?:[-*+]|\d+\.)\s+")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def paragraphs(text):
    """Each prose paragraph as its lines: (line number, text) pairs."""
    result, current, fenced = [], [], False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            stripped = ""
        if fenced:
            continue
        is_break = (not stripped or stripped.startswith(("#", "|", "<!--"))
                    or LIST_ITEM.match(stripped))
        if is_break and current:
            result.append(current)
            current = []
        if LIST_ITEM.match(stripped):
            stripped = LIST_ITEM.sub("", stripped)
        elif is_break:
            continue
        current.append((number, stripped))
    if current:
        result.append(current)
    return result


def sentences(text):
    """(line number, word count) of each sentence of a page."""
    found = []
    for lines in paragraphs(text):
        starts, joined = [], ""
        for number, line in lines:
            starts.append((len(joined), number))
            joined += line + " "
        # Same-length replacements keep the offsets of the lines: an inline
        # code span becomes one word, an abbreviation's dots no sentence end.
        joined = re.sub(r"`[^`]*`", lambda m: "C" * len(m[0]), joined)
        joined = ABBREVIATIONS.sub(lambda m: m[0].replace(".", "_"), joined)
        begin = 0
        for match in list(SENTENCE_END.finditer(joined)) + [None]:
            end = match.start() if match else len(joined)
            words = len(joined[begin:end].split())
            if words:
                line = [n for offset, n in starts if offset <= begin][-1]
                found.append((line, words))
            begin = match.end() if match else end
    return found


def broken_links(page, text):
    """The relative link targets of `page` that do not exist."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    broken = []
    for match in LINK.finditer(text):
        target = (match[1] or match[2]).split("#")[0]
        if not target or re.match(r"^[a-z]+:", target):
            continue
        if not (page.parent / target).exists():
            broken.append(target)
    return broken


def pages(paths, excludes):
    found = []
    for path in map(pathlib.Path, paths):
        found += sorted(path.rglob("*.md")) if path.is_dir() else [path]

    def excluded(page):
        text = page.as_posix()
        return any(text == e or text.endswith("/" + e)
                   or text.startswith(e + "/") or ("/" + e + "/") in text
                   for e in excludes)

    return [page for page in found if not excluded(page)]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--max-median", type=float, default=25)
    parser.add_argument("--exclude", action="append", default=[],
                        metavar="PATH")
    args = parser.parse_args()
    excludes = [pathlib.PurePath(e).as_posix().rstrip("/")
                for e in args.exclude]
    problems = 0
    checked = pages(args.paths, excludes)
    for page in checked:
        try:
            text = page.read_text()
        except OSError as error:
            print(f"{page}: {error}")
            problems += 1
            continue
        counts = sentences(text)
        if counts:
            median = statistics.median(words for _, words in counts)
            if median >= args.max_median:
                problems += 1
                longest = sorted(counts, key=lambda c: -c[1])[:3]
                where = ", ".join(f"line {line} ({words} words)"
                                  for line, words in longest)
                print(f"{page}: the median sentence has {median:g} words, "
                      f"not under {args.max_median:g}; longest: {where}")
        for target in broken_links(page, text):
            problems += 1
            print(f"{page}: link to '{target}', which does not exist")
    if problems:
        return 1
    print(f"lint-docs: {len(checked)} pages checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
