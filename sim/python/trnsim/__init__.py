"""trnsim from Python (docs/python.md).

Each function runs one trnsim command in a forked child process (SystemC elaborates once per
process) and returns its result as plain Python data: exactly the JSON document that the CLI
writes with --json, parsed. Bad input raises trnsim.Error with the one-line message the CLI
prints (file:line:col: key: what). Options are the CLI's long options with underscores; an
option left at None takes the CLI's default.

    import trnsim
    r = trnsim.run("qwen3-32b-trn2", set={"parallel.tp": 8, "parallel.fsdp": 8}, mode="eager")
    print(r["steady"]["tokens_per_s"])

Built by `make build` into build/python (use it with PYTHONPATH=build/python) for Debian's
/usr/bin/python3; any CPython 3.11 on the same machine can import it.
"""
import json as _json
import os as _os
import re as _re
import sqlite3 as _sqlite3
import sys as _sys
import urllib.parse as _urlparse

from . import _trnsim

__all__ = ["Error", "run", "startup", "bench_collective", "bench_matmul", "bench_hbm", "plan", "inference_compile",
           "sweep", "sweep_yaml", "load_sweep", "report", "executable"]

#: The trnsim executable that sweep() runs its points with (the one built beside the module).
executable = _trnsim.executable


class Error(Exception):
    """A trnsim command failed as the CLI would have.

    message: the line the CLI prints after "trnsim: error: " (for a configuration error
             "file:line:col: key.path: what was expected"); also str(error).
    status:  the CLI's exit status: 2 for bad input, 3 for an internal error.
    kind:    "error" (status 2) or "internal error" (status 3), as in the CLI's prefix.
    detail:  the lines the CLI prints after the message (the memory table of a run that does
             not fit in HBM), else "".
    """

    def __init__(self, message, status=2, detail=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.kind = "error" if status == 2 else "internal error"
        self.detail = detail

    def cli_line(self):
        """The line `trnsim` prints on stderr for this error (without the CLI's help hint)."""
        return "trnsim: %s: %s" % (self.kind, self.message)


def _set_value(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list, tuple)):
        return _json.dumps(v)  # JSON is YAML flow syntax
    return str(v)


def _sets(assignments):
    """--set assignments from a dict {key: value}, or from a list of "key=value" strings or
    (key, value) pairs; applied in order, as repeated --set options."""
    if assignments is None:
        return None
    items = assignments.items() if isinstance(assignments, dict) else assignments
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
        else:
            key, value = item
            out.append("%s=%s" % (key, _set_value(value)))
    return out


def _choice(option, value, words):
    if value is not None and value not in words:
        raise Error("--%s: %s not in {%s}" % (option, value, ",".join(words)))


def _text(value):
    return None if value is None else str(value)


def _int(value):
    return None if value is None else int(value)


def _progress(value):
    """progress=: None when stderr is a terminal (the child decides), else 1 or 0."""
    return None if value is None else int(bool(value))


def _call(command, **options):
    status, text, detail = command({k: v for k, v in options.items() if v is not None})
    text = text.decode("utf-8", "replace")
    if status != 0:
        raise Error(text, status, detail.decode("utf-8", "replace"))
    return _json.loads(text)


def run(scenario=None, set=None, mode=None, model=None, max_memory=None, allow_oom=False, all_ranks=False,
        all_microbatches=False, all_layers=False, exact=False, trace=None, trace_categories=None, trace_window=None,
        quiet=False, json=None, resolved=None, system=None, chips=None, intervals=True, progress=None):
    """`trnsim run SCENARIO`: one steady training step. Returns the --json document (dict):
    scenario, mode, system, model, precision, steady (step_time_s, tokens_per_s, mfu,
    breakdown..., and with intervals=True (the default) step_time_s_interval,
    tokens_per_s_interval, mfu_interval: {low, high, level, parts...}, docs/model.md 12),
    memory, roofline, sim. intervals=False skips them and their extra simulations.

    scenario: name (workloads/scenarios) or YAML path, or None with model and system (the layout
    is then chosen, docs/plan.md section 8; chips: of system, default one instance); set:
    {key: value} overrides (--set); mode: "eager" | "compiled" (default: the scenario's); model:
    zoo name, YAML, config.json or a Hugging Face model directory;
    max_memory: size with unit, e.g. "8GiB"; trace: Perfetto JSON file to write; json,
    resolved: files to write as the CLI's --json and --resolved; progress: the progress line of a
    long run on stderr, None when stderr is a terminal (as the CLI), True or False to force it
    (quiet=True also turns it off). Raises Error.
    """
    _choice("mode", mode, ("eager", "compiled"))
    return _call(_trnsim.run, scenario=_text(scenario) or "", system=_text(system), chips=_int(chips),
                 set=_sets(set), mode=mode, model=_text(model),
                 max_memory=_text(max_memory), allow_oom=bool(allow_oom), all_ranks=bool(all_ranks),
                 all_microbatches=bool(all_microbatches), all_layers=bool(all_layers), exact=bool(exact), trace=_text(trace),
                 trace_categories=_text(trace_categories), trace_window=_text(trace_window),
                 quiet=bool(quiet), json=_text(json), resolved=_text(resolved), intervals=bool(intervals),
                 progress=_progress(progress))


