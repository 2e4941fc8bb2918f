#!/usr/bin/env python3
"""The house rules that a reader can check by counting (docs/testing.md#house-rules):
functions under actors/ and app/store/ of at most 60 lines, source files of at most 400 lines,
a README of at most 300 lines. scripts/check-house.sh runs this and the duplicates check."""
import re
import subprocess
import sys

FUNCTION_LINES = 60
FILE_LINES = 400
README_LINES = 300
FUNCTION_DIRS = ("actors/", "app/store/")
SOURCE_ENDINGS = (".cpp", ".hpp", ".h", ".py", ".sh", ".java", ".cmake", "CMakeLists.txt")


def blank_out_literals(src):
    """The text with comments, strings and character literals emptied, newlines kept, so braces in
    them do not count."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * src.count("\n", i, j))
            i = j
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', src[i:i + 24])
        if raw and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = ")" + raw.group(1) + '"'
            j = src.find(end, i + raw.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * src.count("\n", i, j))
            i = j
            continue
        c = src[i]
        # a quote after a digit or letter is a digit separator (1'000) or part of a name, not a literal
        if c == '"' or (c == "'" and not (i > 0 and src[i - 1].isalnum())):
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|try)\b")


def classify(head, parent):
    """What a '{' opens, from the text since the previous ';', '{' or '}'."""
    h = " ".join(head.split())
    before_paren = h.split("(")[0]
    if re.search(r"\bnamespace\b", h) or h.startswith('extern "'):
        return "namespace"
    if parent in ("namespace", "class"):
        if re.search(r"\b(class|struct|union|enum)\b", before_paren.split(":")[0]):
            return "class"
        plain = before_paren.replace("operator==", "").replace("operator=", "")
        if "(" in h and not CONTROL.search(before_paren) and "=" not in plain:
            return "function"
    return "block"  # a lambda, a control block or an initialiser: part of what encloses it


def functions(path):
    """(first line, last line, header) of every function defined in a C++ file; a lambda counts
    as part of the function that holds it."""
    text = blank_out_literals(open(path, encoding="utf-8", errors="replace").read())
    stack, found, line, last = [], [], 1, 0
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            head = text[last:i]
            first = line - head.count("\n") + (len(head) - len(head.lstrip("\n")))
            parent = stack[-1][0] if stack else "namespace"
            stack.append((classify(head, parent), first, " ".join(head.split())))
        elif c == "}" and stack:
            kind, first, header = stack.pop()
            if kind == "function":
                found.append((first, line, header))
        if c in ";{}":
            last = i + 1
    return found


def tracked_files():
    return subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()


def main():
    problems = []
    files = tracked_files()
    for path in files:
        if path.endswith(SOURCE_ENDINGS):
            with open(path, encoding="utf-8", errors="replace") as f:
                n = sum(1 for _ in f)
            if n > FILE_LINES:
                problems.append(f"{path}: {n} lines; a source file holds at most {FILE_LINES}")
        if path.startswith(FUNCTION_DIRS) and path.endswith((".cpp", ".hpp")):
            for first, last, header in functions(path):
                if last - first + 1 > FUNCTION_LINES:
                    problems.append(f"{path}:{first}: {last - first + 1} lines in {header[:80]}; "
                                    f"a function under {' and '.join(FUNCTION_DIRS)} has at most {FUNCTION_LINES}")
    with open("README.md", encoding="utf-8") as f:
        n = sum(1 for _ in f)
    if n > README_LINES:
        problems.append(f"README.md: {n} lines; the front door has at most {README_LINES}")
    for p in problems:
        print(p)
    counted = sum(1 for p in files if p.startswith(FUNCTION_DIRS) and p.endswith((".cpp", ".hpp")))
    print(f"house rules: {len(problems)} problem(s) in {len(files)} tracked files "
          f"({counted} under {' and '.join(FUNCTION_DIRS)} read function by function)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
