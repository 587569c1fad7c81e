#!/usr/bin/env python3
"""Bound and incumbent over time, bnsl beside GOBNILP, from a `bnsl bench` result folder.

    python3 scripts/bench/plot_bound_curves.py RESULTS INSTANCE [INSTANCE ...] [--out DIR]

For every run of INSTANCE (any method, any seed) it reads the run's kept standard output
(`RESULTS/runs/INSTANCE/METHOD/SEED/stdout.txt`): bnsl's `--json` answer gives the curve
in `bound_history`; an outside program's output gives it from SCIP's display lines
(columns found by their header: SCIP's `dualbound` and `primalbound`, GOBNILP's `Best
Network Possible` and `Best Network Found So Far`) and SCIP's closing statistics (the
last point). One SVG per instance, `DIR/INSTANCE.svg` (default: RESULTS),
with the dual bounds as solid lines and the incumbents dashed. No library needed.
"""

import json
import re
import sys
from pathlib import Path

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
WIDTH, HEIGHT, MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 760, 460, 90, 20, 62, 60


def scip_seconds(field):
    """A SCIP display time (`12.3s`, `195s`, `1.5m`, `2.0h`) in seconds."""
    field = field.strip().lstrip("*").strip()
    match = re.match(r"^[a-zA-Z]?\s*([0-9.]+)([smh])$", field)
    if not match:
        return None
    value, unit = float(match.group(1)), match.group(2)
    return value * {"s": 1, "m": 60, "h": 3600}[unit]


def number(field):
    try:
        value = float(field)
    except ValueError:
        return None
    return value if abs(value) < 1e19 else None


BOUND_HEADERS = ("dualbound", "best network possible")
INCUMBENT_HEADERS = ("primalbound", "best network found so far")


def column_of(header, names):
    """The index of the first header field that is one of `names` (lower case), or None."""
    return next((i for i, field in enumerate(header) if field.lower() in names), None)


def curve_from_scip_log(text):
    """(time, bound, incumbent) points from SCIP display lines, their columns found by
    the header line (SCIP's `dualbound | primalbound`, GOBNILP's `Best Network Found So
    Far | Best Network Possible`), and the closing statistics' point."""
    points = []
    columns = None
    for line in text.splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 5:
            continue
        if fields[0] == "time":
            columns = (column_of(fields, BOUND_HEADERS), column_of(fields, INCUMBENT_HEADERS))
            continue
        time = scip_seconds(fields[0][-8:])
        if time is None or columns is None or columns[0] is None:
            continue
        bound_at, incumbent_at = columns
        incumbent = number(fields[incumbent_at]) if incumbent_at is not None else None
        points.append((time, number(fields[bound_at]), incumbent))
    final = final_point_from_scip_statistics(text)
    if final is not None and (not points or final[0] > points[-1][0]):
        points.append(final)
    return points


def final_point_from_scip_statistics(text):
    """(time, bound, incumbent) at the end of the solve, from SCIP's closing statistics
    (`Solving Time (sec)`, `Primal Bound`, `Dual Bound`): the display lines stop at the
    last one SCIP printed, which at the default verbosity is its last new incumbent."""
    fields = {}
    for name, key in (("Solving Time (sec)", "time"), ("Primal Bound", "primal"), ("Dual Bound", "dual")):
        found = re.findall(r"^" + re.escape(name) + r"\s*:\s*(\S+)", text, re.MULTILINE)
        if found:
            fields[key] = number(found[-1])
    if fields.get("time") is None or fields.get("dual") is None:
        return None
    return (fields["time"], fields["dual"], fields.get("primal"))


def curve_from_bnsl_json(text):
    start = text.find("{")
    if start < 0:
        return []
    answer = json.loads(text[start:])
    return [(p["time_s"], p["bound"], p["incumbent"]) for p in answer.get("bound_history", [])]