def startup(scenario=None, set=None, mode=None, cache=None, budget=None, price_per_hour=None, model=None,
            sensitivity=False, allow_oom=False, trace=None, json=None, resolved=None, system=None, chips=None,
            intervals=True):
    """`trnsim startup SCENARIO`: the first step in eager and compiled mode against the steady
    step. Returns the --json document (dict): scenario, model, verdict, tokens_per_step,
    eager, compiled, break_even, cost.

    mode: "eager" | "compiled" | "both" (default both; with one mode the document has only that
    mode's section and no break_even); cache: "cold" | "warm" (default: the scenario's); budget:
    per-graph compile budget, a time with unit ("600s"); price_per_hour: money per instance-hour
    (number or text); scenario None with model and system: as run(); intervals: as run() (first
    and steady steps, costs, and the break-even's steps_interval). Raises Error.
    """
    _choice("mode", mode, ("eager", "compiled", "both"))
    _choice("cache", cache, ("cold", "warm"))
    return _call(_trnsim.startup, scenario=_text(scenario) or "", system=_text(system), chips=_int(chips),
                 set=_sets(set), mode=mode or "both", cache=cache,
                 budget=_text(budget),
                 price_per_hour=_text(price_per_hour), model=_text(model), sensitivity=bool(sensitivity),
                 allow_oom=bool(allow_oom), trace=_text(trace), json=_text(json), resolved=_text(resolved),
                 intervals=bool(intervals))


def bench_collective(system=None, instances=None, ranks=None, sizes=None, op=None, dtype=None, algorithm=None,
                     lnc=None, exact=False, set=None, json=None, resolved=None):
    """`trnsim bench collective`: a collective over a range of sizes. Returns the --json
    document: a dict (schema_version, trnsim_version, inputs_hash, system, op, dtype, ranks, lnc)
    whose "rows" list has one dict per size (size_bytes, time_s, algbw_GBps, busbw_GBps,
    algorithm, op, ranks, transfers).

    Defaults as the CLI's: system "trn2.48xlarge", instances 0 (the system file's), ranks 0
    (all), sizes "1KiB,1MiB,64MiB,512MiB" (text or a list of sizes with units), op
    "all-reduce", dtype "fp32", algorithm "auto", lnc 0 (the chip's). Raises Error.
    """
    if sizes is not None and not isinstance(sizes, str):
        sizes = ",".join(str(s) for s in sizes)
    return _call(_trnsim.bench_collective, system=_text(system), instances=_int(instances), ranks=_int(ranks), sizes=sizes,
                 op=_text(op), dtype=_text(dtype), algorithm=_text(algorithm), lnc=_int(lnc), exact=bool(exact),
                 set=_sets(set), json=_text(json), resolved=_text(resolved))


def bench_matmul(chip=None, m=None, n=None, k=None, dtype=None, set=None, json=None, resolved=None):
    """`trnsim bench matmul`: one matmul (M x K by K x N) on one NeuronCore of the SystemC
    model, against the closed-form cost model. Returns the --json document: a dict
    (schema_version, trnsim_version, inputs_hash, chip, m, n, k, dtype, time_s, tflops,
    utilization, peak_tflops, cost_model_time_s, tensor_cycles, matmul_instructions, dma_bytes).

    Defaults as the CLI's: chip "trn2", m = n = k = 4096, dtype "bf16". Raises Error.
    """
    return _call(_trnsim.bench_matmul, chip=_text(chip), m=_int(m), n=_int(n), k=_int(k), dtype=_text(dtype),
                 set=_sets(set), json=_text(json), resolved=_text(resolved))


