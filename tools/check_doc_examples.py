#!/usr/bin/env python3
"""Every trnsim command example of the --help texts, README.md, CONTRIBUTING.md and docs/*.md runs (issue 28, item 3).

The examples are extracted from their sources each time, never copied here:

- docs: every `build/trnsim ...` command of a fenced block of README.md and docs/*.md (with or
  without a leading `$ `, continuation lines joined; also `parallel build/trnsim ...` and
  `PYTHONPATH=build/python python3 ...`), and every inline `trnsim ...` or `build/trnsim ...`
  span that is a whole command. Synopses are not examples: a command with a placeholder
  (an upper-case word such as SCENARIO or FILE, `[...]`, `|` between words, `...`) is left out.
  Commands that tools/check_doc_outputs.py re-runs (docs_fresh: the quoted outputs of its
  files) are counted as run there, and so is a command written word for word as one of those
  or as one run earlier (the same deterministic run). A command marked `# slow: REASON` (or `# slow (REASON)`) at
  the end of its line (an inline span: `<!-- slow: REASON -->` right after it) runs only with
  --slow; a slow mark without a reason is an error.
- --help: every "e.g. VALUE" (or "e.g. A or B") of an option of `trnsim SUB --help` is passed to
  that option on a small command of SUB (a 2-layer model, one instance); an "e.g." of a
  positional argument must name an existing file (a glob).

A command passes when it exits 0, or, where the doc quotes an error line after it
(`trnsim: error: ...`), exits 2 with that line (paths of the checkout normalised); a quoted
`rc=N` must be printed. The commands run in document order in a scratch directory holding
copies of hw/, workloads/, docs/ and test/data/ (so an example that writes a calibration file
writes the copy) and `build` pointing at BUILD_DIR.

Usage: tools/check_doc_examples.py BUILD_DIR [--slow] [--list] [--only SUBSTRING]
"""
import concurrent.futures, glob, os, re, shutil, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
build = os.path.abspath(args[0] if args else "build")
slow = "--slow" in sys.argv
listing = "--list" in sys.argv
only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
trnsim = os.path.join(build, "trnsim")
sys.path.insert(0, os.path.join(root, "tools"))

DOCS = ["README.md", "CONTRIBUTING.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
FRESH = ["README.md", "docs/tutorial.md", "docs/startup.md", "docs/workloads.md", "docs/interop.md"]  # check_doc_outputs.py's files
START = re.compile(r"^(\$ )?((parallel |PYTHONPATH=build/python )?(build/trnsim|python3) .*|mkdir -p [\w/.-]+)$")
SLOW = re.compile(r"^#\s*slow(?::\s*(\S.*)|\s*\((.+)\))?\s*$")  # the comment after a command
PLACEHOLDER = re.compile(r"(^|\s)([A-Z][A-Z_]*[A-Z](\.\.\.)?|[A-Z])(\s|$|=|\.|,)|\[|\.\.\.|\w\|\w|<\w")


def norm(line):
    line = re.sub(r"/[^\s:'\"]*?/(workloads|hw|docs|test)/", r"<repo>/\1/", line.rstrip())
    return line


class Example:
    def __init__(self, where, cmd, quoted=(), slow_reason=None, fresh=False, inline=False):
        self.where, self.cmd, self.quoted, self.slow_reason, self.fresh = where, cmd, list(quoted), slow_reason, fresh
        self.inline = inline
        self.error = next((q for q in self.quoted if q.startswith("trnsim: error")), None)
        self.rc = next((q for q in self.quoted if re.fullmatch(r"rc=\d+", q.strip())), None)


def strip_comment(cmd):
    """The command without its trailing `  # comment` (a '#' inside quotes stays)."""
    out, quote = [], None
    for i, ch in enumerate(cmd):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and i > 0 and cmd[i - 1].isspace():
            return "".join(out).rstrip(), cmd[i:]
        out.append(ch)
    return "".join(out).rstrip(), ""


def is_trnsim(cmd):
    # `mkdir -p DIR` lines are kept as the set-up of the commands after them
    return "build/trnsim" in cmd or ("python3" in cmd and "import trnsim" in cmd) or cmd.startswith("mkdir -p ")


def fenced(f, text):
    for m in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S):
        lines = m.group(1).splitlines()
        first = text[:m.start()].count("\n") + 2
        # check_doc_outputs.py re-runs the blocks whose first line is a `$ build/trnsim` command
        block_checked = bool(lines) and lines[0].startswith(("$ build/trnsim", "$ make demo"))
        i = 0
        while i < len(lines):
            s = START.match(lines[i])
            if not s:
                i += 1
                continue
            line_no, cmd = first + i, s.group(2)
            while cmd.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd.rstrip()[:-1].rstrip() + " " + lines[i].strip()
            quoted = []
            while i + 1 < len(lines) and not START.match(lines[i + 1]):
                i += 1
                quoted.append(lines[i])
            i += 1
            cmd, comment = strip_comment(cmd)
            if not is_trnsim(cmd) or PLACEHOLDER.search(cmd):
                continue
            mark = SLOW.search(comment) if comment else None
            reason = (mark.group(1) or mark.group(2) or "") if mark else None
            fresh = (f in FRESH and block_checked and s.group(1) is not None and any(q.strip() for q in quoted)
                     and reason is None)
            yield Example(f"{f}:{line_no}", cmd, quoted, reason, fresh)