def read_curves(results, instance):
    curves = {}
    for stdout in sorted((results / "runs" / instance).glob("*/*/stdout.txt")):
        method, seed = stdout.parent.parent.name, stdout.parent.name
        text = stdout.read_text(errors="replace")
        points = curve_from_bnsl_json(text) if text.lstrip().startswith("{") else curve_from_scip_log(text)
        if points:
            curves[f"{method} (seed {seed})"] = points
    return curves


def svg(instance, curves):
    times = [t for pts in curves.values() for t, _, _ in pts]
    values = [v for pts in curves.values() for _, b, s in pts for v in (b, s) if v is not None]
    if not times or not values:
        return None
    t_max = max(times) * 1.02 or 1.0
    # The interesting band: from the worst incumbent shown to the best bound; the first,
    # trivial bounds are clipped at the top.
    finals = [v for pts in curves.values() for v in (pts[-1][1], pts[-1][2]) if v is not None]
    low = min(finals)
    high = max(finals)
    span = max(high - low, 1e-9)
    low, high = low - 0.6 * span, high + 0.6 * span
    plot_w, plot_h = WIDTH - MARGIN_L - MARGIN_R, HEIGHT - MARGIN_T - MARGIN_B

    def x(t):
        return MARGIN_L + plot_w * t / t_max

    def y(v):
        v = min(max(v, low), high)
        return MARGIN_T + plot_h * (high - v) / (high - low)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="15">{instance}: '
        "dual bound (solid) and incumbent (dashed)</text>",
        f'<rect x="{MARGIN_L}" y="{MARGIN_T}" width="{plot_w}" height="{plot_h}" '
        'fill="none" stroke="black"/>',
    ]
    for k in range(6):
        t = t_max * k / 5
        v = low + (high - low) * k / 5
        out.append(f'<text x="{x(t):.1f}" y="{HEIGHT - MARGIN_B + 18}" text-anchor="middle">{t:.0f}</text>')
        out.append(f'<text x="{MARGIN_L - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
        out.append(f'<line x1="{MARGIN_L}" x2="{MARGIN_L + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#eee"/>')
    out.append(f'<text x="{MARGIN_L + plot_w / 2}" y="{HEIGHT - 15}" text-anchor="middle">seconds</text>')
    out.append(f'<text x="18" y="{MARGIN_T + plot_h / 2}" transform="rotate(-90 18 {MARGIN_T + plot_h / 2})" '
               'text-anchor="middle">score</text>')
    for index, (name, points) in enumerate(sorted(curves.items())):
        colour = COLOURS[index % len(COLOURS)]
        for which, dash in ((1, ""), (2, ' stroke-dasharray="6 4"')):
            steps = []
            last = None
            for t, *vals in points:
                v = vals[which - 1]
                if v is None:
                    continue
                if last is not None:
                    steps.append(f"{x(t):.1f},{y(last):.1f}")
                steps.append(f"{x(t):.1f},{y(v):.1f}")
                last = v
            if last is not None:
                steps.append(f"{x(t_max):.1f},{y(last):.1f}")
            if steps:
                out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{" ".join(steps)}"/>')
        # The legend: one row above the plot.
        left = MARGIN_L + 220 * index
        out.append(f'<line x1="{left}" x2="{left + 28}" y1="42" y2="42" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{left + 34}" y="46">{name}</text>')
    out.append("</svg>")
    return "\n".join(out)


def main(argv):
    args = list(argv)
    out_dir = None
    if "--out" in args:
        at = args.index("--out")
        out_dir = Path(args[at + 1])
        del args[at : at + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    results = Path(args[0])
    out_dir = out_dir or results
    out_dir.mkdir(parents=True, exist_ok=True)
    for instance in args[1:]:
        picture = svg(instance, read_curves(results, instance))
        if picture is None:
            print(f"{instance}: no curve in {results}/runs/{instance}", file=sys.stderr)
            continue
        path = out_dir / f"{instance}.svg"
        path.write_text(picture)
        print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