def bench_hbm(chip=None, cores=None, bytes=None, set=None, json=None, resolved=None):
    """`trnsim bench hbm`: each of `cores` NeuronCores streams `bytes` from HBM into SBUF at
    once. Returns the --json document: a dict (schema_version, trnsim_version, inputs_hash,
    chip, time_s, bandwidth_Bps, cores, bytes_per_core).

    Defaults as the CLI's: chip "trn2", cores 1, bytes "1GiB" (text with a unit). Raises Error.
    """
    return _call(_trnsim.bench_hbm, chip=_text(chip), cores=_int(cores), bytes=_text(bytes), set=_sets(set),
                 json=_text(json), resolved=_text(resolved))


def inference_compile(model, seq, tp=1, batch=1, buckets=False, own_compiler_args=False, sdk=None, system=None,
                      intervals=True, set=None, json=None, cte_buckets=None, tkg_buckets=None):
    """`trnsim inference-compile`: NxD Inference's model.compile() of `model` (zoo name, YAML,
    config.json, model directory, or an nxdi-... contributed model) at `tp`, `batch` and `seq`
    tokens (docs/startup.md 6.5). Returns the --json document: a dict (schema_version,
    trnsim_version, inputs_hash, model, tp, batch, seq_len, ..., graphs, tracing_s, priority_s,
    rest_s, workers, compile_s, interval).

    cte_buckets, tkg_buckets: explicit bucket lengths (lists of ints), as --cte-buckets and
    --tkg-buckets. Defaults as the CLI's: sdk the current release, system "trn1.32xlarge".
    Raises Error.
    """
    return _call(_trnsim.inference_compile, model=_text(model), seq=_int(seq), tp=_int(tp), batch=_int(batch),
                 buckets=bool(buckets), own_compiler_args=bool(own_compiler_args), sdk=_text(sdk),
                 system=_text(system), intervals=bool(intervals), set=_sets(set),
                 json=_text(json), cte_buckets=_ints(cte_buckets), tkg_buckets=_ints(tkg_buckets))


def _ints(values):
    """A list of whole numbers from a list, tuple, one number or comma-separated text (None
    stays None)."""
    if values is None:
        return None
    if isinstance(values, int):
        return [values]
    if isinstance(values, str):
        values = [v for v in values.split(",") if v.strip()]
    return [int(v) for v in values]


def _list(value):
    """A comma-separated option from a list, tuple or text (None stays None)."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def plan(model, tokens, systems, min_chips=None, max_chips=None, deadline=None, max_cost=None, hbm_headroom=None,
         prices=None, cache=None, global_batch=None, tokens_per_step=None, seq_len=None, jobs=1, db=None,
         rank_by=None, interruption_rate=None, checkpoint_write_bw=None, checkpoint_read_bw=None,
         checkpoint_interval=None, tp=None, pp=None, max_fsdp=None, microbatch_sequences=None, checkpointing=None,
         exhaustive=False, intervals=True, set=None, json=None, batch_tolerance=None, counts=None, progress=None,
         max_memory=None):
    """`trnsim plan`: the fastest (or cheapest, or fewest-chip) way to train `model` on `tokens`
    tokens on `systems` (docs/plan.md). Returns the --json document (dict): plan (the question
    and the command that asks it again), search (counts), candidates (best first: system, chips,
    layout, step_time_s, time_to_train_s, cost_usd, ..., why_lost) and tie.

    systems, global_batch, tokens_per_step, tp, pp, microbatch_sequences, checkpointing: a list
    or comma-separated text; prices: {system: USD per instance-hour}; deadline and checkpoint_*:
    times and bandwidths with units ("30d", "2.9 GB/s"); rank_by: "time" | "cost" | "chips" |
    "time@0.9" ...; intervals=False skips the 80 % intervals of the best three; set: {key: value}
    overrides of every point's scenario; json: a file to write as the CLI's --json;
    batch_tolerance: how far the plan may move a batch that has no layout ("15%", 0 for never);
    counts: "pow2" (powers of two of instances) or "all" (every count); max_memory: what a point's
    simulation may estimate to hold ("8GiB"; a point above it fails and is listed under search's
    failed_points, with whether it could have won).
    A status line on stderr says what the search is doing when stderr is a terminal
    (progress=None, as the CLI) or progress=True; progress=False never. Raises Error.
    """
    _choice("cache", cache, ("cold", "warm"))
    price_list = None if prices is None else [f"{k}={v}" for k, v in dict(prices).items()]
    return _call(_trnsim.plan, model=str(model), tokens=str(tokens), systems=_list(systems), min_chips=_int(min_chips),
                 max_chips=_int(max_chips), deadline=_text(deadline), max_cost=_text(max_cost),
                 hbm_headroom=_text(hbm_headroom), prices=price_list, cache=cache, global_batch=_list(global_batch),
                 tokens_per_step=_list(tokens_per_step), seq_len=_int(seq_len), jobs=int(jobs), db=_text(db),
                 rank_by=_text(rank_by), interruption_rate=_text(interruption_rate),
                 checkpoint_write_bw=_text(checkpoint_write_bw), checkpoint_read_bw=_text(checkpoint_read_bw),
                 checkpoint_interval=_text(checkpoint_interval), tp=_list(tp), pp=_list(pp), max_fsdp=_int(max_fsdp),
                 microbatch_sequences=_list(microbatch_sequences), checkpointing=_list(checkpointing),
                 exhaustive=bool(exhaustive), no_intervals=not intervals, set=_sets(set), json=_text(json),
                 batch_tolerance=_text(batch_tolerance), counts=_text(counts), progress=_progress(progress),
                 max_memory=_text(max_memory))


_PLAIN = _re.compile(r"[A-Za-z][A-Za-z0-9_.+/-]*")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


def _yaml_scalar(v):
    """One value of a sweep document: numbers and booleans as the CLI's --set takes them, text
    plain or JSON-quoted, a list or dict as quoted flow text (docs/sweeps.md)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (dict, list, tuple)):
        return _json.dumps(_json.dumps(v))
    v = str(v)
    return v if _PLAIN.fullmatch(v) and v.lower() not in _YAML_WORDS else _json.dumps(v)


