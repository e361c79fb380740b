#!/usr/bin/env python3
"""Docs that quote program output are checked against the program (issue 14, item 4).

Every fenced block of README.md, docs/tutorial.md, docs/startup.md, docs/workloads.md and docs/interop.md that starts with a `$ build/trnsim ...`
command and quotes output is re-run (from the repository root, with BUILD_DIR's trnsim) and compared line by line with the quote (stdout; stderr too when the quote shows a `sim:` or error line).
Normalised before comparing: wall-clock figures ("0.398 s wall", "real 0m18s"), events/s, the
build's commit and the checkout's absolute path. A quoted line "..." skips any number of output lines. Blocks whose
commands print nothing quoted (only `$` lines) are not run. `make demo`'s block in the README
is the output of `trnsim startup qwen3-32b-trn2`. A command quoted more than once runs once. A command marked `  # slow` at the end of its
line (minutes of simulation, such as the tutorial's `trnsim plan` of a 70B model on a thousand
chips) is re-run only with --slow; without it the count of those left out is printed.
The tutorial's arithmetic is recomputed from the printed lines: every `A + B ... = R` of its prose
(operators + - − × x /, parentheses, ceil) must hold for R's last digit, and every operand or
result written with four or more decimals (the reports' seconds) must be a number its quoted
outputs print, so a figure copied wrong (0.7403 for a printed 0.7402) cannot make the sum right.
Usage: tools/check_doc_outputs.py BUILD_DIR [--update] [--slow] [FILE...]; exit 1 and a diff when a quote
is stale. --update rewrites stale quotes in place: a whole quote becomes the output; in a quote
with "..." each quoted line is replaced by the output line with the same label (the text before
its first number; among several, the most similar one, such as a table row by its layout).
"""
import concurrent.futures, difflib, math, os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
update = "--update" in sys.argv
slow = "--slow" in sys.argv
files = [a for a in sys.argv[2:] if a not in ("--update", "--slow")] or ["README.md", "docs/tutorial.md", "docs/startup.md", "docs/workloads.md", "docs/interop.md"]
trnsim = os.path.join(build, "trnsim")

WALL = [(re.compile(r"\d+(\.\d+)? s wall"), "<T> s wall"),
        (re.compile(r"\d+(\.\d+)? ?M events/s"), "<N>M events/s"),
        (re.compile(r"real\s+\S+"), "real <T>"),
        (re.compile(r"(commit|build) [0-9a-f]{7,40}"), r"\1 <COMMIT>"),
        # The checkout's absolute path (error messages name files by it): /work/main/workloads/...
        (re.compile(r"/[^\s:'\"]*?/(workloads|hw|docs)/"), r"<repo>/\1/")]


def norm(line):
    line = line.rstrip()
    for rx, rep in WALL:
        line = rx.sub(rep, line)
    return line


def blocks(text):
    for m in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S):
        lines = m.group(1).splitlines()
        start = text[:m.start()].count("\n") + 2
        yield start, lines


def matches(quoted, got):
    """quoted lines (with "..." wildcards) against the output lines."""
    def rec(i, j):
        while i < len(quoted):
            if quoted[i].strip() == "...":
                return any(rec(i + 1, k) for k in range(j, len(got) + 1))
            if j >= len(got) or norm(quoted[i]) != norm(got[j]):
                return False
            i, j = i + 1, j + 1
        return j == len(got)
    return rec(0, 0)


def command(cmd):
    """The trnsim command a quoted command runs (`make demo`: the demo's startup)."""
    return "build/trnsim startup qwen3-32b-trn2" if cmd.startswith("make demo") else cmd


def run(cmd, with_stderr):
    cmd = command(cmd).replace("build/trnsim", trnsim)
    p = subprocess.run(["bash", "-c", cmd], cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if with_stderr else subprocess.DEVNULL, text=True,
                       env=dict(os.environ, TRNSIM_PROGRESS_AFTER="1e9"))
    return p.stdout.splitlines()


def label(line):
    m = re.match(r"\s*([^\d]*?)\s*[-+]?\d", line)
    return m.group(1) if m else line.strip()


def refreshed(out, got):
    if not any(o.strip() == "..." for o in out):
        return got
    new = []
    for o in out:
        cand = [g for g in got if o.strip() != "..." and label(g) == label(o)]
        if len(cand) > 1:  # rows of a table (label "  " before the rank): the most similar one
            score = sorted(((difflib.SequenceMatcher(None, o, g).ratio(), g) for g in cand), reverse=True)
            cand = [score[0][1]] if score[0][0] >= 0.8 and score[0][0] > score[1][0] else []
        new.append(cand[0] if len(cand) == 1 else o)
    return new


NUM = r"\d[\d,]*(?:\.\d+)?"
ARITH = re.compile(rf"((?:ceil\()?[( ]*{NUM}(?:[ )]*[-+×x*/−][ (]*{NUM})+[ )]*)= *({NUM})")
ARITH_FILES = ["docs/tutorial.md"]


