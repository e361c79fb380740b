#!/usr/bin/env python3
"""The Python module against the CLI (ctest "python: module", run with /usr/bin/python3 and
PYTHONPATH=BUILD/python).

- the worked example, the error example and the pandas example of docs/python.md, taken from
  the page and run, print what the page quotes;
- the done-when command (`python3 -c "import trnsim; print(trnsim.run(...)[...])"`) prints
  the figure of `trnsim run qwen3-32b-trn2 --json`, and the dicts returned by run, startup and
  bench_collective equal the CLI's --json documents apart from sim.wall_s;
- errors arrive as trnsim.Error with the CLI's message and exit status; Ctrl-C raises
  KeyboardInterrupt; no child process is left behind;
- report() writes the CLI's page byte for byte; sweep(axes=..., scenario=...) writes the rows
  of the same sweep written as a file and run by the CLI; progress=True draws the CLI's
  progress lines on stderr, progress=None (no terminal here) none.

Usage: test_trnsim.py PATH/TO/trnsim SOURCE_DIR
"""
import contextlib
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import trnsim

TRNSIM, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DONE_WHEN = "import trnsim; print(trnsim.run('qwen3-32b-trn2')['steady']['tokens_per_s'])"
failures = []
skipped = []  # what could not be checked here (a missing optional module)


def check(desc, ok, *detail):
    print(("ok - " if ok else "FAIL - ") + desc)
    if not ok:
        failures.append(desc)
        for line in detail:
            print("    " + str(line))


def doc_blocks():
    """{name: (code, quoted output)} of the blocks marked python-test / python-test-output."""
    text = open(os.path.join(SRC, "docs/python.md"), encoding="utf-8").read()
    found = {}
    for m in re.finditer(r"<!-- python-test(-output)?: ([\w-]+) -->\n```[a-z]*\n(.*?)```", text, re.S):
        code, out = found.get(m.group(2), ("", ""))
        found[m.group(2)] = (code, m.group(3)) if m.group(1) else (m.group(3), out)
    return found


def run_block(name, blocks, ns):
    """Runs a block of the page in `ns` and compares what it prints with the quoted output."""
    code, quoted = blocks[name]
    out = io.StringIO()
    t0 = time.time()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "docs/python.md:" + name, "exec"), ns)
    except Exception as e:  # reported as a failure, the other checks still run
        check("docs/python.md %s runs" % name, False, repr(e))
        return
    got = out.getvalue()
    diff = [l for l in zip(got.splitlines(), quoted.splitlines()) if l[0] != l[1]]
    check("docs/python.md %s prints its quoted output (%.1f s)" % (name, time.time() - t0), got == quoted,
          *["got:    %r\n    quoted: %r" % d for d in diff[:5]], "got %d lines, quoted %d" % (
              len(got.splitlines()), len(quoted.splitlines())))