def _yaml_axis(axis, where):
    """The lines of one axis of the sweep file's own form: {key: K, values: [...]} or
    {values: [{K: V, ...}, ...]}; other keys are written too (the sweep's check names them)."""
    if not isinstance(axis, dict):
        raise Error("%s: expected {key: K, values: [...]} or {values: [{K: V, ...}, ...]}, found %s"
                    % (where, type(axis).__name__))
    lines = []
    for k, v in axis.items():
        lead = "  - " if not lines else "    "
        if k == "values" and isinstance(v, (list, tuple)):
            lines.append(lead + "values:")
            for item in v:
                if isinstance(item, dict):
                    item = "{%s}" % ", ".join("%s: %s" % (_yaml_scalar(str(ik)), _yaml_scalar(iv))
                                              for ik, iv in item.items())
                else:
                    item = _yaml_scalar(item)
                lines.append("      - " + item)
        else:
            lines.append("%s%s: %s" % (lead, _yaml_scalar(str(k)), _yaml_scalar(v)))
    return lines or ["  - {}"]  # an empty axis stays in its place, for the sweep's check to name


def _axes_list(axes):
    """axes as a list of axes of the sweep file's form: {key: [values]} gives one axis per key."""
    if isinstance(axes, dict):
        out = []
        for key, values in axes.items():
            if not isinstance(values, (list, tuple)):
                raise Error("axes[%r]: expected a list of values, found %s" % (key, type(values).__name__))
            # a list or dict is the value of `key` (flow text), not a zipped axis's point
            out.append({"key": key, "values": [_json.dumps(v) if isinstance(v, (dict, list, tuple)) else v
                                               for v in values]})
        return out
    if isinstance(axes, (list, tuple)):
        return list(axes)
    raise Error("axes: expected {key: [values]} or a list of axes ({key: K, values: [...]}, "
                "{values: [{K: V, ...}]}), found %s" % type(axes).__name__)


def _default_name(scenario, command):
    base = _os.path.basename(str(scenario).rstrip("/"))
    stem, ext = _os.path.splitext(base)
    return "%s-%s" % (stem if ext in (".yaml", ".yml", ".json") else base, command)


def sweep_yaml(axes, scenario, command="run", name=None):
    """The sweep file that sweep(axes=..., scenario=...) runs, as text (docs/sweeps.md): save it
    to run the same sweep with `trnsim sweep FILE`. axes: {key: [values]} (one axis per key, in
    order) or a list of axes in the file's form, {"key": K, "values": [...]} or {"values":
    [{K: V, ...}, ...]} (a zipped axis); a value is any --set value (a list or dict becomes flow
    text). name: default "SCENARIO-COMMAND" (the scenario's file name without .yaml). Raises Error.
    """
    if command not in ("run", "startup"):
        raise Error("command: expected run or startup, found %r" % (command,))
    if scenario is None or str(scenario) == "":
        raise Error("scenario: expected the base scenario of every point (a name or a YAML path)")
    axes = _axes_list(axes)
    if not axes:
        raise Error("axes: expected at least one axis")
    name = _default_name(scenario, command) if name is None else str(name)
    lines = ["name: " + _yaml_scalar(name), "command: " + command, "scenario: " + _yaml_scalar(str(scenario)), "axes:"]
    for i, axis in enumerate(axes):
        lines += _yaml_axis(axis, "axes[%d]" % i)
    return "\n".join(lines) + "\n"