INLINE_SLOW = re.compile(r"\s*<!--\s*slow(?::\s*(.*?))?\s*-->")


def inline(f, text):
    for m in re.finditer(r"`((?:build/)?trnsim [^`]+)`", text):
        cmd = " ".join(m.group(1).split())
        mark = INLINE_SLOW.match(text, m.end())  # `trnsim ...` <!-- slow: WHY -->
        words = cmd.split()
        # A mention of a command ("`trnsim bench matmul`", "`trnsim run --json`") is not an example.
        if PLACEHOLDER.search(cmd) or len(words) < 3 or words[-1].startswith("--") or words[1] == "bench" and len(
                words) < 4:
            continue
        if not cmd.startswith("build/"):
            cmd = "build/" + cmd
        reason = (mark.group(1) or "") if mark else None
        yield Example(f"{f}:{text[:m.start()].count(chr(10)) + 1}", cmd, slow_reason=reason, inline=True)


def doc_examples():
    seen, out = set(), []
    for f in DOCS:
        text = open(os.path.join(root, f)).read()
        for ex in list(fenced(f, text)) + list(inline(f, text)):
            if ex.cmd in seen and not ex.quoted:
                continue  # the same command again, without a quote of its own
            seen.add(ex.cmd)
            out.append(ex)
    return out


# ---- --help ----------------------------------------------------------------------------------
SUBCOMMANDS = ["run", "startup", "plan", "sweep", "merge", "report", "flexattention", "inference-compile", "bench collective",
               "bench matmul", "bench hbm", "show", "calibrate", "calibrate-runtime", "calibrate-collectives",
               "config-reference", "export chakra"]
# A small command of each subcommand that an option example is added to: option -> value (None: a
# flag or positional words). An option given by the example replaces the base's. run, startup and
# plan skip the intervals' re-simulations (--no-intervals): an option's example checks that the
# option is read, and test/cli/intervals.sh checks the intervals.
TINY = ["--set", "model.num_layers=2"]
BASES = {
    "run": [("qwen3-32b-trn2",), ("--set", "model.num_layers=2"), ("--no-intervals",)],
    "startup": [("qwen3-32b-trn2",), ("--set", "model.num_layers=2"), ("--no-intervals",)],
    "plan": [("--model", "llama3.1-8b"), ("--tokens", "1e9"), ("--systems", "trn2.48xlarge"), ("--max-chips", "16"),
             ("--global-batch", "16"), ("--set", "model.num_layers=2"), ("--tp", "8"), ("--pp", "1"),
             ("--max-fsdp", "2"), ("--microbatch-sequences", "1"), ("--checkpointing", "none"), ("--no-intervals",)],
    "bench collective": [("--system", "trn2.48xlarge"), ("--ranks", "16"), ("--sizes", "1MiB")],
    "bench matmul": [("--chip", "trn2"), ("--m", "128"), ("--n", "128"), ("--k", "128")],
    "bench hbm": [("--chip", "trn2"), ("--bytes", "1MiB")],
    "inference-compile": [("--model", "qwen3-8b"), ("--seq", "4096"), ("--no-intervals",)],
    "export chakra": [("qwen3-32b-trn2",), ("--set", "model.num_layers=2"), ("--out", "et-help")],
}
# Options that only make sense with another: what the example needs besides the base.
NEEDS = {("run", "--system"): [("--model", "qwen3-8b")], ("startup", "--system"): [("--model", "qwen3-8b")],
         ("run", "--trace-window"): [("--trace", "t.json")]}
DROPS = {("run", "--system"): ["qwen3-32b-trn2"], ("startup", "--system"): ["qwen3-32b-trn2"],
         ("plan", "--rank-by"): ["--no-intervals"]}  # a quantile ranks by the intervals


VALUE = r'(?:"[^"]*"|[^\s;)"])+'  # a value as the shell reads it: chip.hbm.bandwidth="3.0 TB/s"
EG = rf"e\.g\. ((?:--[\w-]+ )?{VALUE}(?: or {VALUE})*)"


def help_examples():
    out = []
    for sub in SUBCOMMANDS:
        text = subprocess.run([trnsim] + sub.split() + ["--help"], stdout=subprocess.PIPE, text=True).stdout
        name = None
        for line in text.splitlines():
            m = re.match(r"  (-\w,)?(--[\w-]+|\w+)\b", line)
            if m:
                name = m.group(2)
            elif not line.startswith("      "):
                name = None
            for eg in re.finditer(EG, line):
                if name:
                    for value in eg.group(1).split(" or "):
                        out.append(help_example(sub, name, value.rstrip(",.")))
    return [e for e in out if e]