def arithmetic_problems(f, text):
    """The tutorial's `... = R` lines against the numbers its quoted outputs print."""
    printed = set()
    for _, lines in blocks(text):
        for l in lines:
            printed.update(re.findall(r"\d+\.\d+", l))
    prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    problems = []
    for m in ARITH.finditer(prose):
        expr, result = m.group(1).strip(), m.group(2)
        if expr.count("(") != expr.count(")"):
            continue  # a parenthesis of the prose around the expression
        where = f"{f}:{prose[:m.start()].count(chr(10)) + 1}: {expr} = {result}"
        for n in re.findall(NUM, expr) + [result]:
            if "." in n and len(n.split(".")[1]) >= 4 and n not in printed:
                problems.append(f"{where}: {n} is not a number the quoted outputs print")
        py = expr.replace(",", "").replace("×", "*").replace("x", "*").replace("−", "-").replace("ceil", "_ceil")
        value = eval(py, {"__builtins__": {}}, {"_ceil": math.ceil})
        r = float(result.replace(",", ""))
        decimals = len(result.split(".")[1]) if "." in result else 0
        tolerance = 0.5 * 10 ** -decimals + 1e-9
        if result in printed:  # a printed total may differ from the sum of printed parts by their rounding
            tolerance += sum(0.5 * 10 ** -len(n.split(".")[1]) for n in re.findall(NUM, expr) if "." in n)
        if abs(value - r) > tolerance:
            problems.append(f"{where}: the left side is {value:.{decimals + 2}f}")
    return problems


# Collect every (file, line, command, quote) first, run them two at a time, then compare.
jobs = []
skipped_slow = 0
for f in files:
    text = open(os.path.join(root, f)).read()
    for line_no, lines in blocks(text):
        if not lines or not lines[0].startswith(("$ build/trnsim", "$ make demo")):
            continue
        pairs, cur = [], None  # (command, quoted output, marked slow)
        for l in lines:
            if l.startswith("$ "):
                cur = [l[2:].split("  #")[0].strip(), [], "  # slow" in l]
                pairs.append(cur)
            elif cur is not None:
                cur[1].append(l)
        for cmd, out, is_slow in pairs:
            while out and not out[-1].strip():
                out.pop()
            if out and is_slow and not slow:
                skipped_slow += 1
            elif out:
                jobs.append((f, line_no, cmd, out))

def wants_stderr(out):
    """The `sim: N events ...` line and error messages go to stderr: compared only when quoted."""
    return any(o.startswith(("sim:", "trnsim: error", "error")) for o in out)


def execute(job):
    return run(job[2], wants_stderr(job[3]))

# Blocks of a file in ORDERED read what an earlier block of it writes (docs/interop.md: the
# export, then runs of the exported traces): that file's jobs run one after another, in order.
# The same command quoted twice (in one file or two, outside ORDERED) runs once: the program
# is deterministic, and each quote is compared with that one output.
ORDERED = {"docs/interop.md"}
def key(job):
    return command(job[2]), wants_stderr(job[3])
first = {}  # key -> the job that runs it
same = {}   # job -> the job whose output it takes
tasks = []
for i, j in enumerate(jobs):
    if j[0] in ORDERED:
        continue
    if key(j) in first:
        same[i] = first[key(j)]
    else:
        first[key(j)] = i
        tasks.append([i])
for f in ORDERED:
    chain = [i for i, j in enumerate(jobs) if j[0] == f]
    if chain:
        tasks.append(chain)
outputs = [None] * len(jobs)
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
    for task, got in zip(tasks, ex.map(lambda t: [execute(jobs[i]) for i in t], tasks)):
        for i, g in zip(task, got):
            outputs[i] = g
for i, k in same.items():
    outputs[i] = outputs[k]

stale, checked = 0, len(jobs)
fixes = {}
for (f, line_no, cmd, out), got in zip(jobs, outputs):
    if matches(out, got):
        continue
    stale += 1
    if update:
        fixes.setdefault(f, []).append((out, refreshed(out, got)))
    print(f"STALE {f}:{line_no}: $ {cmd}")
    for d in difflib.unified_diff([norm(x) for x in out], [norm(x) for x in got], "quoted", "now", lineterm="", n=1):
        print("   " + d)
for f in files:
    if f in ARITH_FILES:
        for problem in arithmetic_problems(f, open(os.path.join(root, f)).read()):
            stale += 1
            print(f"WRONG {problem}")
for f, fx in fixes.items():
    text = open(os.path.join(root, f)).read()
    for old_lines, new_lines in fx:
        text = text.replace("\n".join(old_lines) + "\n", "\n".join(new_lines) + "\n", 1)
    open(os.path.join(root, f), "w").write(text)
    print(f"updated {len(fx)} quotes in {f}")
print(f"{checked} quoted outputs checked, {stale} stale" +
      (f"; {skipped_slow} marked slow not re-run (--slow runs them)" if skipped_slow else ""))
sys.exit(1 if stale else 0)