def sweep(sweep=None, db=None, jobs=1, shard=None, axes=None, scenario=None, command=None, name=None, progress=None):
    """`trnsim sweep SWEEP --db DB -j JOBS [--shard K/N]`: runs the points of the sweep not yet
    in the database (each as a `trnsim run` or `startup` process of `trnsim.executable`).
    A stored row is reused only when its inputs are unchanged (docs/sweeps.md). Returns {sweep,
    points, run, stale, shard, shards, db, done, infeasible, failed}; read the rows with
    load_sweep(db).

    The sweep is a file (sweep=) or, without one, axes= and scenario= (with command= "run" or
    "startup" and name=, as sweep_yaml() writes them); messages about it then name the lines of
    that document as "sweep(axes=...):LINE:COL". A line per finished point on stderr when
    stderr is a terminal (progress=None) or progress=True; progress=False never. Raises Error.
    """
    if db is None:
        raise TypeError("sweep() missing the argument db (the SQLite database of the results)")
    if sweep is not None and (axes is not None or scenario is not None or command is not None or name is not None):
        raise Error("sweep: give a sweep file or axes= with scenario= (command=, name=), not both")
    if sweep is None and axes is None:
        raise Error("sweep: expected a sweep file, or axes= and scenario=")
    options = dict(db=str(db), jobs=int(jobs), shard=_text(shard), executable=executable,
                   progress=_progress(progress))
    if sweep is None:
        options.update(sweep="sweep(axes=...)", text=sweep_yaml(axes, scenario, command or "run", name))
    else:
        options.update(sweep=str(sweep))
    return _call(_trnsim.sweep, **options)


def report(results=None, *, html, db=None):
    """`trnsim report [RESULTS...] [--db DB] --html FILE`: one self-contained HTML page with plots
    of run, startup and sweep results, of plans, or of one trace (docs/tutorial.md, Reports).
    results: a result file of `--json` (run, startup, plan) or `--trace`, or a list of them; db:
    a sweep database; html: the page to write (keyword only: never taken for an input).
    Returns {html, source, plans, traces, steady_step_results, first_step_results,
    points_without_result, validation_rows, sweep_rows}: what the page shows. Raises Error.
    """
    if results is None:
        results = []
    elif isinstance(results, (str, bytes, _os.PathLike)):
        results = [_os.fsdecode(results)]
    else:
        results = [_os.fsdecode(r) for r in results]
    return _call(_trnsim.report, results=results, db=_text(db), html=_os.fsdecode(html))


def _scalar(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _flatten(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, prefix + "." + k if prefix else k, out)
    else:
        out[prefix] = value


def _sweep_row(idx, rid, name, sets, status, result, reason):
    row = {"id": rid, "idx": idx, "sweep": name, "sets": sets, "status": status, "reason": reason}
    for assignment in sets.split(";") if sets else []:
        key, _, value = assignment.partition("=")
        row["set." + key] = _scalar(value)
    if result:
        _flatten(_json.loads(result), "", row)
    return row


def load_sweep(db, as_frame=None):
    """The rows of a sweep database, ordered by sweep, idx and id. Each row has id, idx, sweep,
    sets, status (ok | infeasible | error) and reason, one "set.KEY" column per --set of the
    point (numbers as numbers), and the point's result JSON flattened to dotted keys
    ("steady.tokens_per_s"; lists are kept as lists).

    Returns a pandas DataFrame when pandas is importable (as_frame=None) or asked for
    (as_frame=True), else (or with as_frame=False) a list of dicts; with as_frame=None and no
    pandas it says so in one line on stderr. Raises Error for a file that is not a sweep database.
    """
    uri = "file:%s?mode=ro" % _urlparse.quote(str(db))
    try:
        con = _sqlite3.connect(uri, uri=True)
        try:
            rows = con.execute("SELECT idx, id, sweep, sets, status, result, reason FROM points "
                               "ORDER BY sweep, idx, id").fetchall()
        finally:
            con.close()
    except _sqlite3.Error as e:
        raise Error("%s: not a trnsim sweep database (%s)" % (db, e)) from None
    rows = [_sweep_row(*r) for r in rows]
    if as_frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        _sys.stderr.write("trnsim.load_sweep: pandas cannot be imported by %s, so the rows come as a list of "
                          "dicts (Debian's /usr/bin/python3: apt install python3-pandas)\n" % _sys.executable)
        return rows
    return pandas.DataFrame(rows)