def help_example(sub, option, value):
    where = f"trnsim {sub} --help, {option}"
    if not option.startswith("--"):  # a positional's example names files
        return Example(where, f"ls -d {value} > /dev/null")
    quote = not value.startswith('"')
    if value.startswith("--"):  # the example is the whole option, as the shell reads it: --set k="v"
        option, value = value.split(" ", 1)
        quote = False
    if sub not in BASES:
        return Example(where, f"build/trnsim {sub} {option} {value}")
    words = [w for pair in BASES[sub] + NEEDS.get((sub, option), []) if pair[0] != option or option == "--set"
             for w in pair if w not in DROPS.get((sub, option), [])]
    value = "'" + value + "'" if quote else value
    return Example(where, "build/trnsim " + sub + " " + " ".join(words) + f" {option} {value}")


# ---- running ---------------------------------------------------------------------------------
def scratch():
    d = tempfile.mkdtemp(prefix="trnsim-examples.")
    for sub in ("hw", "workloads"):
        shutil.copytree(os.path.join(root, sub), os.path.join(d, sub), ignore=shutil.ignore_patterns("*.cpp", "*.h"))
    shutil.copytree(os.path.join(root, "test", "data"), os.path.join(d, "test", "data"))
    shutil.copytree(os.path.join(root, "docs"), os.path.join(d, "docs"))  # config-reference --out docs/...
    os.symlink(build, os.path.join(d, "build"))
    os.makedirs(os.path.join(d, "path", "to"))  # README: --model path/to/config.json
    shutil.copy(os.path.join(root, "test", "data", "hf", "qwen3-32b.json"), os.path.join(d, "path", "to", "config.json"))
    return d


def run(ex, cwd):
    t0 = time.monotonic()
    why = outcome(ex, cwd)
    ex.seconds = time.monotonic() - t0
    return why


def outcome(ex, cwd):
    p = subprocess.run(["bash", "-o", "pipefail", "-c", ex.cmd], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=dict(os.environ, TRNSIM_PROGRESS_AFTER="1e9"))
    err_lines = [l for l in p.stderr.splitlines() if l.startswith("trnsim: error")]
    if ex.rc:
        return None if ex.rc.strip() in p.stdout.splitlines() else f"no '{ex.rc.strip()}' in the output"
    if ex.error:
        if p.returncode != 2:
            return f"exit status {p.returncode}, expected 2 (the doc quotes an error)"
        if not err_lines or norm(err_lines[0]) != norm(ex.error):
            return f"error line differs:\n      quoted: {ex.error}\n      now:    {err_lines[0] if err_lines else ''}"
        return None
    if p.returncode == 2 and ex.inline and err_lines and "does not exist" in err_lines[0]:
        return "SKIP"  # an inline mention of a file the text around it makes (`trnsim run bad.yaml`)
    if p.returncode != 0:
        return f"exit status {p.returncode}: {(err_lines or p.stderr.splitlines() or [''])[0][:300]}"
    return None


def report(e, why):
    # The time is for the reader deciding what to mark slow; nothing depends on it.
    tag = "ok  " if why is None else "skip" if why == "SKIP" else "FAIL"
    print(f"{tag} {e.where}: {e.cmd}  [{e.seconds:.1f} s]" + (f"\n      {why}" if tag == "FAIL" else ""), flush=True)
    return tag == "FAIL"


def main():
    docs = doc_examples()
    examples = docs + help_examples()
    if only:
        examples = [e for e in examples if only in e.cmd or only in e.where]
    bad_marks = [e for e in examples if e.slow_reason == ""]
    for e in bad_marks:
        print(f"FAIL {e.where}: marked slow without a reason (write '# slow: WHY')")
    todo = [e for e in examples if not e.fresh and (e.slow_reason is None or slow)]
    # A command written word for word as one docs_fresh re-runs, or as one run earlier here,
    # is the same deterministic run: counted once (an expected error or rc= is checked each time).
    done, kept = {e.cmd for e in examples if e.fresh}, []
    for e in todo:
        if e.error is not None or e.rc is not None or e.cmd not in done:
            kept.append(e)
        done.add(e.cmd)
    repeats, todo = len(todo) - len(kept), kept
    if listing:
        for e in examples:
            tag = "fresh" if e.fresh else "slow" if e.slow_reason else "run"
            print(f"{tag:5} {e.where}: {e.cmd}")
        return 0
    # Documents in order (an example may read what an earlier one wrote); the --help examples,
    # independent of each other, two at a time.
    d = scratch()
    failures = len(bad_marks)
    try:
        help_todo = [e for e in todo if "--help" in e.where]
        for e in [e for e in todo if "--help" not in e.where]:
            failures += report(e, run(e, d))
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
            for e, why in zip(help_todo, ex.map(lambda e: run(e, d), help_todo)):
                failures += report(e, why)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    fresh = sum(e.fresh for e in examples)
    slow_left = sum(1 for e in examples if e.slow_reason and not slow and not e.fresh)
    print(f"{len(todo)} examples run, {failures} failed; {fresh} run by docs_fresh (tools/check_doc_outputs.py)"
          + f"; {repeats} repeat a command run already"
          + (f"; {slow_left} marked slow not run (--slow runs them)" if slow_left else ""))
    return 1 if failures else 0


sys.exit(main())