def cli(*args, json_out=True):
    """Runs the CLI (with --json unless json_out is False); returns (exit status, stdout, stderr,
    the JSON or None)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = subprocess.run([TRNSIM, *args, *(["--json", path] if json_out else [])], capture_output=True, text=True)
        doc = json.load(open(path)) if os.path.exists(path) else None
    return p.returncode, p.stdout, p.stderr, doc


def no_wall(doc):
    if isinstance(doc, dict):
        return {k: no_wall(v) for k, v in doc.items() if k != "wall_s"}
    if isinstance(doc, list):
        return [no_wall(v) for v in doc]
    return doc


def same_as_cli(desc, got, cli_args):
    rc, _, err, doc = cli(*cli_args)
    check(desc + " == trnsim " + " ".join(cli_args) + " --json", rc == 0 and no_wall(got) == no_wall(doc),
          "exit %d, %s" % (rc, err.strip()))


def test_done_when(ns):
    t0 = time.time()
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(trnsim.__file__)))
    p = subprocess.run([sys.executable, "-c", DONE_WHEN], capture_output=True, text=True, env=env)
    rc, out, err, doc = cli("run", "qwen3-32b-trn2")
    figure = doc["steady"]["tokens_per_s"] if doc else None
    check("done-when command prints the CLI's tokens_per_s (%s, %.1f s)" % (p.stdout.strip(), time.time() - t0),
          p.returncode == 0 and p.stdout.strip() == repr(figure), p.stderr, err)
    check("the CLI's text report rounds the same figure",
          figure is not None and re.search(r"throughput\s+%.0f tokens/s" % figure, out) is not None, out)
    if "compiled" in ns and doc:
        check("example's run(mode='compiled') == trnsim run qwen3-32b-trn2 --json",
              no_wall(ns["compiled"]) == no_wall(doc))
    if "eager" in ns:
        same_as_cli("example's run(mode='eager')", ns["eager"], ["run", "qwen3-32b-trn2", "--mode", "eager"])


def test_commands(work):
    sets = {"model.num_layers": 2, "parallel.tp": 8, "parallel.fsdp": 8, "system.chip.hbm.bandwidth": "3 TB/s"}
    cli_sets = sum((["--set", "%s=%s" % kv] for kv in sets.items()), [])
    path = os.path.join(work, "run.json")
    r = trnsim.run("qwen3-32b-trn2", set=sets, mode="eager", json=path)
    same_as_cli("run(set={...}, mode='eager')", r, ["run", "qwen3-32b-trn2", "--mode", "eager", *cli_sets])
    check("run(json=FILE) writes the returned document", json.load(open(path)) == r)
    check("run() has the JSON's keys", list(r) == ["schema_version", "trnsim_version", "inputs_hash", "scenario", "mode",
                                                   "system", "model", "precision", "steady",
                                                 "memory", "roofline", "sim"], list(r))
    s = trnsim.startup("qwen3-32b-trn2", set={"model.num_layers": 2}, cache="warm", price_per_hour=40)
    same_as_cli("startup(...)", s, ["startup", "qwen3-32b-trn2", "--set", "model.num_layers=2", "--cache", "warm",
                                    "--price-per-hour", "40"])
    check("startup() has the JSON's keys", {"verdict", "eager", "compiled", "break_even", "cost"} <= set(s), list(s))
    m = trnsim.run(model="qwen3-8b", system="trn2.48xlarge", set={"model.num_layers": 2})
    same_as_cli("run(model=..., system=...) without a scenario", m,
                ["run", "--model", "qwen3-8b", "--system", "trn2.48xlarge", "--set", "model.num_layers=2"])
    b = trnsim.bench_collective(system="trn1.32xlarge", instances=2, ranks=64, op="all-gather",
                                sizes=["1MiB", "16MiB"], dtype="bf16", set={"chip.hbm.bandwidth": "3 TB/s"})
    same_as_cli("bench_collective(...)", b, ["bench", "collective", "--system", "trn1.32xlarge", "--instances", "2",
                                             "--ranks", "64", "--op", "all-gather", "--sizes", "1MiB,16MiB",
                                             "--dtype", "bf16", "--set", "chip.hbm.bandwidth=3 TB/s"])
    check("bench_collective() rows have size_bytes, time_s, busbw_GBps",
          len(b["rows"]) == 2 and all({"size_bytes", "time_s", "busbw_GBps"} <= set(row) for row in b["rows"]), b)
    mm = trnsim.bench_matmul(chip="trn2", m=512, n=1024, k=256, dtype="fp8")
    same_as_cli("bench_matmul(...)", mm, ["bench", "matmul", "--chip", "trn2", "--m", "512", "--n", "1024", "--k", "256",
                                          "--dtype", "fp8"])
    check("bench_matmul() is the shape asked for", (mm["m"], mm["n"], mm["k"], mm["dtype"]) == (512, 1024, 256, "fp8"), mm)
    hb = trnsim.bench_hbm(chip="trn2", cores=8, bytes="64MiB")
    same_as_cli("bench_hbm(...)", hb, ["bench", "hbm", "--chip", "trn2", "--cores", "8", "--bytes", "64MiB"])
    check("bench_hbm() streams 64 MiB on 8 cores", (hb["cores"], hb["bytes_per_core"]) == (8, 64 << 20), hb)
    pl = trnsim.plan(model="llama3.1-8b", tokens=1e10, systems=["trn2.48xlarge"], max_chips=64, global_batch=[64],
                     set={"model.num_layers": 2}, tp=[4], pp=[1], max_fsdp=2, microbatch_sequences=[1],
                     checkpointing=["none"], rank_by="chips", deadline="0.1d", intervals=False, jobs=2)
    same_as_cli("plan(...)", pl, ["plan", "--model", "llama3.1-8b", "--tokens", "1e10", "--systems", "trn2.48xlarge",
                                  "--max-chips", "64", "--global-batch", "64", "--set", "model.num_layers=2", "--tp",
                                  "4", "--pp", "1", "--max-fsdp", "2", "--microbatch-sequences", "1", "--checkpointing",
                                  "none", "--rank-by", "chips", "--deadline", "0.1d", "--no-intervals", "-j", "2"])
    ic = trnsim.inference_compile("nxdi-llama-2-7b-hf", seq=512, tp=2, sdk="2.28", buckets=True)
    same_as_cli("inference_compile(...)", ic, ["inference-compile", "--model", "nxdi-llama-2-7b-hf", "--seq", "512",
                                               "--tp", "2", "--sdk", "2.28", "--buckets"])
    check("inference_compile() lists the buckets' graphs, the priority graph first",
          len(ic["graphs"]) == 6 and ic["graphs"][0]["name"] == "token_generation_128", ic["graphs"])
    icb = trnsim.inference_compile("nxdi-llama-2-7b-hf", seq=512, tp=2, sdk="2.28", cte_buckets=[256, 512],
                                   tkg_buckets=512)
    same_as_cli("inference_compile(cte_buckets=..., tkg_buckets=...)", icb,
                ["inference-compile", "--model", "nxdi-llama-2-7b-hf", "--seq", "512", "--tp", "2", "--sdk", "2.28",
                 "--cte-buckets", "256,512", "--tkg-buckets", "512"])
    check("plan() ranks by chips: the winner meets the deadline",
          pl["plan"]["rank_by"] == "chips" and pl["candidates"][0]["time_to_train_s"] <= 0.1 * 86400, pl["plan"])


def expect_cli_error(desc, call, cli_args, strip_hint=False, json_out=True, edit=None):
    """call() raises trnsim.Error whose cli_line() and detail are the CLI's stderr (edited by
    `edit`, a function of the text, when given)."""
    rc, _, err, _ = cli(*cli_args, json_out=json_out)
    if strip_hint:
        err = err.replace(" (see trnsim --help)", "")
    if edit:
        err = edit(err)
    try:
        call()
    except trnsim.Error as e:
        got = e.cli_line() + "\n" + e.detail
        check(desc + ": the CLI's message and status", got == err and e.status == rc == 2,
              "python: %r (status %d)" % (got, e.status), "cli:    %r (status %d)" % (err, rc))
        return
    check(desc + ": raises trnsim.Error", False)


def test_errors(work):
    os.chdir(work)  # bad.yaml, written by the page's error example
    expect_cli_error("bad key in a file", lambda: trnsim.run("bad.yaml"), ["run", "bad.yaml"])
    expect_cli_error("bad --set key", lambda: trnsim.run("qwen3-32b-trn2", set={"parallel.tpp": 8}),
                     ["run", "qwen3-32b-trn2", "--set", "parallel.tpp=8"])
    expect_cli_error("does not fit in HBM",
                     lambda: trnsim.run("qwen3-32b-trn2", set={"parallel.fsdp": 1, "parallel.dp": 16}),
                     ["run", "qwen3-32b-trn2", "--set", "parallel.fsdp=1", "--set", "parallel.dp=16"])
    expect_cli_error("bad --mode", lambda: trnsim.run("qwen3-32b-trn2", mode="fast"),
                     ["run", "qwen3-32b-trn2", "--mode", "fast"], strip_hint=True)
    expect_cli_error("bad --bytes", lambda: trnsim.bench_hbm(bytes="lots"), ["bench", "hbm", "--bytes", "lots"])
    expect_cli_error("bad --sizes", lambda: trnsim.bench_collective(sizes="1MB,2"),
                     ["bench", "collective", "--sizes", "1MB,2"])
    expect_cli_error("plan by chips without a deadline",
                     lambda: trnsim.plan(model="llama3.1-8b", tokens=1e10, systems="trn2.48xlarge", rank_by="chips"),
                     ["plan", "--model", "llama3.1-8b", "--tokens", "1e10", "--systems", "trn2.48xlarge", "--rank-by",
                      "chips"])
    expect_cli_error("plan with a bad counts",
                     lambda: trnsim.plan(model="llama3.1-8b", tokens=1e10, systems="trn2.48xlarge", counts="some",
                                         batch_tolerance="5%"),
                     ["plan", "--model", "llama3.1-8b", "--tokens", "1e10", "--systems", "trn2.48xlarge", "--counts",
                      "some", "--batch-tolerance", "5%"], strip_hint=True)
    expect_cli_error("plan with a bad max_memory",
                     lambda: trnsim.plan(model="llama3.1-8b", tokens=1e10, systems="trn2.48xlarge", max_memory="lots"),
                     ["plan", "--model", "llama3.1-8b", "--tokens", "1e10", "--systems", "trn2.48xlarge",
                      "--max-memory", "lots"], strip_hint=True)
    try:
        trnsim.load_sweep("bad.yaml")
        check("load_sweep of a YAML file raises trnsim.Error", False)
    except trnsim.Error as e:
        check("load_sweep of a YAML file raises trnsim.Error (%s)" % e, e.status == 2)


def test_report(work):
    """report() writes the CLI's page byte for byte, returns its counts; errors as the CLI's."""
    os.chdir(work)  # run.json of test_commands, tiny.sqlite of the worked example
    t0 = time.time()
    got = trnsim.report("run.json", db="tiny.sqlite", html="py.html")
    rc, out, err, _ = cli("report", "run.json", "--db", "tiny.sqlite", "--html", "cli.html", json_out=False)
    same = rc == 0 and open("py.html", "rb").read() == open("cli.html", "rb").read()
    check("report(...) writes the page of trnsim report run.json --db tiny.sqlite --html (%.1f s)" % (time.time() - t0),
          same, "exit %d, %s" % (rc, err.strip()))
    summary = "report: %d steady-step results, %d first-step results; wrote cli.html\n" % (
        got["steady_step_results"], got["first_step_results"])
    check("report() returns the page and the CLI's counts", got["html"] == "py.html" and got["sweep_rows"] == 4
          and out == summary, got, out)
    expect_cli_error("report without inputs", lambda: trnsim.report(html="x.html"), ["report", "--html", "x.html"],
                     json_out=False)
    expect_cli_error("report onto an input", lambda: trnsim.report(["run.json"], html="run.json"),
                     ["report", "run.json", "--html", "run.json"], json_out=False)
    expect_cli_error("report of a missing file", lambda: trnsim.report(["missing.json"], html="x.html"),
                     ["report", "missing.json", "--html", "x.html"], json_out=False)
    expect_cli_error("report into a missing directory", lambda: trnsim.report(db="tiny.sqlite", html="no/x.html"),
                     ["report", "--db", "tiny.sqlite", "--html", "no/x.html"], json_out=False)


AXES_YAML = """name: qwen3-32b-trn2-run
command: run
scenario: qwen3-32b-trn2
axes:
  - key: mode
    values: [eager, compiled]
  - key: model.num_layers
    values: [2]
