#!/usr/bin/env python3
"""code_shape.py - the shape of pgcliff's C code at one or more git revisions.

    tests/bench/code_shape.py REV [REV...]

For each revision (read from git, not from the working tree): lines of C
per top-level folder, the ten largest files, the ten longest functions,
how many functions pass 150 lines, and the near-duplicate function pairs.

A function is a definition in the house style (.clang-format): its name
at column 0 followed by "(", its body from a "{" line to a "}" line.  Its
length counts from the name's line to the closing brace.  Two functions
are a near-duplicate pair when both have at least MIN_TOKENS tokens and
the Jaccard similarity of their token 4-grams is at least SIMILAR, the
tokens normalised so that renamed identifiers and changed literals still
match (keywords and punctuation kept).  It is a scanner of its own, the
same for every revision it is given; its counts are not comparable with
another tool's.
"""
import collections
import re
import subprocess
import sys

MIN_TOKENS = 60
SIMILAR = 0.80
SHINGLE = 4
LONG = 150

KEYWORDS = set(
    "auto break case char const continue default do double else enum extern "
    "float for goto if inline int long register restrict return short signed "
    "sizeof static struct switch typedef union unsigned void volatile while "
    "bool true false NULL".split())
TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|'
                   r'\d[\w.]*|->|\+\+|--|<<|>>|[<>=!]=|&&|\|\||\S')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
FUNC = re.compile(r'^([A-Za-z_]\w*)\(', re.M)


def git(*args):
    return subprocess.run(("git",) + args, check=True, capture_output=True,
                          text=True).stdout


def sources(rev):
    names = git("ls-tree", "-r", "--name-only", rev).split()
    return [n for n in names if n.endswith((".c", ".h"))
            and n.split("/")[0] in ("cmd", "drivers", "schemas", "report")]


def functions(path, text):
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = FUNC.match(lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            j = i
            while j < len(lines) and lines[j] != "{":
                if lines[j].rstrip().endswith(";") or lines[j] == "}":
                    break
                j += 1
            if j < len(lines) and lines[j] == "{":
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                body = "\n".join(lines[j:k + 1])
                out.append((path, m.group(1), k - i + 1, body))
                i = k
        i += 1
    return out


def shingles(body):
    toks = []
    for t in TOKEN.findall(COMMENT.sub(" ", body)):
        if t in KEYWORDS:
            toks.append(t)
        elif t[0].isalpha() or t[0] == "_":
            toks.append("ID")
        elif t[0].isdigit() or t[0] in "\"'":
            toks.append("LIT")
        else:
            toks.append(t)
    if len(toks) < MIN_TOKENS:
        return None
    return frozenset(tuple(toks[i:i + SHINGLE])
                     for i in range(len(toks) - SHINGLE + 1))


def duplicate_pairs(funcs):
    sets = [(f, s) for f in funcs if (s := shingles(f[3])) is not None]
    sets.sort(key=lambda x: len(x[1]))
    pairs = []
    for a in range(len(sets)):
        fa, sa = sets[a]
        for b in range(a + 1, len(sets)):
            fb, sb = sets[b]
            if len(sa) < SIMILAR * len(sb):
                break  # sorted by size: no later set can be similar enough
            inter = len(sa & sb)
            if inter / (len(sa) + len(sb) - inter) >= SIMILAR:
                pairs.append((fa, fb))
    return pairs


def shape(rev):
    folders = collections.Counter()
    files = []
    funcs = []
    for path in sources(rev):
        text = git("show", f"{rev}:{path}")
        n = text.count("\n")
        top = path.split("/")[0]
        if path.startswith("cmd/conductor/"):
            top = "cmd/conductor"
        folders[top] += n
        files.append((n, path))
        if path.endswith(".c"):
            funcs += functions(path, text)
    print(f"## {rev} ({git('rev-parse', '--short', rev).strip()})")
    print("lines of C per folder: " + ", ".join(
        f"{k} {v:,}" for k, v in sorted(folders.items())) +
        f"; total {sum(folders.values()):,}")
    print("ten largest files: " + ", ".join(
        f"{p} {n:,}" for n, p in sorted(files, reverse=True)[:10]))
    longest = sorted(funcs, key=lambda f: -f[2])
    print("ten longest functions: " + ", ".join(
        f"{f[1]} ({f[0]}) {f[2]}" for f in longest[:10]))
    print(f"functions over {LONG} lines: "
          f"{sum(1 for f in funcs if f[2] > LONG)} of {len(funcs)}")
    pairs = duplicate_pairs(funcs)
    print(f"near-duplicate function pairs (>= {MIN_TOKENS} tokens, "
          f"4-gram Jaccard >= {SIMILAR}): {len(pairs)}")
    for fa, fb in pairs:
        print(f"  {fa[1]} ({fa[0]}) ~ {fb[1]} ({fb[0]})")
    print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for r in sys.argv[1:]:
        shape(r)
