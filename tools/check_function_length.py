#!/usr/bin/env python3
"""Lists C++ functions longer than a limit (default 80 lines, from the first line of the
signature to the closing brace) under the given directories.

Brace counting on the source with comments, string and character literals and preprocessor
lines blanked: a `{` at namespace or class scope whose header (the text since the previous
`;`, `{` or `}` at that scope) has a parameter list and no class/struct/namespace/enum/union
keyword before it opens a function; braces inside it (blocks, lambdas, initializers) belong
to that function. A brace-initialised member in a constructor's initializer list
(`: a_{x}, b_{y} {`) continues the header.

Usage: check_function_length.py [--max N] DIR_OR_FILE...   exit 1 when a function is longer.
"""
import argparse
import os
import re
import sys

SCOPE_WORDS = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def blank(text):
    """Comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            while i < n and text[i] != "\n":  # the directive, with backslash continuations
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                j = n if end < 0 else end + len(m.group(1)) + 2
                out.append(re.sub(r"[^\n]", " ", text[i:j]))
                i = j
                continue
        if c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator (1'000)
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        out.append(c)
        line_start = c == "\n" or (line_start and c in " \t")
        i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of every function defined in `text`."""
    src = blank(text)
    stack = []  # kinds: "scope", "function", "inner", "other"
    header_start = None  # index of the first non-space character of the current header
    found = []
    line = 1
    starts = []  # per open function: (start line, header text)
    for i, c in enumerate(src):
        if c == "\n":
            line += 1
            continue
        in_function = any(k == "function" for k in stack)
        if in_function:
            if c == "{":
                stack.append("inner")
            elif c == "}":
                kind = stack.pop()
                if kind == "function":
                    first, head = starts.pop()
                    found.append((head, first, line))
                    header_start = None
            continue
        if c == "{":
            if header_start is not None:  # skip access labels: the header starts after them
                m = re.match(r"(\s*(public|private|protected)\s*:(?!:))+\s*", src[header_start:i])
                if m:
                    header_start += m.end()
            head = src[header_start:i] if header_start is not None else ""
            before_paren = re.sub(r"\btemplate\s*<[^{}]*?>", " ", head).split("(")[0]
            if SCOPE_WORDS.search(before_paren) or head.strip() in ("", "extern") or "(" not in head:
                # a scope, or a brace initialiser at scope level
                kind = "scope" if SCOPE_WORDS.search(before_paren) or head.strip() in ("", "extern") else "other"
                stack.append(kind)
                if kind == "scope":
                    header_start = None
                continue
            if re.search(r"=\s*$", head) or (re.search(r"=", before_paren) and "operator" not in before_paren):
                stack.append("other")
                continue
            if re.search(r"[:,]\s*[\w:<>]+\s*$", head) and re.search(r"\)\s*:", head):
                stack.append("other")  # brace-initialised member in an initializer list
                continue
            name = re.findall(r"([\w:~<>=!+\-*/\[\]]+)\s*\(", head)
            starts.append((src.count("\n", 0, header_start) + 1, name[0] if name else "?"))
            stack.append("function")
            continue
        if c == "}":
            kind = stack.pop() if stack else "scope"
            if kind != "other":
                header_start = None
            continue
        if c == ";":
            header_start = None
            continue
        if header_start is None and not c.isspace():
            header_start = i
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isfile(p):
            files.append(p)
        for root, dirs, names in os.walk(p):
            dirs.sort()
            files += [os.path.join(root, f) for f in sorted(names) if f.endswith((".cpp", ".h", ".hpp", ".cc"))]
    bad = 0
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for name, first, last in functions(fh.read()):
                length = last - first + 1
                if length > a.max:
                    print(f"{f}:{first}: {name} is {length} lines (limit {a.max})")
                    bad += 1
    print(f"{bad} function(s) over {a.max} lines in {len(files)} files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