"""


def db_rows(path):
    """The points table: its columns and rows, results without their wall-clock fields."""
    con = sqlite3.connect(path)
    try:
        cur = con.execute("SELECT * FROM points ORDER BY idx")
        cols = [c[0] for c in cur.description]
        rows = [dict(zip(cols, r)) for r in cur.fetchall()]
    finally:
        con.close()
    for r in rows:
        r["result"] = no_wall(json.loads(r["result"]))
    return cols, rows


@contextlib.contextmanager
def stderr_to(path):
    """File descriptor 2 (which the call's child inherits) into `path`."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "w") as f:
        os.dup2(f.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def progress_lines(text):
    return [re.sub(r"elapsed \d+s  ETA \d+s", "elapsed Ns  ETA Ns", l) for l in text.splitlines()]


def test_sweep_axes(work):
    """sweep(axes=..., scenario=...) (the page's sweep-axes example wrote axes.sqlite) against
    the same sweep as a file through the CLI; its errors; progress lines."""
    os.chdir(work)
    t0 = time.time()
    axes = {"mode": ["eager", "compiled"], "model.num_layers": [2]}
    with open("axes.yaml", "w") as f:
        f.write(AXES_YAML)
    rc, out, err, _ = cli("sweep", "axes.yaml", "--db", "cli.sqlite", json_out=False)
    py, cl = db_rows("axes.sqlite"), db_rows("cli.sqlite")
    check("sweep(axes=..., scenario=...) has the rows of trnsim sweep axes.yaml (%.1f s)" % (time.time() - t0),
          rc == 0 and py == cl and len(py[1]) == 2, err, py[0], cl[0])
    again = trnsim.sweep(axes=axes, scenario="qwen3-32b-trn2", db="cli.sqlite")
    check("sweep(axes=...) reuses the CLI's rows", again["run"] == 0 and again["points"] == 2, again)
    try:
        trnsim.sweep("axes.yaml", db="x.sqlite", axes=axes)
        check("sweep(FILE, axes=...) raises trnsim.Error", False)
    except trnsim.Error as e:
        check("sweep(FILE, axes=...) raises trnsim.Error (%s)" % e, e.status == 2 and "not both" in str(e))
    bad = {"mode": ["eager"], "parallel.tpp": [4, 8]}
    with open("bad-axes.yaml", "w") as f:
        f.write(trnsim.sweep_yaml(bad, "qwen3-32b-trn2"))
    expect_cli_error("sweep(axes=...) with a bad key: the CLI's message on sweep_yaml()'s file",
                     lambda: trnsim.sweep(axes=bad, scenario="qwen3-32b-trn2", db="x.sqlite"),
                     ["sweep", "bad-axes.yaml", "--db", "x.sqlite"], json_out=False,
                     edit=lambda e: e.replace("bad-axes.yaml:", "sweep(axes=...):"))
    check("no database after a bad sweep", not os.path.exists("x.sqlite"))
    one = {"mode": ["eager"], "model.num_layers": [2], "parallel.tp": [4]}
    with stderr_to("quiet.err"):
        trnsim.sweep(axes=one, scenario="qwen3-32b-trn2", db="quiet.sqlite")
    with stderr_to("progress.err"):
        trnsim.sweep(axes=one, scenario="qwen3-32b-trn2", db="progress.sqlite", progress=True)
    quiet, shown = open("quiet.err").read(), open("progress.err").read()
    with open("one.yaml", "w") as f:
        f.write(trnsim.sweep_yaml(one, "qwen3-32b-trn2"))
    rc, _, err, _ = cli("sweep", "one.yaml", "--db", "one.sqlite", json_out=False)
    check("sweep(progress=True) prints the CLI's point lines, progress=None none without a terminal",
          quiet == "" and progress_lines(shown) == progress_lines(err) == ["[1/1] mode=eager num_layers=2 tp=4: ok  "
                                                                           "elapsed Ns  ETA Ns"], repr(quiet),
          repr(shown), repr(err))


def children():
    pids = []
    for tid in os.listdir("/proc/self/task"):
        with open("/proc/self/task/%s/children" % tid) as f:
            pids += [int(p) for p in f.read().split()]
    return pids


def signal_child(sig, to_self):
    """Sends `sig` to the call's child once it runs (and SIGINT to this process when
    `to_self`, as Ctrl-C reaches the whole process group)."""
    for _ in range(200):
        time.sleep(0.05)
        kids = children()
        if kids:
            time.sleep(0.2)
            if to_self:  # first, so that the flag is set when the child's end wakes the call
                os.kill(os.getpid(), signal.SIGINT)
            for pid in kids:
                os.kill(pid, sig)
            return


def run_signalled(sig, to_self):
    t = threading.Thread(target=signal_child, args=(sig, to_self))
    t.start()
    try:
        trnsim.run("qwen3-32b-trn2", mode="eager", quiet=True)
        outcome = "returned"
    except KeyboardInterrupt:
        outcome = "KeyboardInterrupt"
    except trnsim.Error as e:
        outcome = "Error %d: %s" % (e.status, e)
    t.join()
    return outcome


def test_interrupt():
    """Ctrl-C during a run raises KeyboardInterrupt; a child killed otherwise, trnsim.Error."""
    t0 = time.time()
    outcome = run_signalled(signal.SIGINT, True)
    check("SIGINT during run() raises KeyboardInterrupt (%s after %.1f s)" % (outcome, time.time() - t0),
          outcome == "KeyboardInterrupt")
    outcome = run_signalled(signal.SIGKILL, False)
    check("a killed child raises trnsim.Error (%s)" % outcome,
          outcome == "Error 3: the simulation process was killed by signal 9")


def test_pandas(blocks, ns):
    try:
        import pandas
    except ImportError:
        print("skip - pandas is not installed: docs/python.md pandas example")
        skipped.append("the pandas example")
        check("load_sweep() without pandas is a list", isinstance(trnsim.load_sweep("tiny.sqlite"), list))
        return
    run_block("pandas", blocks, ns)
    check("load_sweep() is a DataFrame", isinstance(trnsim.load_sweep("tiny.sqlite"), pandas.DataFrame))
    # Without pandas (an interpreter that cannot import it): a list, and one line saying why.
    p = subprocess.run([sys.executable, "-c", "import sys; sys.modules['pandas'] = None; import trnsim; "
                        "print(type(trnsim.load_sweep('tiny.sqlite')).__name__)"],
                       capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(trnsim.__file__)))))
    check("without pandas: a list and one line on stderr naming the interpreter (%r)" % p.stderr.strip(),
          p.stdout.strip() == "list" and len(p.stderr.strip().splitlines()) == 1
          and "pandas cannot be imported by " + sys.executable in p.stderr)
    rows = trnsim.load_sweep("tiny.sqlite", as_frame=False)
    check("load_sweep(as_frame=False) is a list of 4 rows", isinstance(rows, list) and len(rows) == 4)


def main():
    t0 = time.time()
    blocks = doc_blocks()
    check("docs/python.md has the marked examples", {"worked-example", "errors", "pandas", "sweep-axes", "report"} <= set(blocks)
          and all(code and out for code, out in blocks.values()), sorted(blocks))
    check("trnsim.executable is the trnsim under test", os.path.samefile(trnsim.executable, TRNSIM))
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        ns = {}
        run_block("worked-example", blocks, ns)
        run_block("sweep-axes", blocks, {})
        run_block("report", blocks, {})
        test_pandas(blocks, ns)
        run_block("errors", blocks, {})
        test_done_when(ns)
        test_commands(work)
        test_errors(work)
        test_report(work)
        test_sweep_axes(work)
        test_interrupt()
        os.chdir(SRC)
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
        check("no child process left", False, "child %d" % pid)
    except ChildProcessError:
        check("no child process left", True)
    print("%d failures, %d skipped, %.1f s" % (len(failures), len(skipped), time.time() - t0))
    # 77: ctest's SKIP_RETURN_CODE, so a test that could not check everything shows as skipped
    return 1 if failures else 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
