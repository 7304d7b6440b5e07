"""What the rehearsal's report (report.py) and the fault matrix's (tests/faults/report.py)
share: reading a run's files, the replication pauses found in the lag sampler's lines, the
lag picture and the table of checks.

A sample (bedkit sample) is {"t": epoch ms, "src": [log end per partition], "pos": [one past
the highest source offset the target holds, per partition]}.  A partition "pauses" while the
source holds records the target has not and the target makes no progress on it.
"""
import json
import os

COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#e15759"]
# Event kinds drawn as vertical lines: colour, dash pattern, label.
MARKS = {"sigterm": ("#e15759", "4 3", "T"), "sigkill": ("#000", "", "K"), "resumed": ("#59a14f", "", "resume"),
         "flink-stopped": ("#4e79a7", "", "Flink stops")}


def load(d, name, default=None):
    p = os.path.join(d, name)
    if not os.path.exists(p):
        return default
    with open(p) as f:
        return json.load(f)


def lines(d, name):
    p = os.path.join(d, name)
    if not os.path.exists(p):
        return []
    with open(p) as f:
        return [json.loads(ln) for ln in f if ln.strip()]


def read_samples(d, name="samples.jsonl"):
    """(partition names, samples) from the sampler's file."""
    raw = lines(d, name)
    head = raw[0] if raw and "partitions" in raw[0] else {"partitions": []}
    return head["partitions"], [s for s in raw if "t" in s]


def secs(ms):
    return f"{ms / 1000:.1f} s"


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def stalls(samples, parts):
    """Per partition, the stretches [start, end] (epoch ms) with records to copy and no
    progress: start = the last sample that showed progress (or no lag)."""
    out = {p: [] for p in parts}
    for i, p in enumerate(parts):
        last_move = None
        prev = None
        start = None
        for s in samples:
            src, pos, t = s["src"][i], s["pos"][i], s["t"]
            moved = prev is None or pos > prev
            if moved or src <= pos:
                if start is not None:
                    out[p].append((start, t))
                    start = None
                last_move = t
            elif start is None:
                start = last_move
            prev = pos
        if start is not None and samples:
            out[p].append((start, samples[-1]["t"]))
    return out


def longest(stall_map, parts, t_from, t_to):
    """The longest stall on parts that began in [t_from, t_to]: (ms, partition) or (0, None)."""
    best = (0, None)
    for p in parts:
        for s, e in stall_map.get(p, []):
            if t_from <= s <= t_to and e - s > best[0]:
                best = (e - s, p)
    return best


def lag_svg(samples, parts, events, bands, title, marks=None):
    """The lag picture: total and per-partition lag over time, bands [(label, start, end)],
    and a vertical line for every event whose kind is in marks (default MARKS)."""
    marks = MARKS if marks is None else marks
    W, H, L, R, T, B = 1160, 460, 70, 180, 40, 60
    if not samples:
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="80"><text x="10" y="40">no samples</text></svg>'
    t0 = samples[0]["t"]
    t1 = samples[-1]["t"]
    tot = [sum(max(0, s - p) for s, p in zip(x["src"], x["pos"])) for x in samples]
    ymax = max(max(tot), 10)
    step = 10 ** max(0, len(str(int(ymax))) - 1)
    ymax = (int(ymax / step) + 1) * step

    def X(t):
        return L + (t - t0) / max(1, t1 - t0) * (W - L - R)

    def Y(v):
        return T + (1 - v / ymax) * (H - T - B)

    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{L}" y="18" font-size="14" font-weight="bold">{esc(title)}</text>']
    for k, (label, start, end) in enumerate(bands):  # phases as bands, labels on three staggered rows
        o.append(f'<rect x="{X(start):.1f}" y="{T}" width="{max(1, X(end) - X(start)):.1f}" '
                 f'height="{H - T - B}" fill="#000" fill-opacity="0.04"/>')
        o.append(f'<text x="{X(start) + 3:.1f}" y="{H - B - 6 - 13 * (k % 3)}" fill="#666">{esc(label)}</text>')
    for k in range(6):  # axes and grid
        v = ymax * k / 5
        o.append(f'<line x1="{L}" x2="{W - R}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" stroke="#ddd"/>')
        o.append(f'<text x="{L - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{int(v)}</text>')
    span = (t1 - t0) / 1000
    tick = next((x for x in (10, 30, 60, 120, 300, 600, 1800) if span / x <= 12), 3600)
    s = 0
    while s <= span:
        x = X(t0 + s * 1000)
        o.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{H - B}" y2="{H - B + 4}" stroke="#333"/>')
        o.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{s}</text>')
        s += tick
    o.append(f'<line x1="{L}" x2="{W - R}" y1="{H - B}" y2="{H - B}" stroke="#333"/>')
    o.append(f'<line x1="{L}" x2="{L}" y1="{T}" y2="{H - B}" stroke="#333"/>')
    o.append(f'<text x="{(L + W - R) / 2}" y="{H - 22}" text-anchor="middle">seconds since the producer started</text>')
    o.append(f'<text transform="translate(16 {(T + H - B) / 2}) rotate(-90)" text-anchor="middle">records behind the source</text>')
    for i, p in enumerate(parts):  # one thin line per partition
        pts = " ".join(f"{X(x['t']):.1f},{Y(max(0, x['src'][i] - x['pos'][i])):.1f}" for x in samples)
        o.append(f'<polyline fill="none" stroke="{COLORS[i % len(COLORS)]}" stroke-width="1" points="{pts}"/>')
    pts = " ".join(f"{X(x['t']):.1f},{Y(v):.1f}" for x, v in zip(samples, tot))
    o.append(f'<polyline fill="none" stroke="#222" stroke-width="2" points="{pts}"/>')
    for e in events:
        if e["kind"] in marks and t0 <= e["t"] <= t1:
            c, dash, label = marks[e["kind"]]
            x = X(e["t"])
            if "worker" in e:
                label += " " + e["worker"].rsplit("-", 1)[-1] + (" (leader)" if e.get("leader") else "")
            o.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{T}" y2="{H - B}" stroke="{c}" stroke-dasharray="{dash}"/>')
            o.append(f'<text transform="translate({x + 3:.1f} {T + 4}) rotate(90)" fill="{c}">{esc(label)}</text>')
    lx = W - R + 16
    o.append(f'<rect x="{lx - 6}" y="{T + 2}" width="152" height="{16 * (len(parts) + 1) + 6}" fill="white" stroke="#ccc"/>')
    o.append(f'<line x1="{lx}" x2="{lx + 20}" y1="{T + 14}" y2="{T + 14}" stroke="#222" stroke-width="2"/>'
             f'<text x="{lx + 26}" y="{T + 18}">all partitions</text>')
    for i, p in enumerate(parts):
        y = T + 30 + 16 * i
        o.append(f'<line x1="{lx}" x2="{lx + 20}" y1="{y}" y2="{y}" stroke="{COLORS[i % len(COLORS)]}"/>'
                 f'<text x="{lx + 26}" y="{y + 4}">{esc(p)}</text>')
    o.append("</svg>")
    return "\n".join(o)


def checks_table(checks):
    """The markdown table of a run's checks, one row each."""
    out = ["| check | result | detail |", "| --- | --- | --- |"]
    for c in checks:
        out.append(f"| {esc(c['name'])} | {'ok' if c['ok'] else '**FAIL**'} | {esc(c['detail'])} |")
    return out
